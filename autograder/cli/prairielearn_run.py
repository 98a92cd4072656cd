"""``autograder prairielearn-run``: what the question's entrypoint (``tests/grade``) calls
inside PrairieLearn's grading container, for one submission."""

from __future__ import annotations

import argparse

from reference_solutions import ReferenceAnswers

from .. import run_prairielearn

HELP = "inside PrairieLearn: grade one submission (the question's tests/grade calls it)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default="/grade", help="default: /grade")


def run(args: argparse.Namespace) -> int:
    run_prairielearn(ReferenceAnswers(), args.root)
    return 0
