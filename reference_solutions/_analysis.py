"""The analyses the source write-ups make of a solved game (``autograder analyze``).

For one assignment on one board: the optimal value and action on every square (the value
map and the policy map); the computed value against a simulation from every square a game
can stand on (the 2020 report's error table); and the optimal strategy against simpler
named ones, each evaluated exactly (one linear solve on its Markov chain) and by
simulation. :func:`analyze` returns an :class:`Analysis`, plain data from which
:func:`analysis_text` writes the terminal report and from which a page can be drawn.

What is particular to an assignment comes from its rules module's ``ANALYSIS``, an
:class:`AnalysisRules`: where its states lie on the board, how to say its actions, and
its named strategies. This module knows no assignment.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from autograder import OutputError, UsageError, output_format

from ._linear import solve_chain
from ._model import Model
from ._problem import Problem, make_problem
from ._simulate import Simulation, can_reach, histogram_lines, simulate, simulate_from
from ._solver import Solution

__all__ = [
    "Z_TEST",
    "Analysis",
    "AnalysisRules",
    "BoardLayout",
    "Measure",
    "SquareCheck",
    "Strategy",
    "StrategyResult",
    "always",
    "analysis_problem",
    "analysis_text",
    "analyze",
    "goal_probability",
    "pick",
    "policy_values",
    "printed_strategy",
    "read_policy",
    "runs",
    "square_map",
    "squares_text",
    "uniform",
]

Z_TEST = 3.2905  # the two-sided 99.9% normal quantile: what simulations are held to
MAX_STEPS = 100_000  # a strategy's game still playing after this many moves is unfinished
GAMES_IN_FLIGHT = 2_000_000  # the check of every square plays at most this many games at once


# --- what a rules module provides ---------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Strategy:
    """A way to play, named in the game's words with a one-line description.

    ``policy`` is one pair per state (integers, ``-1`` on terminal states), or for a
    stochastic strategy the probability of each pair in its state (floats)."""

    name: str
    says: str
    policy: np.ndarray


@dataclass(frozen=True, eq=False)
class BoardLayout:
    """Where a game's states lie on its board.

    ``squares`` are the board's squares in order, the goal last. ``states[k][j]`` is the
    state of square ``squares[j]`` in layer ``k`` (token-boosted: ``k`` tokens left; the
    other games have one layer), the goal being the terminal state. Games start in layer
    ``start_layer``. ``notes`` say what stands on a square ("ladder to 38", "prison").
    """

    squares: tuple[int, ...]
    states: tuple[np.ndarray, ...]
    layer_names: tuple[str, ...]
    start_layer: int
    notes: Mapping[int, str]

    @property
    def goal(self) -> int:
        return self.squares[-1]

    def state(self, square: int, layer: int | None = None) -> int:
        """The state of ``square`` (in the start layer unless ``layer`` is given)."""
        row = self.states[self.start_layer if layer is None else layer]
        at = square - self.squares[0]  # the squares run on from the first, as a rule
        if not (0 <= at < len(self.squares) and self.squares[at] == square):
            at = self.squares.index(square)
        return int(row[at])


@dataclass(frozen=True)
class Measure:
    """What a value of the game measures, in words: ``what`` ("expected turns"), which way
    is ``better`` ("lower"), the ``unit`` a game's length is counted in, and what one value
    counts (``value``: "turns", for a page's legends) and a value named in full
    (``phrase``: "expected turns")."""

    what: str
    better: str
    unit: str
    value: str
    phrase: str


TURNS = Measure("expected turns to the goal", "lower", "turns", "turns", "expected turns")
DISCOUNTED = Measure(
    "expected discounted reward to the goal", "higher", "moves", "discounted reward",
    "expected discounted reward",
)  # fmt: skip


@dataclass(frozen=True)
class AnalysisRules:
    """What an assignment's rules module tells the analysis (its ``ANALYSIS``).

    ``layout(problem)``: where the states lie on the board. ``actions(problem, policy)``:
    for a policy of one pair per state, per layer the action it takes on each square in
    words ("aim 3", "boost on 1,3,6", "-" on the goal). ``strategies(problem, solution)``:
    the named strategies to set against the optimal one, each in the game's own words.
    ``board(problem)``: for the problem on the assignment's public board, another board to
    analyse when none is given, as ``(words naming it, board data)``, or ``None`` to keep
    the public one (a board on which the strategies would not differ shows nothing).
    ``measure``: what the values measure, where it is not turns or a discounted reward.
    ``pairs(problem, solution)``: a game of two pieces' value over every pair of squares,
    as ``(caption, table)``, ``table[row][column]``.
    """

    layout: Callable[[Problem], BoardLayout]
    actions: Callable[[Problem, np.ndarray], tuple[dict[int, str], ...]]
    strategies: Callable[[Problem, Solution], Sequence[Strategy]]
    board: Callable[[Problem], tuple[str, Mapping[str, Any]] | None] | None = None
    measure: Measure | None = None
    pairs: Callable[[Problem, Solution], tuple[str, np.ndarray]] | None = None


# --- building strategies --------------------------------------------------------------------


def pick(model: Model, preference: np.ndarray) -> np.ndarray:
    """Per non-terminal state its pair of highest ``preference`` (the first of equals),
    ``-1`` on terminal states."""
    policy = np.full(model.n_states, -1, dtype=np.int64)
    live = ~model.terminal
    if not live.any():
        return policy
    preference = np.asarray(preference, dtype=float)
    top = np.full(model.n_states, -np.inf)
    top[live] = np.maximum.reduceat(preference, model.pair_start[:-1][live])
    hits = np.flatnonzero(preference >= top[model.state_of_pair])
    states = model.state_of_pair[hits]
    first = np.ones(hits.size, dtype=bool)
    first[1:] = states[1:] != states[:-1]
    policy[states[first]] = hits[first]
    return policy


def always(model: Model, action: int, fallback: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The policy taking action number ``action`` wherever the state offers it, and the
    pair of ``fallback`` elsewhere; with the states where it fell back."""
    offers = model.action_of_pair == action
    policy = pick(model, offers)
    fell = (policy >= 0) & ~offers[np.maximum(policy, 0)]
    return np.where(fell, fallback, policy), np.flatnonzero(fell)


def uniform(model: Model) -> np.ndarray:
    """The stochastic policy taking each action of a state with equal probability."""
    counts = np.diff(model.pair_start)
    return 1.0 / counts[model.state_of_pair]


def squares_text(numbers: Sequence[int] | np.ndarray) -> str:
    """``"square 5"`` or ``"squares 5-7, 9"``."""
    return ("square " if len(numbers) == 1 else "squares ") + runs(numbers)


def runs(numbers: Sequence[int] | np.ndarray, most: int = 8) -> str:
    """``[1, 2, 3, 7, 9, 10]`` as ``"1-3, 7, 9-10"`` (at most ``most`` runs shown)."""
    values = sorted(int(x) for x in numbers)
    parts: list[str] = []
    start = None
    for k, value in enumerate(values):
        if start is None:
            start = value
        if k + 1 == len(values) or values[k + 1] != value + 1:
            parts.append(str(start) if start == value else f"{start}-{value}")
            start = None
    if len(parts) > most:
        return ", ".join(parts[:most]) + f", ... ({len(values)} in all)"
    return ", ".join(parts)


# --- exact evaluation ------------------------------------------------------------------------


def _weights(model: Model, policy: np.ndarray) -> np.ndarray:
    if np.issubdtype(policy.dtype, np.floating):
        return policy
    weight = np.zeros(model.n_pairs)
    weight[policy[policy >= 0]] = 1.0
    return weight


def _chain(model: Model, policy: np.ndarray) -> tuple[sp.csr_array, np.ndarray]:
    """The policy's Markov chain over the states, and the expected cost of a step from
    each: a stochastic policy's rows and costs are its actions' averaged."""
    choose = sp.csr_array(
        (_weights(model, policy), (model.state_of_pair, np.arange(model.n_pairs))),
        shape=(model.n_states, model.n_pairs),
    )
    return sp.csr_array(choose @ model.transitions), choose @ model.pair_cost


def _solve_on(
    chain: sp.csr_array, keep: np.ndarray, rhs: np.ndarray, discount: float
) -> np.ndarray:
    """``x = rhs + discount * chain x`` over the states ``keep`` (the chain's entries into
    other states already folded into ``rhs``)."""
    index = np.flatnonzero(keep)
    return solve_chain(chain[index][:, index], rhs[index], discount)


def policy_values(model: Model, policy: np.ndarray) -> np.ndarray:
    """The exact value of ``policy`` from every state: one linear solve on its chain.

    Undiscounted, a state from which the game can be caught where the goal is out of
    reach is worth ``inf`` (its expected cost has no bound). Discounted, every value is
    finite: a game that never ends earns what it earned before it was caught.
    """
    chain, cost = _chain(model, policy)
    terminal = model.terminal
    ends = np.where(terminal, model.terminal_value, 0.0)
    rhs = cost + model.discount * (chain @ ends)
    values = ends.copy()
    if model.discount < 1.0:
        live = ~terminal
    else:
        hopeless = ~terminal & ~can_reach(model, policy, terminal)
        doomed = can_reach(model, policy, hopeless) & ~terminal
        worst = model.sign * np.full(model.n_states, np.inf)  # (never reached: the worst)
        values[doomed] = worst[doomed]
        live = ~terminal & ~doomed
    if live.any():
        values[live] = _solve_on(chain, live, rhs, model.discount)
    return values


def goal_probability(model: Model, policy: np.ndarray) -> np.ndarray:
    """The probability that a game under ``policy`` reaches the goal, from every state."""
    chain, _ = _chain(model, policy)
    terminal = model.terminal
    hits = chain @ terminal.astype(float)
    probability = terminal.astype(float)
    live = ~terminal & can_reach(model, policy, terminal)
    if live.any():
        probability[live] = np.clip(_solve_on(chain, live, hits, 1.0), 0.0, 1.0)
    return probability


def _best_given(model: Model, policy: np.ndarray, free: np.ndarray) -> np.ndarray:
    """``policy`` with every ``free`` state taking its best action given the rest (policy
    iteration over those states alone: a handful of squares a printed policy leaves open)."""
    policy = policy.copy()
    if not free.any():
        return policy
    for _ in range(100):
        values = policy_values(model, policy)
        q = model.signed_pairs(model.pair_cost + model.discount * (model.transitions @ values))
        best = pick(model, np.nan_to_num(-q, nan=-np.inf))
        now = q[np.maximum(policy, 0)]
        # Better by more than rounding; anything finite is better than a cost without bound.
        with np.errstate(invalid="ignore"):
            bar = np.where(np.isfinite(now), now - 1e-12 * np.maximum(1.0, abs(now)), now)
        better = free & (q[np.maximum(best, 0)] < bar)
        if not better.any():
            break
        policy[better] = best[better]
    return policy


# --- printed policies -----------------------------------------------------------------------


def read_policy(problem: Problem, solution: Solution, path: str | Path) -> dict[int, str]:
    """The action on each square of the policy in the file ``path``: the text a program
    prints for the assignment (read with the assignment's print format; actions no game
    can observe, on jump squares, are left out as the grader leaves them out), or a JSON
    object ``{"<square>": "<action>"}``. A bad file is a :class:`UsageError` naming it."""
    where = str(path)
    answer = problem.game.answer(solution)
    name = problem.assignment.name
    if answer.actions is None:
        raise UsageError(
            where,
            f"{name} prints no action per square, so it takes no --policy "
            "(only the assignments that print one do, such as aimed, efron and trap-lane)",
        )
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(where, "no such policy file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(where, f"cannot read the policy file ({type(err).__name__})") from None
    if text.lstrip().startswith(("{", "[", '"')):
        return _json_policy(where, text)
    try:
        printed = output_format(answer.output).parse(text, answer)
    except OutputError as err:
        raise UsageError(
            where, f"neither a JSON policy nor what a {name} program prints ({err})"
        ) from None
    # As the grader reads it: no action on the goal, nor where no game asks for one.
    ungraded = problem.game.ungraded()
    goal = _layout(problem).goal
    actions = {}
    for key, action in printed.actions.items():
        square, _, _ = key.partition(":")
        if square.isdigit() and key not in ungraded and int(square) != goal:
            actions[int(square)] = action
    return actions


def _json_policy(where: str, text: str) -> dict[int, str]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(where, f"not valid JSON (line {err.lineno}: {err.msg})") from None
    if not isinstance(data, dict):
        raise UsageError(where, 'a JSON policy is an object {"<square>": "<action>", ...}')
    actions = {}
    for key, action in data.items():
        if not key.strip().isdigit():
            raise UsageError(where, f"{key[:20]!r} is not a square number")
        if isinstance(action, bool) or not isinstance(action, str | int):
            raise UsageError(where, f"square {key}: the action must be a name, got {action!r}")
        actions[int(key)] = str(action)
    return actions


def printed_strategy(
    problem: Problem, solution: Solution, name: str, actions: Mapping[int, str]
) -> Strategy:
    """The strategy that takes ``actions[square]`` on each square given (in the start
    layer); every other square takes the best action given the rest, as the program's own
    greedy choice would. ``name`` (a file) is what a mistake is reported against."""
    model = solution.model
    game = problem.game
    if game.answer(solution).actions is None:
        raise UsageError(name, f"{problem.assignment.name} takes no printed policy")
    layout = _layout(problem)
    names = model.action_names
    policy = solution.policy.copy()
    given = np.zeros(model.n_states, dtype=bool)
    for square, action in sorted(actions.items()):
        if square == layout.goal and action.strip() in ("-", ""):
            continue
        if square not in layout.squares or square == layout.goal:
            raise UsageError(
                name,
                f"square {square} is not one where an action is chosen "
                f"({layout.squares[0]}..{layout.goal - 1})",
            )
        state = layout.state(square)
        chosen = [p for p in model.pairs_of(state) if names[model.action_of_pair[p]] == action]
        if not chosen:
            legal = ", ".join(names[model.action_of_pair[p]] for p in model.pairs_of(state))
            raise UsageError(
                name, f"{action!r} is not a choice on square {square} (the choices: {legal})"
            )
        policy[state] = chosen[0]
        given[state] = True
    policy = _best_given(model, policy, ~given & ~model.terminal)
    row = layout.states[layout.start_layer]
    open_squares = [
        square
        for square, state in zip(layout.squares, row, strict=True)
        if not given[state] and not model.terminal[state]
    ]
    says = f"the policy in {name}"
    if open_squares:
        says += f"; where it says nothing ({squares_text(open_squares)}), the best action given it"
    return Strategy(Path(name).name, says, policy)


# --- the analysis -----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SquareCheck:
    """A square's computed value against games simulated from it under the optimal policy."""

    square: int
    state: int
    label: str
    computed: float
    simulated: Simulation

    @property
    def difference(self) -> float:
        """Computed minus simulated."""
        return self.computed - self.simulated.mean

    @property
    def standard_error(self) -> float:
        return self.simulated.std / np.sqrt(max(self.simulated.games, 1))

    def interval(self, z: float = Z_TEST) -> tuple[float, float]:
        return self.simulated.interval(z)

    def inside(self, z: float = Z_TEST) -> bool:
        """Whether the computed value lies in the simulation's interval (a simulation with
        no spread, every game alike, must hit it to rounding)."""
        low, high = self.interval(z)
        slack = 1e-9 * max(1.0, abs(self.computed))
        return low - slack <= self.computed <= high + slack


@dataclass(frozen=True, eq=False)
class StrategyResult:
    """A strategy evaluated exactly and by simulation from the start.

    ``exact`` is ``None`` when the strategy may never finish (turns objective): its
    expected cost has no bound. ``finishes`` is the probability that a game reaches the
    goal. ``values`` is the exact value from every state (``inf`` where it may never
    finish), for maps; ``policy`` is the strategy's (see :class:`Strategy`).
    """

    name: str
    says: str
    exact: float | None
    finishes: float
    simulated: Simulation
    values: np.ndarray
    policy: np.ndarray

    @property
    def deterministic(self) -> bool:
        return not np.issubdtype(self.policy.dtype, np.floating)

    def inside(self, z: float = Z_TEST) -> bool:
        """Whether the exact value lies in the simulation's interval."""
        if self.exact is None:
            return False
        low, high = self.simulated.interval(z)
        slack = 1e-9 * max(1.0, abs(self.exact))
        return low - slack <= self.exact <= high + slack


@dataclass(frozen=True, eq=False)
class Analysis:
    """Everything ``autograder analyze`` reports, as data.

    ``value_map[k][square]`` and ``policy_map[k][square]`` are the optimal value and
    action (in words) on each board square of layer ``k`` (see :class:`BoardLayout`), the
    goal included. ``squares`` checks every square of the start layer a game can stand
    on; ``strategies`` holds the optimal strategy first, then the named ones, then those
    read from files. ``choice`` is false when the player has no choice (classic).
    """

    problem: Problem
    solution: Solution
    layout: BoardLayout
    value_map: tuple[dict[int, float], ...]
    policy_map: tuple[dict[int, str], ...]
    squares: tuple[SquareCheck, ...]
    strategies: tuple[StrategyResult, ...]
    games: int
    seed: int
    maximize: bool
    choice: bool
    measure: Measure = TURNS
    # ``(caption, table)`` of values over pairs of squares (two pieces), where the game has them.
    pair_map: tuple[str, np.ndarray] | None = None

    def square_values(self, values: np.ndarray) -> tuple[dict[int, float], ...]:
        """Any per-state values (a strategy's) as a map of the board like ``value_map``."""
        return square_map(self.layout, values)

    def square_actions(self, result: StrategyResult) -> tuple[dict[int, str], ...] | None:
        """A strategy's actions as a map of the board like ``policy_map`` (``None`` for a
        stochastic strategy, which has no one action per square)."""
        if not result.deterministic:
            return None
        return _rules(self.problem).actions(self.problem, result.policy)


def square_map(layout: BoardLayout, values: np.ndarray) -> tuple[dict[int, float], ...]:
    return tuple(
        {square: float(values[state]) for square, state in zip(layout.squares, row, strict=True)}
        for row in layout.states
    )


def _rules(problem: Problem) -> AnalysisRules:
    rules = getattr(problem.rules, "ANALYSIS", None)
    if not isinstance(rules, AnalysisRules):
        raise UsageError(
            str(problem.assignment.config),
            f"the rules {problem.assignment.rules!r} say nothing of how to analyse the game",
        )
    return rules


def _layout(problem: Problem) -> BoardLayout:
    return _rules(problem).layout(problem)


def analysis_problem(
    name: str, board: str | Path | None = None, settings: Sequence[str] = ()
) -> Problem:
    """The game ``autograder analyze`` looks at: on ``board`` when one is given, else on
    the assignment's public board, unless its rules name another board for the analysis
    (``AnalysisRules.board``: the trap lane's public layout has no trap, where the risky
    die is best everywhere and "always risky" is the optimal strategy itself). The
    ``settings`` apply to either."""
    problem = make_problem(name, board, settings)
    if board is not None:
        return problem
    other = _rules(problem).board
    chosen = None if other is None else other(problem)
    if chosen is None:
        return problem
    words, data = chosen
    return dataclasses.replace(make_problem(name, data, settings), board_source=words)


def _seed(seed: int, *path: int) -> int:
    """A seed of its own for each simulation, drawn from the user's."""
    return int(np.random.SeedSequence([seed, *path]).generate_state(1, np.uint64)[0])


def _evaluate(
    model: Model, strategy: Strategy, games: int, seed: int, max_steps: int
) -> StrategyResult:
    values = policy_values(model, strategy.policy)
    start = float(values[model.start])
    finishes = float(goal_probability(model, strategy.policy)[model.start])
    simulated = simulate(model, strategy.policy, games, seed, max_steps)
    exact = start if np.isfinite(start) else None
    return StrategyResult(
        strategy.name, strategy.says, exact, finishes, simulated, values, strategy.policy
    )


def _check_squares(
    problem: Problem, solution: Solution, layout: BoardLayout, games: int, seed: int
) -> tuple[SquareCheck, ...]:
    model = solution.model
    row = layout.states[layout.start_layer]
    pairs = [
        (square, int(state))
        for square, state in zip(layout.squares, row, strict=True)
        if not model.terminal[state]
    ]
    batch = max(1, GAMES_IN_FLIGHT // games)
    checks = []
    for b in range(0, len(pairs), batch):
        part = pairs[b : b + batch]
        runs_ = simulate_from(
            model, solution.policy, [s for _, s in part], games, _seed(seed, 0, b // batch)
        )
        for (square, state), simulated in zip(part, runs_, strict=True):
            checks.append(
                SquareCheck(
                    square, state, model.label(state), float(solution.values[state]), simulated
                )
            )
    return tuple(checks)


def analyze(
    problem: Problem,
    solution: Solution,
    *,
    games: int = 10_000,
    seed: int = 0,
    policies: Mapping[str, Mapping[int, str]] | None = None,
    max_steps: int = MAX_STEPS,
) -> Analysis:
    """The analysis of ``problem`` solved as ``solution``; ``policies`` are named
    policies (a file's name -> the action on each square) to set against the optimal one.

    Every simulation plays ``games`` games. The optimal strategy's from the start uses
    ``seed`` itself (the games ``autograder simulate`` plays); every other simulation a
    seed of its own derived from it, so the same seed gives the same numbers.
    """
    rules = _rules(problem)
    model = solution.model
    layout = rules.layout(problem)
    choice = not model.single_action
    if choice:
        best = Strategy(
            "optimal", "the solver's policy: the best action on every square", solution.policy
        )
    else:
        only = model.action_names[int(model.action_of_pair[0])] if model.n_pairs else "play"
        best = Strategy("forced", f"{only} every turn: the player has no choice", solution.policy)
    named = list(rules.strategies(problem, solution)) if choice else []
    named += [
        printed_strategy(problem, solution, name, actions)
        for name, actions in (policies or {}).items()
    ]
    results = [_evaluate(model, best, games, seed, max_steps)]
    results += [
        _evaluate(model, strategy, games, _seed(seed, 1, k), max_steps)
        for k, strategy in enumerate(named, start=1)
    ]
    return Analysis(
        problem=problem,
        solution=solution,
        layout=layout,
        value_map=square_map(layout, solution.values),
        policy_map=rules.actions(problem, solution.policy),
        squares=_check_squares(problem, solution, layout, games, seed),
        strategies=tuple(results),
        games=games,
        seed=seed,
        maximize=model.maximize,
        choice=choice,
        measure=rules.measure or (DISCOUNTED if model.maximize else TURNS),
        pair_map=None if rules.pairs is None else rules.pairs(problem, solution),
    )


# --- the text -----------------------------------------------------------------------------------


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> list[str]:
    """Columns padded to their widest entry, column ``c`` aligned by ``align[c]`` (``<``
    flush left, ``>`` flush right)."""
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [f"{cell:{a}{w}}" for cell, a, w in zip(cells, align, widths, strict=True)]
        return ("  " + "  ".join(parts)).rstrip()

    return [line(header), *(line(r) for r in rows)]


def _number(value: float) -> str:
    if np.isnan(value):
        return "-"
    return f"{value:.4f}" if np.isfinite(value) else ("inf" if value > 0 else "-inf")


def _interval(simulated: Simulation, z: float = Z_TEST) -> str:
    if not simulated.games:
        return "-"
    low, high = simulated.interval(z)
    return f"[{low:.4f}, {high:.4f}]"


def _map_lines(analysis: Analysis) -> list[str]:
    layout = analysis.layout
    several = len(layout.states) > 1
    order = range(len(layout.states) - 1, -1, -1)  # most tokens first, as printed
    header = ["square"]
    for k in order:
        header += [layout.layer_names[k] if several else "value", "action"]
    header.append("")
    rows = []
    for square in layout.squares:
        row = [str(square)]
        for k in order:
            row += [_number(analysis.value_map[k][square]), analysis.policy_map[k][square]]
        row.append(layout.notes.get(square, ""))
        rows.append(row)
    return _table(header, rows, ">" + "><" * len(order) + "<")


def _square_lines(analysis: Analysis) -> list[str]:
    checks = analysis.squares
    header = ["square", "computed", "simulated", "99.9% interval", "computed - simulated"]
    rows = [
        [
            str(c.square),
            _number(c.computed),
            _number(c.simulated.mean),
            _interval(c.simulated),
            f"{c.difference:+.4f}",
        ]
        for c in checks
    ]
    outside = [c for c in checks if not c.inside()]
    worst = max(
        (abs(c.difference) / c.standard_error for c in checks if c.standard_error > 0),
        default=0.0,
    )
    unfinished = sum(c.simulated.unfinished for c in checks)
    summary = [
        f"{len(checks) - len(outside)} of {len(checks)} squares have the computed value inside "
        f"the 99.9% interval",
        f"(by chance about {0.001 * len(checks):.2g} would fall outside); the largest "
        f"difference is {worst:.2f} standard errors",
    ]
    if outside:
        summary.append(f"outside: squares {runs([c.square for c in outside])}")
    if unfinished:
        summary.append(f"warning: {unfinished} games did not finish and are left out")
    return [*_table(header, rows, ">>>>>"), "", *summary]


def _strategy_lines(analysis: Analysis) -> list[str]:
    header = ["strategy", "exact", "simulated", "99.9% interval", "unfinished"]
    rows = []
    for r in analysis.strategies:
        rows.append(
            [
                r.name,
                "never finishes" if r.exact is None else _number(r.exact),
                _number(r.simulated.mean),
                _interval(r.simulated),
                str(r.simulated.unfinished),
            ]
        )
    lines = [*_table(header, rows, "<>>>>"), ""]
    for r in analysis.strategies:
        lines.append(f"  {r.name}: {r.says}")
        if r.finishes < 1.0 - 1e-9:
            chance = (
                "it never reaches the goal from the start"
                if r.finishes < 1e-12
                else f"it reaches the goal from the start with probability {r.finishes:.4f}"
            )
            if not analysis.maximize and r.simulated.games:
                chance += "; the simulated mean counts the finished games only"
            lines.append(f"    {chance}")
    return lines


def analysis_text(analysis: Analysis) -> str:
    """The analysis as the terminal report of ``autograder analyze``."""
    problem = analysis.problem
    name = problem.assignment.name
    what, better, unit = analysis.measure.what, analysis.measure.better, analysis.measure.unit
    lines = [
        f"{name} on {problem.board_words}",
        f"{what} ({better} is better); {analysis.games} games per simulation, seed {analysis.seed}",
        "",
        "1. The optimal solution: value and action on every square",
        "",
        *_map_lines(analysis),
        "",
        "2. Computed against simulated, from every square a game can stand on",
        f"   ({analysis.games} games from each under the optimal policy; 99.9% intervals, "
        f"z = {Z_TEST})",
        "",
        *_square_lines(analysis),
        "",
        "3. The optimal strategy against others, from the start",
        "   (exact: one linear solve on the strategy's Markov chain; simulated: "
        f"{analysis.games} games, 99.9% interval)",
        "",
    ]
    if not analysis.choice:
        lines += [
            f"  {name} gives the player no choice (one action on every square), so the "
            "forced strategy is the only one.",
            "",
        ]
    lines += _strategy_lines(analysis)
    for r in analysis.strategies:
        lines += ["", f"Game lengths ({unit}), {r.name}:", *histogram_lines(r.simulated.length)]
    return "\n".join(lines) + "\n"
