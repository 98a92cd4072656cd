"""The project's answers against a plain second implementation of the rules."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder import STANDARD_JUMPS
from reference_solutions import make_problem, solve_problem
from tests import independent
from tests.strategies import jump_boards

STANDARD = {"goal": 100, "jumps": [list(j) for j in STANDARD_JUMPS]}


def ours(name, board, settings_):
    problem = make_problem(name, board, settings_)
    solution = solve_problem(problem)
    values = problem.game.values_json(solution)
    return (values if name == "token-boosted" else [values]), problem, solution


@pytest.mark.parametrize(
    ("name", "kwargs", "settings_"),
    [
        ("classic", {}, []),
        ("boosted", {}, []),
        ("token-boosted", {"tokens": 3}, ["tokens=3"]),
        ("aimed", {}, []),
        ("efron", {"overshoot": "win"}, []),
    ],
)
def test_standard_board_matches_the_plain_implementation(name, kwargs, settings_):
    expected = independent.jump_values(name, 100, STANDARD_JUMPS, **kwargs)
    got, _, _ = ours(name, STANDARD, settings_)
    assert np.max(np.abs(np.array(got) - np.array(expected))) < 1e-8


@settings(max_examples=40)
@given(
    name=st.sampled_from(["classic", "boosted", "token-boosted", "aimed"]),
    board=jump_boards(max_goal=30, tens=False),
    faces=st.integers(2, 6),
    overshoot=st.sampled_from(["stay", "win", "bounce", "land:0"]),
)
def test_random_boards_match_the_plain_implementation(name, board, faces, overshoot):
    from autograder import GoalUnreachable

    settings_ = [f"faces={faces}", f"overshoot={overshoot}"]
    tokens = 2 if name == "token-boosted" else 0
    if tokens:
        settings_.append(f"tokens={tokens}")
    try:
        got, _, _ = ours(name, board, settings_)
    except GoalUnreachable:
        return
    expected = independent.jump_values(
        name, board["goal"], board["jumps"], faces=faces, overshoot=overshoot, tokens=tokens
    )
    assert np.max(np.abs(np.array(got) - np.array(expected))) < 1e-7


def mean_within(turns, expected, z=3.2905):
    """The 99.9% normal interval of the sample mean contains ``expected``."""
    turns = np.asarray(turns, dtype=float)
    half = z * turns.std(ddof=1) / np.sqrt(turns.size)
    assert abs(turns.mean() - expected) <= half, (turns.mean(), expected, half)


@pytest.mark.parametrize("name", ["classic", "boosted", "token-boosted", "aimed", "efron"])
def test_playing_the_optimal_policy_by_the_rules_takes_the_computed_turns(name):
    _, problem, solution = ours(name, STANDARD, [])
    game = problem.game
    policy = game.policy_json(solution)
    overshoot = str(problem.params.overshoot)

    def choose(square, tokens, spin):
        if name == "boosted":
            return policy[square][spin - 1]
        if name == "token-boosted":
            return policy[tokens][square][spin - 1]
        if name == "aimed":
            return int(policy[square])
        return policy[square]

    rng = random.Random(2026)
    tokens = getattr(problem.params, "tokens", 0)
    turns = [
        independent.play_jump_game(
            name, 100, STANDARD_JUMPS, choose, rng, overshoot=overshoot, tokens=tokens
        )
        for _ in range(6000)
    ]
    mean_within(turns, solution.start_value)


LAYOUTS = [
    [0, 1, 0, 3, 0, 2, 0, 0, 4, 0, 0, 3, 0, 1, 0],
    [0, 0, 2, 0, 4, 4, 0, 3, 0, 1, 2, 0, 4, 0, 0],
    [0, 3, 3, 3, 0, 0, 1, 0, 0, 4, 0, 4, 2, 2, 0],
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("edition", ["2020", "2021", "2022"])
@pytest.mark.parametrize(
    ("circle", "circle_overshoot"), [(False, "wrap"), (True, "wrap"), (True, "restart")]
)
def test_trap_lane_played_by_the_rules_takes_the_computed_turns(
    layout, edition, circle, circle_overshoot
):
    problem = make_problem(
        "trap-lane",
        {"layout": layout, "circle": circle, "edition": edition},
        [f"circle_overshoot={circle_overshoot}"] if circle else [],
    )
    solution = solve_problem(problem)
    dice = problem.game.policy_json(solution)
    # A seed of its own per case, the same in every run (``hash`` of a string is not).
    rng = random.Random(repr((layout, edition, circle, circle_overshoot)))
    turns = [
        independent.trap_lane_turns(
            layout, circle, edition, lambda q: dice[q - 1], rng, circle_overshoot
        )
        for _ in range(6000)
    ]
    mean_within(turns, solution.start_value)
