"""A model in stages (the tokens left) has each policy's values found one stage at a time:
the same answer as the whole chain solved at once, and a stage order that a move breaks is
refused."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from autograder import GoalUnreachable, JumpBoard, standard_board
from reference_solutions import policy_iteration
from reference_solutions._model import build_model
from reference_solutions.rules import token_boosted

# Stage by stage on either path: the kernel solves each small stage, the numpy path the rest.
pytestmark = pytest.mark.usefixtures("either_path")


@pytest.mark.parametrize("tokens", [1, 3, 6])
@pytest.mark.parametrize(
    "board",
    [standard_board(), JumpBoard(600, ((5, 400), (300, 2), (450, 590), (580, 100)))],
    ids=["standard", "600-squares"],
)
def test_stage_by_stage_equals_the_whole_model_at_once(tokens, board, monkeypatch):
    """Policy iteration stage by stage (whatever the model's size) against the same model
    without its stages: whole policies, each evaluated in one solve."""
    import reference_solutions._solver as solver

    model = token_boosted.build(board, token_boosted.Params(tokens=tokens)).model
    assert model.stage is not None and np.unique(model.stage).size == tokens + 1
    monkeypatch.setattr(solver, "STAGED_LIMIT", 0)
    staged = policy_iteration(model)
    whole = policy_iteration(dataclasses.replace(model, stage=None))
    np.testing.assert_allclose(staged.values, whole.values, rtol=1e-10)
    assert np.array_equal(staged.optimal, whole.optimal)
    live = ~model.terminal
    assert staged.optimal[staged.policy[live]].all()  # each chosen move is a best one
    assert staged.residual < 1e-9


def test_a_move_into_a_later_stage_is_refused():
    common = dict(
        n_states=3,
        pair_state=[0, 1],
        pair_action=[0, 0],
        outcome_pair=[0, 1],
        outcome_prob=[1.0, 1.0],
        outcome_cost=1.0,
        action_names=("go",),
    )
    build_model(outcome_state=[1, 2], stage=[1, 0, 0], **common)  # later to earlier: fine
    with pytest.raises(ValueError, match="later stage"):
        build_model(outcome_state=[1, 2], stage=[0, 1, 0], **common)


# Stage 0: the goal (0) and 1, which moves to it; stage 1: 2 moves to 1, but 3 and 4 only
# move between themselves, one action each or a choice of two.
HOPELESS_LATER = {
    "one action": dict(pair_state=[1, 2, 3, 4], pair_action=[0, 0, 0, 0],
                       outcome_state=[0, 1, 3, 3]),
    "a choice": dict(pair_state=[1, 2, 3, 3, 4], pair_action=[0, 0, 0, 1, 0],
                     outcome_state=[0, 1, 3, 4, 3]),
}  # fmt: skip


@pytest.mark.parametrize("path", ["small stages", "sparse stages"])
@pytest.mark.parametrize("moves", HOPELESS_LATER)
def test_states_of_a_later_stage_with_no_route_to_the_goal_are_named(moves, path, monkeypatch):
    """No search of the whole model is made before the stages are solved: a stage whose
    states cannot all reach the goal is found as it is solved, and refused as the whole
    model would be."""
    import reference_solutions._solver as solver

    if path == "sparse stages":
        monkeypatch.setattr(solver, "STAGED_LIMIT", 0)
        monkeypatch.setattr(solver, "_STAGE_DENSE_MOST", 0)
    pairs = len(HOPELESS_LATER[moves]["pair_state"])
    model = build_model(n_states=5, outcome_pair=list(range(pairs)), outcome_prob=[1.0] * pairs,
                        outcome_cost=1.0, action_names=("go", "back"), stage=[0, 0, 1, 1, 1],
                        **HOPELESS_LATER[moves])  # fmt: skip
    with pytest.raises(GoalUnreachable, match=r"reach the goal from 3; 4, so"):
        policy_iteration(model)


def _chain_sizes(monkeypatch) -> list[int]:
    """The sizes of the chains the solver hands to ``solve_chain``, as it goes."""
    import reference_solutions._solver as solver

    sizes: list[int] = []
    solve_chain = solver.solve_chain

    def counted(P, rhs, discount=1.0, guess=None):
        sizes.append(P.shape[0])
        return solve_chain(P, rhs, discount, guess)

    monkeypatch.setattr(solver, "solve_chain", counted)
    return sizes


BOARD_600 = JumpBoard(600, ((5, 400), (300, 2), (450, 590), (580, 100)))


def test_each_stage_is_solved_on_its_own(monkeypatch):
    """Above the dense size, one policy's values on a 3-token board of 600 squares are
    four solves (one per token count) of 600 squares' states each: none holds states of
    two stages, nor the states after a spin (folded), nor the goal (known)."""
    from reference_solutions import evaluate_policy, proper_policy

    model = token_boosted.build(BOARD_600, token_boosted.Params(tokens=3)).model
    policy = proper_policy(model)
    sizes = _chain_sizes(monkeypatch)
    values = evaluate_policy(model, policy)
    assert sizes == [600] * 4
    whole = evaluate_policy(dataclasses.replace(model, stage=None), policy)
    assert sizes[4:] == [2400]  # the same chain, at once
    np.testing.assert_allclose(values, whole, rtol=1e-12)


def test_policy_iteration_goes_stage_by_stage(monkeypatch):
    """Policy iteration on a large model in stages improves one stage at a time: every
    chain it solves is one token count's 600 squares, and each of the four stages is
    solved. (The limit is lowered to this 16,801-state model.)"""
    import reference_solutions._solver as solver

    model = token_boosted.build(BOARD_600, token_boosted.Params(tokens=3)).model
    monkeypatch.setattr(solver, "STAGED_LIMIT", model.n_states - 1)
    sizes = _chain_sizes(monkeypatch)
    solution = policy_iteration(model)
    assert sizes and set(sizes) == {600}
    assert solution.iterations == len(sizes) >= 4


def test_a_spinner_from_zero_keeps_each_spin_its_own_state():
    """The mistake "the spinner shows 0..5" (first_face=0) once numbered the state after
    spinning 0 on square 0 as the goal: the goal got moves and the stages broke."""
    from reference_solutions.rules._jumps import JumpChanges, boost_game

    board = standard_board()
    game = boost_game(board, token_boosted.Params().overshoot, 6, 3, "token-values",
                      JumpChanges(first_face=0))  # fmt: skip
    model = game.model
    assert model.terminal[game.goal_state]
    assert model.terminal.sum() == 1
    solution = policy_iteration(model)
    assert np.all(np.isfinite(solution.values))


def _recorded_small_solves(monkeypatch, path: str) -> list[tuple[int, bool, int]]:
    """Per stage solved on the small models' path of ``path`` (the kernel's, or the numpy
    path's dense one): the stage model's states, whether it was given a start, and how
    many policies it solved."""
    import reference_solutions._solver as solver

    calls: list[tuple[int, bool, int]] = []
    if path == "kernel":
        kernel_solution = solver._kernel_solution

        def by_kernel(model, max_iterations, tie_tolerance, warm_start):
            solution = kernel_solution(model, max_iterations, tie_tolerance, warm_start)
            if solution is not None:
                calls.append((model.n_states, warm_start is not None, solution.iterations))
            return solution

        monkeypatch.setattr(solver, "_kernel_solution", by_kernel)
        return calls
    dense_policy_iteration = solver._dense_policy_iteration

    def recorded(dense, max_iterations, tie_tolerance, hint=None):
        solution = dense_policy_iteration(dense, max_iterations, tie_tolerance, hint)
        calls.append((dense.model.n_states, hint is not None, solution.iterations))
        return solution

    monkeypatch.setattr(solver, "_dense_policy_iteration", recorded)
    return calls


def _without_hints(monkeypatch, path: str) -> None:
    """Each stage solved from its own start on the numpy path's small models' path."""
    import reference_solutions._solver as solver

    assert path == "numpy"
    unhinted = solver._dense_start
    monkeypatch.setattr(solver, "_dense_start", lambda dense, hint=None: unhinted(dense))


@pytest.mark.parametrize("tokens", [2, 6])
def test_small_stages_go_the_small_way_each_from_the_last_ones_policy(
    tokens, monkeypatch, either_path
):
    """A model whose stages are small (the standard board: 707 states a token count) is
    solved a stage at a time on the small models' path, whatever its size, to the plain
    implementation's answer. On the numpy path each stage shaped like the one before
    starts from that one's policy, which saves policies; the kernel's own start does as
    well, and it is given none."""
    from autograder import STANDARD_JUMPS
    from reference_solutions import make_problem, solve_problem
    from tests import independent

    problem = make_problem("token-boosted", None, [f"tokens={tokens}"])
    calls = _recorded_small_solves(monkeypatch, either_path)
    solution = solve_problem(problem)
    assert len(calls) == tokens + 1  # (a stage's model: its states, and those it leads to)
    assert max(states for states, _, _ in calls) < problem.game.model.n_states / tokens
    expected = independent.jump_values("token-boosted", 100, STANDARD_JUMPS, tokens=tokens)
    got = np.array(problem.game.values_json(solution))
    assert np.max(np.abs(got - np.array(expected))) < 1e-8
    if either_path == "kernel":
        assert not any(hinted for _, hinted, _ in calls)
        return
    assert all(hinted for _, hinted, _ in calls[2:])  # (tokens 0 and 1 differ in shape)
    _without_hints(monkeypatch, either_path)
    from_scratch = solve_problem(problem)
    np.testing.assert_allclose(from_scratch.values, solution.values, rtol=1e-12)
    hinted_policies = sum(policies for _, _, policies in calls[2 : tokens + 1])
    scratch_policies = sum(policies for _, _, policies in calls[tokens + 3 :])
    assert hinted_policies < scratch_policies
