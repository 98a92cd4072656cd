"""The answer key: an assignment's test cases with the answers they expect.

The public board carries the self-check; hidden boards are drawn from the seed in the
assignment's ``[tests]``, and edge boards come by name. Every expected number comes from
the reference solver.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from autograder._answer import Answer
from autograder._boards import describe_board
from autograder._cases import Expected, TestCase
from autograder._errors import UsageError
from autograder._generate import edge_board, random_jump_board, random_trap_board

from ._problem import Problem, make_problem, solve_problem
from ._solver import Solution

__all__ = ["answer_key", "expected_answer", "hidden_boards", "self_check_text"]

HIDDEN_GOALS = range(50, 151, 10)


def expected_answer(problem: Problem, solution: Solution) -> Expected:
    """The answer, with every action whose expected cost is within the assignment's policy
    tolerance of the best accepted on each printed square."""
    game = problem.game
    answer = game.answer(solution)
    if answer.actions is None:
        return Expected(answer)
    model = solution.model
    tolerance = problem.assignment.policy_tolerance
    accepted = []
    for state in range(len(answer.actions)):
        if model.terminal[state]:
            accepted.append(frozenset({"-"}))
            continue
        pairs = model.pairs_of(state)
        q = solution.q_values[pairs]
        best = q.max() if model.maximize else q.min()
        names = model.action_names
        accepted.append(
            frozenset(
                names[model.action_of_pair[p]]
                for p, value in zip(pairs, q, strict=True)
                if abs(value - best) <= tolerance + 1e-12
            )
        )
    return Expected(answer, tuple(accepted))


def self_check_text(answer: Answer) -> str:
    """The first number a correct program prints, as a handout quotes it: two decimals, or
    the four of the trap lane's table (its header has only two)."""
    decimals = 4 if answer.output == "trap-lane" else 2
    return f"{answer.start_value:.{decimals}f}"


def _draw(name: str, family: str, rng: random.Random) -> dict[str, Any]:
    if family == "trap":
        return random_trap_board(rng)
    goal = rng.choice(HIDDEN_GOALS)
    chutes = rng.randint(goal // 15, goal // 9)
    ladders = rng.randint(goal // 15, goal // 9)
    return random_jump_board(rng, goal, chutes, ladders).to_json()


def _hidden(name: str) -> list[tuple[dict[str, Any], Problem, Solution]]:
    """Each hidden board with its problem and solution, so the key solves each board once."""
    public = make_problem(name)
    plan = public.assignment.tests
    drawn = []
    for k in range(plan.hidden_boards):
        rng = random.Random(f"{name}/{plan.seed}/{k}")
        while True:
            data = _draw(name, public.rules.FAMILY, rng)
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
    return [data for data, _, _ in _hidden(name)]


def _case(
    case: str,
    title: str,
    board: Mapping[str, Any] | None,
    points: float,
    visible: bool,
    problem: Problem,
    solution: Solution | None = None,
) -> TestCase:
    solution = solution or solve_problem(problem)
    data = dict(board) if board is not None else _public_board(problem)
    self_check = problem.assignment.self_check if board is None else None
    expected = expected_answer(problem, solution)
    return TestCase(case, title, data, points, visible, expected, self_check)


def _public_board(problem: Problem) -> dict[str, Any]:
    data = problem.board.to_json()
    if problem.rules.FAMILY == "trap":
        data["circle"] = bool(problem.params.circle)
    return data


def answer_key(name: str, *, hidden: bool = True) -> list[TestCase]:
    """The test cases of assignment ``name``: the public board first, then (with ``hidden``)
    the edge boards and the random hidden boards."""
    public = make_problem(name)
    plan = public.assignment.tests
    cases = [_case("public", "public board", None, plan.public_points, True, public)]
    if not hidden:
        return cases
    goal = getattr(public.board, "goal", 100)
    for edge in plan.edge_boards:
        data = edge_board(edge, goal)
        problem = make_problem(name, data)
        cases.append(_case(edge, f"edge board: {edge}", data, plan.edge_points, False, problem))
    for k, (data, problem, solution) in enumerate(_hidden(name), 1):
        title = f"hidden board {k} ({describe_board(data)})"
        cases.append(
            _case(f"hidden-{k}", title, data, plan.hidden_points, False, problem, solution)
        )
    return cases
