"""boosted: after seeing the spin ``s`` the player moves ``s`` or ``s + 1`` (docs/rules.md,
"boosted")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from autograder import JumpBoard

from .._catalogue import COMMON_MISTAKES, RuleVariant, changed_game, changed_rules
from .._params import Overshoot, integer, overshoot, param
from ._jumps import (
    BOOST_ANALYSIS,
    JUMP_READINGS,
    RULES_AS_WRITTEN,
    SPINNER_KNOBS,
    SPINNER_MISTAKES,
    JumpGame,
    RuleChanges,
    boost_game,
    choice_game,
    jump_board,
)

if TYPE_CHECKING:
    from .._problem import Problem

OUTPUT = "values"


@dataclass(frozen=True)
class Params:
    faces: int = param(6, integer(1, 10_000), "the spinner shows 1..faces, each equally likely")
    overshoot: Overshoot = param(
        Overshoot("stay"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )


def build(board: JumpBoard, params: Params, changes: RuleChanges = RULES_AS_WRITTEN) -> JumpGame:
    return boost_game(board, params.overshoot, params.faces, None, OUTPUT, changes)


def _before_spin(problem: Problem) -> JumpGame:
    """The choice of ``s`` or ``s + 1`` made before the spin: two fixed moves to pick from."""
    f, p = problem.params.faces, [1.0 / problem.params.faces] * problem.params.faces
    moves = [("spin", range(1, f + 1), p), ("boost", range(2, f + 2), p)]
    return choice_game(jump_board(problem), problem.params.overshoot, moves, output=OUTPUT)


def _averaged(problem: Problem) -> JumpGame:
    """The move ``s`` and the boost ``s + 1`` averaged, each half the time, not chosen."""
    f = problem.params.faces
    moves = (*range(1, f + 1), *range(2, f + 2))
    spin = ("spin", moves, [0.5 / f] * (2 * f))
    return choice_game(jump_board(problem), problem.params.overshoot, [spin], output=OUTPUT)


_BOOST = "the boost: the player sees the spin s, then moves s or s + 1 by the same rules"
BOOST_MISTAKES = (
    RuleVariant(
        "boost-past-goal-wins",
        "a boosted move past the goal wins",
        changed_rules(boost_overshoot=Overshoot("win")),
        reread=_BOOST + " (exact count included)",
    ),
    RuleVariant(
        "boost-skips-jumps",
        "a boosted move does not follow the chute or ladder it ends on",
        changed_rules(boost_jumps=False),
        reread=_BOOST + " (a chute or ladder where it ends included)",
    ),
)
READINGS = JUMP_READINGS
MISTAKES = (
    *SPINNER_MISTAKES,
    *BOOST_MISTAKES,
    RuleVariant(
        "boost-averaged",
        "the spin s and the boost s + 1 are averaged, half each, instead of the better chosen",
        changed_game(_averaged),
        reread=_BOOST + ": the player picks the better of the two moves",
    ),
    RuleVariant(
        "boost-before-spin",
        "the player chooses to boost before spinning",
        changed_game(_before_spin),
        reread=_BOOST + ": the choice comes after the spin is seen",
    ),
    *COMMON_MISTAKES,
)
# Never boost, always boost, boost unless past the goal (rules._jumps.boost_strategies).
KNOBS = SPINNER_KNOBS
ANALYSIS = BOOST_ANALYSIS
