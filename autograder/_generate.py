"""Boards drawn at random (deterministically from a seed) and the edge boards of a test plan.

Drawing a board never solves anything; a caller that needs the goal to be reachable under
its rules checks that and draws again.
"""

from __future__ import annotations

import random
from typing import Any

from ._boards import TRAP_LANE_SQUARES, JumpBoard, TrapLayout
from ._errors import BoardError

__all__ = ["edge_board", "random_jump_board", "random_trap_board"]


def random_jump_board(
    rng: random.Random, goal: int, chutes: int, ladders: int, longest: int | None = None
) -> JumpBoard:
    """A valid board with ``chutes`` chutes and ``ladders`` ladders, each at most ``longest``
    squares long (default: 40% of the goal, as on printed boards)."""
    longest = longest or max(2, goal * 2 // 5)
    if chutes + ladders > (goal - 1) // 2:
        raise BoardError("", f"{chutes + ladders} jumps do not fit on a board of {goal} squares")
    for _ in range(1000):
        starts = rng.sample(range(1, goal), chutes + ladders)
        taken = set(starts)
        jumps = []
        for k, start in enumerate(starts):
            if k < chutes:
                ends = range(max(1, start - longest), start)
            else:
                ends = range(start + 1, min(goal, start + longest) + 1)
            free = [e for e in ends if e not in taken]
            if not free:
                break
            jumps.append((start, rng.choice(free)))
        else:
            return JumpBoard(goal, tuple(jumps))
    raise BoardError("", f"could not place {chutes} chutes and {ladders} ladders on {goal} squares")


def random_trap_board(rng: random.Random, trapped: float = 0.4) -> dict[str, Any]:
    """A trap-lane board file's data: each of squares 2..14 trapped with probability
    ``trapped`` (any kind), and a random circle setting."""
    layout = [0] * TRAP_LANE_SQUARES
    for square in range(2, TRAP_LANE_SQUARES):
        if rng.random() < trapped:
            layout[square - 1] = rng.randint(1, 4)
    return {"layout": TrapLayout(tuple(layout)).to_json()["layout"], "circle": rng.random() < 0.5}


def edge_board(name: str, goal: int = 100) -> dict[str, Any]:
    """The board file data of an edge case named in a test plan (see ``EDGE_BOARDS``)."""
    if name == "no-jumps":
        return {"goal": goal, "jumps": []}
    if name == "ladder-to-goal":
        return {"goal": goal, "jumps": [[goal // 10, goal], [goal // 2, goal // 4]]}
    if name == "chute-before-goal":
        return {"goal": goal, "jumps": [[goal - 1, 1], [goal // 5, goal // 2]]}
    inner = range(2, TRAP_LANE_SQUARES)
    if name in ("fully-trapped", "fully-trapped-circle"):
        layout = [0] + [1 + (square % 4) for square in inner] + [0]
        return {"layout": layout, "circle": name.endswith("circle")}
    if name == "circle":
        return {"layout": [0] * TRAP_LANE_SQUARES, "circle": True}
    raise ValueError(f"unknown edge board {name!r}")
