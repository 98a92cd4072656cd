"""Invariants that hold on every board (docs/rules.md), as property tests."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder import GoalUnreachable
from reference_solutions import make_problem, solve_problem
from tests.strategies import jump_boards

boards = jump_boards(max_goal=60)
faces = st.integers(2, 6)


def values(name, board, *settings_):
    problem = make_problem(name, board, list(settings_))
    try:
        solution = solve_problem(problem)
    except GoalUnreachable:
        return None
    return np.array(problem.game.values_json(solution))


@settings(max_examples=120)
@given(board=boards, faces=faces)
def test_boosted_never_worse_than_classic(board, faces):
    classic = values("classic", board, f"faces={faces}")
    boosted = values("boosted", board, f"faces={faces}")
    if classic is None:  # boosting can rescue a board classic cannot finish, never the reverse
        return
    assert boosted is not None
    assert np.all(boosted <= classic + 1e-9)


@settings(max_examples=80)
@given(board=boards, faces=faces, tokens=st.integers(0, 4))
def test_one_more_token_never_costs_more(board, faces, tokens):
    per_tokens = values("token-boosted", board, f"faces={faces}", f"tokens={tokens + 1}")
    if per_tokens is None:
        return
    # Row k holds the values with k tokens left.
    assert np.all(np.diff(per_tokens, axis=0) <= 1e-9)


@settings(max_examples=80)
@given(board=boards, faces=faces)
def test_zero_tokens_is_classic(board, faces):
    classic = values("classic", board, f"faces={faces}")
    tokens = values("token-boosted", board, f"faces={faces}", "tokens=0")
    if classic is None:
        assert tokens is None
        return
    assert np.max(np.abs(tokens[0] - classic)) <= 1e-9


@settings(max_examples=80)
@given(board=boards, faces=faces, tokens=st.integers(1, 3))
def test_tokens_sit_between_classic_and_boosted(board, faces, tokens):
    classic = values("classic", board, f"faces={faces}")
    boosted = values("boosted", board, f"faces={faces}")
    limited = values("token-boosted", board, f"faces={faces}", f"tokens={tokens}")
    if classic is None or boosted is None or limited is None:
        return
    assert np.all(boosted <= limited[-1] + 1e-9)
    assert np.all(limited[-1] <= classic + 1e-9)


@settings(max_examples=100)
@given(board=boards, faces=faces, name=st.sampled_from(["classic", "boosted", "aimed"]))
def test_overshoot_win_never_worse_than_stay(board, faces, name):
    stay = values(name, board, f"faces={faces}", "overshoot=stay")
    win = values(name, board, f"faces={faces}", "overshoot=win")
    if stay is None:
        return
    assert win is not None
    assert np.all(win <= stay + 1e-9)


@settings(max_examples=40)
@given(board=jump_boards(max_goal=40), reward=st.sampled_from([1.0, 50.0, 250.0]))
def test_discounted_values_scale_with_the_reward(board, reward):
    base = values("aimed", board, "objective=discounted", "reward=1")
    scaled = values("aimed", board, "objective=discounted", f"reward={reward}")
    assert np.allclose(scaled, reward * base, rtol=1e-9, atol=1e-9)
