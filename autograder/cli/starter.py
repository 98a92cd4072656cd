"""``autograder starter``: the starter program, for the public board or another."""

from __future__ import annotations

import argparse

from reference_solutions import make_problem, params_to_json, solve_problem

from .. import output_format, render_program
from .._errors import UsageError
from .._templates import has_java_starter, program_notebook
from ._options import add_material_arguments, refuse_to_replace, write_output

HELP = "the starter program for the public board or --board"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_material_arguments(parser)
    parser.add_argument(
        "--language",
        choices=("python", "java"),
        default="python",
        help="the starter in this language (java: the jump assignments)",
    )
    parser.add_argument(
        "--notebook",
        action="store_true",
        help="write the (Python) starter as a Jupyter notebook (.ipynb, nbformat 4)",
    )


def run(args: argparse.Namespace) -> int:
    # Through the rules, so that --board and --set are checked as for solving.
    problem = make_problem(args.assignment, args.board, args.settings)
    refuse_to_replace(args.output, args.force, "a starter (over a filled-in program?)")
    # The starter prints the assignment's table: a board whose answer cannot be printed in
    # it (a goal that is no multiple of 10) is refused here as solve and handout refuse it.
    answer = problem.game.answer(solve_problem(problem))
    try:
        output_format(answer.output).render(answer)
    except UsageError as err:
        raise err.located(problem.where) from None
    language = getattr(args, "language", "python")
    if language == "java" and not has_java_starter(problem.assignment):
        raise UsageError("--language java", f"{args.assignment} has no Java starter")
    text = render_program(problem.assignment, problem.board, params_to_json(problem.params),
                          language=language)  # fmt: skip
    if getattr(args, "notebook", False):
        if language != "python":
            raise UsageError("--notebook", "a notebook holds the Python starter only")
        text = program_notebook(problem.assignment, text)
    write_output(text, args.output)
    return 0
