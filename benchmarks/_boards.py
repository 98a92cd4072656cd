"""Random jump boards for the benchmarks, made the same way by every script that uses them.

Two kinds of jumps, as the issue on speed at scale names them: ``like`` a printed board
(one square in ten starts a jump of at most 60 squares either way) and ``anywhere`` (as many
jumps, from and to anywhere on the board: long chutes that defeat a sparse LU's ordering).
"""

from __future__ import annotations

import numpy as np

from autograder import JumpBoard

LONGEST = {"like": 60, "anywhere": None}


def random_jumps(goal: int, count: int, longest: int | None, seed: int = 0) -> list[list[int]]:
    """``count`` jumps (fewer once invalid ones are dropped): each within ``longest``
    squares of its start, or anywhere (``None``). Invalid ones (a jump onto the start of
    another, to itself, or off the board) are dropped, so the board is always valid."""
    rng = np.random.default_rng(seed)
    starts = rng.choice(np.arange(1, goal), size=count, replace=False)
    if longest is None:
        ends = rng.integers(1, goal + 1, size=count)
    else:
        ends = starts + rng.integers(-longest, longest + 1, size=count)
    bad = np.isin(ends, starts) | (ends == starts) | (ends < 1) | (ends > goal)
    return [[int(a), int(b)] for a, b in zip(starts[~bad], ends[~bad], strict=True)]


def random_board(
    goal: int, jumps: str = "like", count: int | None = None, seed: int = 0
) -> JumpBoard:
    """A board of ``goal`` squares with ``count`` jumps (default: one square in ten) of the
    kind ``jumps`` (``like`` or ``anywhere``)."""
    drawn = random_jumps(goal, goal // 10 if count is None else count, LONGEST[jumps], seed)
    return JumpBoard(goal, tuple((a, b) for a, b in drawn))
