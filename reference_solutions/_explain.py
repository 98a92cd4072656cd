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

from autograder import Expected, Explanation, Printed, TestCase, Variation, mark, mistake_fit

from ._catalogue import COMMON_KNOBS, Knob, RuleVariant, Twist, in_place_trajectory
from ._policy import solved_board
from ._problem import Problem
from ._solver import Solution

__all__ = ["explain", "where_it_starts"]

# The shares a candidate must reach to be worth offering (the engine decides what is named).
OFFERED = 0.9
# Numbers are fitted, then pairs and fits on top of a mistake tried, within this many solves
# of a changed game per board: most wrong programs are explained before; the rest must not
# hold a batch up.
# A solve counts as one per ``SOLVE_SIZE`` transitions of the board's model, at least one
# (0.2 ms for a classic board of 600, 5 ms for a token-boosted one of 6,600), times the
# rules module's ``EXPLAIN_COST`` where its games cost more to build than their size says
# (measured: about 0.25 ms a unit then): a count of work, not a clock, so that one answer
# gets one explanation however busy the machine is.
SOLVES = 1000
SOLVE_SIZE = 1000
# Numbers are fitted and pairs searched for within this many solves (as counted above)
# over all the boards of one submission, each board within ``SOLVES``; every board first
# tries what explained an earlier one (one solve each), and once these are spent, only
# that: a program that nothing explains costs a bounded amount of work, however many
# boards it is graded on.
SUBMISSION_SOLVES = 1500


# How a candidate is made, so that another board of the same submission can make it again:
# parts, each ("twist", i) (the rules module's i-th mistake made of parts) or
# ("knob", k, value) (the assignment's k-th knob at ``value``).
Recipe = tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class _Offer:
    variation: Variation
    fit: float
    explains: float
    recipe: Recipe = ()

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
        # (value iteration stage by stage: the rows of each stage, once worked out)
        self.stage_rows: list[tuple[np.ndarray, Any, np.ndarray, np.ndarray]] | None = None
        # Solves left for two mistakes at once: a count, not a clock, so that one answer
        # gets one explanation however busy the machine is.
        self.solves_left = float(SOLVES)
        self.spent = 0.0
        self.solve_cost = max(1.0, solution.model.transitions.nnz / SOLVE_SIZE) * getattr(
            problem.rules, "EXPLAIN_COST", 1.0
        )
        self.values = [
            e
            for e in self.expected.entries(self.tolerance)
            if not e.is_action and e.key not in loose
        ]

    def offer(
        self, name: str, says: str, outcome: Any, reread: str = "", recipe: Recipe = ()
    ) -> _Offer | None:
        if outcome is None:
            return None
        answer, accepted = outcome
        variation = Variation(name, says, answer, accepted, reread)
        fit, explains = mistake_fit(
            self.printed, self.expected, variation, self.tolerance, self.wrong
        )
        return _Offer(variation, fit, explains, recipe)

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
    built = len(board.built)
    outcome = twist.outcome(board.problem, board.solution, board.expected, board.built)
    # (a game built anew, not only solved under another discount, counts twice: building
    # is most of the cost where a rule or a parameter changes)
    cost = board.solve_cost * (2 if len(board.built) > built else 1)
    board.solves_left -= cost
    board.spent += cost
    return outcome


def _fit_continuous(
    board: _Board, k: int, knob: Knob, base: Twist | None = None, under: Recipe = ()
) -> _Offer | None:
    """The knob's value that best explains the printed values (on top of ``base``, made by
    ``under``), named at the fewest decimals that explain them as well."""

    def twist_at(value: Any) -> Twist | None:
        own = knob.twist(board.problem, value)
        if own is None or base is None:
            return own
        return base + own

    def error(point: np.ndarray) -> float:
        value = float(point[0]) if len(knob.bounds) == 1 else tuple(map(float, point))
        outcome = _solved(board, twist_at(value))
        if outcome is None:
            # (no game: the rules' own value, or none at all; either way the rules' own
            # answer's error, so that the search sees no spike beside the rules' value)
            return board.squared_error((board.expected.answer, board.expected.accepted))
        return board.squared_error(outcome)

    # (imported here: scipy's optimisers take a good part of a second to import, which
    # every grading command would pay, though most never fit a number)
    from scipy import optimize

    if len(knob.bounds) == 1:
        low, high = knob.bounds[0]
        # A scan first, then a bounded search between the neighbours of each of its best
        # points, the best end kept: with a policy that changes along the way the error
        # is not one smooth valley, and the program's valley can be narrower than the
        # scan's step (aimed's noise of 0.26 each side, beside the rules' 0.25). On top
        # of another mistake (``base``), within the pairs' budget, a coarser scan and one
        # search.
        points, starts = (21, 3) if base is None else (12, 1)
        line = np.linspace(low, high, points)
        errors = [error(np.array([x])) for x in line]
        ends = []
        for at in np.argsort(errors, kind="stable")[:starts]:
            left, right = line[max(0, at - 1)], line[min(len(line) - 1, at + 1)]
            ends.append(optimize.minimize_scalar(
                lambda x: error(np.array([x])), bounds=(left, right), method="bounded",
                options={"xatol": 1e-6},
            ))  # fmt: skip
        best: Any = float(min(ends, key=lambda r: float(r.fun)).x)
    else:
        # A coarse grid over the box, then a simplex from each of its three best points,
        # the best end kept: the error lies in narrow valleys (aimed's noise: the values
        # follow the chance of missing the aim far more than the side it misses to), which
        # run to the box's edge, where the grid's very best point may lie, far from the
        # program's numbers.
        axes = [np.linspace(lo, hi, 9) for lo, hi in knob.bounds]
        grid = [np.array(p) for p in itertools.product(*axes)]
        errors = [error(p) for p in grid]
        steps = np.array([[0.0, 0.0], [0.03, 0.0], [0.0, 0.03]])
        ends = [
            optimize.minimize(
                error, grid[i], method="Nelder-Mead",
                options={"xatol": 1e-5, "fatol": 1e-10, "maxfev": 80,
                         "initial_simplex": grid[i] + steps},
            )
            for i in np.argsort(errors, kind="stable")[:3]
        ]  # fmt: skip
        found = min(ends, key=lambda r: float(r.fun))
        best = tuple(float(x) for x in found.x)
    return _named_value(board, knob, best, twist_at, lambda v: (*under, ("knob", k, v)))


def _named_value(
    board: _Board,
    knob: Knob,
    value: Any,
    twist_at: Callable[[Any], Twist | None],
    recipe_at: Callable[[Any], Recipe],
) -> _Offer | None:
    """The offer at ``value`` rounded to the fewest decimals that explain the printed
    answer as well as ``value`` itself (a discount of 0.95, not 0.950013). At each number
    of decimals the rounded value's neighbours are tried too: where the policy changes
    along the way, the search may end in a valley beside the one the program's number lies
    in (noise of 0.33 each side, where 0.34 explains every entry)."""
    exact = _solved(board, twist_at(value))
    if exact is None:
        return None
    target = board.offer(knob.name, "", exact)
    if target is None:
        return None
    for places in range(1, knob.decimals + 1):
        best: _Offer | None = None
        for point in _around(value, places, knob.bounds):
            outcome = _solved(board, twist_at(point))
            said = knob.says(board.problem, point)
            offer = board.offer(knob.name, said, outcome, knob.reread, recipe_at(point))
            if offer is not None and (best is None or offer.fit > best.fit):
                best = offer
            if best is not None and best.fit >= 1.0:
                break
        if best is not None and best.fit >= target.fit:
            return best
    said = knob.says(board.problem, value)
    return board.offer(knob.name, said, exact, knob.reread, recipe_at(value))


def _around(value: Any, places: int, bounds: Sequence[tuple[float, float]]) -> list[Any]:
    """``value`` rounded to ``places`` decimals, then the values one last decimal away
    from it (along each axis, for a point) that lie within ``bounds``."""
    step = 10.0**-places
    point = (value,) if isinstance(value, float) else tuple(value)
    middle = tuple(round(v, places) for v in point)
    points = [middle]
    for axis, (low, high) in enumerate(bounds):
        for sign in (-1, 1):
            moved = list(middle)
            moved[axis] = round(moved[axis] + sign * step, places)
            if low <= moved[axis] <= high:
                points.append(tuple(moved))
    return [p[0] for p in points] if isinstance(value, float) else points


def _try_options(
    board: _Board, k: int, knob: Knob, base: Twist | None = None, under: Recipe = ()
) -> list[_Offer]:
    assert knob.options is not None
    offers = []
    for option in knob.options(board.problem):
        if board.solves_left <= 0:
            break
        own = knob.twist(board.problem, option)
        twist = own if own is None or base is None else base + own
        said = knob.says(board.problem, option)
        offer = board.offer(knob.name, said, _solved(board, twist), knob.reread,
                            (*under, ("knob", k, option)))  # fmt: skip
        if offer is not None:
            offers.append(offer)
    return offers


def _work(board: _Board, knob: Knob) -> int:
    """About how many solves fitting ``knob`` takes: the cheaper knobs are fitted first,
    so that a submission's budget reaches them (5 aims before any noise)."""
    if knob.options is not None:
        return len(knob.options(board.problem))
    return 70 if len(knob.bounds) == 1 else 330


def _fits(
    board: _Board, knobs: Sequence[tuple[int, Knob]], base: Twist | None = None,
    under: Recipe = (),
) -> list[_Offer]:  # fmt: skip
    """The knobs (with their places in the assignment's list) fitted one at a time, on top
    of ``base`` (made by ``under``) where one is given."""
    offers: list[_Offer] = []
    for k, knob in knobs:
        # (a knob searched more widely under the same name is wanted only where the
        # narrower search found nothing: noise spread evenly, then any noise)
        if any(o.offered and o.variation.name == knob.name for o in offers):
            continue
        if board.solves_left <= 0:
            break
        if knob.options is not None:
            offers += _try_options(board, k, knob, base, under)
        elif (offer := _fit_continuous(board, k, knob, base, under)) is not None:
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
    sign = model.sign
    live = ~model.terminal
    starts = model.pair_start[:-1][live]
    cost = model.pair_sign * model.pair_cost
    values = np.where(model.terminal, sign * model.terminal_value, 0.0)
    for _ in range(sweeps * depth):
        q = cost + model.discount * (model.transitions @ values)
        values[live] = q if model.single_action else np.minimum.reduceat(q, starts)
    return sign * values


def _stage_rows(board: _Board) -> list[tuple[np.ndarray, Any, np.ndarray, np.ndarray]]:
    """Per stage, fewest tokens first: its live states, and the rows of its pairs (the
    transitions, the costs, where each state's pairs start among them), so that a sweep of
    one stage reads its own rows only. Kept on the board: a search takes many sweeps."""
    if board.stage_rows is None:
        model = board.solution.model
        sign = model.pair_sign
        stage = np.asarray(model.stage)
        rows = []
        for k in np.unique(stage[~model.terminal]):
            states = np.flatnonzero((stage == k) & ~model.terminal)
            widths = model.pair_start[states + 1] - model.pair_start[states]
            pairs = np.concatenate(
                [np.arange(model.pair_start[s], model.pair_start[s + 1]) for s in states]
            )
            starts = np.concatenate(([0], np.cumsum(widths)[:-1]))
            cost = (sign if isinstance(sign, float) else sign[pairs]) * model.pair_cost[pairs]
            rows.append((states, model.transitions[pairs], cost, starts))
        board.stage_rows = rows
    return board.stage_rows


def _staged(board: _Board, sweeps: int) -> np.ndarray:
    """The values of a model in stages (token-boosted's tables) filled one stage after the
    other, fewest tokens first, each by ``sweeps`` sweeps from 0 from the last sweep's
    values, as a handout's loop over the tables does."""
    model = board.solution.model
    depth = board.problem.game.steps_per_sweep
    sign = model.sign
    values = np.where(model.terminal, sign * model.terminal_value, 0.0)
    for states, transitions, cost, starts in _stage_rows(board):
        for _ in range(sweeps * depth):
            q = cost + model.discount * (transitions @ values)
            values[states] = q if model.single_action else np.minimum.reduceat(q, starts)
    return sign * values


def _staged_sweeps(board: _Board, start: float) -> int | None:
    """The sweeps per stage after which the start value is ``start``: doubled until it is
    reached, then by bisection (more sweeps never lower a value: each stage climbs from 0
    towards its own). None where the converged values do not reach it, or the first
    sweep passes it."""
    model = board.solution.model
    tolerance = board.tolerance
    converged = board.expected.answer.start_value
    if not start < converged - tolerance:
        return None  # (not below the right value: no stopped iteration prints it)
    ceiling = 4 * len(board.expected.sweeps) + 50

    def at(sweeps: int) -> float:
        return float(_staged(board, sweeps)[model.start])

    if at(1) > start + tolerance:
        return None
    low, high = 1, 2
    while at(high) < start - tolerance:
        if high >= ceiling:
            return None
        low, high = high + 1, min(2 * high, ceiling)
    while low < high:
        middle = (low + high) // 2
        if at(middle) < start - tolerance:
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
                values = board.solution.model.sign * np.array(kept[sweeps])
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
    signed = model.sign * solution.values  # (lowest first: the nearest the goal)
    shown_states = set(right) | set(wrong)
    for state in sorted(wrong, key=lambda s: signed[s]):
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


def _part(problem: Problem, knobs: Sequence[Knob], part: tuple[Any, ...]) -> RuleVariant:
    """One part of a recipe as a mistake of its own (its twist, name, words)."""
    if part[0] == "twist":
        variant = _twists(problem)[part[1]]
        return RuleVariant(variant.name, _says(problem, variant), variant.make, variant.reread)
    knob, value = knobs[part[1]], part[2]
    return RuleVariant(knob.name, knob.says(problem, value), knob.twist(problem, value),
                       knob.reread)  # fmt: skip


def _made(board: _Board, knobs: Sequence[Knob], recipe: Recipe) -> _Offer | None:
    """The candidate ``recipe`` makes on this board, named as its parts."""
    parts = [_part(board.problem, knobs, p) for p in recipe]
    twist: Twist | None = None
    for part in parts:
        if not isinstance(part.make, Twist):
            return None
        twist = part.make if twist is None else twist + part.make
        if twist is None:
            return None
    name = "+".join(p.name for p in parts)
    says = ", and ".join(str(p.says) for p in parts)
    reread = "; ".join(p.reread for p in parts if p.reread)
    return board.offer(name, says, _solved(board, twist), reread, recipe)


def _pairs(board: _Board, knobs: Sequence[Knob]) -> list[_Offer]:
    """Two catalogued mistakes at once, then a knob fitted on top of one, until one of
    them explains the answer or ``SOLVES`` are spent."""
    problem = board.problem
    bases: list[tuple[Recipe, str]] = [((("twist", i),), v.name)
                                       for i, v in enumerate(_twists(problem))]  # fmt: skip
    offers: list[_Offer] = []
    for (a, _), (b, _) in itertools.combinations(bases, 2):
        if board.solves_left <= 0:
            return offers
        offer = _made(board, knobs, a + b)
        if offer is not None and offer.offered:
            offers.append(offer)
    if offers:
        return offers
    # A knob's discrete values are mistakes of their own (5 aims), with another on top.
    for k, knob in enumerate(knobs):
        for option in knob.options(problem) if knob.options is not None else ():
            if knob.twist(problem, option) is not None:
                bases.append(((("knob", k, option),), knob.name))

    # On top of each base, the knobs of one number (two, as aimed's any noise, would take
    # the whole budget), the bases taken in turn from two orders: how much of the answer
    # each explains alone (a number's option, as 5 aims, with noise on top), and, for the
    # catalogue's mistakes, the least error each leaves with a number at a few values of
    # its range on top (with a number changed on top, which moves every value a little, a
    # base alone matches next to nothing: a discount on top of jumps shifted).
    numbers = [(k, knob) for k, knob in enumerate(knobs) if len(knob.bounds) == 1]

    def alone(base: tuple[Recipe, str]) -> tuple[float, float]:
        offer = _made(board, knobs, base[0])
        return (0.0, 0.0) if offer is None else (offer.explains, offer.fit)

    def least_error(base: tuple[Recipe, str]) -> float:
        recipe, name = base
        least = math.inf
        for k, knob in numbers:
            if knob.name == name:
                continue
            low, high = knob.bounds[0]
            for value in np.linspace(low, high, 6)[1:-1]:
                made = _made(board, knobs, (*recipe, ("knob", k, float(value))))
                if made is not None:
                    answer = (made.variation.answer, made.variation.accepted)
                    least = min(least, board.squared_error(answer))
        return least

    by_alone = sorted(bases, key=alone, reverse=True)
    twisted = [b for b in bases if b[0][0][0] == "twist"]
    by_error = sorted(twisted, key=least_error)
    bases = []
    for pair in itertools.zip_longest(by_alone, by_error):
        bases += [b for b in pair if b is not None and b not in bases]
    for recipe, name in bases:
        if board.solves_left <= 0:
            return offers
        base = _part(problem, knobs, recipe[0])
        assert isinstance(base.make, Twist)
        others = [(k, knob) for k, knob in enumerate(knobs)
                  if knob.name != name and len(knob.bounds) < 2]  # fmt: skip
        for offer in _fits(board, others, base.make, recipe):
            if offer.offered:
                v = offer.variation
                said = f"{base.says}, and {v.says}"
                reread = "; ".join(r for r in (base.reread, v.reread) if r)
                named = dataclasses.replace(v, name=f"{name}+{v.name}", says=said,
                                            reread=reread)  # fmt: skip
                offers.append(_Offer(named, offer.fit, offer.explains, offer.recipe))
        # A pair that matches every entry cannot be bettered; the bases after it, which
        # alone explain less, would only spend the budget.
        if any(o.fit >= 1.0 and o.explains >= 1.0 for o in offers):
            return offers
    return offers


def explain(
    name: str, case: TestCase, printed: Printed, notes: dict[str, Any] | None = None
) -> Explanation:
    """What can explain ``printed``, a wrong answer on ``case``'s board of assignment
    ``name``: the candidates worth weighing, and where the error starts.

    ``notes``: what this submission's earlier boards left (the engine keeps one per
    submission and asks board after board, in the order of its cases). What explained an
    earlier board is tried first, one solve each: a program makes its mistake on every
    board, so it mostly explains this one too, and then nothing is fitted or searched
    again. Numbers are fitted and two mistakes at once searched for within
    ``SUBMISSION_SOLVES`` over the whole submission: what they find is tried on every
    later board."""
    notes = {} if notes is None else notes
    leads: list[Recipe] = notes.setdefault("leads", [])
    problem, solution = solved_board(name, case.board)
    board = _Board(problem, solution, case, printed)
    knobs = (*getattr(problem.rules, "KNOBS", ()), *COMMON_KNOBS)
    stopped = _stopped(board)
    offers = [o for r in leads if (o := _made(board, knobs, r)) is not None]
    left = notes.setdefault("solves left", float(SUBMISSION_SOLVES))
    if left > 0 and not any(o.fit >= 1.0 and o.explains >= 1.0 for o in offers):
        board.solves_left = min(board.solves_left, left)
        offers += _fits(board, sorted(enumerate(knobs), key=lambda kk: _work(board, kk[1])))
        singles = [*stopped, *offers]
        for m in case.expected.mistakes:
            fit, explains = mistake_fit(printed, case.expected, m, board.tolerance)
            singles.append(_Offer(m, fit, explains))
        if not any(o.offered for o in singles) and board.solves_left > 0:
            # (half of what is left at most: a later board, plainer, may be explained by
            # one number alone, as a discount on the board without jumps)
            board.solves_left = min(board.solves_left, (left - board.spent) / 2)
            offers += _pairs(board, knobs)
    notes["solves left"] = left - board.spent
    kept: dict[tuple[str, str], _Offer] = {}
    for offer in offers:
        if offer.offered:
            kept.setdefault((offer.variation.name, offer.variation.says), offer)
    leads += [o.recipe for o in kept.values() if o.recipe and o.recipe not in leads]
    chosen = tuple(o.variation for o in kept.values())
    where = "" if chosen else where_it_starts(board)
    courses = bool(case.expected.sweeps)
    return Explanation(chosen, courses, any(o.offered for o in stopped), where)
