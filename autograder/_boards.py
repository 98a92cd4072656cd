"""Boards as typed, frozen data, and the rules that make one valid.

Jump boards follow RULES.md "Jump boards"; trap-lane layouts follow "Trap lane". Loading a
board never solves anything, so this module may ship to students.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ._errors import BoardError, read_json

STANDARD_JUMPS: tuple[tuple[int, int], ...] = (
    (1, 38), (4, 14), (9, 31), (16, 6), (21, 42), (28, 84), (36, 44), (48, 26), (49, 11),
    (51, 67), (56, 53), (62, 19), (64, 60), (71, 91), (80, 100), (87, 24), (93, 73), (95, 75),
    (98, 78),
)  # fmt: skip

TRAP_LANE_SQUARES = 15
MAX_GOAL = 10_000_000  # a model holds a few arrays of about 7 entries per square
TRAP_KINDS = {0: "ordinary", 1: "restart", 2: "penalty", 3: "prison", 4: "special"}


@dataclass(frozen=True)
class JumpBoard:
    """Squares ``0..goal``; ``jumps`` are ``(from, to)`` pairs sorted by ``from``."""

    goal: int
    jumps: tuple[tuple[int, int], ...]
    name: str = ""

    def __post_init__(self) -> None:
        problem = jump_board_problem(self.goal, self.jumps)
        if problem:
            raise BoardError("", problem)
        object.__setattr__(self, "jumps", tuple(sorted((int(a), int(b)) for a, b in self.jumps)))

    @cached_property
    def goes_to(self) -> np.ndarray:
        """``goes_to[i]``: where a move that ends on ``i`` leaves the piece."""
        table = np.arange(self.goal + 1, dtype=np.int64)
        for start, end in self.jumps:
            table[start] = end
        return table

    @property
    def chutes(self) -> tuple[tuple[int, int], ...]:
        return tuple(j for j in self.jumps if j[1] < j[0])

    @property
    def ladders(self) -> tuple[tuple[int, int], ...]:
        return tuple(j for j in self.jumps if j[1] > j[0])

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"goal": self.goal, "jumps": [list(j) for j in self.jumps]}
        if self.name:
            data["name"] = self.name
        return data


def standard_board() -> JumpBoard:
    """The 2004 edition: 100 squares, 19 jumps."""
    return JumpBoard(100, STANDARD_JUMPS, "standard")


def jump_board_problem(goal: object, jumps: object) -> str:
    """The first rule the board breaks, or ``""`` when it is valid."""
    if not _is_int(goal) or goal < 1:  # type: ignore[operator]
        return f"goal must be an integer >= 1, got {goal!r}"
    if goal > MAX_GOAL:
        return f"goal {goal} is larger than the largest board supported ({MAX_GOAL:,} squares)"
    if not isinstance(jumps, list | tuple):
        return f"jumps must be a list of [from, to] pairs, got {type(jumps).__name__}"
    starts: set[int] = set()
    for jump in jumps:
        if (
            not isinstance(jump, list | tuple)
            or len(jump) != 2
            or not all(_is_int(x) for x in jump)
        ):
            return f"jump {jump!r} is not a pair of integers [from, to]"
        start, end = jump
        if start in (0, goal):
            where = "the start (0)" if start == 0 else f"the goal ({goal})"
            return f"jump {start}->{end} starts on {where}"
        if not 0 < start < goal:
            return f"jump {start}->{end} starts outside the board 0..{goal}"
        if not 0 < end <= goal:
            return f"jump {start}->{end} ends outside the board 1..{goal}"
        if start == end:
            return f"jump {start}->{end} goes nowhere"
        if start in starts:
            return f"two jumps start on square {start}"
        starts.add(start)
    for start, end in jumps:  # type: ignore[misc]
        if end in starts:
            return f"jump {start}->{end} ends where another jump starts (chains are not allowed)"
    return ""


@dataclass(frozen=True)
class TrapLayout:
    """``layout[i]`` is the trap on square ``i + 1`` (squares 1..15); see RULES.md."""

    layout: tuple[int, ...]

    def __post_init__(self) -> None:
        problem = trap_layout_problem(self.layout)
        if problem:
            raise BoardError("", problem)
        object.__setattr__(self, "layout", tuple(int(x) for x in self.layout))

    def to_json(self) -> dict[str, Any]:
        return {"layout": list(self.layout)}


def trap_layout_problem(layout: object) -> str:
    if not isinstance(layout, list | tuple) or not all(_is_int(x) for x in layout):
        return "layout must be a list of 15 integers (squares 1..15)"
    if len(layout) != TRAP_LANE_SQUARES:
        return f"layout must have {TRAP_LANE_SQUARES} entries (squares 1..15), got {len(layout)}"
    for square, trap in enumerate(layout, start=1):
        if trap not in TRAP_KINDS:
            return f"square {square} has trap {trap}; traps are 0..4"
    if layout[0] or layout[-1]:
        return "squares 1 and 15 are never trapped"
    return ""


Board = JumpBoard | TrapLayout


def describe_board(data: Mapping[str, Any]) -> str:
    """A few words on a board file's data, for titles: its size and jumps, or its traps."""
    if "layout" in data:
        traps = sum(1 for t in data["layout"] if t)
        return f"{traps} traps, {'circle' if data.get('circle') else 'no circle'}"
    return f"{data['goal']} squares, {len(data['jumps'])} jumps"


@dataclass(frozen=True)
class LoadedBoard:
    """A board read from a file, with the parameters the file may carry (trap lane)."""

    board: Board
    params: Mapping[str, Any]
    source: str


def parse_board(data: object, family: str, source: str) -> LoadedBoard:
    """Validate decoded JSON (or TOML) ``data`` as a board of ``family`` (``jump``/``trap``)."""
    if not isinstance(data, dict):
        raise BoardError(source, "a board must be a JSON object")
    try:
        if family == "jump":
            _reject_unknown(data, {"goal", "jumps", "name"}, source)
            if "goal" not in data or "jumps" not in data:
                raise BoardError(source, 'a jump board needs "goal" and "jumps"')
            name = data.get("name", "")
            if not isinstance(name, str):
                raise BoardError(source, '"name" must be a string')
            jumps = data["jumps"]
            if isinstance(jumps, list):
                jumps = tuple(tuple(j) if isinstance(j, list) else j for j in jumps)
            return LoadedBoard(JumpBoard(data["goal"], jumps, name), {}, source)
        if family == "trap":
            _reject_unknown(data, {"layout", "circle", "edition", "name"}, source)
            if "layout" not in data:
                raise BoardError(source, 'a trap-lane board needs "layout"')
            params = {k: data[k] for k in ("circle", "edition") if k in data}
            return LoadedBoard(TrapLayout(tuple(data["layout"])), params, source)
    except BoardError as err:
        raise err.located(source) from None
    raise ValueError(f"unknown board family {family!r}")


def load_board(path: str | Path, family: str) -> LoadedBoard:
    """Read and validate a board file; every problem is a one-line :class:`BoardError`."""
    source = str(path)
    data = read_json(path, error=BoardError)
    return parse_board(data, family, source)


def _reject_unknown(data: dict[str, Any], known: set[str], source: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise BoardError(
            source, f"unknown key {unknown[0]!r} (a board has {', '.join(sorted(known))})"
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)
