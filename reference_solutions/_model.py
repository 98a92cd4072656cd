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
    # Optional, for a game of several players: ``controller[s]`` is the player who chooses
    # on state ``s`` and ``maximizes[k]`` whether player ``k`` maximises the value (the
    # value is the same number for every player: a zero-sum game, say the first player's
    # chance to win). Without it one player chooses everywhere, maximising when
    # ``maximize``.
    controller: np.ndarray | None = None
    maximizes: tuple[bool, ...] = ()
    # Optional: ``stage[s]`` orders the states so that no move leads to a later stage (the
    # tokens left, which only ever fall). A policy's values are then found one stage at a
    # time, earliest first, the earlier stages' values known.
    stage: np.ndarray | None = None

    @property
    def n_pairs(self) -> int:
        return int(self.pair_start[-1])

    @property
    def mixed(self) -> bool:
        """Whether some states are minimised and others maximised (a game of two players
        with opposite aims)."""
        return self.controller is not None and len(set(self.maximizes)) > 1

    @cached_property
    def sign(self) -> float | np.ndarray:
        """How the solvers turn the value of a state into one to minimise: ``-1`` where it
        is maximised, ``1`` where minimised. One number when every state is chosen the same
        way, else one per state."""
        if not self.mixed:
            one = self.maximizes[0] if self.controller is not None else self.maximize
            return -1.0 if one else 1.0
        assert self.controller is not None
        signs = np.where(np.asarray(self.maximizes, dtype=bool), -1.0, 1.0)
        return signs[self.controller]

    @cached_property
    def pair_sign(self) -> float | np.ndarray:
        """:attr:`sign` of each pair's state."""
        sign = self.sign
        return sign if isinstance(sign, float) else sign[self.state_of_pair]

    def sign_of(self, state: int) -> float:
        """:attr:`sign` of one state."""
        sign = self.sign
        return sign if isinstance(sign, float) else float(sign[state])

    def signed_pairs(self, q: np.ndarray) -> np.ndarray:
        """``q``, a number per pair (of the first ``len(q)`` pairs), signed for minimising:
        what every choice among a state's pairs compares."""
        sign = self.pair_sign
        if isinstance(sign, float):
            return -q if sign < 0 else q
        return q * sign[: q.size]

    @cached_property
    def terminal(self) -> np.ndarray:
        return self.pair_start[1:] == self.pair_start[:-1]

    @cached_property
    def single_action(self) -> bool:
        """Every non-terminal state has exactly one action (a Markov chain, as in classic)."""
        return bool(np.all(np.diff(self.pair_start)[~self.terminal] == 1))

    @cached_property
    def state_of_pair(self) -> np.ndarray:
        index = self.transitions.indices.dtype  # int32 unless the model is huge
        return np.repeat(np.arange(self.n_states, dtype=index), np.diff(self.pair_start))

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

    @cached_property
    def has_sure_moves(self) -> bool:
        """Whether some pair surely leads to another state (see :attr:`sure_next`)."""
        if not np.any(np.diff(self.transitions.indptr) == 1):  # (classic: every spin has 6)
            return False
        return bool(np.any(self.sure_next >= 0))

    @cached_property
    def choice_blocks(self) -> tuple[tuple[int, np.ndarray, np.ndarray], ...]:
        """The non-terminal states grouped by how many pairs they have: per count ``w``,
        ``(w, states, first pair of each)``, so that choosing among a state's pairs is a
        row-wise minimum over a ``len(states) x w`` table."""
        widths = np.diff(self.pair_start)
        blocks = []
        for w in np.flatnonzero(np.bincount(widths)):
            if w:
                index = self.transitions.indices.dtype
                states = np.flatnonzero(widths == w).astype(index)
                blocks.append((int(w), states, self.pair_start[states].astype(index)))
        return tuple(blocks)

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
    controller: np.ndarray | None = None,
    maximizes: tuple[bool, ...] = (),
) -> Model:
    """Assemble a :class:`Model` from flat arrays of pairs and outcomes.

    Pairs may come in any order; they are sorted by state. Outcomes of one pair that reach
    the same state at the same cost are merged (the first keeps its place); outcomes with
    probability 0 are dropped. A uniform ``outcome_cost`` may be given as one number.
    ``stage`` (see :class:`Model`) is checked: no outcome may lead to a later stage.
    ``controller`` and ``maximizes`` (see :class:`Model`) make it a game of several players;
    ``maximize`` then says whether the value is one the first player maximises.
    """
    pair_state = _indices(pair_state)
    pair_action = _indices(pair_action)
    outcome_pair = _indices(outcome_pair)
    outcome_state = _indices(outcome_state)
    outcome_prob = np.asarray(outcome_prob, dtype=np.float64)
    cost: np.ndarray = np.broadcast_to(
        np.asarray(outcome_cost, dtype=np.float64), outcome_prob.shape
    )
    n_pairs = pair_state.size
    if n_pairs and (pair_state.min() < 0 or pair_state.max() >= n_states):
        raise ValueError("a pair belongs to a state outside the model")
    if outcome_state.size and (outcome_state.min() < 0 or outcome_state.max() >= n_states):
        raise ValueError("an outcome leads outside the model")
    if outcome_pair.size and (outcome_pair.min() < 0 or outcome_pair.max() >= n_pairs):
        raise ValueError("an outcome belongs to a pair outside the model")
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
    counts = np.bincount(outcome_pair, minlength=n_pairs)
    if np.any(counts == 0):
        raise ValueError("a state-action pair has no outcome")
    merged = _merged(outcome_pair, outcome_state, outcome_prob, cost, counts)
    if merged is not None:
        outcome_pair, outcome_state, outcome_prob, cost = merged
        counts = np.bincount(outcome_pair, minlength=n_pairs)
    del outcome_pair
    index = np.dtype(np.int32 if max(n_states, outcome_state.size) < 2**31 - 1 else np.int64)
    indptr = np.zeros(n_pairs + 1, dtype=index)
    np.cumsum(counts, out=indptr[1:])
    totals = np.add.reduceat(outcome_prob, indptr[:-1]) if n_pairs else np.zeros(0)
    if np.any(np.abs(totals - 1.0) > 1e-9):
        worst = int(np.argmax(np.abs(totals - 1.0)))
        raise ValueError(f"probabilities of pair {worst} sum to {totals[worst]!r}, not 1")
    # Rounding in the sums is spread back so each row is a distribution to the last bit;
    # only the rows that need it (a million spins of 1/6 sum to 1 - 1e-16, a sure move to 1).
    off = totals != 1.0
    if off.any():
        outcome_prob = outcome_prob.copy() if merged is None else outcome_prob
        if off.all():
            outcome_prob /= np.repeat(totals, counts)
        else:
            rows = np.repeat(off, counts)
            outcome_prob[rows] /= np.repeat(totals[off], counts[off])
            del rows
    del totals, off
    transitions = sp.csr_array(
        (outcome_prob, outcome_state.astype(index, copy=False), indptr),
        shape=(n_pairs, n_states),
    )
    transitions.has_canonical_format = False  # rows may repeat a column (distinct costs)

    pairs_per_state = np.bincount(pair_state, minlength=n_states)
    pair_start = np.concatenate(([0], np.cumsum(pairs_per_state))).astype(np.int64)
    values = np.zeros(n_states) if terminal_value is None else np.asarray(terminal_value, float)
    terminal = pairs_per_state == 0
    values = np.where(terminal, values, 0.0)
    if controller is not None:
        controller = np.asarray(controller, dtype=np.int8)
        if controller.shape != (n_states,):
            raise ValueError(f"controller must name a player for each of the {n_states} states")
        if controller.size and not 0 <= controller.min() <= controller.max() < len(maximizes):
            raise ValueError("controller names a player that maximizes does not list")
        if len(set(maximizes)) > 1 and len(maximizes) != 2:
            raise ValueError("a game of opposite aims is played by two players")
        if len(set(maximizes)) > 1 and np.any(cost != 0.0):
            raise ValueError("a game whose players want opposite things has no costs")
    if not maximize and controller is None and np.any(cost < -_PROBABILITY_SLACK):
        raise ValueError("a cost-minimising model needs non-negative costs")
    if not 0.0 < discount <= 1.0:
        raise ValueError("discount must be in (0, 1]")
    if cost.strides != (0,) and cost.size:
        # Costs are most often whole turns: kept in float32 when that loses nothing (a
        # boosted board of a million squares has 19 million).
        narrow = cost.astype(np.float32)
        if np.array_equal(narrow, cost):
            cost = narrow
        del narrow
    if stage is not None:
        stage = _indices(stage)
        if stage.shape != (n_states,):
            raise ValueError(f"stage must give each of the {n_states} states one number")
        # Outcome by outcome against its pair's state (a maximum per pair by reduceat is
        # five times slower on 20 million outcomes).
        level = stage.astype(np.int32) if stage.size and np.abs(stage).max() < 2**31 else stage
        if n_pairs and np.any(level[transitions.indices] > np.repeat(level[pair_state], counts)):
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
        controller=controller,
        maximizes=tuple(maximizes),
    )


def _indices(values: np.ndarray) -> np.ndarray:
    """Integer indices as given when they are 32 or 64 bits (a million-square board's
    arrays stay half the size in int32), else as int64."""
    array = np.asarray(values)
    if array.dtype in (np.int32, np.int64):
        return array
    return array.astype(np.int64)


# Pairs with at most this many outcomes are searched for repeats by shifted comparisons
# (one pass per distance); wider ones are sorted, which costs more on a million squares.
_SHIFT_LIMIT = 16


def _merged(
    pair: np.ndarray, state: np.ndarray, prob: np.ndarray, cost: np.ndarray, counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Outcomes grouped by pair, with each repeat (same pair, state and cost) added into
    the first of its kind; ``None`` when no outcome repeats another. ``counts``: outcomes
    per pair. A uniform cost stays one number broadcast (no array per outcome)."""
    width = int(counts.max(initial=0))
    if width < 2:
        return None
    uniform = cost.strides == (0,)  # one cost for every outcome (np.broadcast_to)
    if width > _SHIFT_LIMIT:
        return _merged_by_sorting(pair, state, prob, cost)
    # Only a pair with more than one outcome can repeat one: on a boosted board, the spins
    # (6 outcomes each), not the 12 million sure moves after them.
    multi = np.repeat(counts > 1, counts)
    among = None if multi.mean() > 0.5 else np.flatnonzero(multi)
    del multi
    p, s = (pair, state) if among is None else (pair[among], state[among])
    c = cost if uniform or among is None else cost[among]
    twin = np.full(p.size, -1, dtype=np.int64)
    for d in range(1, width):
        same = (p[d:] == p[:-d]) & (s[d:] == s[:-d])
        if not uniform:
            same &= c[d:] == c[:-d]
        # Later (farther) distances overwrite: each repeat points at its first twin.
        twin[d:][same] = np.flatnonzero(same)
    del p, s, c
    repeats = np.flatnonzero(twin >= 0)
    if not repeats.size:
        return None
    firsts = twin[repeats]
    if among is not None:  # positions among all the outcomes
        repeats, firsts = among[repeats], among[firsts]
    prob = prob + np.bincount(firsts, weights=prob[repeats], minlength=prob.size)
    kept = np.ones(prob.size, dtype=bool)
    kept[repeats] = False
    kept_cost = np.broadcast_to(cost[:1], (prob.size - repeats.size,)) if uniform else cost[kept]
    return pair[kept], state[kept], prob[kept], kept_cost


def _merged_by_sorting(
    pair: np.ndarray, state: np.ndarray, prob: np.ndarray, cost: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_merged` for wide pairs: outcomes sorted by state and cost within a pair."""
    by = np.lexsort((cost, state, pair))
    pair, state, prob, cost = pair[by], state[by], prob[by], cost[by]
    new_group = np.ones(pair.size, dtype=bool)
    new_group[1:] = (pair[1:] != pair[:-1]) | (state[1:] != state[:-1]) | (cost[1:] != cost[:-1])
    starts = np.flatnonzero(new_group)
    return pair[starts], state[starts], np.add.reduceat(prob, starts), cost[starts]
