"""Answers under other rules than the assignment's: the fair readings a grader accepts as
well, and the catalogue of known mistakes it recognises to say what went wrong.

Each rules module lists its own as ``READINGS`` and ``MISTAKES``; the mistakes every game can
make (negated values, a discount where none is asked) are added here. A variant is built
for one board: a model of the changed rules solved by the same solver, or the reference
answer changed directly (a jump square's value read at the jump's destination). A variant
whose answer cannot be told from the right one on a board is left out for that board.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np

from autograder import Answer, Entry, Expected, UsageError, Variation

from ._model import Model
from ._problem import Game, Problem
from ._solver import NotConverged, Solution, solve

__all__ = [
    "COMMON_MISTAKES",
    "Make",
    "RuleVariant",
    "accepted_actions",
    "changed_answer",
    "changed_game",
    "changed_params",
    "changed_rules",
    "solved_variant",
    "sweep_trajectory",
    "variations",
]


class Solvable(Protocol):
    """What a variant's game must have: a model to solve, and how to read the answer."""

    @property
    def model(self) -> Model: ...
    def answer(self, solution: Solution) -> Answer: ...


# (answer, accepted actions) of a variant on one board
Outcome = tuple[Answer, tuple[frozenset[str], ...] | None]
Make = Callable[[Problem, Solution, Expected], Outcome | None]


@dataclass(frozen=True)
class RuleVariant:
    """One reading or mistake. ``says`` completes "your answer matches a game where ...";
    ``reread`` is the rule to read again (mistakes only); ``make`` builds the variant's
    answer on a board, or ``None`` where it does not apply."""

    name: str
    says: str | Callable[[Problem], str]
    make: Make
    reread: str = ""

    def variation(self, problem: Problem, outcome: Outcome) -> Variation:
        says = self.says(problem) if callable(self.says) else self.says
        return Variation(self.name, says, outcome[0], outcome[1], self.reread)


def accepted_actions(
    problem: Problem, solution: Solution, answer: Answer
) -> tuple[frozenset[str], ...] | None:
    """Every action within the assignment's policy tolerance of the best, per printed
    square (``None`` where the format prints no actions)."""
    if answer.actions is None:
        return None
    model = solution.model
    tolerance = problem.assignment.policy_tolerance
    accepted = []
    for state in range(len(answer.actions)):
        if model.terminal[state]:
            accepted.append(frozenset({"-"}))
            continue
        pairs = model.pairs_of(state)
        q = solution.q_values[pairs]
        best = q.max() if model.maximize else q.min()
        names = model.action_names
        accepted.append(
            frozenset(
                names[model.action_of_pair[p]]
                for p, value in zip(pairs, q, strict=True)
                if abs(value - best) <= tolerance + 1e-12
            )
        )
    return tuple(accepted)


def solved_variant(problem: Problem, game: Solvable | None) -> Outcome | None:
    """``game`` (the board under changed rules) solved; ``None`` if it cannot be."""
    if game is None:
        return None
    try:
        solution = solve(game.model)
    except (UsageError, NotConverged):  # the goal cannot be reached under these rules
        return None
    answer = game.answer(solution)
    return answer, accepted_actions(problem, solution, answer)


def changed_game(build: Callable[[Problem], Solvable | None]) -> Make:
    """A variant that is a game of its own, built by ``build``."""
    return lambda problem, _solution, _expected: solved_variant(problem, build(problem))


def changed_params(**values: Any) -> Make:
    """The game with some parameters changed (``None`` where they already have those
    values, or do not exist)."""

    def build(problem: Problem) -> Game | None:
        params = problem.params
        if any(not hasattr(params, k) or getattr(params, k) == v for k, v in values.items()):
            return None
        try:
            return problem.rules.build(problem.board, dataclasses.replace(params, **values))
        except UsageError:
            return None

    return changed_game(build)


def changed_rules(**changes: Any) -> Make:
    """The game built with the rules module's ``RuleChanges`` (its knobs for the catalogue)."""

    def build(problem: Problem) -> Game | None:
        rules = problem.rules
        try:
            return rules.build(problem.board, problem.params, rules.RuleChanges(**changes))
        except UsageError:
            return None

    return changed_game(build)


def changed_answer(change: Callable[[Problem, Solution, Answer], Answer | None]) -> Make:
    """The reference answer, changed (its accepted actions kept)."""

    def make(problem: Problem, solution: Solution, expected: Expected) -> Outcome | None:
        answer = change(problem, solution, expected.answer)
        return None if answer is None else (answer, expected.accepted)

    return make


def _map_values(values: Any, f: Callable[[float], float]) -> Any:
    if isinstance(values, tuple):
        return tuple(_map_values(v, f) for v in values)
    return f(values)


def _negated(problem: Problem, solution: Solution, answer: Answer) -> Answer | None:
    neg = _map_values(answer.values, lambda v: -v)
    return dataclasses.replace(answer, start_value=-answer.start_value, values=neg)


def _discounted(problem: Problem) -> Game | None:
    game = problem.game
    if game.model.maximize or game.model.discount < 1.0:
        return None
    model = dataclasses.replace(game.model, discount=0.9)
    return cast(Game, dataclasses.replace(cast(Any, game), model=model))


COMMON_MISTAKES = (
    RuleVariant(
        "negated",
        "every value is negated (a reward of -1 per turn, maximised)",
        changed_answer(_negated),
        reread="what is printed: the expected number of turns still to play, a positive number",
    ),
    RuleVariant(
        "discounted",
        "each later turn is discounted by 0.9",
        changed_game(_discounted),
        reread="the objective: every turn costs 1, with no discount (gamma = 1)",
    ),
)


Listed = dict[str, Entry]


def _listed(expected: Expected, outcome: Outcome, value_tolerance: float) -> Listed:
    """The graded entries of ``outcome``'s answer, by key."""
    answer, accepted = outcome
    return {e.key: e for e in expected.entries_of(answer, accepted, value_tolerance)}


def _differs(mine: Listed, theirs: Listed, loose: Collection[str] = ()) -> bool:
    """Whether a program printing the answer of ``theirs`` would lose an entry against
    ``mine``, leaving out the ``loose`` entries (whose right value depends on the reading)."""
    return any(
        key in mine and key not in loose and not mine[key].accepts(entry)
        for key, entry in theirs.items()
    )


def variations(
    problem: Problem,
    solution: Solution,
    expected: Expected,
    readings: Sequence[RuleVariant],
    mistakes: Sequence[RuleVariant],
) -> tuple[tuple[Variation, ...], tuple[Variation, ...]]:
    """The readings that differ from ``expected`` on this board, and the mistakes that can
    be told from it on entries that do not depend on the reading (a mistake seen only on a
    jump square's value could be a reading's)."""
    tolerance = problem.assignment.value_tolerance
    mine = _listed(expected, (expected.answer, expected.accepted), tolerance)
    found = []
    for variant in readings:
        outcome = variant.make(problem, solution, expected)
        if outcome is not None and _differs(mine, _listed(expected, outcome, tolerance)):
            found.append(variant.variation(problem, outcome))
    loose = dataclasses.replace(expected, readings=tuple(found)).reading_dependent(tolerance)
    named: list[tuple[Variation, Listed]] = []
    for variant in mistakes:
        outcome = variant.make(problem, solution, expected)
        if outcome is None:
            continue
        theirs = _listed(expected, outcome, tolerance)
        # Two rule variants that give one answer on this board are one mistake here (in
        # boosted, a boost past the goal can follow any overshoot): the first is named.
        if _differs(mine, theirs, loose) and all(
            _differs(kept, theirs, loose) for _, kept in named
        ):
            named.append((variant.variation(problem, outcome), theirs))
    return tuple(found), tuple(v for v, _ in named)


def sweep_trajectory(
    game: Game, solution: Solution, tolerance: float, limit: int = 20_000
) -> tuple[float, ...]:
    """The start value after each sweep of value iteration from 0 (one sweep updating every
    square once, as a student's loop does), up to the first within ``tolerance``."""
    model = solution.model
    if model.maximize and model.discount >= 1.0:
        return ()
    depth = game.steps_per_sweep
    sign = -1.0 if model.maximize else 1.0
    live = ~model.terminal
    starts = model.pair_start[:-1][live]
    cost = sign * model.pair_cost
    values = np.where(model.terminal, sign * model.terminal_value, 0.0)
    target = solution.start_value
    out: list[float] = []
    for step in range(1, limit * depth + 1):
        q = cost + model.discount * (model.transitions @ values)
        values[live] = q if model.single_action else np.minimum.reduceat(q, starts)
        if step % depth == 0:
            start = float(sign * values[model.start])
            out.append(start)
            if abs(start - target) <= tolerance:
                break
    return tuple(out)
