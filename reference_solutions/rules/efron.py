"""efron: each turn pick one of four non-transitive dice and roll it (docs/rules.md, "efron")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from autograder import JumpBoard

from .._analysis import AnalysisRules, Strategy, always, squares_text, uniform
from .._catalogue import COMMON_MISTAKES, WORST_ACTIONS, Knob, RuleVariant, Twist, changed_params
from .._params import Overshoot, dice_set, overshoot, param
from ._jumps import (
    CHUTES_IGNORED,
    JUMP_EXTRA_TURN,
    JUMP_READINGS,
    JUMPS_IGNORED,
    JUMPS_SHIFTED,
    LADDERS_IGNORED,
    ROWS_MIRRORED,
    RULES_AS_WRITTEN,
    JumpGame,
    RuleChanges,
    action_words,
    choice_game,
    jump_layout,
)

if TYPE_CHECKING:
    from .._problem import Problem
    from .._solver import Solution

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
    CHUTES_IGNORED,
    LADDERS_IGNORED,
    JUMP_EXTRA_TURN,
    RuleVariant(
        "zero-face-skipped",
        "a 0 face is rolled again (Black always moves 4)",
        changed_params(dice=_NO_ZEROS),
        reread="the dice: Black's two 0 faces leave the piece where it is, and the turn is spent",
    ),
    *JUMPS_SHIFTED,
    ROWS_MIRRORED,
    WORST_ACTIONS,
    *COMMON_MISTAKES,
)

# (die, the face's place on it, the value it shows instead)
Face = tuple[int, int, int]


def _mistyped(problem: Problem) -> list[Face]:
    """One face of one die at another value, 0..8: of equal faces, the first stands for
    them all (the die is the same whichever is changed)."""
    options = []
    for d, (_, faces) in enumerate(problem.params.dice):
        for j, face in enumerate(faces):
            if face in faces[:j]:
                continue
            options += [(d, j, v) for v in range(9) if v != face]
    return options


def _with_face(problem: Problem, face: Face) -> tuple[tuple[str, tuple[int, ...]], ...]:
    d, j, value = face
    dice = list(problem.params.dice)
    name, faces = dice[d]
    dice[d] = (name, (*faces[:j], value, *faces[j + 1 :]))
    return tuple(dice)


def _face_says(problem: Problem, face: Face) -> str:
    name, faces = _with_face(problem, face)[face[0]]
    return f"{name}'s faces are {', '.join(map(str, faces))}"


def _face_twist(problem: Problem, face: Face) -> Twist | None:
    dice = _with_face(problem, face)
    if max(dice[face[0]][1]) == 0:
        return None
    return changed_params(dice=dice)


# What a changed game of this assignment costs to build and solve, against its size
# alone (reference_solutions/_explain.py, SOLVE_SIZE; measured on the benchmark machine):
# four dice of six faces on every square, rebuilt for every face tried.
EXPLAIN_COST = 3.2

KNOBS = (
    Knob("die-face", _face_says, _face_twist, "the dice: each die's six faces, as listed",
         options=_mistyped),
)  # fmt: skip


def _strategies(problem: Problem, solution: Solution) -> list[Strategy]:
    """Each die on every square, and a legal die drawn at random each turn. A die is not
    allowed where it cannot move the piece (docs/rules.md, "efron"): there the single-die
    strategy takes the optimal die instead, and says so."""
    model = solution.model
    strategies = []
    for a, name in enumerate(model.action_names):
        policy, fell = always(model, a, solution.policy)  # square i is state i
        says = f"roll {name} on every square"
        if fell.size:
            says += (
                f"; where {name} cannot move the piece and is not allowed "
                f"({squares_text(fell)}), the optimal die"
            )
        strategies.append(Strategy(f"always {name}", says, policy))
    strategies.append(
        Strategy(
            "random die",
            "a die drawn uniformly every turn among those allowed on the square",
            uniform(model),
        )
    )
    return strategies


# Each die alone and a random die against the optimal dice.
ANALYSIS = AnalysisRules(jump_layout, action_words(), _strategies)
