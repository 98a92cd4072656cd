"""aimed: name an aim ``k``; the piece moves ``k-1``, ``k`` or ``k+1`` with ``noise``
(docs/rules.md, "aimed")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from autograder import JumpBoard, Objective

from .._analysis import AnalysisRules, Strategy, always, policy_values, runs, uniform
from .._catalogue import (
    COMMON_MISTAKES,
    WORST_ACTIONS,
    Knob,
    RuleVariant,
    Twist,
    actions_from_zero,
    changed_params,
)
from .._params import Overshoot, choice, integer, number, overshoot, param, probabilities
from ._jumps import (
    CHUTES_IGNORED,
    JUMP_EXTRA_TURN,
    JUMP_READINGS,
    JUMPS_IGNORED,
    JUMPS_SHIFTED,
    LADDERS_IGNORED,
    OVERSHOOT_BOUNCES,
    OVERSHOOT_WINS,
    ROWS_MIRRORED,
    RULES_AS_WRITTEN,
    JumpGame,
    RuleChanges,
    action_words,
    choice_game,
    faces_knob,
    jump_layout,
)

if TYPE_CHECKING:
    from .._problem import Problem
    from .._solver import Solution

OUTPUT = "values-actions"


@dataclass(frozen=True)
class Params:
    faces: int = param(6, integer(1, 10_000), "the aims are 1..faces")
    noise: tuple[float, ...] = param(
        (0.25, 0.5, 0.25), probabilities(3), "probabilities of moving aim-1, aim, aim+1"
    )
    overshoot: Overshoot = param(
        Overshoot("stay"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )
    objective: Objective = param(
        "turns", choice("turns", "discounted"), "minimise turns, or maximise discounted reward"
    )
    discount: float = param(
        0.9,
        number(0.0, 1.0, open_low=True, open_high=True),
        "discounted objective: factor per move (below 1, or every value is the reward)",
        applies=("objective", "discounted"),
    )
    reward: float = param(
        100.0,
        number(0.0, 1e9),
        "discounted objective: value of the goal",
        applies=("objective", "discounted"),
    )


def build(board: JumpBoard, params: Params, changes: RuleChanges = RULES_AS_WRITTEN) -> JumpGame:
    aims = [(str(k), (k - 1, k, k + 1), params.noise) for k in range(1, params.faces + 1)]
    return choice_game(
        board,
        params.overshoot,
        aims,
        output=OUTPUT,
        objective=params.objective,
        discount=params.discount,
        reward=params.reward,
        changes=changes,
    )


READINGS = JUMP_READINGS
MISTAKES = (
    OVERSHOOT_WINS,
    OVERSHOOT_BOUNCES,
    JUMPS_IGNORED,
    CHUTES_IGNORED,
    LADDERS_IGNORED,
    JUMP_EXTRA_TURN,
    RuleVariant(
        "noise-ignored",
        "the piece always moves exactly the aim",
        changed_params(noise=(0.0, 1.0, 0.0)),
        reread="the noise: an aim k moves k-1, k or k+1 with probabilities 1/4, 1/2, 1/4",
    ),
    RuleVariant(
        "aims-from-zero",
        "each aim is printed one lower than it is (counted from 0, as a list's index)",
        actions_from_zero,
        reread="the actions: print the aim itself (1 to the number of aims), not its place "
        "in a list",
    ),
    *JUMPS_SHIFTED,
    ROWS_MIRRORED,
    WORST_ACTIONS,
    *COMMON_MISTAKES,
)

_NOISE = "the noise: an aim k moves k-1, k or k+1 with probabilities 1/4, 1/2, 1/4"


def _noise_twist(problem: Problem, weights: Any) -> Twist | None:
    if isinstance(weights, float):  # spread evenly to both sides
        weights = (weights, 1.0 - 2.0 * weights, weights)
    else:
        low, high = weights
        weights = (low, 1.0 - low - high, high)
    if min(weights) < -1e-12 or tuple(weights) == problem.params.noise:
        return None
    return changed_params(noise=tuple(max(0.0, w) for w in weights))


def _noise_says(problem: Problem, weights: Any) -> str:
    low, high = (weights, weights) if isinstance(weights, float) else weights
    shown = ", ".join(f"{w:.6g}" for w in (low, 1.0 - low - high, high))
    return f"an aim k moves k-1, k or k+1 with probabilities {shown}"


def _discount_twist(problem: Problem, by: float) -> Twist | None:
    if problem.params.objective != "discounted" or not 0.0 < by < 1.0:
        return None
    return changed_params(discount=by)


# What a changed game of this assignment costs to build and solve, against its size
# alone (reference_solutions/_explain.py, SOLVE_SIZE; measured on the benchmark machine):
# six aims, each with three outcomes, rebuilt for every noise tried.
EXPLAIN_COST = 3.0

KNOBS = (
    Knob("noise", _noise_says, _noise_twist, _NOISE, bounds=((0.0, 0.5),)),
    Knob("noise", _noise_says, _noise_twist, _NOISE, bounds=((0.0, 1.0), (0.0, 1.0))),
    faces_knob("aims", "the aims are 1..{}", "the aims: 1 to the number of aims"),
    Knob(
        "discount",
        lambda _p, by: f"the discount per move is {by:.6g}",
        _discount_twist,
        "the discounted objective: its discount per move",
        bounds=((0.3, 0.9995),),
        decimals=4,
    ),
)


def _strategies(problem: Problem, solution: Solution) -> list[Strategy]:
    """The best single aim held for the whole game, and an aim drawn at random each turn."""
    model = solution.model
    faces = problem.params.faces
    sign = model.sign_of(model.start)
    fixed = [always(model, a, solution.policy)[0] for a in range(faces)]  # action a: aim a + 1
    start = np.array([policy_values(model, policy)[model.start] for policy in fixed])
    best = int(np.argmin(sign * start))  # the first of equals: the smallest aim
    what = "the highest discounted reward" if model.maximize else "the fewest turns"
    says = (
        f"aim {best + 1} on every square: of the {faces} aims held for a whole game, the one "
        f"with {what} from the start"
    )
    stuck = np.flatnonzero(~np.isfinite(start)) + 1
    if stuck.size:
        says += f" (aims {runs(stuck)} held throughout can never finish)"
    randomly = f"an aim drawn uniformly from 1..{faces} every turn"
    return [
        Strategy(f"always aim {best + 1}", says, fixed[best]),
        Strategy("random aim", randomly, uniform(model)),
    ]


# The best single aim and a random aim against the optimal aims.
ANALYSIS = AnalysisRules(jump_layout, action_words("aim {}"), _strategies)
