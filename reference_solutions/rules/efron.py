"""efron: each turn pick one of four non-transitive dice and roll it (docs/rules.md, "efron")."""

from __future__ import annotations

from dataclasses import dataclass

from autograder import JumpBoard

from .._params import Overshoot, dice_set, overshoot, param
from ._jumps import JumpGame, choice_game

OUTPUT = "values-actions"

EFRON_DICE = (
    ("Blue", (3, 3, 3, 3, 3, 3)),
    ("Black", (4, 4, 4, 4, 0, 0)),
    ("Red", (6, 6, 2, 2, 2, 2)),
    ("Green", (5, 5, 5, 1, 1, 1)),
)


@dataclass(frozen=True)
class Params:
    dice: tuple[tuple[str, tuple[int, ...]], ...] = param(
        EFRON_DICE, dice_set, "the dice to choose from, name = faces"
    )
    overshoot: Overshoot = param(
        Overshoot("win"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )


def build(board: JumpBoard, params: Params) -> JumpGame:
    dice = [(name, faces, [1.0 / len(faces)] * len(faces)) for name, faces in params.dice]
    return choice_game(board, params.overshoot, dice, output=OUTPUT, drop_motionless=True)
