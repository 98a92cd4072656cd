"""What the jump games (classic, boosted, token-boosted, aimed, efron) share.

Squares of one token layer ``k`` are states ``k * N .. k * N + N - 1``; the goal is the
single terminal state ``layers * N``; states after that are the spin-then-choose states of
the boosted games. So classic's state ``i`` is square ``i`` and its goal is state ``N``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from autograder import Answer, GoalUnreachable, JumpBoard, Objective, UsageError

from .._model import Model, build_model
from .._params import Overshoot
from .._solver import Solution


def landing(board: JumpBoard, overshoot: Overshoot, square: np.ndarray, move: np.ndarray):
    """Where a move of ``move`` from ``square`` leaves the piece: the overshoot rule, then the
    jump of the square the move ends on, if that is another square. A piece that does not
    move (a ``stay`` overshoot, a move of 0) takes no jump (docs/rules.md, "Jumps")."""
    goal = board.goal
    target = square + move
    past = target > goal
    if overshoot.rule == "stay":
        target = np.where(past, square, target)
    elif overshoot.rule == "win":
        target = np.where(past, goal, target)
    elif overshoot.rule == "bounce":
        target = np.where(past, 2 * goal - target, target)
    else:
        target = np.where(past, overshoot.square, target)
    return np.where(target == square, target, board.goes_to[target])


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
) -> JumpGame:
    """Each turn the player picks an action; action ``(name, moves, probs)`` moves ``moves[j]``
    squares with probability ``probs[j]``. Classic is the case of a single action.

    With ``drop_motionless`` an action whose every outcome leaves the piece where it stands
    is not legal on that square (efron's rule for a die that cannot move the piece).
    """
    n = board.goal
    check_jump_params(board, overshoot, max(max(m) for _, m, _ in actions))
    squares = np.arange(n)
    pair_state: list[np.ndarray] = []
    pair_action: list[np.ndarray] = []
    o_pair: list[np.ndarray] = []
    o_state: list[np.ndarray] = []
    o_prob: list[np.ndarray] = []
    for a, (_, moves, probs) in enumerate(actions):
        moves_ = np.asarray(moves, dtype=np.int64)
        dest = landing(board, overshoot, squares[:, None], moves_[None, :])
        legal = ~np.all(dest == squares[:, None], axis=1) if drop_motionless else np.ones(n, bool)
        first_pair = sum(len(s) for s in pair_state)
        states = squares[legal]
        ids = first_pair + np.arange(states.size)
        pair_state.append(states)
        pair_action.append(np.full(states.size, a))
        o_pair.append(np.repeat(ids, moves_.size))
        o_state.append(dest[legal].ravel())
        o_prob.append(np.tile(np.asarray(probs, dtype=float), states.size))
    states = np.concatenate(pair_state)
    stuck = np.setdiff1d(squares, states)
    if stuck.size:
        shown = ", ".join(map(str, stuck[:8]))
        raise GoalUnreachable("", f"no action can move the piece from square {shown}")
    discounted = objective == "discounted"
    terminal_value = np.zeros(n + 1)
    terminal_value[n] = reward if discounted else 0.0
    model = build_model(
        n_states=n + 1,
        pair_state=states,
        pair_action=np.concatenate(pair_action),
        outcome_pair=np.concatenate(o_pair),
        outcome_state=np.concatenate(o_state),
        outcome_prob=np.concatenate(o_prob),
        outcome_cost=0.0 if discounted else 1.0,
        terminal_value=terminal_value,
        action_names=tuple(name for name, _, _ in actions),
        label=lambda s: f"square {s}",
        discount=discount if discounted else 1.0,
        maximize=discounted,
    )
    return JumpGame(output, board, model, objective=objective)


def boost_game(
    board: JumpBoard, overshoot: Overshoot, faces: int, tokens: int | None, output: str
) -> JumpGame:
    """Spin ``1..faces``, then move the spin or one more. ``tokens=None``: boosts are free;
    otherwise each boost spends a token and the state carries the tokens left."""
    n, f = board.goal, faces
    check_jump_params(board, overshoot, f + 1)
    layers = 1 if tokens is None else tokens + 1
    goal = layers * n
    spins = np.arange(1, f + 1)

    def state(layer: np.ndarray, square: np.ndarray) -> np.ndarray:
        return np.where(square == n, goal, layer * n + square)

    layer, square = np.divmod(np.arange(layers * n), n)  # every pre-spin state, in order
    after_spin = goal + 1 + (layer * n + square)[:, None] * f + (spins - 1)[None, :]
    plain = landing(board, overshoot, square[:, None], spins[None, :])
    boosted = landing(board, overshoot, square[:, None], spins[None, :] + 1)
    can_boost = np.ones_like(layer, bool) if tokens is None else layer >= 1
    boost_layer = layer if tokens is None else layer - 1

    n_pre = layers * n
    n_post = n_pre * f
    spin_pairs = np.arange(n_pre)
    plain_pairs = n_pre + np.arange(n_post)
    boost_from = after_spin[can_boost].ravel()
    boost_pairs = n_pre + n_post + np.arange(boost_from.size)
    pair_state = np.concatenate((np.arange(n_pre), after_spin.ravel(), boost_from))
    pair_action = np.concatenate(
        (np.zeros(n_pre, np.int64), np.tile(spins, n_pre), np.tile(spins + 1, int(can_boost.sum())))
    )
    outcome_pair = np.concatenate((np.repeat(spin_pairs, f), plain_pairs, boost_pairs))
    outcome_state = np.concatenate(
        (
            after_spin.ravel(),
            state(layer[:, None], plain).ravel(),
            state(boost_layer[can_boost][:, None], boosted[can_boost]).ravel(),
        )
    )
    outcome_prob = np.concatenate((np.full(n_pre * f, 1.0 / f), np.ones(n_post + boost_from.size)))
    outcome_cost = np.concatenate((np.ones(n_pre * f), np.zeros(n_post + boost_from.size)))

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
        start=state(np.array(layers - 1), np.array(0)).item(),
        action_names=("spin", *(str(m) for m in range(1, f + 2))),
        label=label,
    )
    return JumpGame(output, board, model, layers=layers, faces=f)
