"""``autograder solve``: the reference answer in the print format or as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ._errors import UsageError
from ._formats import render


def solve_text(
    name: str,
    board: str | None = None,
    settings: Sequence[str] = (),
    as_json: bool = False,
    method: str = "policy_iteration",
) -> str:
    from reference_solutions import make_problem, solution_json, solve_problem

    problem = make_problem(name, board, settings)
    solution = solve_problem(problem, method)
    if as_json:
        return json.dumps(solution_json(problem, solution)) + "\n"
    try:
        return render(problem.game.answer(solution))
    except UsageError as err:
        raise err.located(problem.board_source) from None
