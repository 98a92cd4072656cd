"""Where each square of a board sits in a picture, and the arrows between squares: the
geometry a board family gives the SVG templates (``autograder._svg``). Coordinates are in
cells (one cell is one square); the templates scale them. Nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

__all__ = ["Arrow", "BoardPicture", "Place"]

# A jump down or up, the fork where a lane splits or joins, and the circle's way round.
ArrowKind = Literal["chute", "ladder", "lane", "circle"]


@dataclass(frozen=True)
class Place:
    """Square ``square`` drawn at column ``x``, row ``y`` (0 at the top). ``mark``: a short
    sign drawn on it (a trap's letter), ``says`` that sign in words (its hover title)."""

    square: int
    x: float
    y: float
    mark: str = ""
    says: str = ""


@dataclass(frozen=True)
class Arrow:
    start: int
    end: int
    kind: ArrowKind


@dataclass(frozen=True)
class BoardPicture:
    """A board laid out: its squares in board order, the arrows, and the size in cells.
    ``legend`` names each mark used, in words (``("R", "restart")``)."""

    places: tuple[Place, ...]
    arrows: tuple[Arrow, ...]
    columns: float
    rows: float
    legend: tuple[tuple[str, str], ...] = ()

    @cached_property
    def place_of(self) -> dict[int, Place]:
        return {place.square: place for place in self.places}
