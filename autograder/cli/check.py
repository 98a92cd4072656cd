"""``autograder check``: what a student runs, the public board with full feedback."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reference_solutions import ReferenceAnswers

from .. import UsageError, check_html, check_submission, check_text, write_atomic
from .._check import fit_to_width, terminal_width
from ._options import add_course_option, add_isolation_option, path_name

HELP = "what a student runs: the public tests, with feedback; exit 0 when all pass"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    parser.add_argument(
        "submission", type=path_name, help="the program (a .py file) or a folder holding it"
    )
    parser.add_argument(
        "--all", action="store_true", dest="every_wrong", help="list every wrong entry"
    )
    parser.add_argument(
        "--html", metavar="FILE", help="also write the feedback as a page (the board drawn)"
    )
    add_isolation_option(parser)
    add_course_option(parser)


def run(args: argparse.Namespace) -> int:
    answers = ReferenceAnswers()
    result = check_submission(
        args.assignment,
        args.submission,
        answers,
        args.isolation,
        every_wrong=args.every_wrong,
    )
    # Lines broken to the terminal's width, continuations indented; whole in a file or pipe.
    sys.stdout.write(fit_to_width(check_text(result), terminal_width(sys.stdout)))
    if args.html:
        page = Path(args.html)
        try:
            write_atomic(page, check_html(result, answers))
        except OSError as err:
            raise UsageError(str(page), f"cannot write the report: {err.strerror or err}") from None
        print(f"report written to {page}")
    return 0 if result.passed else 1
