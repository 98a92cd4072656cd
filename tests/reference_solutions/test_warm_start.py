"""A warm start (the policy of the same board under other rules) changes where policy
iteration starts, never where it ends: the catalogue of mistakes solves a dozen games per
board from the board's own solution."""

from __future__ import annotations

import numpy as np
import pytest

from autograder import GoalUnreachable, JumpBoard, standard_board
from reference_solutions import policy_iteration, value_iteration
from reference_solutions._model import build_model
from reference_solutions.rules import aimed, boosted, efron, token_boosted
from reference_solutions.rules._jumps import JumpChanges
from tests.independent import jump_values

# A warm start on either path: the kernel takes one as the numpy path does.
pytestmark = pytest.mark.usefixtures("either_path")

BIG = JumpBoard(600, ((5, 400), (300, 2), (450, 590), (580, 100)))
WITHOUT_CHUTES = JumpBoard(100, standard_board().ladders)

# (rules module, parameters): the dense path, stage by stage, and a whole model of stages
# too large for the dense path (600 squares, 4 stages of 4,200 states).
GAMES = {
    "boosted": (boosted, boosted.Params()),
    "aimed": (aimed, aimed.Params()),
    "efron": (efron, efron.Params()),
    "token-boosted": (token_boosted, token_boosted.Params(tokens=3)),
}
CHANGES = {
    "jump costs a turn": JumpChanges(jump_turns=1),
    "jump in place": JumpChanges(jump_in_place=True),
}


def _assert_same_solution(warm, cold):
    np.testing.assert_allclose(warm.values, cold.values, rtol=1e-10, atol=1e-10)
    assert np.array_equal(warm.optimal, cold.optimal)
    live = ~warm.model.terminal
    assert warm.optimal[warm.policy[live]].all()
    assert warm.residual < 1e-9


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
@pytest.mark.parametrize("board", [standard_board(), BIG], ids=["standard", "600-squares"])
@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_a_warm_start_from_other_rules_ends_where_a_cold_one_does(game, board, change):
    rules, params = game
    own = policy_iteration(rules.build(board, params).model)
    other = rules.build(board, params, change).model
    assert np.array_equal(own.model.pair_start, other.pair_start)  # the start fits
    warm = policy_iteration(other, warm_start=own.policy)
    cold = policy_iteration(other)
    _assert_same_solution(warm, cold)
    # and both against an algorithm that shares nothing with policy iteration's start
    # (but for token-boosted on 600 squares: some 7,000 sweeps, 2.4 s; its cold solve is
    # checked against the same model without stages in test_stages.py)
    if other.n_states <= 5_000:
        reference = value_iteration(other, tolerance=1e-11)
        np.testing.assert_allclose(warm.values, reference.values, rtol=1e-8, atol=1e-8)


def test_a_warm_start_ends_at_the_rules_values_by_an_independent_solver():
    """Boosted without chutes, started from the policy of the board with them: against
    the plain Gauss-Seidel sweeps of tests/independent.py."""
    params = boosted.Params()
    own = policy_iteration(boosted.build(standard_board(), params).model)
    game = boosted.build(WITHOUT_CHUTES, params)
    warm = policy_iteration(game.model, warm_start=own.policy)
    expected = jump_values("boosted", 100, WITHOUT_CHUTES.ladders)[0]
    got = game.answer(warm).values
    np.testing.assert_allclose(got, expected[: len(got)], atol=1e-7)


# (aimed's own start already finds its optimal policy on the standard board)
@pytest.mark.parametrize("name", ["boosted", "efron", "token-boosted"])
def test_the_optimal_policy_as_warm_start_settles_at_once(name):
    """Proof the start is taken: from the optimal policy, each stage (or the whole model)
    needs the one evaluation that shows nothing improves; from a proper policy far from it
    (a step toward the goal everywhere), more. A start passed over would give both the same
    count (the kernel's own start finds efron's optimum at once)."""
    from reference_solutions._solver import proper_policy

    rules, params = GAMES[name]
    model = rules.build(standard_board(), params).model
    cold = policy_iteration(model)
    warm = policy_iteration(model, warm_start=cold.policy)
    far = policy_iteration(model, warm_start=proper_policy(model))
    stages = 1 if model.stage is None else np.unique(model.stage).size
    assert warm.iterations == stages < far.iterations
    _assert_same_solution(warm, cold)
    _assert_same_solution(far, cold)


def test_the_sparse_stage_path_takes_the_warm_start(monkeypatch):
    import reference_solutions._solver as solver

    monkeypatch.setattr(solver, "_STAGE_DENSE_MOST", 0)  # every stage on the sparse path
    params = token_boosted.Params(tokens=3)
    model = token_boosted.build(standard_board(), params).model
    cold = policy_iteration(model)
    warm = policy_iteration(model, warm_start=cold.policy)
    assert warm.iterations < cold.iterations
    _assert_same_solution(warm, cold)
    other = token_boosted.build(standard_board(), params, JumpChanges(jump_turns=1)).model
    _assert_same_solution(policy_iteration(other, warm_start=cold.policy), policy_iteration(other))


# A state with a choice: 1 goes to the goal (0) at cost 1, or stays where it is at cost 0;
# staying forever is the improper policy, worth 0 and never the answer.
LOOP = dict(
    n_states=2,
    pair_state=[1, 1],
    pair_action=[0, 1],
    outcome_pair=[0, 1],
    outcome_state=[0, 1],
    outcome_prob=[1.0, 1.0],
    outcome_cost=[1.0, 0.0],
    action_names=("go", "stay"),
)


@pytest.mark.parametrize("discount", [1.0, 0.9])
def test_a_model_with_a_state_that_cannot_reach_the_goal_is_refused_warm_or_cold(discount):
    """State 2 only ever stays where it is: a cold solve refuses the model (its values would
    mean nothing under the rules), and so must a warm one, discounted too."""
    hopeless = dict(n_states=3, pair_state=[1, 2], pair_action=[0, 0], outcome_state=[0, 2],
                    outcome_cost=1.0, action_names=("go",))  # fmt: skip
    model = build_model(**(LOOP | hopeless), discount=discount)
    with pytest.raises(GoalUnreachable):
        policy_iteration(model)
    with pytest.raises(GoalUnreachable):
        policy_iteration(model, warm_start=np.array([-1, 0, 1]))


def test_an_improper_warm_start_is_not_taken():
    model = build_model(**LOOP)
    stay = np.array([-1, 1])  # state 1 keeps its piece forever
    solved = policy_iteration(model, warm_start=stay)
    assert solved.values.tolist() == [0.0, 1.0]
    assert solved.action(1) == "go"


@pytest.mark.parametrize(
    "hint",
    [
        np.array([0, 0, 0]),  # one entry too many
        np.array([-1, 5]),  # a pair the model does not have
        np.array([0, 1]),  # the goal given a pair (it has none)
        np.array([-1, -1]),  # a live state given none
    ],
    ids=["too-long", "no-such-pair", "terminal-with-pair", "live-without-pair"],
)
def test_a_warm_start_that_does_not_fit_is_ignored(hint):
    from reference_solutions._solver import _fitting

    model = build_model(**LOOP)
    assert _fitting(model, hint) is None  # (taken, some would still end right: not this)
    assert _fitting(model, np.array([-1, 0])) is not None
    solved = policy_iteration(model, warm_start=hint)
    assert solved.values.tolist() == [0.0, 1.0]
    assert solved.action(1) == "go"


def test_the_catalogue_starts_each_game_from_the_boards_own_policy(monkeypatch):
    """A rule variant of the board is solved from the board's policy, to the answer a cold
    solve gives (the catalogue's dozen games per student are what the start is for)."""
    import reference_solutions._catalogue as catalogue
    from reference_solutions import make_problem, solve_problem

    problem = make_problem("token-boosted")
    solution = solve_problem(problem)
    variant = next(v for v in token_boosted.MISTAKES if v.name == "chutes-ignored")
    starts = []

    def spy(model, **options):
        starts.append(options.get("warm_start"))
        return policy_iteration(model, **options)

    monkeypatch.setattr(catalogue, "policy_iteration", spy)
    answer, _ = variant.make(problem, solution, None)
    assert len(starts) == 1 and np.array_equal(starts[0], solution.policy)
    cold = token_boosted.build(WITHOUT_CHUTES, problem.params)
    expected = cold.answer(policy_iteration(cold.model))
    np.testing.assert_allclose(answer.values, expected.values, rtol=1e-10)
    assert answer.start_value == pytest.approx(expected.start_value, rel=1e-12)
