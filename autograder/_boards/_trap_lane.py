"""Trap-lane layouts (docs/rules.md, "Trap lane"): the trap on each of squares 1..15, and
whether the lane is a circle. Loading a layout never solves anything."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .. import _toml
from .._errors import BoardError, UsageError
from ._family import BoardFamily, LoadedBoard, register_family, reject_unknown
from ._picture import Arrow, BoardPicture, Place

__all__ = ["TRAP_KINDS", "TRAP_LANE_SQUARES", "TrapLaneFamily", "TrapLayout", "TrapVariantPlan"]

TRAP_LANE_SQUARES = 15
# The trap codes of a layout and their names (0 is an ordinary square). What each does is
# the rules' business (reference_solutions.rules.trap_lane); "special" depends on the edition.
TRAP_KINDS: Mapping[int, str] = MappingProxyType(
    {1: "restart", 2: "penalty", 3: "prison", 4: "special"}
)
# The letter a picture of the lane marks each trap with.
TRAP_MARKS: Mapping[int, str] = MappingProxyType({1: "R", 2: "P", 3: "J", 4: "S"})
_SLOW_LANE = range(1, 11)
_FAST_LANE = range(11, 15)
_JUNCTION = 3


@dataclass(frozen=True)
class TrapLayout:
    """``layout[i]`` is the trap on square ``i + 1`` (squares 1..15)."""

    layout: tuple[int, ...]

    def __post_init__(self) -> None:
        problem = trap_layout_problem(self.layout)
        if problem:
            raise BoardError("", problem)
        object.__setattr__(self, "layout", tuple(int(x) for x in self.layout))

    def to_json(self) -> dict[str, Any]:
        return {"layout": list(self.layout)}


def trap_layout_problem(layout: object) -> str:
    """The first rule the layout breaks, or ``""`` when it is valid."""
    if not isinstance(layout, list | tuple) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in layout
    ):
        return f"layout must be a list of {TRAP_LANE_SQUARES} integers (squares 1..15)"
    if len(layout) != TRAP_LANE_SQUARES:
        return f"layout must have {TRAP_LANE_SQUARES} entries (squares 1..15), got {len(layout)}"
    for square, trap in enumerate(layout, start=1):
        if trap != 0 and trap not in TRAP_KINDS:
            return f"square {square} has trap {trap}; traps are 0..{max(TRAP_KINDS)}"
    if layout[0] or layout[-1]:
        return "squares 1 and 15 are never trapped"
    return ""


def _default_counts() -> Mapping[str, tuple[int, int]]:
    return MappingProxyType({kind: (0, 2) for kind in TRAP_KINDS.values()})


@dataclass(frozen=True)
class TrapVariantPlan:
    """How each student's layout is drawn (``[variants]``): the range of the count of each
    trap kind (inclusive, by name), on distinct squares 2..14, and the circle setting
    (``"either"`` draws it per student)."""

    counts: Mapping[str, tuple[int, int]] = field(default_factory=_default_counts)
    circle: bool | str = "either"


class TrapLaneFamily(BoardFamily):
    name = "trap"
    edge_boards = ("circle", "fully-trapped", "fully-trapped-circle")
    plan_type = TrapVariantPlan

    def parse(self, data: dict[str, Any], source: str) -> LoadedBoard:
        reject_unknown(data, {"layout", "circle", "edition", "name"}, source)
        if "layout" not in data:
            raise BoardError(source, 'a trap-lane board needs "layout"')
        params: dict[str, Any] = {k: data[k] for k in ("circle", "edition") if k in data}
        layout = data["layout"]
        if not isinstance(layout, list | tuple):
            raise BoardError(source, trap_layout_problem(layout))
        return LoadedBoard(TrapLayout(tuple(layout)), params, source)

    def describe(self, data: Mapping[str, Any]) -> str:
        traps = sum(1 for t in data["layout"] if t)
        return f"{traps} traps, {'circle' if data.get('circle') else 'no circle'}"

    def edge_board(self, name: str, public: Any) -> dict[str, Any]:
        inner = range(2, TRAP_LANE_SQUARES)
        if name in ("fully-trapped", "fully-trapped-circle"):
            # Every kind of trap, in turn along the lane.
            layout = [0] + [1 + square % len(TRAP_KINDS) for square in inner] + [0]
            return {"layout": layout, "circle": name.endswith("circle")}
        if name == "circle":
            return {"layout": [0] * TRAP_LANE_SQUARES, "circle": True}
        raise ValueError(f"unknown edge board {name!r} for trap-lane layouts")

    def board_file(self, board: Any, params: Mapping[str, Any]) -> dict[str, Any]:
        # The lane's shape is part of the board a program is given.
        return {**board.to_json(), "circle": bool(params.get("circle", False))}

    def picture(self, board: Any, params: Mapping[str, Any]) -> BoardPicture:
        """The slow lane 1..10 along the bottom, the fast lane 11..14 above it from the
        junction (square 3), both ending on 15; an arrow from 15 back to 1 on a circle."""
        goal = TRAP_LANE_SQUARES
        where = {s: (s - 1.0, 2.0) for s in _SLOW_LANE}
        where |= {s: (2.75 + 1.5 * (s - 11), 0.0) for s in _FAST_LANE}
        where[goal] = (10.5, 1.0)
        edition = params.get("edition")
        places = []
        for square in range(1, goal + 1):
            trap = board.layout[square - 1]
            says = TRAP_KINDS.get(trap, "")
            if says == "special" and isinstance(edition, str):
                says = f"special ({edition})"
            x, y = where[square]
            places.append(Place(square, x, y, TRAP_MARKS.get(trap, ""), says))
        arrows = [Arrow(_JUNCTION, _FAST_LANE[0], "lane"), Arrow(_FAST_LANE[-1], goal, "lane"),
                  Arrow(_SLOW_LANE[-1], goal, "lane")]  # fmt: skip
        if params.get("circle"):
            arrows.append(Arrow(goal, 1, "circle"))
        used = sorted({t for t in board.layout if t})
        legend = tuple((TRAP_MARKS[t], TRAP_KINDS[t]) for t in used)
        rows = 3.4 if params.get("circle") else 3.0  # room for the way round, below
        return BoardPicture(tuple(places), tuple(arrows), 11.5, rows, legend)

    def read_plan(self, section: dict[str, Any], where: str) -> TrapVariantPlan:
        kinds = list(TRAP_KINDS.values())
        unknown = sorted(set(section) - {*kinds, "circle"})
        if unknown:
            raise UsageError(where, f"unknown key {unknown[0]!r} in [variants]")
        default = TrapVariantPlan()
        circle = section.get("circle", default.circle)
        if circle not in (True, False, "either"):
            raise UsageError(
                where, f'[variants] circle must be true, false or "either", got {circle!r}'
            )
        counts = {
            kind: _toml.count_range(section, kind, default.counts[kind], where, "variants")
            for kind in kinds
        }
        if not any(high for _, high in counts.values()):
            # A lane without traps is the public board, and a program ignoring traps passes.
            raise UsageError(
                where, "[variants] draws no trap at all; let the count of some kind reach 1"
            )
        return TrapVariantPlan(MappingProxyType(counts), circle)


register_family(TrapLaneFamily())
