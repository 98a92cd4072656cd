"""``autograder check``: what a student runs, the public board with full feedback."""

from __future__ import annotations

import argparse
import sys

from reference_solutions import ReferenceAnswers

from .. import check_submission, check_text
from ._options import add_isolation_option

HELP = "what a student runs: the public tests, with feedback; exit 0 when all pass"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    parser.add_argument("submission", help="the program (a .py file) or a folder holding it")
    parser.add_argument(
        "--all", action="store_true", dest="every_wrong", help="list every wrong entry"
    )
    add_isolation_option(parser)


def run(args: argparse.Namespace) -> int:
    result = check_submission(
        args.assignment,
        args.submission,
        ReferenceAnswers(),
        args.isolation,
        every_wrong=args.every_wrong,
    )
    sys.stdout.write(check_text(result))
    return 0 if result.passed else 1
