"""``autograder prairielearn``: the assignment as a PrairieLearn question, a board per
variant, graded by an external grader."""

from __future__ import annotations

import argparse
import sys

from reference_solutions import ReferenceAnswers

from .. import HIDDEN_RESULTS, PRAIRIELEARN_IMAGE, UsageError, build_prairielearn
from .._prairielearn import DEFAULT_COUNT, MAX_COUNT
from ._options import add_course_option, add_isolation_option, add_timeout_option, path_name
from .gradescope import grading_package

HELP = "the PrairieLearn question: a board per variant, an external grader"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    parser.add_argument(
        "--out", required=True, metavar="DIR", type=path_name,
        help="the question's folder (in the course's questions/)",
    )  # fmt: skip
    # (read as text: a bad count is one line naming it, as every other bad value is)
    parser.add_argument(
        "--count", default=str(DEFAULT_COUNT), metavar="N",
        help=f"boards in the question's pool, 1 to {MAX_COUNT:,} (default: {DEFAULT_COUNT})",
    )  # fmt: skip
    parser.add_argument(
        "--secret", metavar="KEY",
        help="the boards and the question's uuid derive from it (default: $AUTOGRADER_SECRET, "
        "else a new one)",
    )  # fmt: skip
    add_timeout_option(parser)
    add_isolation_option(parser)
    parser.add_argument(
        "--image", default=PRAIRIELEARN_IMAGE, metavar="IMAGE",
        help=f"the grading image (default: {PRAIRIELEARN_IMAGE}, which has what the grader "
        "needs)",
    )  # fmt: skip
    parser.add_argument(
        "--hidden-results", default="total", choices=HIDDEN_RESULTS,
        help="what the results show of the boards students do not see: their total (default), "
        "or each with a hidden board's feedback (for exams graded after they close)",
    )  # fmt: skip
    parser.add_argument(
        "--force", action="store_true", help="write the question into a folder that holds files"
    )
    add_course_option(parser)


def run(args: argparse.Namespace) -> int:
    try:
        count = int(args.count)
    except ValueError:
        wanted = f"expected an integer in 1..{MAX_COUNT:,}"
        raise UsageError(f"--count {args.count}", wanted) from None
    export = build_prairielearn(
        args.assignment, args.out, answers=ReferenceAnswers(), packages=[grading_package()],
        count=count, secret=args.secret, timeout=args.timeout, isolation=args.isolation,
        image=args.image, hidden_results=args.hidden_results, force=args.force,
    )  # fmt: skip
    for warning in export.warnings:
        print(f"autograder: warning: {warning}", file=sys.stderr)
    sys.stdout.write(export.summary())
    return 0
