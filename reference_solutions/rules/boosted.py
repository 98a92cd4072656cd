"""boosted: after seeing the spin ``s`` the player moves ``s`` or ``s + 1`` (docs/rules.md,
"boosted")."""

from __future__ import annotations

from dataclasses import dataclass

from autograder import JumpBoard

from .._params import Overshoot, integer, overshoot, param
from ._jumps import JumpGame, boost_game

OUTPUT = "values"


@dataclass(frozen=True)
class Params:
    faces: int = param(6, integer(1, 10_000), "the spinner shows 1..faces, each equally likely")
    overshoot: Overshoot = param(
        Overshoot("stay"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )


def build(board: JumpBoard, params: Params) -> JumpGame:
    return boost_game(board, params.overshoot, params.faces, None, OUTPUT)
