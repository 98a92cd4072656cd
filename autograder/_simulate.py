"""``autograder simulate``: Monte Carlo games under the optimal policy."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

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


def simulate_text(
    name: str,
    board: str | None = None,
    settings: Sequence[str] = (),
    games: int = 10_000,
    seed: int = 0,
) -> str:
    from reference_solutions import make_problem, simulate, solve_problem

    problem = make_problem(name, board, settings)
    solution = solve_problem(problem)
    model = problem.game.model
    result = simulate(model, solution.policy, games, seed)
    what = "discounted reward" if model.maximize else "turns"
    low, high = result.interval()
    lines = [
        f"{name} on {problem.board_source}: {result.games} games under the optimal policy, "
        f"seed {seed}",
        f"mean {what}: {result.mean:.4f}   standard deviation: {result.std:.4f}",
        f"95% confidence interval for the mean: [{low:.4f}, {high:.4f}]",
        f"computed expected {what}: {solution.start_value:.4f}",
    ]
    if result.unfinished:
        lines.append(f"warning: {result.unfinished} games did not finish and are left out")
    lines.append("game lengths (turns):")
    lines += histogram_lines(result.length)
    return "\n".join(lines) + "\n"
