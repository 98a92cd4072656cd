"""The compiled kernel (``reference_solutions/_kernel.c``) against the numpy path it stands
in front of: the same values, Q-values, optimal pairs and policy on every kind of model the
assignments build and on random ones; the cases it leaves to the numpy path (a hopeless
state, too many policies, a model it does not take) raise what the numpy path raises; and
input that is not a model's never reaches memory out of bounds."""

from __future__ import annotations

import dataclasses
import os
import threading
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder import GoalUnreachable
from reference_solutions import NotConverged, _solver, build_model, make_problem
from reference_solutions import policy_iteration as solve
from tests.strategies import JUMP_GAMES, OVERSHOOTS, jump_boards, jump_game_settings, trap_boards

try:
    from reference_solutions import _kernel
except ImportError:  # (built without a C compiler: only CI insists on it, below)
    _kernel = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _kernel is None and not os.environ.get("AUTOGRADER_EXPECT_KERNEL"),
    reason="the compiled kernel is not built here (no C compiler at install)",
)


def test_ci_has_the_kernel():
    """CI sets ``AUTOGRADER_EXPECT_KERNEL``: a build that lost the kernel must fail there,
    not pass on the numpy path unseen."""
    assert _kernel is not None
    assert _solver._compiled is _kernel


def numpy_solve(model, **options):
    with mock.patch.object(_solver, "_compiled", None):
        return solve(model, **options)


def same(model, **options) -> None:
    """The kernel solves ``model`` itself (it does not decline) to the numpy path's
    solution: values to rounding, the same optimal pairs and the same policy (each state's
    first optimal pair, so rounding cannot tip it)."""
    kernel = _solver._kernel_solution(
        model,
        options.get("max_iterations", 10_000),
        options.get("tie_tolerance", _solver.DEFAULT_TIE_TOLERANCE),
        options.get("warm_start"),
    )
    assert kernel is not None, "the kernel declined"
    numpy = numpy_solve(model, **options)
    scale = max(1.0, float(np.max(np.abs(numpy.values))))
    np.testing.assert_allclose(kernel.values, numpy.values, rtol=1e-11, atol=1e-11 * scale)
    np.testing.assert_allclose(kernel.q_values, numpy.q_values, rtol=1e-11, atol=1e-11 * scale)
    assert np.array_equal(kernel.optimal, numpy.optimal)
    assert np.array_equal(kernel.policy, numpy.policy)
    assert kernel.policy.dtype == numpy.policy.dtype
    assert kernel.residual <= 1e-12 * scale
    # and what policy_iteration returns is the kernel's
    assert solve(model, **options).values.tolist() == kernel.values.tolist()


@pytest.mark.parametrize("name", [*JUMP_GAMES, "trap-lane"])
def test_every_public_board(name):
    model = make_problem(name).game.model
    if model.stage is not None:  # (solved a stage at a time: each stage by the kernel)
        staged = solve(model)
        numpy = numpy_solve(model)
        np.testing.assert_allclose(staged.values, numpy.values, rtol=1e-11)
        assert np.array_equal(staged.optimal, numpy.optimal)
        return
    same(model)


@settings(max_examples=250)
@given(
    name=st.sampled_from(JUMP_GAMES),
    board=jump_boards(max_goal=60, tens=False),
    faces=st.integers(1, 6),
    overshoot=OVERSHOOTS,
)
def test_random_jump_boards(name, board, faces, overshoot):
    settings_ = jump_game_settings(name, faces, overshoot)
    if name == "token-boosted":  # (one token: a model in stages, solved whole here)
        settings_.append("tokens=1")
    model = make_problem(name, board, settings_).game.model
    if model.stage is not None:
        model = dataclasses.replace(model, stage=None)
    try:
        numpy_solve(model)
    except GoalUnreachable as refused:
        with pytest.raises(GoalUnreachable) as raised:
            solve(model)
        assert str(raised.value) == str(refused)
        return
    same(model)


@settings(max_examples=150)
@given(board=trap_boards, circle_overshoot=st.sampled_from(["wrap", "restart"]))
def test_random_trap_layouts(board, circle_overshoot):
    settings_ = [f"circle_overshoot={circle_overshoot}"] if board.get("circle") else []
    same(make_problem("trap-lane", board, settings_).game.model)


@settings(max_examples=40)
@given(board=jump_boards(max_goal=60), discount=st.sampled_from([0.5, 0.9, 0.99]))
def test_discounted_aimed_which_maximises_a_reward(board, discount):
    model = make_problem("aimed", board, ["objective=discounted", f"discount={discount}"])
    assert model.game.model.maximize and model.game.model.discount == discount
    same(model.game.model)


@st.composite
def random_models(draw):
    """A random decision problem: 2 to 25 states, the last one to three terminal (worth
    random values), each other state 1 to 4 actions of 1 to 4 outcomes anywhere, each
    costing 0.5 to 3 (minimising: every move costs something), undiscounted or not;
    discounted, some maximise a reward of either sign instead."""
    n = draw(st.integers(2, 25))
    terminals = draw(st.integers(1, min(3, n - 1)))
    live = n - terminals
    discount = draw(st.sampled_from([1.0, 1.0, 0.95, 0.5]))
    maximize = discount < 1.0 and draw(st.booleans())
    pair_state, outcome_pair, outcome_state, prob, cost = [], [], [], [], []
    for s in range(live):
        for _ in range(draw(st.integers(1, 4))):
            pair = len(pair_state)
            pair_state.append(s)
            k = draw(st.integers(1, 4))
            weights = draw(st.lists(st.integers(1, 9), min_size=k, max_size=k))
            targets = draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k))
            price = draw(st.floats(-3, 3) if maximize else st.floats(0.5, 3))
            for w, t in zip(weights, targets, strict=True):
                outcome_pair.append(pair)
                outcome_state.append(t)
                prob.append(w / sum(weights))
                cost.append(price)
    values = np.zeros(n)
    values[live:] = draw(st.lists(st.floats(-5, 5), min_size=terminals, max_size=terminals))
    return build_model(
        n_states=n, pair_state=np.array(pair_state), pair_action=np.zeros(len(pair_state), int),
        outcome_pair=np.array(outcome_pair), outcome_state=np.array(outcome_state),
        outcome_prob=np.array(prob), outcome_cost=np.array(cost), terminal_value=values,
        action_names=("a",), discount=discount, maximize=maximize,
    )  # fmt: skip


@settings(max_examples=250)
@given(model=random_models())
def test_random_models(model):
    """Where the numpy path refuses a model (a state that cannot reach a terminal one), so
    does policy_iteration, in the same words; elsewhere the kernel's own solution is the
    numpy path's."""
    try:
        numpy_solve(model)
    except GoalUnreachable as refused:
        assert _solver._kernel_solution(model, 10_000, 1e-9, None) is None
        with pytest.raises(GoalUnreachable) as raised:
            solve(model)
        assert str(raised.value) == str(refused)
        return
    same(model)
    # ...and from the optimum, at once. The optimum's strictly best pairs: a solution's
    # policy may name a pair within the tie tolerance (1e-9) that policy iteration, which
    # keeps a pair only against rounding (1e-12), improves on (a model whose two pairs
    # differ by 2e-11 needed a second policy).
    solved = numpy_solve(model)
    _, hint = _solver._greedy(model, model.signed_pairs(solved.q_values))
    assert _solver._kernel_solution(model, 10_000, 1e-9, hint).iterations == 1


# A state with a choice: 1 goes to the goal (0) at cost 1, or stays where it is at cost 0,
# which is worth 0 forever: an improper policy that value iteration from 0 picks first.
LOOP = dict(
    n_states=2, pair_state=[1, 1], pair_action=[0, 1], outcome_pair=[0, 1],
    outcome_state=[0, 1], outcome_prob=[1.0, 1.0], outcome_cost=[1.0, 0.0],
    action_names=("go", "stay"),
)  # fmt: skip


def test_an_improper_start_is_never_solved_as_if_it_had_values():
    model = build_model(**LOOP)
    solved = _solver._kernel_solution(model, 10_000, 1e-9, np.array([-1, 1]))
    assert solved is not None
    assert solved.values.tolist() == [0.0, 1.0]
    assert solved.action(1) == "go"


def test_a_stay_split_into_many_outcomes_is_not_proven_proper():
    """A pair may list one successor many times (at different costs). Split into hundreds
    of outcomes back to its own state, a "stay" whose probabilities sum to 1 (or, in
    floating point, a hair over) leaves a rounding residue that a bound counting the
    states (two here) took for a way out: the kernel solved the state as worth nothing,
    by staying for ever. The only proper policy is "go", worth 1."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        k = int(rng.integers(100, 1_000))
        weights = rng.integers(1, 100, k).astype(float)
        model = build_model(
            n_states=2, pair_state=np.array([0, 0]), pair_action=np.array([0, 1]),
            outcome_pair=np.r_[0, np.ones(k, int)], outcome_state=np.r_[1, np.zeros(k, int)],
            outcome_prob=np.r_[1.0, weights / weights.sum()],
            outcome_cost=np.r_[1.0, 1e-300 * np.arange(1, k + 1)], action_names=("go", "stay"),
        )  # fmt: skip
        solved = _solver._kernel_solution(model, 10_000, 1e-9, None)
        assert solved is not None and solved.values.tolist() == [1.0, 0.0], k
        assert solved.action(0) == "go"


def test_a_game_of_a_billion_moves_is_left_to_the_numpy_path():
    """Two states bounce between each other and leave for the goal with probability
    ``leak``: a game of about 2 / leak moves. Past a million expected moves the system is
    too ill-conditioned for a solve without pivoting to hold 1e-9 (on random models of
    1e8 to 1e12 moves the kernel's answers were off by up to 33%): the kernel declines,
    and solve gives the numpy path's answer. Below that, it solves, as the closed form
    says: V(0) = (2 - leak) / leak."""
    for leak, kernel in ((1e-9, False), (1e-7, False), (1e-5, True), (1e-3, True)):
        model = build_model(
            n_states=3, pair_state=[0, 1], pair_action=[0, 0], outcome_pair=[0, 0, 1],
            outcome_state=[1, 2, 0], outcome_prob=[1 - leak, leak, 1.0], outcome_cost=1.0,
            action_names=("go",),
        )  # fmt: skip
        solved = _solver._kernel_solution(model, 10_000, 1e-9, None)
        assert (solved is not None) == kernel, leak
        assert solve(model).values.tolist() == (solved or numpy_solve(model)).values.tolist()
        if kernel:
            assert solved.values[0] == pytest.approx((2 - leak) / leak, rel=1e-9)


@pytest.mark.parametrize("name", ["aimed", "efron"])
def test_a_start_of_endless_moves_is_passed_over_not_declined(name):
    """On a 1,000-square board the sweeps' first policy may never finish (a game of 1e16
    expected moves, by its own solve): the kernel passes it over for a policy toward the
    goal, as it passes over any start it cannot prove proper, and solves the board."""
    rng = np.random.default_rng(0)
    starts = rng.choice(np.arange(2, 999), 100, replace=False)
    ends = np.clip(starts + rng.integers(-60, 61, 100), 1, 1000)
    keep = ~np.isin(ends, starts) & (ends != starts)
    board = {
        "goal": 1000,
        "jumps": [list(j) for j in zip(starts[keep].tolist(), ends[keep].tolist(), strict=True)],
    }
    same(make_problem(name, board).game.model)


def test_a_hopeless_state_is_refused_as_the_numpy_path_refuses_it():
    hopeless = dict(n_states=3, pair_state=[1, 2], pair_action=[0, 0], outcome_state=[0, 2],
                    outcome_cost=1.0, action_names=("go",))  # fmt: skip
    for discount in (1.0, 0.9):
        model = build_model(**(LOOP | hopeless), discount=discount)
        assert _solver._kernel_solution(model, 10_000, 1e-9, None) is None
        with pytest.raises(GoalUnreachable, match="reach the goal from 2"):
            solve(model)


def test_too_many_policies_raise_not_converged():
    model = make_problem("boosted").game.model
    far = _solver.proper_policy(model)  # proper, and several policies from the optimum
    assert _solver._kernel_solution(model, 1, 1e-9, far) is None
    with pytest.raises(NotConverged):
        solve(model, max_iterations=1, warm_start=far)
    assert _solver._kernel_solution(model, 10_000, 1e-9, far).iterations > 1


def test_max_iterations_as_the_numpy_path_takes_it():
    model = make_problem("boosted").game.model
    expected = numpy_solve(model).values
    for most in (1e4, 10**20):  # (a float, and more than a C long holds)
        np.testing.assert_allclose(solve(model, max_iterations=most).values, expected,
                                   rtol=1e-12)  # fmt: skip
    for none in (0, -1):  # (the kernel and the dense path counted these as no limit)
        assert _solver._kernel_solution(model, none, 1e-9, None) is None
        for path in (solve, numpy_solve):
            with pytest.raises(ValueError, match="max_iterations must be at least 1"):
                path(model, max_iterations=none)


def test_random_models_with_many_states_behind_are_left_to_the_numpy_path():
    """Two halves of 2,040 states, each moving only into the other: B (the states moved
    back to) is most of the model, where the kernel's cost grows with |B| cubed and the
    numpy path was 35 times faster. The kernel declines, before it has spent much."""
    rng = np.random.default_rng(5)
    half = 2_040
    goal = 2 * half
    pairs, targets, probs = [], [], []
    for s in range(2 * half):
        if s < half:
            to, p = half + rng.integers(0, half, 3), [1 / 3] * 3
        else:
            to, p = np.r_[rng.integers(0, half, 3), goal], [0.3, 0.3, 0.3, 0.1]
        pairs += [s] * len(p)
        targets += [int(t) for t in to]
        probs += p
    model = build_model(
        n_states=goal + 1, pair_state=np.arange(2 * half), pair_action=np.zeros(2 * half, int),
        outcome_pair=np.array(pairs), outcome_state=np.array(targets),
        outcome_prob=np.array(probs), outcome_cost=1.0, action_names=("a",),
    )  # fmt: skip
    assert model.n_states <= _solver.KERNEL_STATES
    assert _solver._kernel_solution(model, 10_000, 1e-9, None) is None
    assert solve(model).values.tolist() == numpy_solve(model).values.tolist()


def test_a_model_past_the_kernels_size_goes_the_numpy_way():
    model = make_problem("classic").game.model
    with mock.patch.object(_solver, "KERNEL_STATES", model.n_states - 1):
        assert _solver._kernel_solution(model, 10_000, 1e-9, None) is None
        assert solve(model).values[0] == pytest.approx(numpy_solve(model).values[0], rel=1e-12)


def test_two_threads_solve_at_once():
    """The kernel lets go of the GIL while it works: two threads' solves, each its own."""
    models = [make_problem(name).game.model for name in ("efron", "aimed")]
    expected = [numpy_solve(m).values for m in models]
    results: dict[int, list] = {0: [], 1: []}

    def work(k: int) -> None:
        for _ in range(50):
            results[k].append(solve(models[k]).values)

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for k in (0, 1):
        assert len(results[k]) == 50
        for values in results[k]:
            np.testing.assert_allclose(values, expected[k], rtol=1e-11)


# -- what is not a model -----------------------------------------------------------------


def arrays(model):
    T = model.transitions
    return dict(
        pair_start=model.pair_start, indptr=T.indptr, indices=T.indices, data=T.data,
        outcome_cost=model.outcome_cost, terminal_value=model.terminal_value,
    )  # fmt: skip


def call(parts, hint=None, most=1 << 20):
    """The kernel on these arrays: its status, and the solution's arrays (None unless
    solved)."""
    status, _, _, *solution = _kernel.solve(
        parts["pair_start"], parts["indptr"], parts["indices"], parts["data"],
        parts["outcome_cost"], parts["terminal_value"], 1.0, False, 1e-9, 100, most, hint,
    )  # fmt: skip
    assert (status == _kernel.SOLVED) == (solution[0] is not None)
    return status, solution


def test_a_well_formed_call_solves():
    model = make_problem("trap-lane").game.model
    status, (values, q, policy, optimal) = call(arrays(model))
    assert status == _kernel.SOLVED
    assert values[model.start] == pytest.approx(numpy_solve(model).start_value, rel=1e-12)
    assert (values.dtype, q.dtype, optimal.dtype) == (np.float64, np.float64, np.bool_)
    assert policy.dtype == model.transitions.indices.dtype  # (int32 here)
    wide = arrays(model) | {"indices": model.transitions.indices.astype(np.int64)}
    status, (_, _, policy64, _) = call(wide)
    assert status == _kernel.SOLVED and policy64.dtype == np.int64
    assert policy64.tolist() == policy.tolist()


@pytest.mark.parametrize(
    "change",
    [
        lambda p: p | {"indices": p["indices"] + 1000},  # an outcome outside the model
        lambda p: p | {"indices": p["indices"] - 1000},
        lambda p: p | {"indptr": p["indptr"][::-1].copy()},  # outcomes out of order
        lambda p: p | {"pair_start": p["pair_start"] * 2},  # pairs the model has not
        lambda p: p | {"data": p["data"] * 2},  # a probability over 1
        lambda p: p | {"data": np.where(np.arange(p["data"].size) == 3, np.nan, p["data"])},
        lambda p: p | {"outcome_cost": np.full(p["data"].size, np.inf)},
        lambda p: p | {"data": p["data"][:-1]},  # one probability short
        lambda p: p | {"indices": p["indices"].astype(np.uint32)},  # an unsigned type
        lambda p: p | {"data": p["data"].astype(np.complex128)},
        lambda p: p | {"terminal_value": np.zeros(2)},
    ],
)
def test_what_is_not_a_model_is_declined(change):
    status, _ = call(change(arrays(make_problem("trap-lane").game.model)))
    assert status == _kernel.DECLINED


def test_arrays_of_another_shape_or_order_and_models_past_the_size_are_declined():
    model = make_problem("trap-lane").game.model
    parts = arrays(model)
    assert call(parts | {"data": np.stack([parts["data"]] * 2)})[0] == _kernel.DECLINED
    assert call(parts | {"data": parts["data"].astype(">f8")})[0] == _kernel.DECLINED
    assert call(parts, most=model.n_states - 1)[0] == _kernel.DECLINED
    # An array not aligned to its type is read through pointers that must be (undefined
    # behaviour, a fault on some machines): the numpy path takes it.
    raw = np.zeros(parts["data"].nbytes + 1, np.uint8)[1:].view(np.float64)
    raw[:] = parts["data"]
    assert not raw.flags.aligned
    assert call(parts | {"data": raw})[0] == _kernel.DECLINED


def test_a_hint_that_does_not_fit_is_passed_over():
    model = make_problem("trap-lane").game.model
    expected = numpy_solve(model).values
    n = model.n_states
    unaligned = np.zeros(8 * n + 1, np.uint8)[1:].view(np.int64)
    for hint in (np.full(n, 10**6), np.full(n, -1), np.zeros(n, np.int8), np.zeros((2, n), int),
                 np.zeros(n + 1, int), np.zeros(n), np.zeros(n, np.uint64), unaligned):  # fmt: skip
        status, (values, *_) = call(arrays(model), hint=hint)
        assert status == _kernel.SOLVED
        np.testing.assert_allclose(values, expected, rtol=1e-12)
    # Through the solver: a policy of another model (a board's, under other rules, as the
    # catalogue passes it) is no reason to leave the kernel.
    other = _solver.proper_policy(make_problem("classic").game.model)
    assert other.shape != (n,)
    assert _solver._kernel_solution(model, 10_000, 1e-9, other) is not None


def test_what_is_not_an_array_is_a_type_error():
    parts = arrays(make_problem("trap-lane").game.model)
    with pytest.raises(TypeError):
        call(parts | {"data": [0.5, 0.5]})
    with pytest.raises(TypeError):
        _kernel.solve(1, 2, 3)


@settings(max_examples=300)
@given(
    n=st.integers(1, 8),
    starts=st.lists(st.integers(-2, 12), min_size=1, max_size=10),
    ends=st.lists(st.integers(-2, 12), min_size=1, max_size=12),
    targets=st.lists(st.integers(-3, 10), min_size=0, max_size=12),
    probability=st.floats(-1, 2) | st.just(float("nan")),
)
def test_arbitrary_arrays_never_crash(n, starts, ends, targets, probability):
    """Arrays that need not describe any model: a status back, never a crash (a read out
    of bounds would end this process)."""
    parts = {
        "pair_start": np.array([0, *sorted(starts)][: n + 1], dtype=np.int64),
        "indptr": np.array([0, *sorted(ends)], dtype=np.int32),
        "indices": np.array(targets, dtype=np.int32),
        "data": np.full(len(targets), probability),
        "outcome_cost": np.ones(len(targets)),
        "terminal_value": np.zeros(len(starts[: n + 1])),
    }
    status, _ = call(parts)
    assert status in (_kernel.SOLVED, _kernel.DECLINED, _kernel.HOPELESS, _kernel.NUMERICAL,
                      _kernel.NOT_SETTLED)  # fmt: skip
