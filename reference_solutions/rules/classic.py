"""classic: one action, spin ``1..faces`` and move that far (docs/rules.md, "classic")."""

from __future__ import annotations

from dataclasses import dataclass

from autograder import JumpBoard

from .._catalogue import COMMON_MISTAKES
from .._params import Overshoot, integer, overshoot, param
from ._jumps import (
    CHOICE_ANALYSIS,
    JUMP_READINGS,
    RULES_AS_WRITTEN,
    SPINNER_FACE_LEFT_OUT,
    SPINNER_KNOBS,
    SPINNER_MISTAKES,
    JumpGame,
    RuleChanges,
    choice_game,
)

OUTPUT = "values"


@dataclass(frozen=True)
class Params:
    faces: int = param(6, integer(1, 10_000), "the spinner shows 1..faces, each equally likely")
    overshoot: Overshoot = param(
        Overshoot("stay"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )


def build(board: JumpBoard, params: Params, changes: RuleChanges = RULES_AS_WRITTEN) -> JumpGame:
    first = changes.first_face
    spin = ("spin", range(first, first + params.faces), [1.0 / params.faces] * params.faces)
    return choice_game(board, params.overshoot, [spin], output=OUTPUT, changes=changes)


READINGS = JUMP_READINGS
MISTAKES = (*SPINNER_MISTAKES, SPINNER_FACE_LEFT_OUT, *COMMON_MISTAKES)
# Numbers of the rules a program may hold at another value (reference_solutions._explain).
KNOBS = SPINNER_KNOBS
# The player has no choice: the analysis shows the forced strategy alone.
ANALYSIS = CHOICE_ANALYSIS
