"""Building a jump game's model: the squares from which no action can move the piece are
named, whichever they are (efron's rule drops a die that cannot move the piece)."""

from __future__ import annotations

import pytest

from autograder import GoalUnreachable, JumpBoard
from reference_solutions._params import Overshoot
from reference_solutions.rules._jumps import choice_game


def test_squares_no_action_can_leave_are_named():
    board = JumpBoard(20, ((5, 15),))
    # One die of 3s under the exact-count rule: from 18 and 19 it can only overshoot, so it
    # never moves the piece there; every other square moves.
    with pytest.raises(GoalUnreachable, match=r"from square 18, 19$"):
        choice_game(board, Overshoot("stay"), [("three", [3], [1.0])], output="values-actions",
                    drop_motionless=True)  # fmt: skip


def test_a_game_where_every_square_can_move_builds():
    board = JumpBoard(20, ((5, 15),))
    game = choice_game(board, Overshoot("stay"), [("one", [1], [1.0]), ("three", [3], [1.0])],
                       output="values-actions", drop_motionless=True)  # fmt: skip
    assert game.model.n_states == 21
