"""Monte Carlo games under a policy, all games advanced together one turn at a time."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from ._model import Model

__all__ = ["Simulation", "can_reach", "histogram_lines", "play", "simulate", "simulate_from"]

BAR_WIDTH = 40
BINS = 15


def histogram_lines(lengths: np.ndarray, bins: int = BINS) -> list[str]:
    """A text histogram; the last bin gathers the long tail beyond the 99th percentile."""
    if lengths.size == 0:
        return ["(no finished games)"]
    low = int(lengths.min())
    high = max(low, int(np.percentile(lengths, 99)))
    width = max(1, math.ceil((high - low + 1) / bins))
    edges = [low + k * width for k in range(bins + 1) if low + k * width <= high] + [None]
    counts = []
    for k in range(len(edges) - 1):
        start, stop = edges[k], edges[k + 1]
        inside = lengths >= start if stop is None else (lengths >= start) & (lengths < stop)
        counts.append(int(inside.sum()))
    peak = max(counts)
    lines = []
    for k, count in enumerate(counts):
        start, stop = edges[k], edges[k + 1]
        label = f"{start:>5} - {stop - 1:<5}" if stop is not None else f"{start:>5} +      "
        bar = "#" * round(BAR_WIDTH * count / peak) if peak else ""
        lines.append(f"  {label} | {bar:<{BAR_WIDTH}} {count}")
    return lines


@dataclass(frozen=True, eq=False)
class Simulation:
    """Per game that reached the goal: its ``score`` (turns, or discounted reward) and its
    ``length`` in turns. ``unfinished`` games are left out of both: they were still playing
    after ``max_steps``, or were caught where their policy can never reach the goal.

    ``stranded`` counts the games so caught. Where no move costs anything (a discounted
    objective, on which only the goal pays) such a game's score is final, since it can earn
    nothing more: it then counts in ``score`` with what it earned (it has no length), and not
    in ``unfinished``. On a turns objective it is unfinished (it would never end).
    """

    score: np.ndarray
    length: np.ndarray
    unfinished: int
    seed: int
    stranded: int = 0

    @property
    def games(self) -> int:
        return int(self.score.size)

    @property
    def mean(self) -> float:
        return float(self.score.mean()) if self.games else float("nan")

    @property
    def std(self) -> float:
        return float(self.score.std(ddof=1)) if self.games > 1 else 0.0

    def interval(self, z: float = 1.959964) -> tuple[float, float]:
        """Normal-approximation confidence interval for the mean (95% by default)."""
        half = z * self.std / np.sqrt(max(self.games, 1))
        return self.mean - half, self.mean + half


class _Sampler:
    """Draws an index ``j`` in ``lo .. hi - 1`` with probability ``weight[j]`` (normalised
    within the range) for many ranges at once, from one uniform number each.

    It returns what ``searchsorted(cumulative, target, "right") - 1`` returns (so the
    games drawn do not depend on how the search is done), but starts each search from a
    guide table (Chen and Asau): the cumulative sum is cut into equal buckets, each knowing
    the last index at or before its left edge, and a search walks on from there. Buckets
    outnumber the indices, so a walk is a step or two; a binary search over the whole sum
    took most of a simulation's time.
    """

    def __init__(self, weight: np.ndarray) -> None:
        self.cumulative = np.concatenate(([0.0], np.cumsum(weight), [np.inf]))
        total = float(self.cumulative[-2])
        self.buckets = int(min(2 * weight.size + 1, _MAX_BUCKETS))
        self.scale = self.buckets / total if total > 0 else 0.0
        self.edges = np.arange(self.buckets) / self.scale if total > 0 else np.zeros(1)
        self.guide = np.searchsorted(self.cumulative, self.edges, side="right") - 1

    def draw(self, lo: np.ndarray, hi: np.ndarray, uniform: np.ndarray) -> np.ndarray:
        cumulative = self.cumulative
        base = cumulative[lo]
        target = base + uniform * (cumulative[hi] - base)
        bucket = np.minimum((target * self.scale).astype(np.int64), self.buckets - 1)
        bucket -= (bucket > 0) & (self.edges[bucket] > target)  # rounding put it one too far
        index = self.guide[bucket]
        todo = np.flatnonzero(cumulative[index + 1] <= target)
        while todo.size:
            index[todo] += 1
            todo = todo[cumulative[index[todo] + 1] <= target[todo]]
        return np.clip(index, lo, hi - 1)


_MAX_BUCKETS = 1 << 22


def _chosen_pairs(model: Model, policy: np.ndarray) -> np.ndarray:
    """The pairs a policy can take: a mask over pairs. ``policy`` is one pair per state
    (integers, ``-1`` on terminal states) or a probability per pair (floats)."""
    if np.issubdtype(policy.dtype, np.floating):
        if policy.shape != (model.n_pairs,):
            raise ValueError(f"a stochastic policy has one probability per pair ({model.n_pairs})")
        return policy > 0
    if policy.shape != (model.n_states,):
        raise ValueError(f"a policy has one pair per state ({model.n_states})")
    chosen = np.zeros(model.n_pairs, dtype=bool)
    chosen[policy[policy >= 0]] = True
    return chosen


def can_reach(model: Model, policy: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Per state, whether a game under ``policy`` (as :func:`play` takes it) can get from
    there to a state of the mask ``targets`` (a target reaches itself)."""
    P = model.transitions
    taken = np.repeat(_chosen_pairs(model, policy), np.diff(P.indptr))
    rows = np.repeat(model.state_of_pair, np.diff(P.indptr))[taken]
    cols = P.indices[taken]
    n = model.n_states
    ends = np.flatnonzero(targets)
    # Edges reversed, plus an extra node with an edge to every target: what that node
    # reaches is what can reach a target.
    graph = sp.csr_array(
        (
            np.ones(cols.size + ends.size),  # duplicates add up: int8 could wrap to 0
            (np.concatenate((cols, np.full(ends.size, n))), np.concatenate((rows, ends))),
        ),
        shape=(n + 1, n + 1),
    )
    reached = csgraph.breadth_first_order(graph, n, directed=True, return_predecessors=False)
    found = np.zeros(n + 1, dtype=bool)
    found[reached] = True
    return found[:n]


def play(
    model: Model,
    policy: np.ndarray,
    starts: np.ndarray,
    seed: int,
    max_steps: int = 1_000_000,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play one game from each state of ``starts``, all together one step at a time.

    ``policy`` is one pair per state (integers) or, for a stochastic policy, the
    probability of each pair in its state (floats, summing to 1 over each state's pairs).
    Returns per game its score, its number of moves, whether it reached a terminal state
    and whether it was stranded (caught where the policy can never reach one: it stops
    there). A game still playing after ``max_steps`` moves is neither.
    """
    rng = np.random.default_rng(seed)
    P = model.transitions
    outcomes = _Sampler(P.data)
    stochastic = np.issubdtype(policy.dtype, np.floating)
    _chosen_pairs(model, policy)  # checks its shape
    choices = _Sampler(policy) if stochastic else None
    stops = model.terminal | ~can_reach(model, policy, model.terminal)
    discounted = model.discount < 1.0
    n = starts.size
    ended = np.asarray(starts, dtype=np.int64).copy()  # each game's state when it stopped
    score = np.where(model.terminal[ended], model.terminal_value[ended], 0.0)
    moves = np.zeros(n, dtype=np.int64)
    # The games still playing, kept packed in game order so each step draws its random
    # numbers in the same order whatever the packing.
    game = np.flatnonzero(~stops[ended])
    state = ended[game]
    paid = np.zeros(game.size)
    weight = np.ones(game.size)
    for step in range(max_steps):
        if game.size == 0:
            break
        if choices is not None:
            pairs = choices.draw(
                model.pair_start[state], model.pair_start[state + 1], rng.random(game.size)
            )
        else:
            pairs = policy[state]
        outcome = outcomes.draw(P.indptr[pairs], P.indptr[pairs + 1], rng.random(game.size))
        state = P.indices[outcome]
        if discounted:
            paid += weight * model.outcome_cost[outcome]
            weight *= model.discount
        else:
            paid += model.outcome_cost[outcome]
        done = stops[state]
        if done.any():
            over = game[done]
            moves[over] = step + 1
            ended[over] = state[done]
            score[over] = paid[done] + weight[done] * model.terminal_value[state[done]]
            going = ~done
            game, state, paid, weight = game[going], state[going], paid[going], weight[going]
    moves[game] = max_steps
    ended[game] = state
    score[game] = paid
    finished = model.terminal[ended]
    stranded = ~finished & stops[ended]
    return score, moves, finished, stranded


def _summary(
    model: Model,
    score: np.ndarray,
    moves: np.ndarray,
    finished: np.ndarray,
    stranded: np.ndarray,
    seed: int,
) -> Simulation:
    counted = finished | (stranded & ~np.any(model.outcome_cost))
    length = moves if model.maximize else np.rint(score).astype(np.int64)
    return Simulation(
        score[counted],
        length[finished],
        int(counted.size - counted.sum()),
        seed,
        int(stranded.sum()),
    )


def simulate(
    model: Model,
    policy: np.ndarray,
    games: int,
    seed: int,
    max_steps: int = 1_000_000,
    *,
    start: int | None = None,
) -> Simulation:
    """Play ``games`` games from ``start`` (default ``model.start``) choosing pair
    ``policy[state]``, or, when ``policy`` holds a probability per pair, drawing the pair.

    Each outcome is charged its own cost, so a prison or a free turn counts as it happens.
    A game's length is its total cost on a turns objective and its number of moves on a
    discounted one (where moves cost nothing).
    """
    return simulate_from(
        model, policy, [model.start if start is None else start], games, seed, max_steps
    )[0]


def simulate_from(
    model: Model,
    policy: np.ndarray,
    starts: Sequence[int] | np.ndarray,
    games: int,
    seed: int,
    max_steps: int = 1_000_000,
) -> tuple[Simulation, ...]:
    """``games`` games from each state of ``starts``, all played together (one
    :class:`Simulation` per start, in order). With one start, the games are the ones
    :func:`simulate` plays from it with the same seed."""
    origins = np.asarray(starts, dtype=np.int64)
    per_game = play(model, policy, np.repeat(origins, games), seed, max_steps)
    results = []
    for k in range(origins.size):
        part = slice(k * games, (k + 1) * games)
        score, moves, finished, stranded = (a[part] for a in per_game)
        results.append(_summary(model, score, moves, finished, stranded, seed))
    return tuple(results)
