"""``autograder variants``: a board, starter, handout and local check per student of a
roster, and the manifest that grading reads."""

from __future__ import annotations

import argparse
import os
import sys

from reference_solutions import ReferenceAnswers

from .. import make_variants
from ._options import add_course_option, path_name

HELP = "a board, starter, handout and local check per student of a roster"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    parser.add_argument(
        "--roster", required=True, metavar="CSV", type=path_name, help="one row per student"
    )
    parser.add_argument(
        "--out", required=True, metavar="DIR", type=path_name, help="where bundles go"
    )
    parser.add_argument(
        "--secret", metavar="KEY", help="boards derive from it (default: $AUTOGRADER_SECRET, "
        "else DIR/secret.txt, made on first use)",
    )  # fmt: skip
    parser.add_argument(
        "-j", "--workers", type=int, default=os.cpu_count() or 1, metavar="N",
        help="processes solving the students' boards (default: one per core)",
    )  # fmt: skip
    add_course_option(parser)


def run(args: argparse.Namespace) -> int:
    report = make_variants(
        args.assignment,
        args.roster,
        args.out,
        ReferenceAnswers(),
        secret=args.secret,
        workers=max(1, args.workers),
    )
    sys.stdout.write(report.summary())
    for warning in report.warnings():
        print(f"autograder: warning: {warning}", file=sys.stderr)
    return 0 if not report.problems else 1
