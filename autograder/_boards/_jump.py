"""Jump boards, the Chutes and Ladders family (docs/rules.md, "Jump boards"): squares
``0..goal`` and a list of jumps ``from -> to``. Loading a board never solves anything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeGuard

import numpy as np

from .. import _toml
from .._errors import BoardError, UsageError
from ._family import BoardFamily, LoadedBoard, register_family, reject_unknown
from ._picture import Arrow, BoardPicture, Place

__all__ = [
    "MAX_GOAL",
    "STANDARD_JUMPS",
    "JumpBoard",
    "JumpFamily",
    "JumpVariantPlan",
    "jump_board_problem",
    "standard_board",
]

STANDARD_JUMPS: tuple[tuple[int, int], ...] = (
    (1, 38), (4, 14), (9, 31), (16, 6), (21, 42), (28, 84), (36, 44), (48, 26), (49, 11),
    (51, 67), (56, 53), (62, 19), (64, 60), (71, 91), (80, 100), (87, 24), (93, 73), (95, 75),
    (98, 78),
)  # fmt: skip

MAX_GOAL = 10_000_000  # a model holds a few arrays of about 7 entries per square
# The largest board a report draws square by square (a 100-square board is 11 rows of 10).
DRAWN_GOAL = 400
ROW = 10  # squares per row of the printed board, which snakes back and forth


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
        if self.jumps:
            pairs = np.array(self.jumps, dtype=np.int64)
            table[pairs[:, 0]] = pairs[:, 1]
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


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def jump_board_problem(goal: object, jumps: object) -> str:
    """The first rule the board breaks, or ``""`` when it is valid."""
    if not _is_int(goal) or goal < 1:
        return f"goal must be an integer >= 1, got {goal!r}"
    if goal > MAX_GOAL:
        return f"goal {goal} is larger than the largest board supported ({MAX_GOAL:,} squares)"
    if not isinstance(jumps, list | tuple):
        return f"jumps must be a list of [from, to] pairs, got {type(jumps).__name__}"
    # A board of a million squares has ~10^5 jumps: the pairs are checked for shape in one
    # pass, the rules on arrays; the message is then found by the plain loop below, run
    # only up to the first jump that breaks a rule.
    if not all(isinstance(j, list | tuple) and len(j) == 2 and _is_int(j[0]) and _is_int(j[1])
               for j in jumps):  # fmt: skip
        return _first_problem(goal, jumps)
    if not jumps:
        return ""
    try:
        pairs = np.array(jumps, dtype=np.int64).reshape(-1, 2)
    except OverflowError:
        return _first_problem(goal, jumps)
    start, end = pairs[:, 0], pairs[:, 1]
    seen = np.zeros(goal + 1, dtype=bool)
    inside = (start > 0) & (start < goal)
    order = np.flatnonzero(inside)
    _, first = np.unique(start[order], return_index=True)
    again = np.ones(order.size, dtype=bool)
    again[first] = False
    broken = ~inside | (end < 1) | (end > goal) | (start == end)
    broken[order[again]] = True
    if broken.any():
        return _first_problem(goal, jumps[: int(np.argmax(broken)) + 1])
    seen[start] = True
    chained = seen[end]
    if chained.any():
        i = int(np.argmax(chained))
        return f"jump {start[i]}->{end[i]} ends where another jump starts (chains are not allowed)"
    return ""


def _first_problem(goal: int, jumps: Sequence[Any]) -> str:
    """The first rule a jump breaks, jump by jump (the message ``jump_board_problem``
    gives)."""
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
    for start, end in jumps:
        if end in starts:
            return f"jump {start}->{end} ends where another jump starts (chains are not allowed)"
    return ""


@dataclass(frozen=True)
class JumpVariantPlan:
    """How each student's board is drawn (``[variants]``): the goal, the ranges of chute
    and ladder counts (inclusive), and the band the expected length of a classic game
    (6-face spinner, exact finish) must fall in, so every student's board is about as long.
    """

    goal: int = 100
    chutes: tuple[int, int] = (8, 11)
    ladders: tuple[int, int] = (7, 10)
    min_turns: float = 25.0
    max_turns: float = 60.0


class JumpFamily(BoardFamily):
    name = "jump"
    edge_boards = ("no-jumps", "ladder-to-goal", "chute-before-goal")
    plan_type = JumpVariantPlan

    def parse(self, data: dict[str, Any], source: str) -> LoadedBoard:
        reject_unknown(data, {"goal", "jumps", "name"}, source)
        if "goal" not in data or "jumps" not in data:
            raise BoardError(source, 'a jump board needs "goal" and "jumps"')
        name = data.get("name", "")
        if not isinstance(name, str):
            raise BoardError(source, '"name" must be a string')
        jumps = data["jumps"]
        if isinstance(jumps, list):
            jumps = tuple(tuple(j) if isinstance(j, list) else j for j in jumps)
        return LoadedBoard(JumpBoard(data["goal"], jumps, name), {}, source)

    def describe(self, data: Mapping[str, Any]) -> str:
        return f"{data['goal']} squares, {len(data['jumps'])} jumps"

    def edge_board(self, name: str, public: Any) -> dict[str, Any]:
        goal = public.goal
        if name == "no-jumps":
            return {"goal": goal, "jumps": []}
        if name == "ladder-to-goal":
            return {"goal": goal, "jumps": [[goal // 10, goal], [goal // 2, goal // 4]]}
        if name == "chute-before-goal":
            return {"goal": goal, "jumps": [[goal - 1, 1], [goal // 5, goal // 2]]}
        raise ValueError(f"unknown edge board {name!r} for jump boards")

    def read_plan(self, section: dict[str, Any], where: str) -> JumpVariantPlan:
        _toml.known_keys(section, JumpVariantPlan, "variants", where)
        d = JumpVariantPlan()
        plan = JumpVariantPlan(
            goal=int(_toml.number(section, "goal", d.goal, where, 2)),
            chutes=_toml.count_range(section, "chutes", d.chutes, where, "variants"),
            ladders=_toml.count_range(section, "ladders", d.ladders, where, "variants"),
            min_turns=_toml.number(section, "min_turns", d.min_turns, where, 0),
            max_turns=_toml.number(section, "max_turns", d.max_turns, where, 0),
        )
        if plan.min_turns > plan.max_turns:
            raise UsageError(where, "[variants] min_turns is larger than max_turns")
        if not plan.chutes[1] + plan.ladders[1]:
            # A board without jumps is an edge board, and a program ignoring jumps passes.
            raise UsageError(
                where, "[variants] draws no chute and no ladder; let one of the counts reach 1"
            )
        return plan

    def picture(self, board: Any, params: Mapping[str, Any]) -> BoardPicture | None:
        """The printed board: rows of ten from the bottom, squares 1..10 left to right, the
        next row right to left (a snake); square 0, the start, which the game keeps off the
        board, left of square 1. Chutes and ladders as arrows."""
        if board.goal > DRAWN_GOAL:
            return None
        rows = (board.goal + ROW - 1) // ROW
        places = [Place(0, 0, rows - 1)]
        for square in range(1, board.goal + 1):
            row, along = divmod(square - 1, ROW)
            column = along if row % 2 == 0 else ROW - 1 - along
            places.append(Place(square, 1 + column, rows - 1 - row))
        arrows = tuple(
            Arrow(start, end, "chute" if end < start else "ladder") for start, end in board.jumps
        )
        return BoardPicture(tuple(places), arrows, ROW + 1, rows)


register_family(JumpFamily())
