"""The answer key: an assignment's test cases with the answers they expect.

The public board carries the self-check; hidden boards are drawn from the seed in the
assignment's ``[tests]``, and edge boards come by name from the board family. Every
expected number comes from the reference solver.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from autograder import Answer, Expected, TestCase, UsageError, describe_board, output_format

from ._catalogue import accepted_actions, in_place_trajectory, sweep_trajectory, variations
from ._draws import StableDraws, board_draws
from ._problem import Problem, make_problem, solve_problem
from ._solver import Solution

__all__ = [
    "answer_key",
    "expected_answer",
    "hidden_boards",
    "hidden_problems",
    "own_board_case",
    "self_check_text",
]


def expected_answer(problem: Problem, solution: Solution) -> Expected:
    """The answer, with every action whose expected cost is within the assignment's policy
    tolerance of the best accepted on each printed square, the other readings the rules
    accept, the entries not graded, the named mistakes that can be told apart on this board,
    and the start value's courses under value iteration (for "stopped too early"): sweeps
    from the last sweep's values, and sweeps in place, up and down the board."""
    game = problem.game
    answer = game.answer(solution)
    plain = Expected(answer, accepted_actions(problem, solution, answer), ungraded=game.ungraded())
    rules = problem.rules
    readings, mistakes = variations(problem, solution, plain, rules.READINGS, rules.MISTAKES)
    tolerance = problem.assignment.value_tolerance
    sweeps = sweep_trajectory(game, solution, tolerance)
    up = in_place_trajectory(game, solution, tolerance, len(sweeps))
    down = in_place_trajectory(game, solution, tolerance, len(sweeps), descending=True)
    return dataclasses.replace(plain, readings=readings, mistakes=mistakes, sweeps=sweeps,
                               sweeps_up=up, sweeps_down=down)  # fmt: skip


def self_check_text(answer: Answer) -> str:
    """The first number a correct program prints, as a handout quotes it (its format says
    which number and with how many decimals)."""
    return output_format(answer.output).self_check_text(answer)


def hidden_problems(name: str) -> list[tuple[dict[str, Any], Problem, Solution]]:
    """Each hidden board with its problem and solution, so the key solves each board once."""
    public = make_problem(name)
    plan = public.assignment.tests
    draws = board_draws(public.assignment)
    drawn = []
    for k in range(plan.hidden_boards):
        rng = StableDraws(f"{name}/{plan.seed}/{k}")
        while True:
            data = draws.hidden(rng)
            problem = make_problem(name, data)
            try:
                solution = solve_problem(problem)
            except UsageError:  # the goal cannot be reached under these rules: draw again
                continue
            drawn.append((data, problem, solution))
            break
    return drawn


def hidden_boards(name: str) -> list[dict[str, Any]]:
    """The hidden random boards of assignment ``name``: the same every time for one seed."""
    return [data for data, _, _ in hidden_problems(name)]


def _case(
    case: str,
    title: str,
    data: Mapping[str, Any],
    points: float,
    visible: bool,
    problem: Problem,
    solution: Solution | None = None,
    self_check: str | None = None,
    quoted: bool = False,
) -> TestCase:
    """A test case; ``quoted``: with the reference's own first line as its self-check, as
    the handout of an assignment with no published one quotes it."""
    solution = solution or solve_problem(problem)
    expected = expected_answer(problem, solution)
    if quoted and self_check is None:
        self_check = self_check_text(expected.answer)
    return TestCase(case, title, dict(data), points, visible, expected, self_check)


def answer_key(name: str, *, hidden: bool = True) -> list[TestCase]:
    """The test cases of assignment ``name``: the public board first, then the edge boards
    and the random hidden boards. Without ``hidden``, only the visible ones: the public
    board and the public edge boards (what ``check`` runs)."""
    public = make_problem(name)
    assignment = public.assignment
    plan = assignment.tests
    cases = [
        _case(
            "public",
            "public board",
            public.board_file(),
            plan.public_points,
            True,
            public,
            self_check=assignment.self_check,
            quoted=True,
        )
    ]
    family = assignment.board_family
    # A student sees the titles of hidden boards too, so they say nothing of the board: an
    # edge board's name is its layout, and a description gives the goal and the jumps. (The
    # case's name, which only staff see, still says which board it is.)
    unnamed = 0
    for edge in plan.edge_boards:
        visible = edge in plan.public_edge_boards
        if not (hidden or visible):
            continue
        data = family.edge_board(edge, public.board)
        problem = make_problem(name, data)
        if visible:
            title = f"public board: {edge}"
        else:
            unnamed += 1
            title = f"edge board {unnamed}"
        cases.append(_case(edge, title, data, plan.edge_points, visible, problem))
    if not hidden:
        return cases
    for k, (data, problem, solution) in enumerate(hidden_problems(name), 1):
        title = f"hidden board {k}"
        cases.append(
            _case(f"hidden-{k}", title, data, plan.hidden_points, False, problem, solution)
        )
    return cases


def own_board_case(
    name: str,
    board: Mapping[str, Any],
    *,
    solved: tuple[Problem, Solution] | None = None,
) -> TestCase:
    """The visible test on a student's own board (worth the public board's points),
    carrying that board's self-check. ``solved``: the board's problem and solution, when
    they are already at hand."""
    problem, solution = solved or _solve(name, board)
    expected = expected_answer(problem, solution)
    points = problem.assignment.tests.public_points
    title = f"your board ({describe_board(board, problem.assignment.family)})"
    return TestCase(
        "your-board", title, dict(board), points, True, expected, self_check_text(expected.answer)
    )


def _solve(name: str, board: Mapping[str, Any]) -> tuple[Problem, Solution]:
    problem = make_problem(name, dict(board))
    return problem, solve_problem(problem)
