"""The linear solve behind exact policy evaluation (reference_solutions/_linear.py), checked
against plain dense solves of matrices written straight from the rules, and against
SuperLU with its own ordering and pivoting."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from autograder import JumpBoard
from reference_solutions import _dense, _linear, policy_iteration
from reference_solutions._model import build_model
from reference_solutions.rules import boosted, classic, token_boosted

# The numpy path's linear solves (the compiled kernel would solve these models first).
pytestmark = pytest.mark.usefixtures("numpy_path")


def _board(goal: int, n_jumps: int, longest: int | None, seed: int) -> JumpBoard:
    """Random jumps: within ``longest`` squares, or anywhere (``None``)."""
    rng = np.random.default_rng(seed)
    starts = rng.choice(np.arange(1, goal), size=n_jumps, replace=False)
    if longest is None:
        ends = rng.integers(1, goal + 1, size=n_jumps)
    else:
        ends = starts + rng.integers(-longest, longest + 1, size=n_jumps)
    bad = np.isin(ends, starts) | (ends == starts) | (ends < 1) | (ends > goal)
    return JumpBoard(goal, tuple(zip(starts[~bad].tolist(), ends[~bad].tolist(), strict=True)))


def _classic_by_hand(board: JumpBoard, faces: int = 6) -> np.ndarray:
    """Expected turns from each square, from the rules: a dense system written square by
    square (move the spin, stay if past the goal, then follow a jump), solved densely."""
    goal = board.goal
    table = list(range(goal + 1))
    for start, end in board.jumps:
        table[start] = end
    A = np.eye(goal + 1)
    b = np.zeros(goal + 1)
    for i in range(goal):
        b[i] = 1.0
        for move in range(1, faces + 1):
            target = i + move
            nxt = i if target > goal else table[target]
            A[i, nxt] -= 1.0 / faces
    return np.linalg.solve(A, b)


@pytest.fixture(autouse=True)
def sparse_path(monkeypatch):
    """These boards of 1,000 to 2,000 squares go the sparse path, whose solve this file
    checks, not the small models' (``_dense.MID_STATES``)."""
    monkeypatch.setattr(_dense, "MID_STATES", 0)


@pytest.fixture
def calls(monkeypatch):
    """How often each path of the solve ran: the iteration, and the fallback."""
    seen = {"bicgstab": 0, "direct": 0}
    bicgstab, direct = spla.bicgstab, _linear._direct

    def counted_bicgstab(*args, **kwargs):
        seen["bicgstab"] += 1
        return bicgstab(*args, **kwargs)

    def counted_direct(*args, **kwargs):
        seen["direct"] += 1
        return direct(*args, **kwargs)

    monkeypatch.setattr(spla, "bicgstab", counted_bicgstab)
    monkeypatch.setattr(_linear, "_direct", counted_direct)
    return seen


def test_jumps_anywhere_are_iterated_on_and_agree_with_the_rules(calls, monkeypatch):
    monkeypatch.setattr(_linear, "FACTOR_ALL", 1000)  # as past FACTOR_ALL unknowns
    board = _board(1500, 150, None, seed=3)
    solution = policy_iteration(classic.build(board, classic.Params()).model)
    expected = _classic_by_hand(board)
    np.testing.assert_allclose(solution.values, expected, rtol=1e-9)
    assert calls == {"bicgstab": 1, "direct": 0}


def test_jumps_anywhere_on_a_smaller_board_are_factorised_whole(calls):
    board = _board(1500, 150, None, seed=3)
    assert _linear.FACTOR_ALL > 1500
    solution = policy_iteration(classic.build(board, classic.Params()).model)
    np.testing.assert_allclose(solution.values, _classic_by_hand(board), rtol=1e-9)
    assert calls == {"bicgstab": 0, "direct": 0}


def test_board_like_jumps_are_factorised_directly(calls):
    board = _board(2000, 200, 60, seed=4)
    solution = policy_iteration(classic.build(board, classic.Params()).model)
    np.testing.assert_allclose(solution.values, _classic_by_hand(board), rtol=1e-9)
    assert calls == {"bicgstab": 0, "direct": 0}


def test_an_iteration_that_does_not_converge_falls_back_to_a_direct_solve(calls, monkeypatch):
    monkeypatch.setattr(_linear, "MAX_ITERATIONS", 1)
    monkeypatch.setattr(_linear, "FACTOR_ALL", 1000)
    board = _board(1500, 150, None, seed=5)
    solution = policy_iteration(classic.build(board, classic.Params()).model)
    np.testing.assert_allclose(solution.values, _classic_by_hand(board), rtol=1e-9)
    assert calls["direct"] == 1


@pytest.mark.parametrize(
    ("rules", "params"),
    [(boosted, boosted.Params()), (token_boosted, token_boosted.Params(tokens=3))],
    ids=["boosted", "token-boosted"],
)
@pytest.mark.parametrize("longest", [60, None], ids=["board-like", "anywhere"])
@pytest.mark.parametrize("factor_all", [0, 10**9], ids=["split", "whole"])
def test_games_with_choices_agree_with_superlus_own_ordering(
    rules, params, longest, factor_all, monkeypatch
):
    monkeypatch.setattr(_linear, "FACTOR_ALL", factor_all)
    board = _board(1200, 120, longest, seed=6)
    model = rules.build(board, params).model
    ours = policy_iteration(model)

    def plain(P, rhs, discount=1.0, guess=None):
        n = P.shape[0]
        A = sp.csc_array(sp.eye_array(n, format="csc") - discount * sp.csc_array(P))
        return spla.spsolve(A, rhs)

    monkeypatch.setattr("reference_solutions._solver.solve_chain", plain)
    theirs = policy_iteration(rules.build(board, params).model)
    np.testing.assert_allclose(ours.values, theirs.values, rtol=1e-9)
    assert np.array_equal(ours.optimal, theirs.optimal)


@pytest.mark.parametrize("factor_all", [0, 10**9], ids=["split", "whole"])
@pytest.mark.parametrize("n", [50, 900])
def test_a_discounted_chain_with_far_entries_matches_a_dense_solve(n, factor_all, monkeypatch):
    monkeypatch.setattr(_linear, "FACTOR_ALL", factor_all)
    rng = np.random.default_rng(n)
    P = sp.random_array((n, n), density=6 / n, rng=rng, format="csr")
    rows = np.asarray(P.sum(axis=1)).ravel()
    P = sp.csr_array(sp.diags_array(1.0 / np.maximum(rows, 1e-12)) @ P)  # rows: distributions
    rhs = rng.random(n)
    x = _linear.solve_chain(P, rhs, 0.95)
    expected = np.linalg.solve(np.eye(n) - 0.95 * P.toarray(), rhs)
    np.testing.assert_allclose(x, expected, rtol=1e-9)


def _merge_case(width: int):
    """One pair whose ``width`` outcomes repeat states, some at the same cost, some not."""
    states = np.arange(width) % 3
    costs = np.where(np.arange(width) % 2 == 0, 1.0, 2.0)
    return build_model(
        n_states=3,
        pair_state=[0, 1],
        pair_action=[0, 0],
        outcome_pair=np.concatenate((np.zeros(width, int), [1])),
        outcome_state=np.concatenate((states, [2])),
        outcome_prob=np.concatenate((np.full(width, 1.0 / width), [1.0])),
        outcome_cost=np.concatenate((costs, [0.0])),
        action_names=("go",),
    )


@pytest.mark.parametrize("width", [6, 16, 17, 40])
def test_repeated_outcomes_merge_by_state_and_cost_whatever_the_width(width):
    """Narrow pairs are merged by shifted comparisons, wide ones by sorting: same model."""
    model = _merge_case(width)
    P = model.transitions
    row = slice(P.indptr[0], P.indptr[1])
    merged = {
        (int(s), float(c)): float(p)
        for s, c, p in zip(P.indices[row], model.outcome_cost[row], P.data[row], strict=True)
    }
    expected: dict[tuple[int, float], float] = {}
    for k in range(width):
        key = (k % 3, 1.0 if k % 2 == 0 else 2.0)
        expected[key] = expected.get(key, 0.0) + 1.0 / width
    assert merged.keys() == expected.keys()
    assert len(merged) == P.indptr[1] - P.indptr[0]  # each (state, cost) once
    for key, p in expected.items():
        assert merged[key] == pytest.approx(p, rel=1e-12)
    assert model.pair_cost[0] == pytest.approx(sum(c * p for (_, c), p in expected.items()))
