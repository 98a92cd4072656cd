"""``autograder starter``: the starter program, for the public board or another."""

from __future__ import annotations

import argparse

from reference_solutions import make_problem, params_to_json

from .. import render_program
from ._options import add_material_arguments, write_output

HELP = "the starter program for the public board or --board"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_material_arguments(parser)


def run(args: argparse.Namespace) -> int:
    # Through the rules, so that --board and --set are checked as for solving.
    problem = make_problem(args.assignment, args.board, args.settings)
    text = render_program(problem.assignment, problem.board, params_to_json(problem.params))
    write_output(text, args.output)
    return 0
