"""Explaining a wrong answer with the solver at hand: the grading side's half of naming a
mistake (the engine weighs what is offered here with the answer key's catalogue).

Three kinds of explanation need the printed answer itself, so they cannot be worked out
with the answer key beforehand:

- **A number of the rules with another value** (a :class:`Knob`): a discount, a noise
  weight, a die's face, a trap's chance. The value that best explains the printed values
  is found (least squares through the model, one dimension or two) and named at the
  fewest decimals that explain the answer as well.
- **Two mistakes at once**: pairs of the catalogue's mistakes that are made of parts
  (:class:`Twist`), and a catalogued mistake with a knob fitted on top, tried only when no
  single explanation accounts for the answer.
- **Value iteration stopped early**, checked on every entry: the printed values must be
  value iteration's after some number of sweeps, not merely below the right ones.

When nothing explains the answer, :func:`where_it_starts` says where the error starts: the
wrong square nearest the goal whose moves all lead to squares printed right.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize

from autograder import Expected, Explanation, Printed, TestCase, Variation, mark, mistake_fit

from ._catalogue import COMMON_KNOBS, Knob, RuleVariant, Twist, in_place_trajectory
from ._policy import solved_board
from ._problem import Problem
from ._solver import Solution

__all__ = ["explain", "where_it_starts"]

# The shares a candidate must reach to be worth offering (the engine decides what is named).
OFFERED = 0.9
# Pairs and fits on top of a mistake are tried within this many solves of a changed game
# per board (0.05 ms to 1 ms each): most wrong programs are explained before; the rest
# must not hold a batch up.
SOLVES = 3000


@dataclass(frozen=True)
class _Offer:
    variation: Variation
    fit: float
    explains: float

    @property
    def offered(self) -> bool:
        return self.fit >= OFFERED and self.explains >= OFFERED


class _Board:
    """One board's problem, solution and printed answer, and the measures of a candidate."""

    def __init__(self, problem: Problem, solution: Solution, case: TestCase, printed: Printed):
        self.problem, self.solution, self.case, self.printed = problem, solution, case, printed
        self.expected: Expected = case.expected
        self.tolerance = problem.assignment.value_tolerance
        loose = self.expected.reading_dependent(self.tolerance)
        self.wrong = {w.key for w in mark(printed, self.expected, self.tolerance).wrong}
        # The games built on this board, by twist without its model change (``Twist.outcome``)
        self.built: dict[Twist, Any] = {}
        # Solves left for two mistakes at once: a count, not a clock, so that one answer
        # gets one explanation however busy the machine is.
        self.solves_left = SOLVES
        self.values = [
            e
            for e in self.expected.entries(self.tolerance)
            if not e.is_action and e.key not in loose
        ]

    def offer(self, name: str, says: str, outcome: Any, reread: str = "") -> _Offer | None:
        if outcome is None:
            return None
        answer, accepted = outcome
        variation = Variation(name, says, answer, accepted, reread)
        fit, explains = mistake_fit(
            self.printed, self.expected, variation, self.tolerance, self.wrong
        )
        return _Offer(variation, fit, explains)

    def squared_error(self, outcome: Any) -> float:
        """How far the printed values are from those of ``outcome`` (an answer and its
        accepted actions); a value missing on either side counts as far."""
        answer, accepted = outcome
        listed = self.expected.entries_of(answer, accepted, self.tolerance)
        theirs = {e.key: e.value for e in listed if not e.is_action}
        total = 0.0
        for entry in self.values:
            printed = self.printed.numbers.get(entry.key, math.nan)
            other = theirs.get(entry.key)
            if other is None or not math.isfinite(printed) or not math.isfinite(other):
                total += 1e6
            else:
                total += (printed - other) ** 2
        return total


def _solved(board: _Board, twist: Twist | None) -> Any:
    if twist is None:
        return None
    board.solves_left -= 1
    return twist.outcome(board.problem, board.solution, board.expected, board.built)


def _fit_continuous(board: _Board, knob: Knob, base: Twist | None = None) -> _Offer | None:
    """The knob's value that best explains the printed values (on top of ``base``), named
    at the fewest decimals that explain them as well."""

    def twist_at(value: Any) -> Twist | None:
        own = knob.twist(board.problem, value)
        if own is None or base is None:
            return own
        return base + own

    def error(point: np.ndarray) -> float:
        value = float(point[0]) if len(knob.bounds) == 1 else tuple(map(float, point))
        outcome = _solved(board, twist_at(value))
        return 1e12 if outcome is None else board.squared_error(outcome)

    if len(knob.bounds) == 1:
        low, high = knob.bounds[0]
        # A coarse scan first: with a policy that changes along the way the error is not
        # one smooth valley.
        line = np.linspace(low, high, 12)
        errors = [error(np.array([x])) for x in line]
        k = int(np.argmin(errors))
        left, right = line[max(0, k - 1)], line[min(len(line) - 1, k + 1)]
        found = optimize.minimize_scalar(
            lambda x: error(np.array([x])), bounds=(left, right), method="bounded",
            options={"xatol": 1e-6},
        )  # fmt: skip
        best: Any = float(found.x)
    else:
        # A coarse grid over the box, then the simplex from its best point.
        axes = [np.linspace(lo, hi, 9) for lo, hi in knob.bounds]
        grid = [np.array(p) for p in itertools.product(*axes)]
        errors = [error(p) for p in grid]
        start = grid[int(np.argmin(errors))]
        simplex = [start, start + np.array([0.03, 0.0]), start + np.array([0.0, 0.03])]
        found = optimize.minimize(
            error, start, method="Nelder-Mead",
            options={"xatol": 1e-5, "fatol": 1e-10, "maxfev": 150, "initial_simplex": simplex},
        )  # fmt: skip
        best = tuple(float(x) for x in found.x)
    return _named_value(board, knob, best, twist_at)


def _named_value(
    board: _Board, knob: Knob, value: Any, twist_at: Callable[[Any], Twist | None]
) -> _Offer | None:
    """The offer at ``value`` rounded to the fewest decimals that explain the printed
    answer as well as ``value`` itself (a discount of 0.95, not 0.950013)."""
    exact = _solved(board, twist_at(value))
    if exact is None:
        return None
    target = board.offer(knob.name, "", exact)
    if target is None:
        return None
    for places in range(1, knob.decimals + 1):
        rounded = (
            round(value, places)
            if isinstance(value, float)
            else tuple(round(v, places) for v in value)
        )
        outcome = _solved(board, twist_at(rounded))
        offer = board.offer(knob.name, knob.says(board.problem, rounded), outcome, knob.reread)
        if offer is not None and offer.fit >= target.fit:
            return offer
    return board.offer(knob.name, knob.says(board.problem, value), exact, knob.reread)


def _try_options(board: _Board, knob: Knob, base: Twist | None = None) -> list[_Offer]:
    assert knob.options is not None
    offers = []
    for option in knob.options(board.problem):
        own = knob.twist(board.problem, option)
        twist = own if own is None or base is None else base + own
        offer = board.offer(
            knob.name, knob.says(board.problem, option), _solved(board, twist), knob.reread
        )
        if offer is not None:
            offers.append(offer)
    return offers


def _fits(board: _Board, knobs: Sequence[Knob], base: Twist | None = None) -> list[_Offer]:
    offers: list[_Offer] = []
    for knob in knobs:
        # (a knob searched more widely under the same name is wanted only where the
        # narrower search found nothing: noise spread evenly, then any noise)
        if any(o.offered and o.variation.name == knob.name for o in offers):
            continue
        if knob.options is not None:
            offers += _try_options(board, knob, base)
        elif (offer := _fit_continuous(board, knob, base)) is not None:
            offers.append(offer)
    return offers


# --- value iteration stopped early, entry by entry ---------------------------------------

_COURSES = (
    ("sweeps", "each from the last sweep's values", False),
    ("sweeps_up", "updating the values in place, from the lowest square up", False),
    ("sweeps_down", "updating the values in place, from the highest square down", True),
)
_ITERATE = "iterate until the largest change is below 1e-9"


def _synchronous(board: _Board, sweeps: int) -> np.ndarray:
    """The values after ``sweeps`` sweeps of value iteration from 0, each from the last."""
    model = board.solution.model
    depth = board.problem.game.steps_per_sweep
    sign = -1.0 if model.maximize else 1.0
    live = ~model.terminal
    starts = model.pair_start[:-1][live]
    cost = sign * model.pair_cost
    values = np.where(model.terminal, sign * model.terminal_value, 0.0)
    for _ in range(sweeps * depth):
        q = cost + model.discount * (model.transitions @ values)
        values[live] = q if model.single_action else np.minimum.reduceat(q, starts)
    return sign * values


def _staged(board: _Board, sweeps: int) -> np.ndarray:
    """The values of a model in stages (token-boosted's tables) filled one stage after the
    other, fewest tokens first, each by ``sweeps`` sweeps from 0 from the last sweep's
    values, as a handout's loop over the tables does."""
    model = board.solution.model
    depth = board.problem.game.steps_per_sweep
    sign = -1.0 if model.maximize else 1.0
    live = ~model.terminal
    starts = model.pair_start[:-1][live]
    cost = sign * model.pair_cost
    values = np.where(model.terminal, sign * model.terminal_value, 0.0)
    stage = np.asarray(model.stage)
    for k in np.unique(stage):
        mine = stage[live] == k
        for _ in range(sweeps * depth):
            q = cost + model.discount * (model.transitions @ values)
            best = q if model.single_action else np.minimum.reduceat(q, starts)
            values[np.flatnonzero(live)[mine]] = best[mine]
    return sign * values


def _staged_sweeps(board: _Board, start: float) -> int | None:
    """The sweeps per stage after which the start value is ``start``, by bisection (more
    sweeps never lower a value: each stage climbs from 0 towards its own)."""
    model = board.solution.model
    high = 4 * len(board.expected.sweeps) + 50

    def at(sweeps: int) -> float:
        return float(_staged(board, sweeps)[model.start])

    low = 1
    if at(low) > start + board.tolerance or at(high) < start - board.tolerance:
        return None
    while low < high:
        middle = (low + high) // 2
        if at(middle) < start - board.tolerance:
            low = middle + 1
        else:
            high = middle
    return low


def _stopped(board: _Board) -> list[_Offer]:
    """Value iteration's values after the sweeps whose start value is the printed one, on
    each course the answer key followed: offered as a stopped iteration, to be weighed
    entry by entry like any other explanation."""
    start = board.printed.numbers.get("start")
    if start is None or not math.isfinite(start):
        return []
    offers = []
    game = board.problem.game
    if board.solution.model.stage is not None and not board.solution.model.maximize:
        sweeps = _staged_sweeps(board, start)
        if sweeps is not None:
            for k in (sweeps, sweeps + 1):
                stopped = dataclasses.replace(board.solution, values=_staged(board, k))
                outcome = (game.answer(stopped), board.expected.accepted)
                offer = board.offer("stopped-early", f"{k} sweeps per table", outcome)
                if offer is not None:
                    offers.append(offer)
    for field, how, descending in _COURSES:
        course: tuple[float, ...] = getattr(board.expected, field)
        near = [k + 1 for k, v in enumerate(course) if abs(v - start) <= board.tolerance + 1e-9]
        for sweeps in near[:3]:
            if field == "sweeps":
                values = _synchronous(board, sweeps)
            else:
                kept: dict[int, list[float]] = {}
                needed = len(board.expected.sweeps)
                in_place_trajectory(game, board.solution, board.tolerance, needed,
                                    descending=descending, keep=(sweeps,), kept=kept)  # fmt: skip
                if sweeps not in kept:
                    continue
                model = board.solution.model
                sign = -1.0 if model.maximize else 1.0
                values = sign * np.array(kept[sweeps])
            stopped = dataclasses.replace(board.solution, values=values)
            answer = game.answer(stopped)
            says = (f"your values are value iteration's after {sweeps} sweep"
                    f"{'s' if sweeps > 1 else ''} from 0, {how}: {_ITERATE}")  # fmt: skip
            offer = board.offer("stopped-early", says, (answer, board.expected.accepted),
                                reread=f"your values are those of value iteration stopped "
                                f"before they converged: {_ITERATE}")  # fmt: skip
            if offer is not None:
                offers.append(offer)
    return offers


# --- where the error starts ---------------------------------------------------------------


def where_it_starts(board: _Board) -> str:
    """The wrong square nearest the goal whose moves all lead to squares printed right (or
    the goal): the rule applied there is what differs. Its moves and jumps, in the game's
    words, and the value they give it."""
    expected, tolerance = board.expected, board.tolerance
    answer = expected.answer
    if isinstance(answer.values[0], tuple) if answer.values else True:
        return ""  # (token tables: each table has squares of its own; left to the listing)
    game, solution = board.problem.game, board.solution
    model = solution.model
    first = game.first_square
    entries = {e.key: e for e in expected.entries(tolerance) if not e.is_action}
    printed = board.printed.numbers
    right: dict[int, float] = {}
    wrong: list[int] = []
    for key, entry in entries.items():
        if not key.isdigit():
            continue
        state = int(key) - first
        value = printed.get(key, math.nan)
        if entry.value is not None and abs(value - entry.value) <= entry.tolerance:
            right[state] = value
        else:
            wrong.append(state)
    if not wrong:
        return ""
    goal_values = {s: float(model.terminal_value[s]) for s in np.flatnonzero(model.terminal)}
    sign = -1.0 if model.maximize else 1.0
    shown_states = set(right) | set(wrong)
    for state in sorted(wrong, key=lambda s: sign * solution.values[s]):
        nexts = sorted(
            {t for p in model.pairs_of(state) for t in _outcomes(model, int(p), shown_states)}
        )
        if all(t in right or t in goal_values for t in nexts):
            shown = [model.label(t) if t not in goal_values else "the goal" for t in nexts]
            key = str(state + first)
            said = printed.get(key, math.nan)
            should = entries[key].value or 0.0
            return (  # fmt: skip
                f"where the error starts: {model.label(state)} is wrong ({said:.2f}, where "
                f"the rules give {should:.2f}) though every square its moves lead to is "
                f"right ({_listed(shown)}): check the rule for a move from "
                f"{model.label(state)}: where it lands, and what a jump there does."
            )
    return ""


def _outcomes(model: Any, pair: int, printed: set[int]) -> set[int]:
    """The printed states (or the goal) pair ``pair`` can lead to, through any state that
    is not printed (a boosted square's states after the spin, where the move is chosen)."""
    P = model.transitions
    out: set[int] = set()
    for state in P.indices[P.indptr[pair] : P.indptr[pair + 1]].tolist():
        if state in printed or model.terminal[state]:
            out.add(state)
        else:
            for inner in model.pairs_of(state):
                out |= _outcomes(model, int(inner), printed)
    return out


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")


# --- all together -------------------------------------------------------------------------


def _twists(problem: Problem) -> list[RuleVariant]:
    return [m for m in problem.rules.MISTAKES if isinstance(m.make, Twist)]


def _says(problem: Problem, variant: RuleVariant) -> str:
    return variant.says(problem) if callable(variant.says) else variant.says


def _pairs(board: _Board, knobs: Sequence[Knob]) -> list[_Offer]:
    """Two catalogued mistakes at once, then a knob fitted on top of one, until one of
    them explains the answer or ``SOLVES`` are spent."""
    problem = board.problem
    twisted = [(v, v.make) for v in _twists(problem)]
    offers: list[_Offer] = []
    for (a, ta), (b, tb) in itertools.combinations(twisted, 2):
        if board.solves_left <= 0:
            return offers
        assert isinstance(ta, Twist) and isinstance(tb, Twist)
        both = ta + tb
        if both is None:
            continue
        says = f"{_says(problem, a)}, and {_says(problem, b)}"
        reread = "; ".join(r for r in (a.reread, b.reread) if r)
        offer = board.offer(f"{a.name}+{b.name}", says, _solved(board, both), reread)
        if offer is not None and offer.offered:
            offers.append(offer)
    if offers:
        return offers
    # A knob's discrete values are mistakes of their own (5 aims), with another on top.
    for knob in knobs:
        for option in knob.options(problem) if knob.options is not None else ():
            part = knob.twist(problem, option)
            if part is not None:
                said = knob.says(problem, option)
                twisted.append((RuleVariant(knob.name, said, part, knob.reread), part))

    # The mistakes that alone explain most of the errors are tried first; on top of them
    # the knobs of one number (two, as aimed's any noise, would take the whole budget).
    def alone(pair: tuple[RuleVariant, Any]) -> tuple[float, float]:
        offer = board.offer("", "", _solved(board, pair[1]))
        return (0.0, 0.0) if offer is None else (offer.explains, offer.fit)

    twisted.sort(key=alone, reverse=True)
    for variant, base in twisted:
        if board.solves_left <= 0:
            return offers
        assert isinstance(base, Twist)
        others = [k for k in knobs if k.name != variant.name and len(k.bounds) < 2]
        for offer in _fits(board, others, base):
            if offer.offered:
                v = offer.variation
                said = f"{_says(problem, variant)}, and {v.says}"
                reread = "; ".join(r for r in (variant.reread, v.reread) if r)
                named = dataclasses.replace(v, name=f"{variant.name}+{v.name}", says=said,
                                            reread=reread)  # fmt: skip
                offers.append(_Offer(named, offer.fit, offer.explains))
    return offers


def explain(name: str, case: TestCase, printed: Printed) -> Explanation:
    """What can explain ``printed``, a wrong answer on ``case``'s board of assignment
    ``name``: the candidates worth weighing, and where the error starts."""
    problem, solution = solved_board(name, case.board)
    board = _Board(problem, solution, case, printed)
    knobs = (*getattr(problem.rules, "KNOBS", ()), *COMMON_KNOBS)
    stopped = _stopped(board)
    offers = _fits(board, knobs)
    singles = [*stopped, *offers]
    for m in case.expected.mistakes:
        fit, explains = mistake_fit(printed, case.expected, m, board.tolerance)
        singles.append(_Offer(m, fit, explains))
    if not any(o.offered for o in singles):
        offers += _pairs(board, knobs)
    chosen = tuple(o.variation for o in offers if o.offered)
    where = "" if chosen else where_it_starts(board)
    courses = bool(case.expected.sweeps)
    return Explanation(chosen, courses, any(o.offered for o in stopped), where)
