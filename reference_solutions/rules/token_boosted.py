"""token-boosted: as boosted, but each ``+1`` spends one of ``tokens`` tokens
(docs/rules.md, "token-boosted")."""

from __future__ import annotations

from dataclasses import dataclass

from autograder import JumpBoard

from .._params import Overshoot, integer, overshoot, param
from ._jumps import JumpGame, boost_game

OUTPUT = "token-values"


@dataclass(frozen=True)
class Params:
    faces: int = param(6, integer(1, 10_000), "the spinner shows 1..faces, each equally likely")
    overshoot: Overshoot = param(
        Overshoot("stay"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )
    tokens: int = param(3, integer(0, 1_000), "tokens at the start; each +1 move spends one")


def build(board: JumpBoard, params: Params) -> JumpGame:
    return boost_game(board, params.overshoot, params.faces, params.tokens, OUTPUT)
