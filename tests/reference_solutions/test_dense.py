"""Small models solved on dense arrays (``reference_solutions._dense``) against the sparse
path, and the proof of properness their first solve gives."""

from __future__ import annotations

from collections import deque
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder import GoalUnreachable
from reference_solutions import (
    _dense,
    _solver,
    build_model,
    evaluate_policy,
    goal_distance,
    make_problem,
)
from reference_solutions import policy_iteration as solve
from tests.strategies import JUMP_GAMES, OVERSHOOTS, jump_boards, jump_game_settings, trap_boards


def sparse_solve(model):
    with (
        mock.patch.object(_dense, "MAX_STATES", 0),
        mock.patch.object(_dense, "FOLD_MAX_STATES", 0),
    ):
        assert not _dense.fits(model)
        return solve(model)


# A jump game on a random board of up to 40 squares, as :func:`jump_model` takes it.
JUMP_GAME_CASES = {
    "name": st.sampled_from(JUMP_GAMES),
    "board": jump_boards(max_goal=40, tens=False),
    "faces": st.integers(1, 6),
    "overshoot": OVERSHOOTS,
}


def jump_model(name, board, faces, overshoot):
    """A jump game's model on ``board`` (token-boosted with one token, to stay small)."""
    settings_ = jump_game_settings(name, faces, overshoot)
    if name == "token-boosted":
        settings_.append("tokens=1")
    return make_problem(name, board, settings_).game.model


def same_solution(model) -> None:
    """The dense path's values, Q-values and optimal pairs are the sparse path's; each
    path's policy is optimal by the other's Q-values (equal options may be picked apart by
    rounding)."""
    assert _dense.fits(model)
    try:
        sparse = sparse_solve(model)
    except GoalUnreachable as error:
        with pytest.raises(GoalUnreachable) as raised:
            solve(model)
        assert str(raised.value) == str(error)
        return
    dense = solve(model)
    scale = np.maximum(1.0, np.abs(sparse.values))
    assert np.all(np.abs(dense.values - sparse.values) <= 1e-10 * scale)
    assert np.all(
        np.abs(dense.q_values - sparse.q_values) <= 1e-10 * np.maximum(1.0, np.abs(sparse.q_values))
    )
    assert np.array_equal(dense.values[model.terminal], model.terminal_value[model.terminal])
    assert np.array_equal(dense.optimal, sparse.optimal)
    assert np.array_equal(dense.policy < 0, model.terminal)
    live = ~model.terminal
    assert np.all(sparse.optimal[dense.policy[live]])
    assert np.all(dense.optimal[sparse.policy[live]])
    assert dense.residual < 1e-9


@pytest.mark.parametrize("name", ["classic", "boosted", "aimed", "efron", "trap-lane"])
def test_public_boards_agree_with_the_sparse_path(name):
    same_solution(make_problem(name).game.model)


def test_boosteds_public_board_is_solved_folded():
    # 700 live states: 100 squares to spin on and 600 choices after a spin, each between
    # sure moves; the choices fold out of every solve.
    model = make_problem("boosted").game.model
    dense = _dense.DenseModel.of(model)
    assert dense is not None and dense.fold is not None
    assert (dense.fold.kept.size, dense.fold.moved.size) == (100, 600)
    with mock.patch.object(_dense.DenseModel, "_system", side_effect=AssertionError):
        same_solution(model)  # never the whole 700 x 700 system


@settings(max_examples=60, deadline=None)
@given(**{**JUMP_GAME_CASES, "name": st.sampled_from(["boosted", "token-boosted"])})
def test_random_boards_solved_folded_agree_with_the_sparse_path(name, board, faces, overshoot):
    model = jump_model(name, board, faces, overshoot)
    # A limit below the states (but not below the squares) makes the dense path fold.
    with mock.patch.object(_dense, "MAX_STATES", board["goal"] + 1):
        if _dense.fits(model) and _dense.DenseModel.of(model) is not None:
            assert _dense.DenseModel.of(model).fold is not None
            same_solution(model)


@settings(max_examples=40, deadline=None)
@given(board=trap_boards, circle_overshoot=st.sampled_from(["wrap", "restart"]))
def test_random_trap_layouts_agree_with_the_sparse_path(board, circle_overshoot):
    same_solution(
        make_problem("trap-lane", board, [f"circle_overshoot={circle_overshoot}"]).game.model
    )


@settings(max_examples=25, deadline=None)
@given(board=jump_boards(max_goal=40), discount=st.sampled_from([0.5, 0.9, 0.99]))
def test_discounted_models_agree_with_the_sparse_path(board, discount):
    settings_ = ["objective=discounted", f"discount={discount}"]
    same_solution(make_problem("aimed", board, settings_).game.model)


def test_a_hopeless_board_is_reported_as_the_sparse_path_reports_it():
    # A one-square spinner can never pass the chute on 9: squares 0..8 never finish.
    same_solution(make_problem("classic", {"goal": 10, "jumps": [[9, 1]]}, ["faces=1"]).game.model)


def reaches_an_end(model, policy) -> np.ndarray:
    """Per state, whether following ``policy`` (a pair per state, ``-1`` on terminal
    states) can reach a terminal state: a plain breadth-first search backwards."""
    P = model.transitions
    before: list[list[int]] = [[] for _ in range(model.n_states)]
    for s in np.flatnonzero(~model.terminal):
        p = int(policy[s])
        for t in P.indices[P.indptr[p] : P.indptr[p + 1]]:
            before[int(t)].append(int(s))
    seen = set(int(t) for t in np.flatnonzero(model.terminal))
    queue = deque(seen)
    while queue:
        for s in before[queue.popleft()]:
            if s not in seen:
                seen.add(s)
                queue.append(s)
    return np.isin(np.arange(model.n_states), sorted(seen))


@st.composite
def chains(draw, priced: bool = False):
    """A model of up to 8 live states and one or two terminal ones, each live state with
    one or two pairs of up to 3 outcomes anywhere (so some policies are improper). Each
    move costs 1; ``priced``: each outcome its own cost (at least 0.1, so that a policy
    that never ends costs without bound), each terminal state its own value, and perhaps
    a discount."""
    live = draw(st.integers(1, 8))
    n = live + draw(st.integers(1, 2))
    pair_state, outcome_pair, outcome_state, outcome_prob = [], [], [], []
    for s in range(live):
        for _ in range(draw(st.integers(1, 2))):
            targets = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
            weights = draw(
                st.lists(st.integers(1, 9), min_size=len(targets), max_size=len(targets))
            )
            for t, w in zip(targets, weights, strict=True):
                outcome_pair.append(len(pair_state))
                outcome_state.append(t)
                outcome_prob.append(w / sum(weights))
            pair_state.append(s)
    cost, terminal_value, discount = 1.0, None, 1.0
    if priced:
        money = st.floats(0.1, 10.0, allow_nan=False)
        cost = np.array([draw(money) for _ in outcome_pair])
        terminal_value = np.array([draw(st.floats(-5.0, 5.0)) for _ in range(n)])
        discount = draw(st.sampled_from([1.0, 1.0, 0.9, 0.5]))
    return build_model(
        n_states=n,
        pair_state=np.array(pair_state),
        pair_action=np.arange(len(pair_state)) - np.searchsorted(pair_state, pair_state),
        outcome_pair=np.array(outcome_pair),
        outcome_state=np.array(outcome_state),
        outcome_prob=np.array(outcome_prob),
        outcome_cost=cost,
        terminal_value=terminal_value,
        action_names=("first", "second"),
        discount=discount,
    )


@settings(max_examples=300, deadline=None)
@given(model=chains(priced=True))
def test_random_priced_chains_agree_with_the_sparse_path(model):
    same_solution(model)


@settings(max_examples=300, deadline=None)
@given(model=chains(priced=True), limit=st.integers(1, 4))
def test_random_chains_solved_folded_agree_with_the_sparse_path(model, limit):
    # Up to 8 live states: with a limit of 1 to 4 every chain whose sure moves fold to so
    # few unknowns goes the folded way (costs, terminal values and discounts drawn).
    with mock.patch.object(_dense, "MAX_STATES", limit):
        if _dense.fits(model) and _dense.DenseModel.of(model) is not None:
            same_solution(model)


def test_a_fold_is_refused_where_a_sure_move_leads_to_another_folded_state():
    # 0 -> 1 -> 2 (the goal), each a sure move: folding 0 and 1 would take two steps.
    model = build_model(
        n_states=3,
        pair_state=np.array([0, 1]),
        pair_action=np.array([0, 0]),
        outcome_pair=np.array([0, 1]),
        outcome_state=np.array([1, 2]),
        outcome_prob=np.array([1.0, 1.0]),
        outcome_cost=1.0,
        action_names=("go",),
    )
    with mock.patch.object(_dense, "MAX_STATES", 1):
        assert _dense.fits(model)
        assert _dense.DenseModel.of(model) is None
        assert solve(model).values.tolist() == [2.0, 1.0, 0.0]


@settings(max_examples=120, deadline=None)
@given(**JUMP_GAME_CASES)
def test_random_boards_agree_with_the_sparse_path(name, board, faces, overshoot):
    model = jump_model(name, board, faces, overshoot)
    if _dense.fits(model):
        same_solution(model)


@settings(max_examples=300, deadline=None)
@given(model=chains(), data=st.data())
def test_a_proof_of_properness_is_never_wrong_and_never_missed_on_short_games(model, data):
    dense = _dense.DenseModel.of(model)
    picks = [data.draw(st.sampled_from(list(model.pairs_of(int(s))))) for s in dense.live]
    policy = np.full(model.n_states, -1)
    policy[dense.live] = picks
    proper = bool(reaches_an_end(model, policy).all())
    evaluated = dense.evaluate_if_proper(np.array(picks))
    if not proper:
        assert evaluated is None
        return
    # Proper: the expected number of moves, by numpy's own solve, decides whether a proof
    # is owed (far from any rounding it is).
    P = model.transitions.toarray()[picks][:, dense.live]
    moves = np.linalg.solve(np.eye(dense.live.size) - P, np.ones(dense.live.size))
    if moves.max() < 1e6:
        assert evaluated is not None
        assert np.allclose(
            evaluated[0], evaluate_policy(model, policy)[dense.live], rtol=1e-12, atol=0
        )


@settings(max_examples=300, deadline=None)
@given(model=chains(priced=True), data=st.data())
def test_a_policy_near_one_factored_is_solved_as_its_own_system_would_be(model, data):
    # Two policies, each state's pair drawn for each: the second is solved from the first's
    # factors (Woodbury), however many states changed, and must match numpy's own solve
    # of the second's system.
    dense = _dense.DenseModel.of(model)
    draws = [
        np.array([data.draw(st.sampled_from(list(model.pairs_of(int(s))))) for s in dense.live])
        for _ in range(2)
    ]
    systems = []
    for picks in draws:
        policy = np.full(model.n_states, -1)
        policy[dense.live] = picks
        if model.discount == 1.0 and not reaches_an_end(model, policy).all():
            return
        P = model.transitions.toarray()[picks][:, dense.live] * model.discount
        systems.append(np.eye(dense.live.size) - P)
    first, second = draws
    _, factors = dense.evaluate(first)
    with mock.patch.object(_dense, "FEW", 1.0), mock.patch.object(_dense, "UPDATE_FROM", 0):
        values, used = dense.evaluate(second, factors)
    assert used is factors  # the update was made, not a factorisation of its own
    expected = np.linalg.solve(systems[1], dense.cost[second])
    scale = max(1.0, float(np.abs(expected).max())) * np.linalg.cond(systems[1], np.inf)
    assert np.all(np.abs(values - expected) <= 1e-12 * scale)


def test_only_a_policy_near_the_one_factored_is_solved_from_its_factors():
    model = make_problem("efron").game.model
    dense = _dense.DenseModel.of(model)
    optimum = solve(model).policy[dense.live]
    plain = _solver.proper_policy(model)[dense.live]  # proper, and far from the optimum
    differ = np.flatnonzero(plain != optimum)
    assert differ.size > 2 * _dense.FEW * dense.live.size
    near = optimum.copy()
    near[differ[:3]] = plain[differ[:3]]
    _, factors = dense.evaluate(optimum)
    for policy, from_factors in ((near, True), (plain, False)):
        full = np.full(model.n_states, -1)
        full[dense.live] = policy
        assert reaches_an_end(model, full).all()
        values, used = dense.evaluate(policy, factors)
        assert (used is factors) == from_factors
        expected = evaluate_policy(model, full)[dense.live]
        assert np.allclose(values, expected, rtol=1e-12, atol=0)


def test_a_small_model_factors_every_policy_afresh():
    # Below UPDATE_FROM states a factorisation is cheaper than the update (15 states: 12
    # against 22 microseconds).
    model = make_problem("trap-lane").game.model
    dense = _dense.DenseModel.of(model)
    assert dense.live.size < _dense.UPDATE_FROM
    optimum = solve(model).policy[dense.live]
    _, factors = dense.evaluate(optimum)
    _, used = dense.evaluate(optimum.copy(), factors)
    assert used is not factors


@settings(max_examples=60, deadline=None)
@given(**JUMP_GAME_CASES)
def test_random_boards_agree_when_every_policy_is_solved_from_the_first_factors(
    name, board, faces, overshoot
):
    model = jump_model(name, board, faces, overshoot)
    if _dense.fits(model):
        with mock.patch.object(_dense, "FEW", 1.0), mock.patch.object(_dense, "UPDATE_FROM", 0):
            same_solution(model)


def test_efrons_first_dice_are_not_proved_proper():
    # Each square's first die is mostly Blue, which always moves 3: on the public board
    # some square's moves run into a chute and back for ever, as the search shows.
    model = make_problem("efron").game.model
    dense = _dense.DenseModel.of(model)
    firsts = dense.table[:, 0]
    assert "Blue" in {model.action_names[a] for a in model.action_of_pair[firsts]}
    policy = np.full(model.n_states, -1)
    policy[dense.live] = firsts
    assert not reaches_an_end(model, policy).all()
    assert dense.evaluate_if_proper(firsts) is None


def test_a_discounted_model_proves_nothing():
    model = make_problem("aimed", None, ["objective=discounted", "discount=0.9"]).game.model
    dense = _dense.DenseModel.of(model)
    assert dense.evaluate_if_proper(dense.table[:, 0]) is None


@pytest.mark.parametrize("name", ["classic", "aimed", "efron", "trap-lane"])
def test_lookahead_picks_one_of_each_states_own_pairs(name):
    model = make_problem(name).game.model
    dense = _dense.DenseModel.of(model)
    policy = dense.lookahead(32)
    for state, pair in zip(dense.live, policy, strict=True):
        assert int(pair) in model.pairs_of(int(state))


def plain_distances(model) -> np.ndarray:
    """Fewest moves to a terminal state, any action allowed: a plain breadth-first search."""
    P = model.transitions
    before: list[set[int]] = [set() for _ in range(model.n_states)]
    for s in range(model.n_states):
        for p in model.pairs_of(s):
            for t in P.indices[P.indptr[p] : P.indptr[p + 1]]:
                before[int(t)].add(s)
    dist = np.full(model.n_states, np.inf)
    dist[model.terminal] = 0
    queue = deque(int(t) for t in np.flatnonzero(model.terminal))
    while queue:
        t = queue.popleft()
        for s in before[t]:
            if dist[s] == np.inf:
                dist[s] = dist[t] + 1
                queue.append(s)
    return dist


@pytest.mark.parametrize("tree_limit", [0, 10**9])
@pytest.mark.parametrize("name", ["classic", "boosted", "token-boosted", "efron", "trap-lane"])
def test_goal_distance_both_ways_is_a_plain_search(name, tree_limit):
    model = make_problem(name).game.model
    with mock.patch.object(_solver, "_TREE_LIMIT", tree_limit):
        assert np.array_equal(goal_distance(model), plain_distances(model))


@pytest.mark.parametrize("tree_limit", [0, 10**9])
def test_goal_distance_both_ways_marks_hopeless_states(tree_limit):
    model = make_problem("classic", {"goal": 10, "jumps": [[9, 1]]}, ["faces=1"]).game.model
    expected = plain_distances(model)
    assert np.isinf(expected).any()
    with mock.patch.object(_solver, "_TREE_LIMIT", tree_limit):
        assert np.array_equal(goal_distance(model), expected)
