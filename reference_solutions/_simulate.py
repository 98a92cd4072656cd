"""Monte Carlo games under a policy, all games advanced together one turn at a time."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._model import Model

__all__ = ["Simulation", "histogram_lines", "simulate"]

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
    """Per finished game: its ``score`` (turns, or discounted reward) and its ``length`` in
    turns. ``unfinished`` games hit ``max_steps`` and are left out of both."""

    score: np.ndarray
    length: np.ndarray
    unfinished: int
    seed: int

    @property
    def games(self) -> int:
        return int(self.score.size)

    @property
    def mean(self) -> float:
        return float(self.score.mean())

    @property
    def std(self) -> float:
        return float(self.score.std(ddof=1)) if self.games > 1 else 0.0

    def interval(self, z: float = 1.959964) -> tuple[float, float]:
        """Normal-approximation confidence interval for the mean (95% by default)."""
        half = z * self.std / np.sqrt(max(self.games, 1))
        return self.mean - half, self.mean + half


def simulate(
    model: Model, policy: np.ndarray, games: int, seed: int, max_steps: int = 1_000_000
) -> Simulation:
    """Play ``games`` games from ``model.start`` choosing pair ``policy[state]``.

    Each outcome is charged its own cost, so a prison or a free turn counts as it happens.
    A game's length is its total cost on a turns objective and its number of moves on a
    discounted one (where moves cost nothing).
    """
    rng = np.random.default_rng(seed)
    P = model.transitions
    cumulative = np.concatenate(([0.0], np.cumsum(P.data)))
    state = np.full(games, model.start, dtype=np.int64)
    score = np.zeros(games)
    moves = np.zeros(games, dtype=np.int64)
    weight = np.ones(games)
    active = np.flatnonzero(~model.terminal[state])
    for _ in range(max_steps):
        if active.size == 0:
            break
        pairs = policy[state[active]]
        lo, hi = P.indptr[pairs], P.indptr[pairs + 1]
        target = cumulative[lo] + rng.random(active.size) * (cumulative[hi] - cumulative[lo])
        outcome = np.clip(np.searchsorted(cumulative, target, side="right") - 1, lo, hi - 1)
        nxt = P.indices[outcome]
        score[active] += weight[active] * model.outcome_cost[outcome]
        weight[active] *= model.discount
        moves[active] += 1
        state[active] = nxt
        done = model.terminal[nxt]
        finished = active[done]
        score[finished] += weight[finished] * model.terminal_value[nxt[done]]
        active = active[~done]
    finished = np.ones(games, dtype=bool)
    finished[active] = False
    length = moves if model.maximize else np.rint(score).astype(np.int64)
    return Simulation(score[finished], length[finished], int(active.size), seed)
