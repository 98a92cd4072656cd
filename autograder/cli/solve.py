"""``autograder solve``: the reference answer in the print format, or as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from reference_solutions import make_problem, solution_json, solve_problem

from .. import UsageError, render
from ._options import add_board_options

HELP = "the reference answer, printed or as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    add_board_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")
    parser.add_argument(
        "--method",
        choices=("policy_iteration", "value_iteration"),
        default="policy_iteration",
        help="solver (default: policy_iteration)",
    )


def solve_text(
    name: str,
    board: str | None = None,
    settings: Sequence[str] = (),
    as_json: bool = False,
    method: str = "policy_iteration",
) -> str:
    problem = make_problem(name, board, settings)
    solution = solve_problem(problem, method)
    if as_json:
        return json.dumps(solution_json(problem, solution)) + "\n"
    try:
        return render(problem.game.answer(solution))
    except UsageError as err:
        raise err.located(problem.where) from None


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(solve_text(args.assignment, args.board, args.settings, args.json, args.method))
    return 0
