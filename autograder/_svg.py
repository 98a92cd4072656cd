"""Pictures as SVG, from the project's own Jinja2 templates (``autograder/templates``): a
board with each square painted, and a bar chart. The same input gives the same bytes:
coordinates are rounded, nothing depends on time or on a dictionary's history.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

import jinja2
from markupsafe import Markup

from ._boards._picture import BoardPicture
from ._resources import package_data

__all__ = [
    "ACTION_FILLS",
    "ARROW_COLOURS",
    "FLAG_STROKE",
    "Bar",
    "Paint",
    "bars_svg",
    "board_svg",
    "scale_fill",
    "shared_drawings",
    "templates",
]

CELL = 56  # pixels per square
_GAP = 4  # pixels between squares (an even number: coordinates stay whole)
ARROW_COLOURS = {"chute": "#c0392b", "ladder": "#2e8b57", "lane": "#555555", "circle": "#8e44ad"}
# The outline of a flagged square (a wrong action): dark blue, as the action drawn on it,
# and apart from every fill of the error scale, reds included.
FLAG_STROKE = "#1f3f7a"
# Distinct fills for the actions of a policy map, in the order the game names them.
ACTION_FILLS = ("#cfe3f7", "#f9e0b8", "#d9ecc7", "#ead1ee", "#f7d0d0", "#d4f1ef", "#efe7bd",
                "#dcdcf4")  # fmt: skip


@lru_cache(maxsize=1)
def templates() -> jinja2.Environment:
    """The environment the reports and pictures are rendered in: HTML escaping on, since a
    student id, a file name and what a program printed all reach the page."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(package_data("autograder", "templates"))),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )


@dataclass(frozen=True)
class Paint:
    """How one square is shown: ``tone`` is its colour class and ``fill`` that colour,
    ``title`` its hover text, ``text`` a number drawn on it, ``expected`` the right number
    drawn under that one (on a wrong square, so it is read without hovering), ``note`` an
    action drawn at the foot, ``flag`` a second class (an action that is wrong is
    outlined)."""

    tone: str
    fill: str
    title: str
    text: str = ""
    note: str = ""
    flag: str = ""
    expected: str = ""


@dataclass(frozen=True)
class Bar:
    count: int
    label: str
    title: str
    tone: str = "bar"
    fill: str = "#6f8fb8"


def _n(x: float) -> str:
    """A coordinate as the SVG shows it: one decimal, no trailing zero."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _centre(picture: BoardPicture, square: int) -> tuple[float, float]:
    place = picture.place_of[square]
    return (_GAP + place.x * CELL + (CELL - _GAP) / 2, _GAP + place.y * CELL + (CELL - _GAP) / 2)


def _arrow_path(picture: BoardPicture, start: int, end: int, bend: float) -> str:
    """A gentle curve from one square's centre towards the other's, stopping short of it so
    the head stays visible; ``bend`` sets the side, so arrows that cross stay apart."""
    (x1, y1), (x2, y2) = _centre(picture, start), _centre(picture, end)
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    short = min(CELL * 0.3, length / 3)
    x1, y1, x2, y2 = x1 + ux * short, y1 + uy * short, x2 - ux * short, y2 - uy * short
    lift = bend * min(length, 4 * CELL)
    mx, my = (x1 + x2) / 2 - uy * lift, (y1 + y2) / 2 + ux * lift
    return f"M{_n(x1)} {_n(y1)}Q{_n(mx)} {_n(my)} {_n(x2)} {_n(y2)}"


# Boards drawn within ``shared_drawings``, by what they were drawn from; ``None`` outside.
_drawn: ContextVar[dict[tuple, str] | None] = ContextVar("_drawn", default=None)
_DRAWN_KEPT = 256  # drawings kept at most (tens of kilobytes each)


@contextlib.contextmanager
def shared_drawings() -> Iterator[None]:
    """Within the ``with``, a board drawn again exactly as before (the same picture, paint,
    ``ident`` and caption: every student right on the public board) is drawn once. Kept
    for the ``with`` only: a batch's pages, not the process."""
    token = _drawn.set({})
    try:
        yield
    finally:
        _drawn.reset(token)


def board_svg(
    picture: BoardPicture,
    paint: Mapping[int, Paint],
    *,
    ident: str,
    caption: str,
) -> str:
    """``picture`` with each square painted as ``paint`` says (a square it leaves out is
    plain). ``ident`` must be unique on the page: the arrow heads are named after it."""
    drawn = _drawn.get()
    if drawn is None:
        return _board_svg(picture, paint, ident=ident, caption=caption)
    key = (picture, tuple(sorted(paint.items())), ident, caption)
    svg = drawn.get(key)
    if svg is None:
        svg = _board_svg(picture, paint, ident=ident, caption=caption)
        if len(drawn) < _DRAWN_KEPT:
            drawn[key] = svg
    return svg


def _board_svg(
    picture: BoardPicture,
    paint: Mapping[int, Paint],
    *,
    ident: str,
    caption: str,
) -> str:
    size = CELL - _GAP
    squares = []
    for place in picture.places:
        p = paint.get(place.square) or Paint("plain", "#ffffff", f"square {place.square}")
        title = p.title if not place.says else f"{p.title} ({place.says})"
        squares.append(
            {
                "square": place.square,
                "x": round(_GAP + place.x * CELL),
                "y": round(_GAP + place.y * CELL),
                "tone": p.tone,
                "flag": p.flag,
                "fill": p.fill,
                "stroke": FLAG_STROKE if p.flag else "#999",
                "title": title,
                "text": p.text,
                "expected": p.expected,
                "note": p.note,
                "mark": place.mark,
            }
        )
    arrows = []
    for k, arrow in enumerate(picture.arrows):
        # The way round a circle passes under the lane, clear of the squares.
        bend = -0.62 if arrow.kind == "circle" else 0.12 if k % 2 == 0 else -0.12
        what = {"chute": "chute", "ladder": "ladder", "lane": "the way on", "circle": "round"}
        arrows.append(
            {
                "kind": arrow.kind,
                "start": arrow.start,
                "end": arrow.end,
                "path": _arrow_path(picture, arrow.start, arrow.end, bend),
                "colour": ARROW_COLOURS[arrow.kind],
                "title": f"{what[arrow.kind]}: {arrow.start} to {arrow.end}",
            }
        )
    heads = sorted({(a.kind, ARROW_COLOURS[a.kind]) for a in picture.arrows})
    width = _GAP + picture.columns * CELL
    height = _GAP + picture.rows * CELL
    text = templates().get_template("board.svg.j2").render(
        ident=ident, caption=caption, width=_n(width), height=_n(height), size=size,
        half=size // 2, squares=squares, arrows=arrows, heads=heads,
    )  # fmt: skip
    return Markup(text)


def bars_svg(
    bars: Sequence[Bar], *, caption: str, axis: str = "", width: int = 560, height: int = 180
) -> str:
    """A bar chart of ``bars`` (left to right), scaled to the tallest."""
    left, top, bottom = 8, 16, 34 if axis else 20
    base = height - bottom
    tallest = max((b.count for b in bars), default=0) or 1
    step = (width - left - 8) / max(len(bars), 1)
    shown = []
    for k, bar in enumerate(bars):
        h = (base - top) * bar.count / tallest
        shown.append(
            {
                "x": round(left + k * step + step * 0.1, 1),
                "y": round(base - h, 1),
                "width": round(step * 0.8, 1),
                "height": round(h, 1),
                "count": bar.count,
                "label": bar.label,
                "title": bar.title,
                "tone": bar.tone,
                "fill": bar.fill,
            }
        )
    text = (
        templates()
        .get_template("bars.svg.j2")
        .render(
            bars=shown, caption=caption, axis=axis, width=width, height=height, left=left, base=base
        )
    )
    return Markup(text)


def pairs_svg(
    cells: Sequence[Sequence[tuple[str, str]]],
    *,
    caption: str,
    rows: str,
    columns: str,
    size: int = 520,
) -> str:
    """A map of pairs of squares: ``cells[row][column]`` is the ``(fill, title)`` of a pair
    (its colour, and what hovering over it says); ``rows`` and ``columns`` say what the
    squares down and across are."""
    n = len(cells)
    cell = max(1, size // max(n, 1))  # (whole pixels: no seams between the cells)
    left, top = 40, 32
    side = cell * n
    drawn = [
        {"x": left + b * cell, "y": top + a * cell, "fill": fill, "title": title}
        for a, row in enumerate(cells)
        for b, (fill, title) in enumerate(row)
    ]
    every = 10 if n > 20 else 1
    ticks = [
        {"x": _n(left + (k + 0.5) * cell), "y": _n(top + (k + 0.5) * cell + 3), "label": k}
        for k in range(0, n, every)
    ]
    text = templates().get_template("pairs.svg.j2").render(
        cells=drawn, ticks=ticks, cell=cell, left=left, top=top, side=side, caption=caption,
        rows=rows, columns=columns, width=_n(left + side + 8), height=_n(top + side + 8),
    )  # fmt: skip
    return Markup(text)


def scale_fill(share: float, low: str = "#f4f8fc", high: str = "#1f4e89") -> str:
    """A colour ``share`` (0..1) of the way from ``low`` to ``high``."""
    share = min(1.0, max(0.0, share))
    a = [int(low[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(high[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))
