"""A model in stages (the tokens left) has each policy's values found one stage at a time:
the same answer as the whole chain solved at once, and a stage order that a move breaks is
refused."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from autograder import JumpBoard, standard_board
from reference_solutions import policy_iteration
from reference_solutions._model import build_model
from reference_solutions.rules import token_boosted


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
