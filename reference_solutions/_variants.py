"""A student's variant: their own board, drawn from (secret, assignment, student id), and
what their bundle holds for it (the expected answer, the self-check, the starter program
and the handout).

The same three inputs always give the same board, and without the secret the id says
nothing about it (``_draws.variant_seed``). A student's board is never one of the boards the
test plan grades everyone on: the public board and the edge boards are published (with
their answers, through ``check``), and a hidden board's answer would be in the bundle.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from autograder import (
    Assignment,
    UsageError,
    Variant,
    load_assignment,
    render,
    render_handout,
    render_program,
)

from ._answer_key import hidden_problems, own_board_case
from ._draws import StableDraws, board_draws, variant_seed
from ._params import params_to_json
from ._problem import Problem, make_problem, solve_problem
from ._solver import Solution

__all__ = ["student_variant", "variant_board", "variant_material"]


def _game(problem: Problem) -> str:
    """What makes two boards the same game: the board (its name aside) and every parameter,
    the ones a board file sets (the trap lane's circle and edition) included."""
    board = {k: v for k, v in problem.board.to_json().items() if k != "name"}
    return json.dumps([board, params_to_json(problem.params)], sort_keys=True)


# By assignment name: the assignment the games were worked out for (loading an edited TOML
# gives a new one) and the games of its test plan. Worked out once per process, not once
# per student.
_TESTED: dict[str, tuple[Assignment, frozenset[str]]] = {}


def _tested_games(name: str) -> frozenset[str]:
    """The games of every board the test plan grades all students on: the public board,
    the edge boards and the hidden boards."""
    assignment = load_assignment(name)
    kept = _TESTED.get(name)
    if kept is None or kept[0] is not assignment:
        public = make_problem(name)
        family = assignment.board_family
        boards = [family.edge_board(edge, public.board) for edge in assignment.tests.edge_boards]
        games = {_game(public), *(_game(make_problem(name, board)) for board in boards)}
        games |= {_game(problem) for _, problem, _ in hidden_problems(name)}
        kept = (assignment, frozenset(games))
        _TESTED[name] = kept
    return kept[1]


class _Solvable:
    """Accepts a board when the assignment's own rules can finish the game on it and it is
    none of the test plan's boards, and keeps the last solution, so the board chosen is not
    solved a second time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.tested = _tested_games(name)
        self.solved: tuple[Problem, Solution] | None = None

    def __call__(self, board: dict[str, Any]) -> bool:
        try:
            problem = make_problem(self.name, board)
            if _game(problem) in self.tested:
                return False
            self.solved = (problem, solve_problem(problem))
        except UsageError:
            return False
        return True


def _draw(name: str, secret: str, student: str) -> tuple[dict[str, Any], _Solvable]:
    assignment = load_assignment(name)
    rng = StableDraws(variant_seed(secret, name, student))
    accept = _Solvable(name)
    board = board_draws(assignment).variant(assignment, rng, accept)
    return board, accept


def variant_board(name: str, secret: str, student: str) -> dict[str, Any]:
    """Student ``student``'s board for assignment ``name``, as board file data, drawn as the
    assignment's ``[variants]`` says: it depends on these three alone, never on who else is
    on the roster, and is none of the test plan's boards."""
    return _draw(name, secret, student)[0]


def student_variant(name: str, secret: str, student: str) -> Variant:
    """Student ``student``'s board and everything their bundle needs for it."""
    board, accept = _draw(name, secret, student)
    return variant_material(name, board, solved=accept.solved)


def variant_material(
    name: str,
    board: Mapping[str, Any],
    sample_lines: int = 8,
    *,
    solved: tuple[Problem, Solution] | None = None,
) -> Variant:
    """The expected answer, self-check, starter program and handout for ``board``."""
    if solved is None:
        problem = make_problem(name, dict(board))
        solved = (problem, solve_problem(problem))
    problem = solved[0]
    case = own_board_case(name, board, solved=solved)
    answer = case.expected.answer
    assert case.self_check is not None
    params = params_to_json(problem.params)
    sample = "\n".join(render(answer).splitlines()[:sample_lines])
    starter = render_program(problem.assignment, problem.board, params, variant=True)
    handout = render_handout(
        problem.assignment,
        problem.board,
        params,
        self_check=case.self_check,
        sample_output=sample,
        prints_actions=answer.actions is not None,
        variant=True,
    )
    return Variant(dict(board), case.expected, case.self_check, starter, handout)
