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
import operator
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np

from autograder import Answer, Entry, Expected, UsageError, Variation

from ._model import Model
from ._problem import Game, Problem
from ._solver import NotConverged, Solution, policy_iteration

__all__ = [
    "COMMON_KNOBS",
    "COMMON_MISTAKES",
    "NO_DISCOUNT",
    "VALUES_REVERSED",
    "WORST_ACTIONS",
    "Knob",
    "Make",
    "RuleVariant",
    "Twist",
    "accepted_actions",
    "actions_from_zero",
    "changed_answer",
    "changed_board",
    "changed_game",
    "changed_params",
    "changed_rules",
    "discounted_by",
    "in_place_trajectory",
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
    answer on a board, or ``None`` where it does not apply. ``by_square`` (readings only):
    the reading changes values that no other square's value depends on, so a grader may
    accept it square by square (``Variation.by_square``)."""

    name: str
    says: str | Callable[[Problem], str]
    make: Make
    reread: str = ""
    by_square: bool = False

    def variation(self, problem: Problem, outcome: Outcome) -> Variation:
        says = self.says(problem) if callable(self.says) else self.says
        return Variation(self.name, says, outcome[0], outcome[1], self.reread, self.by_square)


def accepted_actions(
    problem: Problem, solution: Solution, answer: Answer
) -> tuple[frozenset[str], ...] | None:
    """Every action within the assignment's policy tolerance of the best, per printed
    square (``None`` where the format prints no actions)."""
    if answer.actions is None:
        return None
    model = solution.model
    tolerance = problem.assignment.policy_tolerance
    n = len(answer.actions)
    # (worked out for all pairs at once: a diagnosis asks this of thousands of changed
    # games, and a loop over the squares' pairs was most of its time)
    starts = model.pair_start[: n + 1]
    end = int(starts[-1])
    counts = np.diff(starts)
    q = model.signed_pairs(np.asarray(solution.q_values[:end], dtype=float))
    best = np.zeros(n)
    moving = counts > 0
    if moving.any():
        best[moving] = np.minimum.reduceat(q, starts[:-1][moving])
    close = np.abs(q - np.repeat(best, counts)) <= tolerance + 1e-12
    names = model.action_names
    # Each square's accepted actions as one number, a bit per action (few distinct sets;
    # Python's integers where a game has more actions than a machine word has bits)
    kind = np.int64 if len(names) < 63 else object
    one = np.ones(end, dtype=kind)
    bits = np.where(close, np.left_shift(one, model.action_of_pair[:end].astype(kind)), 0)
    masks = np.zeros(n, dtype=kind)
    if moving.any():
        masks[moving] = np.bitwise_or.reduceat(bits.astype(kind), starts[:-1][moving])
    made: dict[int, frozenset[str]] = {}
    accepted = []
    for state, mask in enumerate(masks.tolist()):
        if model.terminal[state]:
            accepted.append(frozenset({"-"}))
            continue
        if mask not in made:
            made[mask] = frozenset(names[c] for c in range(len(names)) if mask >> c & 1)
        accepted.append(made[mask])
    return tuple(accepted)


def solved_variant(
    problem: Problem, game: Solvable | None, like: Solution | None = None
) -> Outcome | None:
    """``game`` (the board under changed rules) solved; ``None`` if it cannot be. ``like``:
    the board's own solution, whose policy the solve starts from where it fits (the same
    states and moves under other rules: a dozen games per board, each a few policies
    nearer its end)."""
    if game is None:
        return None
    try:
        solution = policy_iteration(game.model, warm_start=None if like is None else like.policy)
    except (UsageError, NotConverged):  # the goal cannot be reached under these rules
        return None
    answer = game.answer(solution)
    return answer, accepted_actions(problem, solution, answer)


# (the problem, the variant's solution or the board's own, its outcome) -> the outcome as a
# program following the variant prints it
Reprint = Callable[[Problem, Solution, Outcome], Outcome | None]


@dataclass(frozen=True)
class Twist:
    """A variant made of parts that two mistakes can share, so that a pair of them is a
    variant too (:meth:`__add__`): some parameters with other values, rules knobs (the
    rules module's ``RuleChanges``), the board changed, the model changed (a discount), and
    the answer printed otherwise (``reprint``: negated, one table reversed). It is a
    :data:`Make`: ``None`` where it changes nothing on a board, or the game cannot be built
    or solved."""

    params: tuple[tuple[str, Any], ...] = ()
    changes: tuple[tuple[str, Any], ...] = ()
    board: Callable[[Any], Any] | None = None
    model: Callable[[Model], Model | None] | None = None
    reprint: Reprint | None = None
    # A game of its own, built otherwise than by the rules module (parameters, rules knobs
    # and board changes do not go with it)
    build: Callable[[Problem], Solvable | None] | None = None

    @property
    def changes_game(self) -> bool:
        return bool(self.params or self.changes or self.board or self.model or self.build)

    def __add__(self, other: Twist) -> Twist | None:
        """Both twists at once, or ``None`` where they change the same part."""
        mine = {k for k, _ in self.params} | {k for k, _ in self.changes}
        theirs = {k for k, _ in other.params} | {k for k, _ in other.changes}
        if mine & theirs or any(
            getattr(self, part) is not None and getattr(other, part) is not None
            for part in ("board", "model", "reprint", "build")
        ):
            return None
        built = self.build or other.build
        if built is not None and (mine or theirs or self.board or other.board):
            return None
        return Twist(
            self.params + other.params,
            self.changes + other.changes,
            self.board or other.board,
            self.model or other.model,
            self.reprint or other.reprint,
            built,
        )

    def _with_model(self, game: Solvable) -> Solvable | None:
        """``game`` with this twist's change of model."""
        if self.model is None:
            return game
        if not dataclasses.is_dataclass(game):
            return None  # (a game of another shape: its model cannot be swapped)
        model = self.model(game.model)
        if model is None:
            return None
        return cast(Solvable, dataclasses.replace(cast(Any, game), model=model))

    def game(self, problem: Problem) -> Solvable | None:
        """The board's game with this twist's parameters, rules, board and model."""
        if self.build is not None:
            built = self.build(problem)
            return None if built is None else self._with_model(built)
        params = problem.params
        if any(not hasattr(params, k) or getattr(params, k) == v for k, v in self.params):
            return None
        board = problem.board if self.board is None else self.board(problem.board)
        if board is None or (self.board is not None and board == problem.board):
            return None
        rules = problem.rules
        try:
            params = dataclasses.replace(params, **dict(self.params))
            if self.changes:
                game = rules.build(board, params, rules.RuleChanges(**dict(self.changes)))
            else:
                game = rules.build(board, params)
        except (UsageError, TypeError):
            return None
        return self._with_model(game)

    def __call__(self, problem: Problem, solution: Solution, expected: Expected) -> Outcome | None:
        return self.outcome(problem, solution, expected)

    def outcome(
        self,
        problem: Problem,
        solution: Solution,
        expected: Expected,
        built: dict[Twist, Solvable | None] | None = None,
    ) -> Outcome | None:
        """The variant's answer and accepted actions. ``built``: the games already built for
        this board, by their twist without its model change, which a search through many
        values of a discount builds once."""
        if self.changes_game:
            if built is None:
                game = self.game(problem)
            else:
                bare = dataclasses.replace(self, model=None, reprint=None)
                if bare not in built:
                    built[bare] = bare.game(problem)
                game = built[bare]
                if game is not None:
                    game = self._with_model(game)
            if game is None:
                return None
            try:
                own = policy_iteration(game.model, warm_start=solution.policy)
            except (UsageError, NotConverged):
                return None
            answer = game.answer(own)
            outcome: Outcome | None = (answer, accepted_actions(problem, own, answer))
        else:
            own, outcome = solution, (expected.answer, expected.accepted)
        if self.reprint is not None and outcome is not None:
            outcome = self.reprint(problem, own, outcome)
        return outcome


def changed_game(build: Callable[[Problem], Solvable | None]) -> Twist:
    """A variant that is a game of its own, built by ``build``."""
    return Twist(build=build)


def changed_params(**values: Any) -> Twist:
    """The game with some parameters changed (``None`` where they already have those
    values, or do not exist)."""
    return Twist(params=tuple(values.items()))


def changed_rules(**changes: Any) -> Twist:
    """The game built with the rules module's ``RuleChanges`` (its knobs for the catalogue)."""
    return Twist(changes=tuple(changes.items()))


def changed_board(change: Callable[[Any], Any]) -> Twist:
    """The game on the board ``change`` makes of the board (``None`` where it changes
    nothing, or makes no board)."""
    return Twist(board=change)


def changed_answer(change: Callable[[Problem, Solution, Answer], Answer | None]) -> Twist:
    """The reference answer, changed (its accepted actions kept)."""

    def reprint(problem: Problem, solution: Solution, outcome: Outcome) -> Outcome | None:
        answer = change(problem, solution, outcome[0])
        return None if answer is None else (answer, outcome[1])

    return Twist(reprint=reprint)


def _from_zero(problem: Problem, solution: Solution, outcome: Outcome) -> Outcome | None:
    """Every numbered action printed one lower, as a list's index is (an aim of 3 printed
    as 2, the risky die 3 as 2): the values stay as they are."""
    answer, accepted = outcome
    if answer.actions is None or accepted is None:
        return None

    def lower(action: str) -> str:
        return str(int(action) - 1) if action.isdigit() else action  # ("-": the goal)

    actions = tuple(lower(a) for a in answer.actions)
    lowered = tuple(frozenset(lower(a) for a in choices) for choices in accepted)
    return dataclasses.replace(answer, actions=actions), lowered


# The reference answer with every numbered action printed one lower.
actions_from_zero = Twist(reprint=_from_zero)


def _worst(problem: Problem, solution: Solution, outcome: Outcome) -> Outcome | None:
    """The values as they are, each square's action the worst instead of the best (the
    largest expected cost where the game minimises, as ``argmax`` for ``argmin``)."""
    answer, _ = outcome
    if answer.actions is None:
        return None
    model = solution.model
    names = model.action_names
    worst: list[frozenset[str]] = []
    for state in range(len(answer.actions)):
        pairs = model.pairs_of(state) if not model.terminal[state] else []
        if len(pairs) < 2:
            worst.append(frozenset({answer.actions[state]}))
            continue
        q = model.sign_of(state) * solution.q_values[pairs]
        bad = q.max()
        tolerance = problem.assignment.policy_tolerance
        worst.append(frozenset(names[model.action_of_pair[p]] for p, v in zip(pairs, q, strict=True)
                               if abs(v - bad) <= tolerance + 1e-12))  # fmt: skip
    actions = tuple(min(w) for w in worst)
    return dataclasses.replace(answer, actions=actions), tuple(worst)


WORST_ACTIONS = RuleVariant(
    "worst-action",
    "each square's action is the worst one instead of the best (argmax for argmin)",
    Twist(reprint=_worst),
    reread="the policy: on each square, the action with the fewest expected turns (the "
    "smallest, or the largest reward where a reward is maximised)",
)


def _reversed_values(problem: Problem, solution: Solution, answer: Answer) -> Answer | None:
    def flipped(values: tuple[Any, ...]) -> tuple[Any, ...]:
        return values[::-1]

    values = answer.values
    if values and isinstance(values[0], tuple):
        return dataclasses.replace(answer, values=tuple(flipped(t) for t in values))
    return dataclasses.replace(answer, values=flipped(values))


VALUES_REVERSED = RuleVariant(
    "values-reversed",
    "the values are printed in reverse order (square i shows the value of the square as far "
    "from the other end)",
    changed_answer(_reversed_values),
    reread="the output: each square's own value beside its number",
)


def _map_values(values: Any, f: Callable[[float], float]) -> Any:
    if isinstance(values, tuple):
        return tuple(_map_values(v, f) for v in values)
    return f(values)


def _negated(problem: Problem, solution: Solution, answer: Answer) -> Answer | None:
    neg = _map_values(answer.values, lambda v: -v)
    return dataclasses.replace(answer, start_value=-answer.start_value, values=neg)


def discounted_by(by: float) -> Callable[[Model], Model | None]:
    """A game of turns with each later turn discounted by ``by`` (``None`` for a game
    that maximises, or is discounted already)."""

    def change(model: Model) -> Model | None:
        if model.maximize or model.discount < 1.0:
            return None
        return dataclasses.replace(model, discount=by)

    return change


NO_DISCOUNT = "the objective: every turn costs 1, with no discount (gamma = 1)"
# 0.9, a textbook's; 0.99, many a course's default. Iterated to the end, the values of 0.99
# are below the right ones and more so far from the goal, and the start value lies on value
# iteration's course from 0: unnamed, such a program was told it stopped too early.
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
        Twist(model=discounted_by(0.9)),
        reread=NO_DISCOUNT,
    ),
    RuleVariant(
        "discounted-0.99",
        "each later turn is discounted by 0.99",
        Twist(model=discounted_by(0.99)),
        reread=NO_DISCOUNT,
    ),
    VALUES_REVERSED,
)


@dataclass(frozen=True)
class Knob:
    """A number of the rules a program may hold at another value. ``bounds``: the range
    searched, one pair per dimension (continuous), or ``options`` (discrete: each tried).
    ``twist(problem, value)`` is the game with that value (``None`` where it is the rules'
    own or makes no game); ``says(problem, value)`` completes "your answer matches a game
    where ..."."""

    name: str
    says: Callable[[Problem, Any], str]
    twist: Callable[[Problem, Any], Twist | None]
    reread: str
    bounds: tuple[tuple[float, float], ...] = ()
    options: Callable[[Problem], Sequence[Any]] | None = None
    decimals: int = 3  # a fitted value is named with at most this many decimals


def _discount_twist(problem: Problem, by: float) -> Twist | None:
    model = problem.game.model
    if model.maximize or model.discount < 1.0 or not 0.0 < by < 1.0:
        return None
    return Twist(model=discounted_by(by))


def _number(value: float) -> str:
    return f"{value:.6g}"


DISCOUNT_KNOB = Knob(
    "discounted",
    lambda _p, by: f"each later turn is discounted by {_number(by)}",
    _discount_twist,
    NO_DISCOUNT,
    bounds=((0.3, 0.9995),),
    decimals=4,
)
# What every game of turns can hold at another value.
COMMON_KNOBS = (DISCOUNT_KNOB,)


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
    jump square's value could be a reading's). Two readings that give one answer on a
    board are one reading there, the first (without a move of 0, taking the jump on it
    alone is no reading of its own)."""
    tolerance = problem.assignment.value_tolerance
    mine = _listed(expected, (expected.answer, expected.accepted), tolerance)
    found: list[Variation] = []
    kept: list[Listed] = [mine]
    for variant in readings:
        outcome = variant.make(problem, solution, expected)
        if outcome is None:
            continue
        theirs = _listed(expected, outcome, tolerance)
        if all(_differs(other, theirs) for other in kept):
            found.append(variant.variation(problem, outcome))
            kept.append(theirs)
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


# The sweeps from 0 are followed while they read at most this many outcomes in all: about
# a second. A board whose values take longer to settle (a student's own board of thousands
# of squares, a board of chutes alone) gets no course, and so no "stopped early" by sweeps.
SWEEP_READS = 200_000_000


def sweep_trajectory(
    game: Game, solution: Solution, tolerance: float, limit: int = 20_000
) -> tuple[float, ...]:
    """The start value after each sweep of value iteration from 0 (one sweep updating every
    square once, as a student's loop does), up to the first within ``tolerance``; ``()``
    where it does not get there within ``limit`` sweeps and ``SWEEP_READS`` outcomes (a
    course cut short would say the values settle where they do not)."""
    model = solution.model
    # (a sweep from 0 approaches a maximised undiscounted value from below, without the
    # course a student's loop shows; a game's sweeps are its own)
    if (model.maximize and model.discount >= 1.0) or model.mixed:
        return ()
    depth = game.steps_per_sweep
    limit = min(limit, SWEEP_READS // max(1, model.transitions.nnz * depth))
    sign = model.sign_of(model.start)  # (one sign: see above)
    live = ~model.terminal
    starts = model.pair_start[:-1][live]
    cost = model.pair_sign * model.pair_cost
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
                return tuple(out)
    return ()


# The in-place courses are followed square by square in plain Python, as a student's loop
# goes, where that reads at most this many outcomes, estimated from the sweeps from 0 the
# course of :func:`sweep_trajectory` needs (in place needs no more: it uses each new value
# at once). Measured (2026-11-25, both courses): 60 to 240 ns per outcome estimated, so at
# most about a quarter of a second; the assignments' boards (50 to 150 squares) estimate at
# most 220,000 (classic's `chute-before-goal`, 13 ms; boosted's largest 22 ms). A student's
# own board of thousands of squares is left to the course from 0.
IN_PLACE_READS = 1_000_000


def in_place_trajectory(
    game: Game,
    solution: Solution,
    tolerance: float,
    sweeps: int,
    *,
    descending: bool = False,
    keep: Collection[int] = (),
    kept: dict[int, list[float]] | None = None,
) -> tuple[float, ...]:
    """The start value after each sweep of value iteration from 0 that updates the values in
    place, square by square from the lowest up (``descending``: from the highest down), as a
    student's loop over a list does, up to the first within ``tolerance``. Where a turn is a
    spin and then a choice, each square's choices are worked out from the current values
    just before the square itself. ``sweeps`` is the length of the course from 0 that is not
    in place (:func:`sweep_trajectory`), which this one should not exceed.

    Empty where it is not computed: a model in stages (token-boosted, whose tables the
    handout fills one after the other, each to the end, a course of its own), a model
    maximising without a discount, one too large (``IN_PLACE_READS``), or a course that
    does not settle within twice ``sweeps``. ``keep``: the sweeps after which every state's
    value (signed as the model solves, lowest cost) goes into ``kept``."""
    model = solution.model
    transitions = model.transitions
    if model.stage is not None or not sweeps or transitions.nnz * sweeps > IN_PLACE_READS:
        return ()
    if (model.maximize and model.discount >= 1.0) or model.mixed:
        return ()
    indptr, nexts = transitions.indptr.tolist(), transitions.indices.tolist()
    probs = (model.discount * transitions.data).tolist()
    sign = model.sign_of(model.start)  # (one sign: a game's sweeps are not simulated)
    costs = (model.pair_sign * model.pair_cost).tolist()
    first = model.pair_start.tolist()
    terminal = model.terminal.tolist()
    squares = game.squares_in_order(descending).tolist()
    on_board = set(squares)

    def pairs(state: int) -> list[tuple[float, list[float], list[int]]]:
        return [
            (costs[p], probs[indptr[p] : indptr[p + 1]], nexts[indptr[p] : indptr[p + 1]])
            for p in range(first[state], first[state + 1])
        ]

    def choice(state: int) -> list[int] | None:
        """Where a choice after the spin can move, if every action there surely leads to
        one state at no cost (boosted's plain move and boost)."""
        options = pairs(state)
        if all(c == 0.0 and ps == [1.0] for c, ps, _ in options):
            return [ts[0] for _, _, ts in options]
        return None

    # Two shapes are most of the work and go several times faster written out: one action
    # whose outcomes are equally likely (classic's spin), and the same whose outcomes are
    # choices (boosted's spin, then the move or the boost, worked out from the current
    # values as the square is). Any other state goes as it is, the states after its
    # actions just before it.
    spins: list[tuple[int, float, float, list[int]]] = []
    boosts: list[tuple[int, float, float, list[list[int]]]] = []
    other: list[tuple[int, list[tuple[float, list[float], list[int]]]]] = []
    steps: list[tuple[int, int]] = []  # (shape, index in that shape's list)
    for square in squares:
        own = pairs(square)
        if not own:  # (a square where the game ends has nothing to update)
            continue
        cost, ps, ts = own[0]
        even = len(own) == 1 and max(ps) == min(ps)
        later = [t for t in ts if t not in on_board and not terminal[t]]
        choices = [choice(t) for t in later] if even and len(later) == len(ts) else []
        if even and not later:
            steps.append((0, len(spins)))
            spins.append((square, cost, ps[0], ts))
        elif choices and all(c is not None for c in choices):
            steps.append((1, len(boosts)))
            boosts.append((square, cost, ps[0], cast(list[list[int]], choices)))
        else:
            after = {t for _, _, nxt in own for t in nxt if t not in on_board and not terminal[t]}
            for state in [*sorted(after), square]:
                steps.append((2, len(other)))
                other.append((state, pairs(state)))
    values = np.where(model.terminal, sign * model.terminal_value, 0.0).tolist()
    read = values.__getitem__
    mul = operator.mul
    target = solution.start_value
    out: list[float] = []
    for sweep in range(1, 2 * sweeps + 1):
        for shape, k in steps:
            if shape == 0:
                state, cost, p, ts = spins[k]
                values[state] = cost + p * sum(map(read, ts))
            elif shape == 1:
                state, cost, p, moves = boosts[k]
                values[state] = cost + p * sum([min(map(read, ts)) for ts in moves])
            else:
                state, options = other[k]
                values[state] = min([c + sum(map(mul, ps, map(read, ts))) for c, ps, ts in options])
        if sweep in keep and kept is not None:
            kept[sweep] = list(values)
        start = sign * values[model.start]
        out.append(start)
        if abs(start - target) <= tolerance:
            return tuple(out)
    return ()
