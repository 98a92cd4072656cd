"""efron: each turn pick one of four non-transitive dice and roll it (docs/rules.md, "efron")."""

from __future__ import annotations

from dataclasses import dataclass

from autograder import JumpBoard

from .._catalogue import COMMON_MISTAKES, RuleVariant, changed_params
from .._params import Overshoot, dice_set, overshoot, param
from ._jumps import (
    JUMP_EXTRA_TURN,
    JUMP_READINGS,
    JUMPS_IGNORED,
    RULES_AS_WRITTEN,
    JumpGame,
    RuleChanges,
    choice_game,
)

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


def build(board: JumpBoard, params: Params, changes: RuleChanges = RULES_AS_WRITTEN) -> JumpGame:
    dice = [(name, faces, [1.0 / len(faces)] * len(faces)) for name, faces in params.dice]
    return choice_game(
        board, params.overshoot, dice, output=OUTPUT, drop_motionless=True, changes=changes
    )


# A 0 face dropped: the die rolls its other faces only (Black: always 4).
_NO_ZEROS = tuple((name, tuple(f for f in faces if f) or faces) for name, faces in EFRON_DICE)

READINGS = JUMP_READINGS
MISTAKES = (
    RuleVariant(
        "overshoot-stays",
        "a roll past the goal leaves the piece where it stands",
        changed_params(overshoot=Overshoot("stay")),
        reread="efron's overshoot rule: reaching or passing the goal wins",
    ),
    JUMPS_IGNORED,
    JUMP_EXTRA_TURN,
    RuleVariant(
        "zero-face-skipped",
        "a 0 face is rolled again (Black always moves 4)",
        changed_params(dice=_NO_ZEROS),
        reread="the dice: Black's two 0 faces leave the piece where it is, and the turn is spent",
    ),
    *COMMON_MISTAKES,
)
