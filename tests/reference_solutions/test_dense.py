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

# The numpy path's small models (the compiled kernel would solve them first: conftest.py).
pytestmark = pytest.mark.usefixtures("numpy_path")


def sparse_solve(model):
    with (
        mock.patch.object(_dense, "MAX_STATES", 0),
        mock.patch.object(_dense, "FOLD_MAX_STATES", 0),
        mock.patch.object(_dense, "MID_STATES", 0),
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
    assert np.array_equal(dense.policy, sparse.policy)  # each state's first optimal pair


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
    sizes = []
    factor = _dense.Factors.of

    def counted(policy, chain, rhs, keep=False):
        sizes.append(chain.m)
        return factor(policy, chain, rhs, keep)

    with mock.patch.object(_dense.Factors, "of", side_effect=counted):
        same_solution(model)
    assert sizes and set(sizes) == {100}  # never the whole 700 x 700 system


def plain_fold(model) -> tuple[list[int], list[int], bool]:
    """The live states a fold keeps and those it leaves out (every pair of theirs one
    outcome of probability 1 to another state), and whether a left-out state's move leads
    to another left-out state: plain loops over the model."""
    P = model.transitions

    def sure(pair: int) -> bool:
        lo, hi = P.indptr[pair], P.indptr[pair + 1]
        return hi - lo == 1 and P.data[lo] == 1.0 and P.indices[lo] != model.state_of_pair[pair]

    live = [s for s in range(model.n_states) if not model.terminal[s]]
    moved = [s for s in live if all(sure(p) for p in model.pairs_of(s))]
    kept = [s for s in live if s not in moved]
    two_steps = any(P.indices[P.indptr[p]] in moved for s in moved for p in model.pairs_of(s))
    return kept, moved, two_steps


def check_fold(model) -> None:
    """With the dense limit at the number of states a fold keeps, the model is folded as
    :func:`plain_fold` says (or refused, when a fold would take two steps or keep nothing)
    and solved as the sparse path solves it."""
    kept, moved, two_steps = plain_fold(model)
    limit = max(1, len(kept))
    with mock.patch.object(_dense, "MAX_STATES", limit), mock.patch.object(_dense, "MID_STATES", 0):
        dense = _dense.DenseModel.of(model)
        if len(kept) + len(moved) <= limit:
            assert dense is not None and dense.fold is None
        elif kept and not two_steps:
            assert dense is not None and dense.fold is not None
            assert dense.live[dense.fold.kept].tolist() == kept
            assert dense.live[dense.fold.moved].tolist() == moved
        else:
            assert dense is None
        if dense is not None and _dense.fits(model):  # as the solver decides
            same_solution(model)
            return
        try:
            values = solve(model).values
        except GoalUnreachable:
            with pytest.raises(GoalUnreachable):
                sparse_solve(model)
            return
        assert np.allclose(values, sparse_solve(model).values, rtol=1e-10, atol=1e-10)


@settings(max_examples=60, deadline=None)
@given(**{**JUMP_GAME_CASES, "name": st.sampled_from(["boosted", "token-boosted"])})
def test_random_boards_solved_folded_agree_with_the_sparse_path(name, board, faces, overshoot):
    check_fold(jump_model(name, board, faces, overshoot))


@settings(max_examples=40, deadline=None)
@given(board=trap_boards, circle_overshoot=st.sampled_from(["wrap", "restart"]))
def test_random_trap_layouts_agree_with_the_sparse_path(board, circle_overshoot):
    # (the overshoot's reading exists on the circle only)
    settings = [f"circle_overshoot={circle_overshoot}"] if board.get("circle") else []
    same_solution(make_problem("trap-lane", board, settings).game.model)


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


# Each test run with either kind of factors: LAPACK's dense ones (these small models) and
# SuperLU's, as past DENSE_LIMIT unknowns (half the examples each: as many as before).
FACTORS = pytest.mark.parametrize("dense_limit", [10**9, 0], ids=["lapack", "superlu"])


@FACTORS
@settings(max_examples=150, deadline=None)
@given(model=chains(priced=True))
def test_random_priced_chains_agree_with_the_sparse_path(model, dense_limit):
    with mock.patch.object(_dense, "DENSE_LIMIT", dense_limit):
        same_solution(model)


@settings(max_examples=200, deadline=None)
@given(model=chains(priced=True))
def test_random_chains_solved_folded_agree_with_the_sparse_path(model):
    # Up to 8 live states, costs, terminal values and discounts drawn.
    check_fold(model)


def test_a_model_whose_every_state_folds_goes_the_sparse_way():
    # 10 live states, each with two sure moves straight into one of two goals: a fold
    # would leave no system to solve.
    model = build_model(
        n_states=12,
        pair_state=np.repeat(np.arange(10), 2),
        pair_action=np.tile([0, 1], 10),
        outcome_pair=np.arange(20),
        outcome_state=np.tile([10, 11], 10),
        outcome_prob=np.ones(20),
        outcome_cost=np.tile([1.0, 2.0], 10),
        action_names=("near", "far"),
    )
    with mock.patch.object(_dense, "MAX_STATES", 5), mock.patch.object(_dense, "MID_STATES", 0):
        assert _dense.fits(model)
        assert _dense.DenseModel.of(model) is None
        assert solve(model).values.tolist() == [1.0] * 10 + [0.0, 0.0]


def nearly_endless(escape: float, m: int = 70):
    """State 0 may stay (to 1, or the goal with probability ``escape``, at 0.003) or go
    (the goal, at 1.5); state 1 goes back to 0 (at 0.002) or goes. States 2 to 69 move to
    two others and the goal, a third each, at 1. Staying is cheapest at first sight, and
    the policy that stays at 0 and goes back at 1 ends only by the escape."""
    pair_state, outcome_pair, outcome_state, outcome_prob, cost = [], [], [], [], []

    def pair(state, outcomes):
        pair_state.append(state)
        for target, probability, price in outcomes:
            outcome_pair.append(len(pair_state) - 1)
            outcome_state.append(target)
            outcome_prob.append(probability)
            cost.append(price)

    pair(0, [(1, 1 - escape, 0.003), (m, escape, 0.003)])
    pair(0, [(m, 1.0, 1.5)])
    pair(1, [(0, 1.0, 0.002)])
    pair(1, [(m, 1.0, 1.5)])
    for s in range(2, m):
        pair(s, [((s * 7) % m, 1 / 3, 1.0), ((s * 11) % m, 1 / 3, 1.0), (m, 1 / 3, 1.0)])
    states = np.array(pair_state)
    return build_model(
        n_states=m + 1,
        pair_state=states,
        pair_action=np.arange(states.size) - np.searchsorted(states, states),
        outcome_pair=np.array(outcome_pair),
        outcome_state=np.array(outcome_state),
        outcome_prob=np.array(outcome_prob),
        outcome_cost=np.array(cost),
        action_names=("stay", "go"),
    )


@pytest.mark.parametrize("escape", [1e-6, 1e-9, 1e-12])
def test_values_from_the_factors_of_a_nearly_endless_policy_are_not_kept(escape):
    model = nearly_endless(escape)
    dense = _dense.DenseModel.of(model)
    start = dense.lookahead(32)
    evaluated = dense.evaluate_if_proper(start)
    assert evaluated is not None  # proper, if barely: it ends only by the escape
    values, factors = evaluated
    q = dense.q_values(values)
    best, greedy = dense.greedy(q)
    better = np.where(_solver._settled(q[start], best), start, greedy)
    assert 0 < np.count_nonzero(better != start) <= _dense.FEW * start.size
    # Solved from the first policy's factors, the next one's values are off...
    updated, used = dense.evaluate(better, factors)
    assert used is factors
    assert not dense.solves(dense.q_values(updated)[better], updated)
    # ...so the solver factors it afresh, and agrees with the sparse path.
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
    with mock.patch.object(_dense, "MAX_STATES", 1), mock.patch.object(_dense, "MID_STATES", 0):
        assert _dense.fits(model)
        assert _dense.DenseModel.of(model) is None
        assert solve(model).values.tolist() == [2.0, 1.0, 0.0]


@FACTORS
@settings(max_examples=60, deadline=None)
@given(**JUMP_GAME_CASES)
def test_random_boards_agree_with_the_sparse_path(name, board, faces, overshoot, dense_limit):
    model = jump_model(name, board, faces, overshoot)
    if _dense.fits(model):
        with mock.patch.object(_dense, "DENSE_LIMIT", dense_limit):
            same_solution(model)


@FACTORS
@settings(max_examples=150, deadline=None)
@given(model=chains(), data=st.data())
def test_a_proof_of_properness_is_never_wrong_and_never_missed_on_short_games(
    model, data, dense_limit
):
    dense = _dense.DenseModel.of(model)
    picks = [data.draw(st.sampled_from(list(model.pairs_of(int(s))))) for s in dense.live]
    policy = np.full(model.n_states, -1)
    policy[dense.live] = picks
    proper = bool(reaches_an_end(model, policy).all())
    with mock.patch.object(_dense, "DENSE_LIMIT", dense_limit):
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


@FACTORS
@settings(max_examples=75, deadline=None)
@given(model=chains(priced=True), data=st.data())
def test_a_policy_near_one_factored_is_solved_as_its_own_system_would_be(model, data, dense_limit):
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
    with (
        mock.patch.object(_dense, "DENSE_LIMIT", dense_limit),
        mock.patch.object(_dense, "FEW", 1.0),
        mock.patch.object(_dense, "UPDATE_FROM", 0),
    ):
        _, factors = dense.evaluate(first)
        values, used = dense.evaluate(second, factors)
    assert (factors.sparse is None) == (dense_limit > 0)
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


def test_a_proper_start_given_is_taken_and_an_improper_one_passed_over():
    """A start given to the small path (as the previous stage's policy is) is solved first
    when its solve proves it proper: the optimal policy then settles at once, where the
    usual start takes two policies; efron's first dice (not proper) are passed over."""
    model = make_problem("efron").game.model
    expected = sparse_solve(model)
    dense = _dense.DenseModel.of(model)
    assert _solver._dense_policy_iteration(dense, 100, 1e-9).iterations > 1
    hinted = _solver._dense_policy_iteration(dense, 100, 1e-9, expected.policy)
    assert hinted.iterations == 1
    np.testing.assert_allclose(hinted.values, expected.values, rtol=1e-12)
    firsts = np.full(model.n_states, -1)
    firsts[dense.live] = dense.table[:, 0]
    passed_over = _solver._dense_policy_iteration(dense, 100, 1e-9, firsts)
    np.testing.assert_allclose(passed_over.values, expected.values, rtol=1e-10)


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


def plain_q_values(model, live_values: np.ndarray) -> np.ndarray:
    """Each pair's signed Q-value (as :class:`_dense.DenseModel` keeps them: negated when
    the model maximises) given the live states' values, outcome by outcome."""
    values = model.terminal_value.astype(float)
    values[~model.terminal] = live_values
    P = model.transitions
    q = np.zeros(model.n_pairs)
    for p in range(model.n_pairs):
        for e in range(P.indptr[p], P.indptr[p + 1]):
            q[p] += P.data[e] * (model.outcome_cost[e] + model.discount * values[P.indices[e]])
    return -q if model.maximize else q


def plain_greedy(model, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per live state, its smallest Q-value and the first of its pairs that has it."""
    live = np.flatnonzero(~model.terminal)
    pairs = [min(model.pairs_of(int(s)), key=lambda p: q[p]) for s in live]
    return q[pairs], np.array(pairs)


def check_products(model, live_values: np.ndarray) -> None:
    dense = _dense.DenseModel.of(model)
    q = dense.q_values(live_values)
    expected = plain_q_values(model, live_values)
    scale = np.maximum(1.0, np.abs(expected))
    assert q[-1] == np.inf  # the table's padding
    assert np.all(np.abs(q[:-1] - expected) <= 1e-12 * scale)
    without_cost = expected - plain_q_values(model, np.zeros_like(live_values))
    sign = -1.0 if model.maximize else 1.0
    assert np.all(np.abs(sign * dense.times(live_values) - without_cost) <= 1e-12 * scale)
    best, pairs = dense.greedy(q)
    plain_best, plain_pairs = plain_greedy(model, q)
    assert np.array_equal(pairs, plain_pairs)
    assert np.array_equal(best, plain_best)
    counts = {len(model.pairs_of(int(s))) for s in np.flatnonzero(~model.terminal)}
    no_terminal_pairs = all(not model.pairs_of(int(t)) for t in np.flatnonzero(model.terminal))
    assert dense.regular == (len(counts) == 1 and no_terminal_pairs)


@pytest.mark.parametrize("kernel", [True, False], ids=["scipy-kernel", "public-product"])
@settings(max_examples=60, deadline=None)
@given(model=chains(priced=True), data=st.data())
def test_q_values_and_greedy_choices_are_the_plain_sums_and_first_minima(model, data, kernel):
    m = int((~model.terminal).sum())
    # Whole numbers make ties between a state's pairs, where the first one must be chosen.
    live_values = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=m, max_size=m)), float)
    with mock.patch.object(_dense, "_csr_matvec", _dense._csr_matvec if kernel else None):
        check_products(model, live_values)


@pytest.mark.parametrize("name", ["classic", "boosted", "aimed", "efron", "trap-lane"])
def test_q_values_and_greedy_choices_on_the_public_boards(name):
    model = make_problem(name).game.model
    rng = np.random.default_rng(7)
    check_products(model, rng.integers(0, 40, int((~model.terminal).sum())).astype(float))


def test_a_product_of_the_wrong_size_is_refused_before_the_kernel_runs():
    # The kernel reads and writes as many entries as it is told: a short array would be
    # memory out of bounds, not an error.
    dense = _dense.DenseModel.of(make_problem("efron").game.model)
    m = dense.live.size
    with pytest.raises(ValueError, match="P x"):
        dense.q_values(np.zeros(m - 1))
    with pytest.raises(ValueError, match="P x"):
        dense._add_product(np.zeros(m), np.zeros(dense.cost.size - 2))
    with pytest.raises(ValueError, match="P x"):  # would land in a converted copy, and be lost
        dense._add_product(np.zeros(m), np.zeros(dense.cost.size, dtype=np.float32))


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


@pytest.mark.parametrize("name", ["classic", "aimed", "efron"])
def test_a_model_past_the_dense_limit_is_factored_by_superlu_and_agrees(name):
    # 300 squares: more unknowns than DENSE_LIMIT, fewer than MAX_STATES.
    starts = list(range(7, 290, 23))
    ends = [s + 31 if i % 2 else s - 5 for i, s in enumerate(starts)]
    jumps = [[a, b] for a, b in zip(starts, ends, strict=True) if b not in starts]
    model = make_problem(name, {"goal": 300, "jumps": jumps}).game.model
    dense = _dense.DenseModel.of(model)
    assert _dense.DENSE_LIMIT < dense.live.size <= _dense.MAX_STATES
    made = []
    factor = _dense.Factors.of

    def kept(policy, chain, rhs, keep=False):
        made.append(factor(policy, chain, rhs, keep))
        return made[-1]

    with mock.patch.object(_dense.Factors, "of", side_effect=kept):
        same_solution(model)
    assert made and all(m is not None and m[0].sparse is not None for m in made)


def board_like(goal: int, seed: int) -> list[list[int]]:
    """One square in ten starts a jump of at most 40 squares, as on a printed board."""
    rng = np.random.default_rng(seed)
    starts = rng.choice(np.arange(2, goal), size=goal // 10, replace=False)
    ends = starts + rng.integers(-40, 41, size=starts.size)
    bad = np.isin(ends, starts) | (ends == starts) | (ends < 1) | (ends > goal)
    return [[int(a), int(b)] for a, b in zip(starts[~bad], ends[~bad], strict=True)]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(
    ("name", "goal"), [("aimed", 700), ("efron", 700), ("aimed", 1200), ("efron", 1200)]
)
def test_sweeps_choose_the_first_improvements_and_the_answer_is_the_sparse_paths(name, goal, seed):
    model = make_problem(name, {"goal": goal, "jumps": board_like(goal, seed)}).game.model
    dense = _dense.DenseModel.of(model)
    assert dense is not None and dense.fold is None and dense.live.size > _solver._SWEEP_FROM
    taken = []
    evaluate = _solver._evaluate_swept

    def counted(*args):
        taken.append(evaluate(*args))
        return taken[-1]

    with mock.patch.object(_solver, "_evaluate_swept", side_effect=counted):
        same_solution(model)
        ours = solve(model).iterations
    assert any(made is not None for made in taken)
    # The sweeps' point: fewer policies than plain improvements take from the same start.
    with mock.patch.object(_solver, "_SWEEPS", 0):
        assert ours < solve(model).iterations


@pytest.mark.parametrize("name", ["classic", "aimed", "efron"])
def test_a_mid_sized_model_starts_toward_the_goal_and_agrees(name):
    model = make_problem(name, {"goal": 900, "jumps": board_like(900, 3)}).game.model
    dense = _dense.DenseModel.of(model)
    assert dense is not None and dense.fold is None
    assert _dense.MAX_STATES < dense.live.size <= _dense.MID_STATES
    if name != "classic":
        toward = dense.toward_goal()
        pairs = np.full(model.n_states, -1)
        pairs[dense.live] = toward
        # Proper (every state reaches the goal by it), and each state's pair can step one
        # move closer, by the distances of a plain breadth-first search.
        assert np.isfinite(goal_distance(model, pairs)).all()
        distance = plain_distances(model)
        P = model.transitions
        for state, pair in zip(dense.live, toward, strict=True):
            reached = P.indices[P.indptr[pair] : P.indptr[pair + 1]]
            assert distance[reached].min() == distance[state] - 1
    same_solution(model)


@pytest.mark.parametrize("name", ["aimed", "efron"])
def test_a_mid_sized_hopeless_board_is_refused_as_the_sparse_path_refuses_it(name):
    # Every square from 890 on sends the piece back to 500: no die passes ten squares.
    jumps = [[s, 500] for s in range(890, 900)]
    model = make_problem(name, {"goal": 900, "jumps": jumps}).game.model
    assert _dense.DenseModel.of(model).live.size > _dense.MAX_STATES
    with pytest.raises(GoalUnreachable):
        solve(model)
    same_solution(model)


@pytest.mark.parametrize(
    ("name", "options"),
    [("classic", []), ("classic", ["overshoot=bounce"]), ("aimed", []), ("efron", [])],
)
def test_a_triangle_and_a_few_columns_solve_as_a_dense_lu_does(name, options):
    model = make_problem(name, {"goal": 150, "jumps": board_like(150, 4)}, options).game.model
    dense = _dense.DenseModel.of(model)
    policy = dense.table[:, 0] if dense.single else dense.lookahead(_solver._LOOKAHEAD)
    chain, cost = dense._chain(policy)
    triangle = chain.triangle()
    assert triangle is not None and 0 < triangle.back.size <= _dense.BACK_SHARE * chain.m
    system = chain.dense_system()
    rhs = np.column_stack((cost, np.ones(chain.m), np.arange(chain.m, dtype=float)))
    expected = np.linalg.solve(system, rhs)
    np.testing.assert_allclose(triangle.solve(rhs.copy()), expected, rtol=1e-12, atol=0)
    np.testing.assert_allclose(triangle.solve(cost.copy()), expected[:, 0], rtol=1e-12, atol=0)
    x = expected[:, 1]
    np.testing.assert_allclose(triangle.times(x), system @ x, rtol=1e-12, atol=1e-12)


def test_a_state_that_stays_put_for_sure_has_no_triangle_and_no_factors():
    # State 1 moves to itself for sure: I - P is singular.
    chain = _dense.Chain(np.array([2, 1]), np.array([1, 1, 1]), np.array([0.5, 0.5, 1.0]))
    assert chain.triangle() is None
    with mock.patch.object(_dense, "TRIANGLE_FROM", 0):
        assert _dense.Factors.of(np.zeros(2, dtype=int), chain, np.ones(2)) is None


def test_a_policys_rows_factor_as_its_chain_does():
    model = make_problem("aimed", {"goal": 300, "jumps": board_like(300, 5)}).game.model
    dense = _dense.DenseModel.of(model)
    policy = dense.lookahead(3)
    rows, cost = dense._chain(policy)
    assert isinstance(rows, _dense.PolicyRows)
    outcomes, lengths, _ = dense._outcomes(policy)
    chain = _dense.Chain(lengths, dense.column[outcomes], dense.weight[outcomes])
    (lu, times), (plain_lu, plain_times) = rows.factor(), chain.factor()
    expected = np.linalg.solve(chain.dense_system(), cost)
    for factors in (lu, plain_lu):
        np.testing.assert_allclose(factors.solve(cost[::-1], trans="T")[::-1], expected, rtol=1e-12)
    x = np.linspace(1.0, 2.0, chain.m)
    np.testing.assert_allclose(times(x), plain_times(x), rtol=1e-13)


@pytest.mark.parametrize("goal", [150, 300])
def test_boosted_past_a_thousand_states_folds_and_agrees(goal):
    model = make_problem("boosted", {"goal": goal, "jumps": board_like(goal, 6)}).game.model
    assert model.n_states > 1_000
    dense = _dense.DenseModel.of(model)
    assert dense is not None and dense.fold is not None
    same_solution(model)
