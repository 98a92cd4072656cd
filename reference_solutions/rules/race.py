"""race: two players race on one jump board, the first to reach the goal wins
(docs/rules.md, "race").

The model is a game of two players with opposite aims: the states are (player to move,
square of A, square of B); A maximises A's chance of winning, B minimises it, or plays the
turn-minimising policy of the one-player game (``mode = against-turns``). State
``t * n * n + x * n + y`` has player ``t`` to move with A on ``x`` and B on ``y`` (squares
``0..n-1``, ``n`` the goal); then come A's win and B's win, then, for boosted moves, the
states after a spin where its mover chooses ``s`` or ``s + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from autograder import Answer, JumpBoard

from .._analysis import AnalysisRules, BoardLayout, Measure, Strategy, pick
from .._catalogue import RuleVariant, changed_rules
from .._model import Model, build_model
from .._params import Overshoot, choice, integer, overshoot, param, probabilities
from .._solver import Solution, solve
from . import aimed as aimed_rules
from . import boosted as boosted_rules
from . import classic as classic_rules
from ._jumps import check_jump_params, landing

OUTPUT = "race"
Moves = Literal["classic", "boosted", "aimed"]
Mode = Literal["win", "against-turns"]


@dataclass(frozen=True)
class Params:
    moves: Moves = param(
        "boosted",
        choice("classic", "boosted", "aimed"),
        "how a player moves: classic (spin), boosted (spin s, move s or s + 1), "
        "aimed (aim 1..faces)",
    )
    mode: Mode = param(
        "win",
        choice("win", "against-turns"),
        "win: both play to win; against-turns: the other player minimises its own turns",
    )
    faces: int = param(6, integer(1, 100), "the spinner shows 1..faces (the aims are 1..faces)")
    noise: tuple[float, ...] = param(
        (0.25, 0.5, 0.25),
        probabilities(3),
        "aimed moves: probabilities of moving aim-1, aim, aim+1",
        applies=("moves", "aimed"),
    )
    overshoot: Overshoot = param(
        Overshoot("stay"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )


Turn = Literal["passes", "kept", "mover-again"]


@dataclass(frozen=True)
class RuleChanges:
    """Rules other than the race's, for the catalogue of mistakes. ``turn``: how the turn
    passes after a move: to the other player (the rules), to the other player with the
    squares kept in place, so that the next mover stands on the square just reached
    (``kept``: who moves swapped), or not at all (``mover-again``: the opponent forgotten).
    ``fewest_turns``: both players play the one-player game's turn-minimising policy."""

    turn: Turn = "passes"
    fewest_turns: bool = False


RULES_AS_WRITTEN = RuleChanges()


@dataclass(frozen=True)
class Options:
    """What one player may do on each square ``0..n-1``: actions ``names``, each moving to
    ``dest[m, a, k]`` with probability ``prob[m, a, k]``; with ``after_spin`` (boosted) the
    ``a`` are spins, equally likely, and the ``k`` the two moves to choose from."""

    names: tuple[str, ...]
    dest: np.ndarray
    prob: np.ndarray
    after_spin: bool = False


def _options(board: JumpBoard, params: Params) -> Options:
    n, f = board.goal, params.faces
    squares = np.arange(n)[:, None, None]
    if params.moves == "aimed":
        moves = np.arange(1, f + 1)[:, None] + np.arange(-1, 2)[None, :]
        prob = np.broadcast_to(np.asarray(params.noise, dtype=float), (n, f, 3))
        names = tuple(str(k) for k in range(1, f + 1))
    elif params.moves == "boosted":
        moves = np.arange(1, f + 1)[:, None] + np.arange(2)[None, :]
        prob = np.full((n, f, 2), 1.0 / f)
        names = ("spin",)
    else:
        moves = np.arange(1, f + 1)[None, :]
        prob = np.full((n, 1, f), 1.0 / f)
        names = ("spin",)
    dest = landing(board, params.overshoot, squares, moves[None, :, :])
    return Options(names, dest, np.array(prob), after_spin=params.moves == "boosted")


def _one_player(board: JumpBoard, params: Params) -> tuple[Any, Solution]:
    """The one-player game of the same moves, and its solution (fewest turns)."""
    if params.moves == "aimed":
        rules: Any = aimed_rules
        one: Any = aimed_rules.Params(
            faces=params.faces, noise=params.noise, overshoot=params.overshoot
        )
    elif params.moves == "boosted":
        rules, one = boosted_rules, boosted_rules.Params(params.faces, params.overshoot)
    else:
        rules, one = classic_rules, classic_rules.Params(params.faces, params.overshoot)
    game = rules.build(board, one)
    return game, solve(game.model)


def _fewest_turns(board: JumpBoard, params: Params, options: Options) -> Options:
    """The moves of a player who plays the one-player game's turn-minimising policy: one
    action per square (ties go to the shorter move, the first in action order)."""
    n = board.goal
    game, solution = _one_player(board, params)
    if options.after_spin:
        chosen = np.array(game.spin_choices(solution)[:n])  # the move after each spin
        took = (chosen - np.arange(1, params.faces + 1)[None, :]).astype(np.intp)
        dest = np.take_along_axis(options.dest, took[:, :, None], axis=2)[:, :, 0]
        prob = np.full(dest.shape, 1.0 / params.faces)
        return Options(("spin",), dest[:, None, :], prob[:, None, :])
    if params.moves == "aimed":
        aims = np.array([int(a) for a in game.square_actions(solution)[:n]]) - 1
        dest = options.dest[np.arange(n), aims][:, None, :]
        prob = options.prob[np.arange(n), aims][:, None, :]
        return Options(("turn",), dest, prob)
    return options


@dataclass(frozen=True, eq=False)
class RaceGame:
    """A solved-for race: the model and how its states map back to pairs of squares."""

    output: str
    board: JumpBoard
    model: Model
    moves: str
    params: Params
    at: Numbering

    first_square = 0

    @property
    def n(self) -> int:
        return self.board.goal

    @property
    def steps_per_sweep(self) -> int:
        return 2 if self.moves == "boosted" else 1

    def squares_in_order(self, descending: bool = False) -> np.ndarray:
        """The states where a player is to move (before any spin), up the board."""
        states = np.arange(self.at.pairs) * self.at.stride
        return states[::-1] if descending else states

    def ungraded(self) -> frozenset[str]:
        return frozenset()

    def table(self, solution: Solution) -> np.ndarray:
        """``W[a, b]``: the chance that the player to move on ``a`` wins, the other on ``b``."""
        a, b = np.meshgrid(np.arange(self.n), np.arange(self.n), indexing="ij")
        return solution.values[self.at.state(0, a, b)]

    def answer(self, solution: Solution) -> Answer:
        W = self.table(solution)
        return Answer(self.output, float(W[0, 0]), tuple(tuple(row) for row in W.tolist()))

    def values_json(self, solution: Solution) -> Any:
        return self.table(solution).tolist()

    def policy_json(self, solution: Solution) -> Any:
        """Where playing to win chooses otherwise than minimising turns: ``[a, b]`` (aimed)
        or ``[a, b, spin]`` (boosted), the first player to move on ``a``, the other on ``b``,
        where none of the best choices is the turn-minimiser's (ties within the solver's
        tolerance agree)."""
        if self.moves == "classic":
            return {"differs_from_fewest_turns": []}
        model = solution.model
        fewest = _fewest_turns_pairs(self, self.board)
        agree = np.bincount(model.state_of_pair, weights=solution.optimal & fewest,
                            minlength=model.n_states)  # fmt: skip
        t, x, y, spin = self.at.decode(np.arange(model.n_states))
        chooses = (t == 0) & (np.diff(model.pair_start) > 1)
        where = np.flatnonzero(chooses & (agree == 0))
        rows = [x[where], y[where]] + ([spin[where]] if self.moves == "boosted" else [])
        return {"differs_from_fewest_turns": np.column_stack(rows).tolist()}

    def optimal_json(self, solution: Solution) -> Any:
        return None


def build(board: JumpBoard, params: Params, changes: RuleChanges = RULES_AS_WRITTEN) -> RaceGame:
    n = board.goal
    longest = params.faces + (0 if params.moves == "classic" else 1)
    check_jump_params(board, params.overshoot, longest)
    free = _options(board, params)
    players = [free, free]
    if params.mode == "against-turns" or changes.fewest_turns:
        fixed = _fewest_turns(board, params, free)
        players = [fixed, fixed] if changes.fewest_turns else [free, fixed]
    model = _race_model(n, players, changes.turn)
    return RaceGame(OUTPUT, board, model, params.moves, params, _numbering(n, players))


@dataclass(frozen=True)
class Numbering:
    """Where the race's states are. A pair of squares and the player to move is state
    ``(2 * (x * n + y) + t) * stride``, A on ``x`` and B on ``y``, player ``t`` to move;
    with boosted moves the ``stride - 1`` states after it are those after each spin. A's win
    and B's win come last. So every move up the board leads to a later state, and only a
    chute back down (or a piece that stays) to an earlier one: the order in which the
    linear solves eliminate from the goal end (``reference_solutions/_linear.py``)."""

    n: int
    stride: int

    @property
    def pairs(self) -> int:
        return 2 * self.n * self.n

    @property
    def a_wins(self) -> int:
        return self.pairs * self.stride

    @property
    def b_wins(self) -> int:
        return self.a_wins + 1

    @property
    def n_states(self) -> int:
        return self.a_wins + 2

    def state(self, t: int | np.ndarray, x: Any, y: Any) -> Any:
        return (2 * (x * self.n + y) + t) * self.stride

    def decode(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per state: the player to move (-1 on a won state), A's square, B's square, and
        after a spin the spin (else 0)."""
        block, spin = np.divmod(states, self.stride)
        xy, t = np.divmod(block, 2)
        x, y = np.divmod(xy, self.n)
        won = states >= self.a_wins
        return np.where(won, -1, t), x, y, np.where(won, 0, spin)


def _numbering(n: int, players: list[Options]) -> Numbering:
    spins = max((o.dest.shape[1] for o in players if o.after_spin), default=0)
    return Numbering(n, 1 + spins)


def _race_model(n: int, players: list[Options], turn: Turn) -> Model:
    at = _numbering(n, players)
    grid = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")  # [m, o]
    mover, other = grid[0].ravel(), grid[1].ravel()
    names = ("spin", *(str(k) for k in range(1, 102)), "turn")
    aims = {name: i for i, name in enumerate(names)}
    pair_state, pair_action, o_pair, o_state, o_prob = [], [], [], [], []
    controller = np.zeros(at.n_states, dtype=np.int8)
    pairs = 0

    def after(t: int, o: np.ndarray, d: np.ndarray) -> np.ndarray:
        """The state the mover of layer ``t`` reaching ``d`` leads to (the other on ``o``)."""
        if turn == "passes":  # the other is to move, from its own square
            to = at.state(1, d, o) if t == 0 else at.state(0, o, d)
        elif turn == "kept":  # the other is to move, as if from the square just reached
            to = at.state(1, o, d) if t == 0 else at.state(0, d, o)
        else:  # the same player moves again
            to = at.state(0, d, o) if t == 0 else at.state(1, o, d)
        return np.where(d >= n, at.a_wins if t == 0 else at.b_wins, to)

    for t, options in enumerate(players):
        states = at.state(t, mover, other) if t == 0 else at.state(t, other, mover)
        controller[states] = t
        dest = options.dest[mover]  # [pairs of squares, actions, outcomes]
        prob = options.prob[mover]
        width, k = dest.shape[1], dest.shape[2]
        if options.after_spin:
            # One spin per state, to a choice per spin; then two sure moves per choice.
            spun = states[:, None] + np.arange(1, width + 1)[None, :]
            controller[spun] = t
            ids = pairs + np.arange(states.size)
            pair_state.append(states)
            pair_action.append(np.zeros(states.size, dtype=np.int64))
            o_pair.append(np.repeat(ids, width))
            o_state.append(spun.ravel())
            o_prob.append(np.full(states.size * width, 1.0 / width))
            pairs += states.size
            choice_states = np.repeat(spun.ravel(), k)
            ids = pairs + np.arange(choice_states.size)
            spins = np.tile(np.arange(1, width + 1)[:, None] + np.arange(k), (states.size, 1))
            pair_state.append(choice_states)
            pair_action.append(spins.ravel())
            o_pair.append(ids)
            o_state.append(after(t, np.repeat(other, width * k), dest.ravel()))
            o_prob.append(np.ones(ids.size))
            pairs += ids.size
            continue
        ids = pairs + np.arange(states.size * width)
        pair_state.append(np.repeat(states, width))
        pair_action.append(np.tile([aims[name] for name in options.names], states.size))
        o_pair.append(np.repeat(ids, k))
        o_state.append(after(t, np.repeat(other, width * k), dest.ravel()))
        o_prob.append(prob.ravel())
        pairs += ids.size
    terminal_value = np.zeros(at.n_states)
    terminal_value[at.a_wins] = 1.0
    return build_model(
        n_states=at.n_states,
        pair_state=np.concatenate(pair_state),
        pair_action=np.concatenate(pair_action),
        outcome_pair=np.concatenate(o_pair),
        outcome_state=np.concatenate(o_state),
        outcome_prob=np.concatenate(o_prob),
        outcome_cost=0.0,
        terminal_value=terminal_value,
        start=at.state(0, 0, 0),
        action_names=names,
        label=_labeller(at),
        maximize=True,
        controller=controller,
        maximizes=(True, False),
    )


def _labeller(at: Numbering) -> Any:
    def label(s: int) -> str:
        t, x, y, spin = (int(v[0]) for v in at.decode(np.array([s])))
        if s == at.a_wins:
            return "A has won"
        if s == at.b_wins:
            return "B has won"
        where = f"{'A' if t == 0 else 'B'} to move, A on {x}, B on {y}"
        return where + (f", having spun {spin}" if spin else "")

    return label


READINGS: tuple[RuleVariant, ...] = ()
_TURN = "the turn: after a move the other player moves, from its own square"
MISTAKES = (
    RuleVariant(
        "fewest-turns",
        "each player minimises its own expected turns instead of maximising its chance to win",
        changed_rules(fewest_turns=True),
        reread="the aim: the chance to reach the goal first, not the fewest turns on average",
    ),
    RuleVariant(
        "opponent-forgotten",
        "the player to move moves again and again; the other player never moves in between",
        changed_rules(turn="mover-again"),
        reread=_TURN + "; its move may win the race first",
    ),
    RuleVariant(
        "who-moves-swapped",
        "after a move the other player is to move from the square just reached "
        "(the two squares not swapped when the turn passes)",
        changed_rules(turn="kept"),
        reread=_TURN + ": W(a, b) looks up 1 - W(b, a') after a move to a'",
    ),
)
KNOBS = ()
# A changed race is a game of 20,000 states or more, solved by strategy iteration on the
# numpy path: some three times the cost of a jump game of as many transitions.
EXPLAIN_COST = 3.0


# --- the analysis: playing to win against minimising turns, head to head -------------------


def _race(problem: Any) -> RaceGame:
    game = problem.game
    assert isinstance(game, RaceGame)
    return game


def _movers(game: RaceGame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per state: the player to move (-1 on a won state), the mover's square and, after a
    spin, the spin (else 0)."""
    t, x, y, spin = game.at.decode(np.arange(game.model.n_states))
    return t, np.where(t == 0, x, y), spin


def _fewest_turns_pairs(game: RaceGame, board: JumpBoard) -> np.ndarray:
    """Per pair of the race, whether it is the move of the one-player game's turn-minimising
    policy (ties to the shorter move, the lowest aim)."""
    model = game.model
    _, square, spin = _movers(game)
    one, solution = _one_player(board, game.params)
    action = model.action_of_pair
    state = model.state_of_pair
    if game.moves == "boosted":
        chosen = np.array(one.spin_choices(solution)[: game.n])  # [square, spin - 1]
        after = spin[state] > 0
        best = np.zeros(action.size, dtype=bool)
        best[after] = action[after] == chosen[square[state][after], spin[state][after] - 1]
        return best | ~after
    if game.moves == "aimed":
        aims = np.array([int(a) for a in one.square_actions(solution)[: game.n]])
        return action == aims[square[state]]
    return np.ones(action.size, dtype=bool)


def _layout(problem: Any) -> BoardLayout:
    """The first player's squares, against the other player on a few squares: on 0 (the
    start layer), a third and two thirds of the way up, and just short of the goal."""
    game = _race(problem)
    n = game.n
    others = sorted({0, n // 3, (2 * n) // 3, n - 1})
    states = tuple(np.append(game.at.state(0, np.arange(n), b), game.at.a_wins) for b in others)
    names = tuple(f"the other on {b}" for b in others)
    notes = {a: f"{'ladder' if b > a else 'chute'} to {b}" for a, b in game.board.jumps}
    return BoardLayout(tuple(range(n + 1)), states, names, 0, notes)


def _choice_words(game: RaceGame, policy: np.ndarray, states: np.ndarray) -> list[str]:
    """What ``policy`` does on each of ``states`` (all with A to move), in words."""
    model = game.model
    if game.moves == "classic":
        return ["spin"] * states.size
    if game.moves == "aimed":
        return [f"aim {model.action_names[model.action_of_pair[policy[s]]]}" for s in states]
    f = game.params.faces
    words = []
    for s in states:
        first = int(s) + 1  # (the states after each spin follow their square's own)
        boosted = [k + 1 for k in range(f)
                   if model.action_of_pair[policy[first + k]] == k + 2]  # fmt: skip
        words.append("never" if not boosted else "always" if len(boosted) == f
                     else "boost on " + ",".join(map(str, boosted)))  # fmt: skip
    return words


def _actions(problem: Any, policy: np.ndarray) -> tuple[dict[int, str], ...]:
    """The first player's choice on each square against the other player on each layer's
    square, and where the turn-minimising choice differs, that one too."""
    game = _race(problem)
    fewest = pick(game.model, _fewest_turns_pairs(game, problem.board).astype(float))
    maps = []
    for row in _layout(problem).states:
        states = row[:-1]
        said = _choice_words(game, policy, states)
        other = _choice_words(game, fewest, states)
        words = {
            a: w if w == o else f"{w} (fewest turns: {o})"
            for a, (w, o) in enumerate(zip(said, other, strict=True))
        }
        maps.append({**words, game.n: "-"})
    return tuple(maps)


def _strategies(problem: Any, solution: Solution) -> list[Strategy]:
    """Head to head: each player plays to win or minimises its own turns."""
    game = _race(problem)
    model = game.model
    fewest = pick(model, _fewest_turns_pairs(game, problem.board).astype(float))
    to_win = solution.policy
    player, _, _ = _movers(game)
    if game.moves == "classic":
        return []
    a_moves = player == 0
    return [
        Strategy("A to win, B fewest turns",
                 "the first player plays to win, the other minimises its own expected turns",
                 np.where(a_moves, to_win, fewest)),
        Strategy("A fewest turns, B to win",
                 "the first player minimises its own expected turns, the other plays to win",
                 np.where(a_moves, fewest, to_win)),
        Strategy("both fewest turns",
                 "each player minimises its own expected turns, as if alone on the board",
                 fewest),
    ]  # fmt: skip


def _pairs(problem: Any, solution: Solution) -> tuple[str, np.ndarray]:
    return ("the chance that the player to move wins: its square down the side, the "
            "other's across", _race(problem).table(solution))  # fmt: skip


ANALYSIS = AnalysisRules(
    _layout,
    _actions,
    _strategies,
    measure=Measure(
        "the first player's chance to win",
        "higher",
        "moves of both players",
        "chance to win",
        "chance to win (the player to move)",
    ),
    pairs=_pairs,
)
