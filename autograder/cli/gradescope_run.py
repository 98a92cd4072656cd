"""``autograder gradescope-run``: what ``run_autograder`` calls inside Gradescope, for one
submission."""

from __future__ import annotations

import argparse

from reference_solutions import ReferenceAnswers

from .. import run_gradescope

HELP = "inside Gradescope: grade one submission (run_autograder calls it)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default="/autograder", help="default: /autograder")


def run(args: argparse.Namespace) -> int:
    run_gradescope(ReferenceAnswers(), args.root)
    return 0
