"""The example submissions get the scores they were designed to get.

Each wrong classic example makes one typical mistake. Its expected score is worked out here
from the rules alone: ``tests/independent.py`` computes, on every test board, both the
right values and the values the mistake leads to, and an entry earns its share of the
board's points when the mistaken value, printed with two decimals, is within the tolerance.
"""

from __future__ import annotations

import pytest

from autograder import load_assignment
from tests import independent

TOLERANCE = load_assignment("classic").value_tolerance


def classic_values(board: dict, **rules) -> list[float]:
    jumps = [tuple(j) for j in board["jumps"]]
    return independent.jump_values("classic", board["goal"], jumps, **rules)[0]


def stopped_early(board: dict, sweeps: int = 25) -> list[float]:
    """What 25 sweeps of value iteration from zeros give (the example's loop, from the
    rules)."""
    goal, table = board["goal"], independent.goes_to(board["goal"], board["jumps"])
    values = [0.0] * (goal + 1)
    for _ in range(sweeps):
        values = [
            1 + sum(values[independent.land(goal, table, "stay", i, s)] for s in range(1, 7)) / 6
            for i in range(goal)
        ] + [0.0]
    return values


MISTAKES = {
    "wrong_overshoot_wins": lambda board: classic_values(board, overshoot="win"),
    "wrong_spinner_1_to_5": lambda board: classic_values(board, faces=5),
    "wrong_chutes_ignored": lambda board: classic_values(
        {**board, "jumps": [j for j in board["jumps"] if j[1] > j[0]]}
    ),
    "wrong_stopped_early": stopped_early,
    "wrong_goal_counted": lambda board: [v + 1 for v in classic_values(board)],
}


def readings(board: dict, right: list[float]) -> list[list[float]]:
    """The right values under each reading the rules accept on jump squares: (a) as
    computed, (b) a move that leaves the piece in place takes the jump, (c) the jump's
    destination's value."""
    goal, table = board["goal"], independent.goes_to(board["goal"], board["jumps"])
    starts = [a for a, _ in board["jumps"]]
    b, c = list(right), list(right)
    for j in starts:
        # Under (b) no move from j leaves the piece on j, so one backup of (a)'s values.
        ends = [j + s if j + s <= goal else j for s in range(1, 7)]
        b[j] = 1 + sum(right[table[e]] for e in ends) / 6
        c[j] = right[table[j]]
    return [right, b, c]


def designed_score(mistake, cases) -> float:
    total = 0.0
    for case in cases:
        wrong = mistake(case.board)
        goal = case.board["goal"]
        # The start value (square 0) and squares 1..goal-1 are graded; a jump square's value
        # is right under any reading, square by square.
        each = readings(case.board, classic_values(case.board))
        hits = sum(
            any(abs(round(wrong[i], 2) - right[i]) <= TOLERANCE + 1e-9 for right in each)
            for i in range(goal)
        )
        total += case.points * hits / goal
    return total


@pytest.mark.parametrize("student", sorted(MISTAKES))
def test_wrong_classic_example_gets_its_designed_score(student, graded):
    run = graded("classic")
    result = run.results[student]
    expected = designed_score(MISTAKES[student], run.cases)
    assert result.score == pytest.approx(expected, abs=1e-3)
    assert result.score < 0.25 * result.max_score  # each mistake costs most of the marks


def test_hard_coded_answers_pass_the_public_board_and_fail_the_hidden_ones(graded):
    result = graded("classic").results["wrong_hardcoded"]
    public, *others = result.tests
    assert public.status == "passed" and public.score == public.max_score
    for test in others:
        assert test.score < 0.1 * test.max_score, test.name
    assert {t.status for t in others if t.name.startswith("hidden")} <= {"unreadable", "wrong"}


def test_folder_submission_with_its_own_module_is_graded(graded):
    result = graded("classic").results["team_folder"]
    assert result.score == result.max_score


def test_endless_example_stops_after_two_timeouts(graded):
    tests = graded("classic").results["endless"].tests
    assert [t.status for t in tests[:2]] == ["timeout", "timeout"]
    assert all(t.status == "not-run" for t in tests[2:])
