"""The explicit model every assignment compiles to.

A model is a table of state-action pairs in the spirit of Gymnasium's ``P[s][a]``: the pairs
of state ``s`` are ``pair_start[s]:pair_start[s + 1]``; row ``p`` of ``transitions`` is the
distribution of the next state after pair ``p``. A state with no pairs is terminal and worth
``terminal_value``. Rows may list one next state more than once when the outcomes cost
differently (a prison square reached with and without its trap), so a simulation can charge
each outcome its own cost while the solvers only need the expected cost of a pair.

Everything is built from flat numpy arrays: a board of a million squares is a few array
operations, never a Python object per state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp

__all__ = ["Model", "build_model"]

_PROBABILITY_SLACK = 1e-12


@dataclass(frozen=True, eq=False)
class Model:
    """A finite stochastic shortest-path (or discounted) decision problem."""

    n_states: int
    pair_start: np.ndarray
    action_of_pair: np.ndarray
    transitions: sp.csr_array
    outcome_cost: np.ndarray
    terminal_value: np.ndarray
    start: int
    action_names: tuple[str, ...]
    label: Callable[[int], str]
    discount: float = 1.0
    maximize: bool = False
    # Optional: ``stage[s]`` orders the states so that no move leads to a later stage (the
    # tokens left, which only ever fall). A policy's values are then found one stage at a
    # time, earliest first, the earlier stages' values known.
    stage: np.ndarray | None = None

    @property
    def n_pairs(self) -> int:
        return int(self.pair_start[-1])

    @cached_property
    def terminal(self) -> np.ndarray:
        return self.pair_start[1:] == self.pair_start[:-1]

    @cached_property
    def single_action(self) -> bool:
        """Every non-terminal state has exactly one action (a Markov chain, as in classic)."""
        return bool(np.all(np.diff(self.pair_start)[~self.terminal] == 1))

    @cached_property
    def state_of_pair(self) -> np.ndarray:
        return np.repeat(np.arange(self.n_states), np.diff(self.pair_start))

    @cached_property
    def pair_cost(self) -> np.ndarray:
        """Expected cost (or reward, when maximising) of each pair."""
        weighted = self.transitions.data * self.outcome_cost
        return np.add.reduceat(weighted, self.transitions.indptr[:-1])

    @cached_property
    def sure_next(self) -> np.ndarray:
        """Per pair, the one state it surely leads to when that is another state (a boosted
        game's move after the spin), else ``-1``."""
        P = self.transitions
        lengths = np.diff(P.indptr)
        first = np.minimum(P.indptr[:-1], max(P.nnz - 1, 0))
        sure = (lengths == 1) & (P.data[first] == 1.0) if P.nnz else lengths == 1
        nxt = np.where(sure, P.indices[first] if P.nnz else -1, -1)
        return np.where(nxt == self.state_of_pair, -1, nxt)

    def pairs_of(self, state: int) -> range:
        return range(int(self.pair_start[state]), int(self.pair_start[state + 1]))


def build_model(
    *,
    n_states: int,
    pair_state: np.ndarray,
    pair_action: np.ndarray,
    outcome_pair: np.ndarray,
    outcome_state: np.ndarray,
    outcome_prob: np.ndarray,
    outcome_cost: np.ndarray | float,
    terminal_value: np.ndarray | None = None,
    start: int = 0,
    action_names: tuple[str, ...],
    label: Callable[[int], str] = str,
    discount: float = 1.0,
    maximize: bool = False,
    stage: np.ndarray | None = None,
) -> Model:
    """Assemble a :class:`Model` from flat arrays of pairs and outcomes.

    Pairs may come in any order; they are sorted by state. Outcomes of one pair that reach
    the same state at the same cost are merged (the first keeps its place); outcomes with
    probability 0 are dropped. A uniform ``outcome_cost`` may be given as one number.
    ``stage`` (see :class:`Model`) is checked: no outcome may lead to a later stage.
    """
    pair_state = np.asarray(pair_state, dtype=np.int64)
    pair_action = np.asarray(pair_action, dtype=np.int64)
    outcome_pair = np.asarray(outcome_pair, dtype=np.int64)
    outcome_state = np.asarray(outcome_state, dtype=np.int64)
    outcome_prob = np.asarray(outcome_prob, dtype=np.float64)
    cost = np.broadcast_to(np.asarray(outcome_cost, dtype=np.float64), outcome_prob.shape)
    n_pairs = pair_state.size
    if n_pairs and (pair_state.min() < 0 or pair_state.max() >= n_states):
        raise ValueError("a pair belongs to a state outside the model")
    if outcome_state.size and (outcome_state.min() < 0 or outcome_state.max() >= n_states):
        raise ValueError("an outcome leads outside the model")
    if np.any(outcome_prob < 0):
        raise ValueError("negative transition probability")

    # Renumber pairs so that they are grouped by state, keeping their given order within one.
    # The builders list them in a few sorted runs, which a stable sort (timsort) merges in
    # linear time; already grouped, nothing moves.
    if n_pairs > 1 and np.any(pair_state[1:] < pair_state[:-1]):
        order = np.argsort(pair_state, kind="stable")
        new_index = np.empty(n_pairs, dtype=np.int64)
        new_index[order] = np.arange(n_pairs)
        pair_state = pair_state[order]
        pair_action = pair_action[order]
        outcome_pair = new_index[outcome_pair]

    if not np.all(outcome_prob > 0):
        keep = outcome_prob > 0
        outcome_pair, outcome_state = outcome_pair[keep], outcome_state[keep]
        outcome_prob, cost = outcome_prob[keep], cost[keep]
    if outcome_pair.size > 1 and np.any(outcome_pair[1:] < outcome_pair[:-1]):
        by = np.argsort(outcome_pair, kind="stable")
        outcome_pair, outcome_state = outcome_pair[by], outcome_state[by]
        outcome_prob, cost = outcome_prob[by], cost[by]
    outcome_pair, outcome_state, outcome_prob, cost = _merged(
        outcome_pair, outcome_state, outcome_prob, cost, n_pairs
    )

    counts = np.bincount(outcome_pair, minlength=n_pairs)
    if np.any(counts == 0):
        raise ValueError("a state-action pair has no outcome")
    indptr = np.concatenate(([0], np.cumsum(counts)))
    totals = np.add.reduceat(outcome_prob, indptr[:-1]) if n_pairs else np.zeros(0)
    if np.any(np.abs(totals - 1.0) > 1e-9):
        worst = int(np.argmax(np.abs(totals - 1.0)))
        raise ValueError(f"probabilities of pair {worst} sum to {totals[worst]!r}, not 1")
    # Rounding in the sums is spread back so each row is a distribution to the last bit.
    outcome_prob = outcome_prob / np.repeat(totals, counts)
    index = np.int32 if max(n_states, outcome_state.size) < 2**31 - 1 else np.int64
    transitions = sp.csr_array(
        (outcome_prob, outcome_state.astype(index), indptr.astype(index)),
        shape=(n_pairs, n_states),
    )
    transitions.has_canonical_format = False  # rows may repeat a column (distinct costs)

    pairs_per_state = np.bincount(pair_state, minlength=n_states)
    pair_start = np.concatenate(([0], np.cumsum(pairs_per_state))).astype(np.int64)
    values = np.zeros(n_states) if terminal_value is None else np.asarray(terminal_value, float)
    terminal = pairs_per_state == 0
    values = np.where(terminal, values, 0.0)
    if not maximize and np.any(cost < -_PROBABILITY_SLACK):
        raise ValueError("a cost-minimising model needs non-negative costs")
    if not 0.0 < discount <= 1.0:
        raise ValueError("discount must be in (0, 1]")
    if stage is not None:
        stage = np.asarray(stage, dtype=np.int64)
        if stage.shape != (n_states,):
            raise ValueError(f"stage must give each of the {n_states} states one number")
        if n_pairs and np.any(
            np.maximum.reduceat(stage[outcome_state], indptr[:-1]) > stage[pair_state]
        ):
            raise ValueError("an outcome leads to a later stage")
    return Model(
        n_states=n_states,
        pair_start=pair_start,
        action_of_pair=pair_action,
        transitions=transitions,
        outcome_cost=cost,
        terminal_value=values,
        start=start,
        action_names=action_names,
        label=label,
        discount=float(discount),
        maximize=maximize,
        stage=stage,
    )


# Pairs with at most this many outcomes are searched for repeats by shifted comparisons
# (one pass per distance); wider ones are sorted, which costs more on a million squares.
_SHIFT_LIMIT = 16


def _merged(
    pair: np.ndarray, state: np.ndarray, prob: np.ndarray, cost: np.ndarray, n_pairs: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Outcomes grouped by pair, with each repeat (same pair, state and cost) added into
    the first of its kind. A uniform cost stays one number broadcast (no array per
    outcome)."""
    if pair.size < 2:
        return pair, state, prob, cost
    width = int(np.bincount(pair, minlength=n_pairs).max())
    uniform = cost.strides == (0,)  # one cost for every outcome (np.broadcast_to)
    if width <= _SHIFT_LIMIT:
        twin = np.full(pair.size, -1, dtype=np.int64)
        for d in range(1, width):
            same = (pair[d:] == pair[:-d]) & (state[d:] == state[:-d])
            if not uniform:
                same &= cost[d:] == cost[:-d]
            # Later (farther) distances overwrite: each repeat points at its first twin.
            twin[d:][same] = np.flatnonzero(same)
        repeat = twin >= 0
        if not repeat.any():
            return pair, state, prob, cost
        prob = prob + np.bincount(twin[repeat], weights=prob[repeat], minlength=pair.size)
        first = ~repeat
        kept = np.broadcast_to(cost[:1], (int(first.sum()),)) if uniform else cost[first]
        return pair[first], state[first], prob[first], kept
    by = np.lexsort((cost, state, pair))
    pair, state, prob, cost = pair[by], state[by], prob[by], cost[by]
    new_group = np.ones(pair.size, dtype=bool)
    new_group[1:] = (pair[1:] != pair[:-1]) | (state[1:] != state[:-1]) | (cost[1:] != cost[:-1])
    starts = np.flatnonzero(new_group)
    return pair[starts], state[starts], np.add.reduceat(prob, starts), cost[starts]
