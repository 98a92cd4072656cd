"""What the jump games (classic, boosted, token-boosted, aimed, efron) share.

Squares of one token layer ``k`` are states ``k * N .. k * N + N - 1``; the goal is the
single terminal state ``layers * N``; states after that are the spin-then-choose states of
the boosted games. So classic's state ``i`` is square ``i`` and its goal is state ``N``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from autograder import Answer, BoardError, GoalUnreachable, JumpBoard, Objective, UsageError

from .._analysis import AnalysisRules, BoardLayout, Strategy, pick
from .._catalogue import (
    Knob,
    RuleVariant,
    changed_answer,
    changed_board,
    changed_game,
    changed_params,
    changed_rules,
)
from .._model import Model, build_model
from .._params import Overshoot
from .._solver import Solution

if TYPE_CHECKING:
    from .._problem import Problem


@dataclass(frozen=True)
class JumpChanges:
    """Rules other than the assignment's, for the catalogue of readings and mistakes
    (``reference_solutions._catalogue``); the defaults are the rules as written.

    ``jump_in_place``: a move that leaves the piece where it stands takes that square's jump
    (reading (b) of a jump square's value). ``zero_move_jumps``: a move of 0 takes it, but
    an overshoot that stays does not (the course's ``next = p if p + s > N else
    goes_to[p + s]`` in a game with a move of 0). ``jump_turns``: extra turns a jump costs.
    ``first_face``: the spinner shows ``first_face .. first_face + faces - 1``.
    ``boost_overshoot``: the overshoot rule of a boosted move, if not the game's.
    ``boost_jumps``: a boosted move takes the jump where it ends. ``boost_tokens``: the
    tokens a boost spends (token-boosted).
    """

    jump_in_place: bool = False
    zero_move_jumps: bool = False
    jump_turns: int = 0
    first_face: int = 1
    boost_overshoot: Overshoot | None = None
    boost_jumps: bool = True
    boost_tokens: int = 1


RULES_AS_WRITTEN = JumpChanges()


# A move of this many squares ends on the goal whatever the overshoot rule (a mistake's
# rules: a spinner face left out of a sum, which adds nothing, as the goal's value does).
TO_GOAL = 10**9


def moved_to(board: JumpBoard, overshoot: Overshoot, square: np.ndarray, move: np.ndarray):
    """Where a move of ``move`` from ``square`` ends, by the overshoot rule, before a jump."""
    goal = board.goal
    target = square + move
    past = target > goal
    ends: Any
    if overshoot.rule == "stay":
        ends = np.where(past, square, target)
    elif overshoot.rule == "win":
        ends = np.where(past, goal, target)
    elif overshoot.rule == "bounce":
        ends = np.where(past, 2 * goal - target, target)
    else:
        ends = np.where(past, overshoot.square, target)
    return np.where(move >= TO_GOAL, goal, ends)


def landing(
    board: JumpBoard,
    overshoot: Overshoot,
    square: np.ndarray,
    move: np.ndarray,
    changes: JumpChanges = RULES_AS_WRITTEN,
    *,
    jumps: bool = True,
):
    """Where a move of ``move`` from ``square`` leaves the piece: the overshoot rule, then the
    jump of the square the move ends on, if that is another square. A piece that does not
    move (a ``stay`` overshoot, a move of 0) takes no jump (docs/rules.md, "Jumps")."""
    target = moved_to(board, overshoot, square, move)
    if not jumps:
        return target
    if changes.jump_in_place:
        return board.goes_to[target]
    stays = target == square
    if changes.zero_move_jumps:
        stays &= move != 0
    return np.where(stays, target, board.goes_to[target])


def turn_cost(
    board: JumpBoard,
    overshoot: Overshoot,
    square: np.ndarray,
    move: np.ndarray,
    changes: JumpChanges,
) -> np.ndarray | float:
    """The turns a move costs: 1, and ``changes.jump_turns`` more when it takes a jump."""
    if not changes.jump_turns:
        return 1.0
    target = moved_to(board, overshoot, square, move)
    took = landing(board, overshoot, square, move, changes) != target
    return 1.0 + changes.jump_turns * took


def check_jump_params(board: JumpBoard, overshoot: Overshoot, longest_move: int) -> None:
    if overshoot.rule == "land" and not 0 <= (overshoot.square or 0) <= board.goal:
        raise UsageError(
            "", f"overshoot=land:{overshoot.square} names no square of this board (0..{board.goal})"
        )
    if overshoot.rule == "bounce" and longest_move > board.goal + 1:
        raise UsageError(
            "", f"a move of {longest_move} can bounce off the board (goal {board.goal})"
        )


@dataclass(frozen=True, eq=False)
class JumpGame:
    """A solved-for jump game: the model plus how its states map back to squares."""

    output: str
    board: JumpBoard
    model: Model
    layers: int = 1
    faces: int = 0
    objective: Objective = "turns"

    first_square = 0  # square i is state i

    @property
    def steps_per_sweep(self) -> int:
        """Model steps per sweep over the squares: a boosted turn is a spin, then a choice."""
        return 2 if self.faces else 1

    def squares_in_order(self, descending: bool = False) -> np.ndarray:
        """Each token table in turn, fewest tokens first (each needs only itself and the one
        below), its squares from 0 up (``descending``: from ``N - 1`` down)."""
        n = self.board.goal
        squares = np.arange(n - 1, -1, -1) if descending else np.arange(n)
        return (np.arange(self.layers)[:, None] * n + squares).ravel()

    def ungraded(self) -> frozenset[str]:
        """Entries no game can observe: the action on a jump square, where no piece rests."""
        if self.output != "values-actions":
            return frozenset()
        return frozenset(f"{start}:action" for start, _ in self.board.jumps)

    @property
    def goal_state(self) -> int:
        return self.layers * self.board.goal

    def square_values(self, solution: Solution, layer: int = 0) -> np.ndarray:
        n = self.board.goal
        return np.append(
            solution.values[layer * n : (layer + 1) * n], solution.values[self.goal_state]
        )

    def square_actions(self, solution: Solution) -> list[str | None]:
        return [solution.action(i) for i in range(self.board.goal)] + [None]

    def spin_choices(self, solution: Solution, layer: int = 0) -> list[list[int] | None]:
        """For each square, the move chosen after each spin ``1..faces`` (boosted games)."""
        n, f = self.board.goal, self.faces
        first = self.goal_state + 1 + layer * n * f
        pairs = solution.policy[first : first + n * f]
        moves = self.model.action_of_pair[pairs].reshape(n, f)  # action k moves k squares
        return [row.tolist() for row in moves] + [None]

    def answer(self, solution: Solution) -> Answer:
        if self.output == "token-values":
            values = tuple(
                tuple(self.square_values(solution, k).tolist()) for k in range(self.layers)
            )
            return Answer(self.output, solution.start_value, values)
        values = tuple(self.square_values(solution).tolist())
        actions = None
        if self.output == "values-actions":
            actions = tuple(a or "-" for a in self.square_actions(solution))
        return Answer(self.output, solution.start_value, values, actions, self.objective)

    def values_json(self, solution: Solution) -> Any:
        if self.output == "token-values":
            return [self.square_values(solution, k).tolist() for k in range(self.layers)]
        return self.square_values(solution).tolist()

    def policy_json(self, solution: Solution) -> Any:
        if self.output == "values-actions":
            return self.square_actions(solution)
        if self.faces and self.output == "token-values":
            return [self.spin_choices(solution, k) for k in range(self.layers)]
        if self.faces:
            return self.spin_choices(solution)
        return None

    def optimal_json(self, solution: Solution) -> Any:
        if self.output != "values-actions":
            return None
        return [solution.optimal_actions(i) for i in range(self.board.goal)] + [None]


def choice_game(
    board: JumpBoard,
    overshoot: Overshoot,
    actions: Sequence[tuple[str, Sequence[int], Sequence[float]]],
    *,
    output: str,
    drop_motionless: bool = False,
    objective: Objective = "turns",
    discount: float = 1.0,
    reward: float = 0.0,
    changes: JumpChanges = RULES_AS_WRITTEN,
) -> JumpGame:
    """Each turn the player picks an action; action ``(name, moves, probs)`` moves ``moves[j]``
    squares with probability ``probs[j]``. Classic is the case of a single action.

    With ``drop_motionless`` an action whose every outcome leaves the piece where it stands
    is not legal on that square (efron's rule for a die that cannot move the piece).
    """
    discounted = objective == "discounted"
    n = board.goal
    check_jump_params(board, overshoot, max(m for _, ms, _ in actions for m in ms if m < TO_GOAL))
    squares = np.arange(n)
    pair_state: list[np.ndarray] = []
    pair_action: list[np.ndarray] = []
    o_pair: list[np.ndarray] = []
    o_state: list[np.ndarray] = []
    o_prob: list[np.ndarray] = []
    o_cost: list[np.ndarray | float] = []
    first_pair = 0
    for a, (_, moves, probs) in enumerate(actions):
        moves_ = np.asarray(moves, dtype=np.int64)
        dest = landing(board, overshoot, squares[:, None], moves_[None, :], changes)
        cost = (
            0.0
            if discounted
            else turn_cost(board, overshoot, squares[:, None], moves_[None, :], changes)
        )
        if drop_motionless:
            legal = ~np.all(dest == squares[:, None], axis=1)
            states, dest = squares[legal], dest[legal]
            if not isinstance(cost, float):
                cost = cost[legal]
        else:
            states = squares
        ids = first_pair + np.arange(states.size)
        first_pair += states.size
        pair_state.append(states)
        pair_action.append(np.full(states.size, a))
        o_pair.append(np.repeat(ids, moves_.size))
        o_state.append(dest.ravel())
        o_prob.append(np.tile(np.asarray(probs, dtype=float), states.size))
        o_cost.append(cost if isinstance(cost, float) else np.ravel(cost))
    states = _joined(pair_state)
    # A mask, not np.setdiff1d: that sorts (hashes) a million squares, half the build.
    movable = np.zeros(n, dtype=bool)
    movable[states] = True
    stuck = np.flatnonzero(~movable)
    if stuck.size:
        shown = ", ".join(map(str, stuck[:8]))
        raise GoalUnreachable("", f"no action can move the piece from square {shown}")
    terminal_value = np.zeros(n + 1)
    terminal_value[n] = reward if discounted else 0.0
    model = build_model(
        n_states=n + 1,
        pair_state=states,
        pair_action=_joined(pair_action),
        outcome_pair=_joined(o_pair),
        outcome_state=_joined(o_state),
        outcome_prob=_joined(o_prob),
        outcome_cost=_costs(o_cost, o_state),
        terminal_value=terminal_value,
        action_names=tuple(name for name, _, _ in actions),
        label=lambda s: f"square {s}",
        discount=discount if discounted else 1.0,
        maximize=discounted,
    )
    return JumpGame(output, board, model, objective=objective)


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """The parts end to end (one part as it is: a million squares copied for nothing)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _costs(costs: list[np.ndarray | float], outcomes: list[np.ndarray]) -> np.ndarray | float:
    """The outcomes' costs, as one number when every action's turn costs the same."""
    if all(isinstance(c, float) for c in costs) and len(set(costs)) == 1:
        return float(costs[0])
    return np.concatenate(
        [np.broadcast_to(c, o.shape) for c, o in zip(costs, outcomes, strict=True)]
    )


def boost_game(
    board: JumpBoard,
    overshoot: Overshoot,
    faces: int,
    tokens: int | None,
    output: str,
    changes: JumpChanges = RULES_AS_WRITTEN,
) -> JumpGame:
    """Spin ``1..faces``, then move the spin or one more. ``tokens=None``: boosts are free;
    otherwise each boost spends a token and the state carries the tokens left."""
    n, f = board.goal, faces
    check_jump_params(board, overshoot, f + changes.first_face)
    layers = 1 if tokens is None else tokens + 1
    goal = layers * n
    n_pre = layers * n
    n_post = n_pre * f
    # Indices in int32 where they fit: a million-square board has 13 million pairs.
    index = np.dtype(np.int32 if goal + 1 + n_post + n_pre * f * 2 < 2**31 else np.int64)
    spins = np.arange(changes.first_face, f + changes.first_face, dtype=index)

    layer, square = np.divmod(np.arange(n_pre, dtype=index), index.type(n))  # pre-spin states
    at, spun = square[:, None], spins[None, :]
    boost_rule = changes.boost_overshoot or overshoot
    spent = changes.boost_tokens
    can_boost = np.ones_like(layer, bool) if tokens is None else layer >= spent

    # Pairs listed in state order, so the model needs no sorting: each square's spin, then
    # each state after a spin with its plain move and, where allowed, its boost.
    boosts = np.repeat(can_boost, f)
    n_boosts = int(boosts.sum())
    n_pairs = n_pre + n_post + n_boosts
    per_post = boosts.astype(index) + 1
    plain_pair = np.empty(n_post, dtype=index)  # the plain move's pair, counted from n_pre
    plain_pair[0] = 0
    np.cumsum(per_post[:-1], out=plain_pair[1:])
    boost_pair = plain_pair[boosts] + 1
    pair_state = np.empty(n_pairs, dtype=index)
    pair_state[:n_pre] = np.arange(n_pre, dtype=index)
    pair_state[n_pre:] = np.repeat(np.arange(goal + 1, goal + 1 + n_post, dtype=index), per_post)
    del per_post
    pair_action = np.zeros(n_pairs, dtype=index)  # action k moves k squares; 0 is the spin
    moves = pair_action[n_pre:]
    moves[plain_pair] = np.tile(spins, n_pre)
    moves[boost_pair] = np.tile(spins + 1, int(can_boost.sum()))

    # Outcomes: each spin's f states after it (1/f each, costing the turn), then one sure
    # outcome per move. A jump's extra turns (a mistake's rules) fall on the move.
    n_spun = n_pre * f
    outcome_pair = np.empty(n_spun + n_pairs - n_pre, dtype=index)
    outcome_pair[:n_spun] = np.repeat(np.arange(n_pre, dtype=index), f)
    outcome_pair[n_spun:] = np.arange(n_pre, n_pairs, dtype=index)
    outcome_state = np.empty_like(outcome_pair)
    outcome_state[:n_spun] = np.arange(goal + 1, goal + 1 + n_post, dtype=index)
    moved = outcome_state[n_spun:]
    outcome_cost = np.zeros(outcome_pair.size)
    outcome_cost[:n_spun] = 1.0
    move_cost = outcome_cost[n_spun:]

    def on_board(to: np.ndarray, layer: np.ndarray) -> np.ndarray:
        """The state of square ``to`` in token layer ``layer`` (the goal is one state)."""
        state = to.astype(index, copy=False)
        if layers > 1:
            state = state + layer[:, None] * index.type(n)
        state[to == n] = goal
        return state.ravel()

    plain = landing(board, overshoot, at, spun, changes)
    moved[plain_pair] = on_board(plain, layer)
    if changes.jump_turns:
        move_cost[plain_pair] = np.ravel(turn_cost(board, overshoot, at, spun, changes) - 1.0)
    del plain
    boosted = landing(board, boost_rule, at[can_boost], spun + 1, changes,
                      jumps=changes.boost_jumps)  # fmt: skip
    boost_layer = layer[can_boost] if tokens is None else layer[can_boost] - spent
    moved[boost_pair] = on_board(boosted, boost_layer)
    if changes.jump_turns:
        extra = turn_cost(board, boost_rule, at[can_boost], spun + 1, changes) - 1.0
        move_cost[boost_pair] = np.ravel(extra)
    del boosted, moves, moved, move_cost, plain_pair, boost_pair
    outcome_prob = np.ones(outcome_pair.size)
    outcome_prob[:n_spun] = 1.0 / f

    def label(s: int) -> str:
        if s >= goal:
            k, rest = divmod(s - goal - 1, n * f)
            i, spin = divmod(rest, f)
            where = f"square {i} after spinning {spin + 1}"
        else:
            k, i = divmod(s, n)
            where = f"square {i}"
        return where if tokens is None else f"{where} with {k} tokens"

    model = build_model(
        n_states=goal + 1 + n_post,
        pair_state=pair_state,
        pair_action=pair_action,
        outcome_pair=outcome_pair,
        outcome_state=outcome_state,
        outcome_prob=outcome_prob,
        outcome_cost=outcome_cost,
        start=(layers - 1) * n,
        action_names=("spin", *(str(m) for m in range(1, f + 2))),
        label=label,
        # The tokens left only ever fall: each count is solved after the ones below it.
        stage=None if layers == 1 else np.concatenate((layer, [0], np.repeat(layer, f))),
    )
    return JumpGame(output, board, model, layers=layers, faces=f)


# --- readings and mistakes (reference_solutions._catalogue) -------------------------------

RuleChanges = JumpChanges


def jump_board(problem: Problem) -> JumpBoard:
    """The problem's board, which a jump game's problem always has."""
    board = problem.board
    assert isinstance(board, JumpBoard)
    return board


def _destination_values(problem: Problem, solution: Solution, answer: Answer) -> Answer | None:
    """Reading (c): a jump square's value is its destination's."""
    goes_to = jump_board(problem).goes_to

    def moved(values: tuple[float, ...]) -> tuple[float, ...]:
        return tuple(values[int(goes_to[i])] for i in range(len(values)))

    values = answer.values
    if answer.output == "token-values":
        return dataclasses.replace(answer, values=tuple(moved(layer) for layer in values))
    return dataclasses.replace(answer, values=moved(values))


# A piece never rests on a jump square, so no other square's value depends on a jump
# square's: the rules accept the value under any reading on each jump square, and each of
# these may be taken square by square. The third is (a) and (b) mixed move by move, as the
# course's own `next = p if p + s > N else goes_to[p + s]` gives in a game with a move of 0
# (aimed): the move of 0 takes the jump, the overshoot that stays does not. It differs from
# both only where one square has both (aimed's last squares), and elsewhere is left out.
JUMP_READINGS = (
    RuleVariant(
        "jump-in-place",
        "on a jump square, a move that leaves the piece there takes the jump (reading (b))",
        changed_rules(jump_in_place=True),
        by_square=True,
    ),
    RuleVariant(
        "jump-destination",
        "a jump square shows the value of the jump's destination (reading (c))",
        changed_answer(_destination_values),
        by_square=True,
    ),
    RuleVariant(
        "jump-on-zero-move",
        "on a jump square, a move of 0 takes the jump but an overshoot that stays does not "
        "(readings (a) and (b) mixed move by move)",
        changed_rules(zero_move_jumps=True),
        by_square=True,
    ),
)

_EXACT = "the overshoot rule: a move that would pass the goal leaves the piece where it stands"
_JUMPS = "the jump rule: a move that ends on a chute or ladder follows it, within the same turn"

OVERSHOOT_WINS = RuleVariant(
    "overshoot-wins", "a move past the goal wins", changed_params(overshoot=Overshoot("win")),
    reread=_EXACT,
)  # fmt: skip
OVERSHOOT_BOUNCES = RuleVariant(
    "overshoot-bounces",
    "a move past the goal bounces back from it",
    changed_params(overshoot=Overshoot("bounce")),
    reread=_EXACT,
)
JUMPS_IGNORED = RuleVariant(
    "jumps-ignored",
    "chutes and ladders are never followed",
    changed_board(lambda b: JumpBoard(b.goal, (), b.name)),
    reread=_JUMPS,
)
CHUTES_IGNORED = RuleVariant(
    "chutes-ignored",
    "chutes are never followed (ladders are)",
    changed_board(lambda b: JumpBoard(b.goal, b.ladders, b.name)),
    reread=_JUMPS,
)
LADDERS_IGNORED = RuleVariant(
    "ladders-ignored",
    "ladders are never followed (chutes are)",
    changed_board(lambda b: JumpBoard(b.goal, b.chutes, b.name)),
    reread=_JUMPS,
)
JUMP_EXTRA_TURN = RuleVariant(
    "jump-extra-turn",
    "following a chute or ladder costs an extra turn",
    changed_rules(jump_turns=1),
    reread=_JUMPS,
)


def _one_short(problem: Problem) -> Any:
    faces = problem.params.faces
    if faces < 2:
        return None
    return problem.rules.build(problem.board, dataclasses.replace(problem.params, faces=faces - 1))


SPINNER_ONE_SHORT = RuleVariant(
    "spinner-one-short",
    lambda p: f"the spinner shows 1..{p.params.faces - 1} (range(1, faces) stops one short)",
    changed_game(_one_short),
    reread="the spinner: it shows 1..faces, each equally likely",
)


def _face_left_out(problem: Problem) -> Any:
    """range(1, faces) summed but divided by faces: the last face adds 0, as if it won."""
    faces = problem.params.faces
    if faces < 2:
        return None
    moves = (*range(1, faces), TO_GOAL)
    spin = ("spin", moves, [1.0 / faces] * faces)
    return choice_game(jump_board(problem), problem.params.overshoot, [spin], output="values")


SPINNER_FACE_LEFT_OUT = RuleVariant(
    "spinner-face-left-out",
    lambda p: f"a spin of {p.params.faces} adds nothing (range(1, faces) summed, divided by faces)",
    changed_game(_face_left_out),
    reread="the spinner: it shows 1..faces, each equally likely, and each spin moves the piece",
)
SPINNER_FROM_ZERO = RuleVariant(
    "spinner-from-zero",
    lambda p: f"the spinner shows 0..{p.params.faces - 1}",
    changed_rules(first_face=0),
    reread="the spinner: it shows 1..faces, each equally likely",
)


def _shifted(by: int) -> Callable[[JumpBoard], JumpBoard | None]:
    """Every jump started ``by`` squares along the board, its end as it is: a goes-to table
    filled or read one place off (``goes_to[a - 1] = b``). Those that would start off the
    board, or on their own end, are dropped."""

    def change(board: JumpBoard) -> JumpBoard | None:
        n = board.goal
        jumps = tuple((a + by, b) for a, b in board.jumps if 0 < a + by < n and a + by != b)
        try:
            return JumpBoard(n, jumps, board.name)
        except BoardError:
            return None

    return change


_TABLE = "the board: a chute or ladder from square a to b starts on square a itself"
JUMPS_SHIFTED = (
    RuleVariant(
        "jumps-shifted",
        "every chute and ladder starts one square later (the goes-to table is one place off)",
        changed_board(_shifted(1)),
        reread=_TABLE,
    ),
    RuleVariant(
        "jumps-shifted-back",
        "every chute and ladder starts one square earlier (the goes-to table is one place off)",
        changed_board(_shifted(-1)),
        reread=_TABLE,
    ),
)


def _rows_mirrored(problem: Problem, solution: Solution, answer: Answer) -> Answer | None:
    """The board's rows of ten printed with their squares in the board's alternating order
    but their values in rising order: on every row that runs right to left (11..20,
    31..40, ...), square ``q`` shows the value of the square at the other end of its row."""
    n = jump_board(problem).goal
    if n < 20:
        return None

    def mirrored(values: tuple[float, ...]) -> tuple[float, ...]:
        out = list(values)
        for q in range(1, (n // 10) * 10 + 1):
            row = (q - 1) // 10
            if row % 2 == 1:
                out[q] = values[20 * row + 11 - q]
        return tuple(out)

    values = answer.values
    if answer.output == "token-values":
        return dataclasses.replace(answer, values=tuple(mirrored(t) for t in values))
    return dataclasses.replace(answer, values=mirrored(values))


ROWS_MIRRORED = RuleVariant(
    "rows-mirrored",
    "every row of the board that runs right to left shows its values mirrored (the squares "
    "numbered as on the board, the values in rising order)",
    changed_answer(_rows_mirrored),
    reread="the output: each square's own value beside its number, row by row as on the board",
)


def faces_knob(name: str, words: str, reread: str) -> Knob:
    """The number of faces (or aims) at another value: 2..12 tried."""
    return Knob(
        name,
        lambda _p, faces: words.format(faces),
        lambda p, faces: None if faces == p.params.faces else changed_params(faces=faces),
        reread,
        options=lambda p: [f for f in range(2, 13) if f != p.params.faces],
    )


SPINNER_KNOBS = (
    faces_knob("spinner-faces", "the spinner shows 1..{}",
               "the spinner: it shows 1..faces, each equally likely"),
)  # fmt: skip


# What every spinner game (classic, boosted, token-boosted) can get wrong.
SPINNER_MISTAKES = (
    OVERSHOOT_WINS,
    OVERSHOOT_BOUNCES,
    JUMPS_IGNORED,
    CHUTES_IGNORED,
    LADDERS_IGNORED,
    JUMP_EXTRA_TURN,
    SPINNER_ONE_SHORT,
    SPINNER_FROM_ZERO,
    *JUMPS_SHIFTED,
    ROWS_MIRRORED,
)


# --- the analysis (reference_solutions._analysis, ``autograder analyze``) ----------------------


def jump_game(problem: Problem) -> JumpGame:
    game = problem.game
    assert isinstance(game, JumpGame)
    return game


def jump_layout(problem: Problem) -> BoardLayout:
    """Squares ``0..N``; on token-boosted one layer per token count, ``k`` tokens left in
    layer ``k``; games start in the top layer."""
    game = jump_game(problem)
    n = game.board.goal
    states = tuple(
        np.append(np.arange(k * n, (k + 1) * n), game.goal_state) for k in range(game.layers)
    )
    tokens = game.output == "token-values"
    names = tuple(f"{k} tokens" for k in range(game.layers)) if tokens else ("",)
    notes = {a: f"{'ladder' if b > a else 'chute'} to {b}" for a, b in game.board.jumps}
    return BoardLayout(tuple(range(n + 1)), states, names, game.layers - 1, notes)


def action_words(template: str = "{}") -> Callable[[Problem, np.ndarray], tuple[dict[int, str]]]:
    """A game that chooses on the square itself (classic, aimed, efron): the action's name
    on each square, as ``template`` puts it ("aim {}")."""

    def words(problem: Problem, policy: np.ndarray) -> tuple[dict[int, str]]:
        game = jump_game(problem)
        model, n = game.model, game.board.goal
        names = model.action_names
        said = {i: template.format(names[model.action_of_pair[policy[i]]]) for i in range(n)}
        return ({**said, n: "-"},)

    return words


def _after_spin(game: JumpGame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every state, its layer, square and spin if it is one after a spin (else -1)."""
    n, f = game.board.goal, game.faces
    post = np.arange(game.model.n_states) - (game.goal_state + 1)
    after = post >= 0
    where, spin = np.divmod(np.where(after, post, 0), f)
    layer, square = np.divmod(where, n)
    return (
        np.where(after, layer, -1),
        np.where(after, square, -1),
        np.where(after, spin + 1, -1),
    )


def boost_words(problem: Problem, policy: np.ndarray) -> tuple[dict[int, str], ...]:
    """Per layer, the spins after which the policy boosts on each square: "boost on 1,3,6",
    "never" or "always"."""
    game = jump_game(problem)
    model, n, f = game.model, game.board.goal, game.faces
    layer, square, spin = _after_spin(game)
    states = np.flatnonzero(spin > 0)
    boosted = model.action_of_pair[policy[states]] == spin[states] + 1
    maps = []
    for k in range(game.layers):
        mine = layer[states] == k
        table = np.zeros((n, f), dtype=bool)
        table[square[states][mine], spin[states][mine] - 1] = boosted[mine]
        said = {}
        for i in range(n):
            on = np.flatnonzero(table[i]) + 1
            if on.size == 0:
                said[i] = "never"
            elif on.size == f:
                said[i] = "always"
            else:
                said[i] = "boost on " + ",".join(map(str, on))
        maps.append({**said, n: "-"})
    return tuple(maps)


def boost_strategies(problem: Problem, solution: Solution) -> list[Strategy]:
    """Never boost; always boost (token-boosted: whenever a token is left); on boosted,
    also boost unless the boosted move would pass the goal."""
    game = jump_game(problem)
    model, n = game.model, game.board.goal
    moves = model.action_of_pair.astype(float)  # action k moves k squares (0: the spin)
    never = Strategy(
        "never boost", "move the spin every turn, which is the classic game", pick(model, -moves)
    )
    if game.output == "token-values":
        spend = Strategy(
            "boost whenever a token is left",
            "move the spin + 1 while a token is left (a boost past the goal spends it all "
            "the same), then the spin",
            pick(model, moves),
        )
        return [never, spend]
    _, square, spin = _after_spin(game)
    past = (spin > 0) & (square + spin + 1 > n)
    careful = np.where(past[model.state_of_pair], -moves, moves)
    return [
        never,
        Strategy("always boost", "move the spin + 1 every turn", pick(model, moves)),
        Strategy(
            "boost unless past the goal",
            "move the spin + 1, unless that move would pass the goal: then the spin",
            pick(model, careful),
        ),
    ]


def no_strategies(problem: Problem, solution: Solution) -> list[Strategy]:
    """A game without a choice has no strategy but the forced one."""
    return []


CHOICE_ANALYSIS = AnalysisRules(jump_layout, action_words(), no_strategies)
BOOST_ANALYSIS = AnalysisRules(jump_layout, boost_words, boost_strategies)
