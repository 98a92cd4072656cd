"""The page of the write-ups' analyses (``autograder analyze --html``): the value map and
the policy map of a board, computed against simulated expectation square by square, and
named strategies against the best one with the game lengths of each.

The grading side computes the numbers and hands them over as the plain data below; here
they are only drawn, from the same templates as the reports (``autograder/templates``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._assignments import Assignment
from ._boards._picture import BoardPicture
from ._html import board_picture, drawn_keys, legend_swatch, legend_words
from ._svg import (
    ACTION_FILLS,
    Bar,
    Paint,
    bars_svg,
    board_svg,
    pairs_svg,
    scale_fill,
    templates,
)

__all__ = ["AnalysisPage", "BoardMap", "SquareRow", "StrategyRow", "analysis_html", "length_bars"]

LENGTH_BINS = 15


@dataclass(frozen=True)
class BoardMap:
    """One picture of the board: ``values`` colour the squares (a value map), ``labels``
    are drawn on them (a policy map: the action on each square)."""

    caption: str
    values: Mapping[int, float] = field(default_factory=dict)
    labels: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PairMap:
    """Values over pairs of squares (two pieces' chance to win): ``table[row][column]``, the
    rows' squares being what ``rows`` says, the columns' what ``columns`` says."""

    caption: str
    table: Sequence[Sequence[float]]
    rows: str
    columns: str


@dataclass(frozen=True)
class SquareRow:
    """Computed against simulated expectation from one square."""

    square: str
    computed: float
    mean: float
    low: float
    high: float
    games: int

    @property
    def difference(self) -> float:
        return self.computed - self.mean

    @property
    def inside(self) -> bool:
        return self.low <= self.computed <= self.high


@dataclass(frozen=True)
class StrategyRow:
    """A strategy evaluated exactly (``exact`` None: it never finishes) and by simulation:
    ``games`` played, the mean and interval over those that count (``unfinished`` were
    stopped still playing and do not), ``lengths``: the length in turns of each game that
    reached the goal."""

    name: str
    says: str
    exact: float | None
    mean: float
    low: float
    high: float
    games: int
    unfinished: int
    lengths: Sequence[int]


@dataclass(frozen=True)
class AnalysisPage:
    """Everything the page shows. ``unit``: what a value counts ("turns", or "discounted
    reward"); ``confidence``: the interval's level, in words ("99.9%")."""

    title: str
    board: Mapping[str, Any]
    lines: Sequence[str]
    value_maps: Sequence[BoardMap]
    policy_maps: Sequence[BoardMap]
    squares: Sequence[SquareRow]
    strategies: Sequence[StrategyRow]
    unit: str
    confidence: str
    pair_maps: Sequence[PairMap] = ()


def length_bars(lengths: Sequence[int], bins: int = LENGTH_BINS) -> list[Bar]:
    """Game lengths in at most ``bins`` equal bins from the shortest to the 99th
    percentile; the last bin gathers the long tail beyond it."""
    ordered = sorted(int(x) for x in lengths)
    if not ordered:
        return []
    low = ordered[0]
    high = max(low, ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)])
    width = max(1, math.ceil((high - low + 1) / bins))
    edges = list(range(low, high + 1, width))
    bars = []
    for k, start in enumerate(edges):
        last = k == len(edges) - 1
        stop = start + width
        count = sum(1 for x in ordered if x >= start and (last or x < stop))
        span = f"{start}+" if last else str(start) if width == 1 else f"{start}-{stop - 1}"
        bars.append(Bar(count, span, f"{count} games of {span} turns"))
    return bars


# A value map's colours: the lowest value on the map to the highest, in between by share.
_VALUE_LOW, _VALUE_HIGH = "#f4f8fc", "#6f9fd8"
_PAIRS_HIGH = "#1f4e89"  # (a chance runs over 0..1: the full scale, darker at the top)
_NEVER_FILL = "#d9d9d9"
_GOAL_FILL = "#e8e2f4"


def _value_range(values: Mapping[int, float]) -> tuple[float, float]:
    finite = [v for v in values.values() if math.isfinite(v)]
    return (min(finite), max(finite)) if finite else (0.0, 1.0)


def _value_legend(
    picture: BoardPicture, values: Mapping[int, float], unit: str, goal: int | None
) -> list[dict[str, Any]]:
    """A value map's legend: what a square shows, the colour scale with its ends (the map's
    lowest and highest values), the goal, the arrows and the letters."""
    low, high = _value_range(values)
    colours = [
        legend_swatch(_VALUE_LOW, f"{low:.2f}, the lowest"),
        legend_swatch(scale_fill(0.5, _VALUE_LOW, _VALUE_HIGH), f"{(low + high) / 2:.2f}"),
        legend_swatch(_VALUE_HIGH, f"{high:.2f}, the highest"),
    ]
    if any(not math.isfinite(v) for v in values.values()):
        colours.append(legend_swatch(_NEVER_FILL, "never finishes"))
    if goal is not None and goal not in values:  # (painted as the goal, not by a value)
        colours.append(legend_swatch(_GOAL_FILL, "the goal"))
    rows = [
        {"label": "On a square", "parts": [legend_words(
            f"its number (top left) and the expected {unit} from it under optimal play")]},
        {"label": "Colour: the value, from the lowest on the map to the highest", "parts": colours},
    ]  # fmt: skip
    return rows + drawn_keys(picture)


def _policy_legend(
    picture: BoardPicture, labels: Mapping[int, str], goal: int | None
) -> list[dict[str, Any]]:
    """A policy map's legend: each action's colour, the goal, the arrows and the letters.
    With more actions than colours, the colours repeat: then the legend says so."""
    order = sorted({label for square, label in labels.items() if square != goal})
    label = "Colour: the best action"
    if len(order) > len(ACTION_FILLS):
        label += f" (the {len(ACTION_FILLS)} colours repeat: read the action at the foot)"
        order = order[: len(ACTION_FILLS)]
    colours = [legend_swatch(ACTION_FILLS[k], action) for k, action in enumerate(order)]
    colours.append(legend_swatch(_GOAL_FILL, "the goal"))
    reading = "its number (top left) and the best action on it (at the foot)"
    rows = [
        {"label": "On a square", "parts": [legend_words(reading)]},
        {"label": label, "parts": colours},
    ]
    return rows + drawn_keys(picture)


def _value_paint(values: Mapping[int, float], goal_square: int | None) -> dict[int, Paint]:
    low, high = _value_range(values)
    paint = {}
    for square, value in values.items():
        if not math.isfinite(value):
            paint[square] = Paint("never", _NEVER_FILL, f"square {square}: never finishes", "inf")
            continue
        share = (value - low) / (high - low) if high > low else 0.0
        tone = f"value-{min(7, int(share * 8))}"
        # Light enough at the dark end that the number on it stays legible.
        fill = scale_fill(share, _VALUE_LOW, _VALUE_HIGH)
        paint[square] = Paint(tone, fill, f"square {square}: {value:.4f}", text=f"{value:.2f}")
    if goal_square is not None and goal_square not in paint:
        paint[goal_square] = Paint("goal", _GOAL_FILL, f"square {goal_square}: the goal")
    return paint


def _policy_paint(labels: Mapping[int, str], goal_square: int | None) -> dict[int, Paint]:
    order = sorted({label for square, label in labels.items() if square != goal_square})
    paint = {}
    if goal_square is not None:
        paint[goal_square] = Paint("goal", _GOAL_FILL, f"square {goal_square}: the goal")
    for square, label in labels.items():
        if square == goal_square:
            continue
        k = order.index(label)
        paint[square] = Paint(f"action-{k}", ACTION_FILLS[k % len(ACTION_FILLS)],
                              f"square {square}: {label}", note=label)  # fmt: skip
    return paint


def _number(x: float | None) -> str:
    return "never" if x is None or not math.isfinite(x) else f"{x:.4f}"


def analysis_html(page: AnalysisPage, assignment: Assignment) -> str:
    """The whole page, self-contained like the reports."""
    picture, note = board_picture(assignment, page.board)
    goal = max(p.square for p in picture.places) if picture is not None else None
    maps = []
    if picture is not None:
        for k, value_map in enumerate(page.value_maps):
            svg = board_svg(picture, _value_paint(value_map.values, goal),
                            ident=f"values-{k}", caption=value_map.caption)  # fmt: skip
            legend = _value_legend(picture, value_map.values, page.unit, goal)
            maps.append({"caption": value_map.caption, "svg": svg, "legend": legend})
        for k, policy_map in enumerate(page.policy_maps):
            svg = board_svg(picture, _policy_paint(policy_map.labels, goal),
                            ident=f"policy-{k}", caption=policy_map.caption)  # fmt: skip
            legend = _policy_legend(picture, policy_map.labels, goal)
            maps.append({"caption": policy_map.caption, "svg": svg, "legend": legend})
    for pair_map in page.pair_maps:
        cells = [[(scale_fill(v, _VALUE_LOW, _PAIRS_HIGH), f"{a}, {b}: {v:.4f}")
                  for b, v in enumerate(row)] for a, row in enumerate(pair_map.table)]  # fmt: skip
        svg = pairs_svg(cells, caption=pair_map.caption, rows=pair_map.rows,
                        columns=pair_map.columns)  # fmt: skip
        colours = [legend_swatch(scale_fill(share, _VALUE_LOW, _PAIRS_HIGH), f"{share:.2f}")
                   for share in (0.0, 0.25, 0.5, 0.75, 1.0)]  # fmt: skip
        legend = [
            {"label": "A cell", "parts": [legend_words(
                f"a pair of squares: {pair_map.rows} down the side, {pair_map.columns} "
                "across the top; its value on hover")]},
            {"label": f"Colour: {page.unit}, from 0 (white) to 1 (dark)", "parts": colours},
        ]  # fmt: skip
        maps.append({"caption": pair_map.caption, "svg": svg, "legend": legend})
    squares = [
        {"square": row.square, "computed": _number(row.computed), "mean": _number(row.mean),
         "interval": f"[{row.low:.4f}, {row.high:.4f}]", "difference": f"{row.difference:+.4f}",
         "inside": row.inside}
        for row in page.squares
    ]  # fmt: skip
    strategies = []
    for k, row in enumerate(page.strategies):
        bars = length_bars(row.lengths)
        svg = bars_svg(bars, caption=f"game lengths: {row.name}", axis="turns per game")
        strategies.append({
            "name": row.name, "says": row.says, "exact": _number(row.exact),
            "mean": _number(row.mean), "interval": f"[{row.low:.4f}, {row.high:.4f}]",
            "games": row.games, "reached": len(row.lengths), "svg": svg, "ident": k,
        })  # fmt: skip
    context = {
        "page_title": page.title,
        "title": page.title,
        "lines": page.lines,
        "maps": maps,
        "note": note,
        "squares": squares,
        "strategies": strategies,
        "unit": page.unit,
        "confidence": page.confidence,
    }
    return templates().get_template("analysis.html.j2").render(context)
