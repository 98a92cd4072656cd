"""Reports to look at: one self-contained HTML page per submission (its board painted by
how far each printed value is from the right one) and one per batch (``index.html``: the
scores, the boards passed, the mistakes, which squares the class got wrong).

Everything is drawn from the results alone (``TestResult.board`` and ``.entries`` carry
what a visible board needs), so a report can be written long after grading, from
``results.jsonl``. Inline SVG and CSS, no script, nothing fetched.
"""

from __future__ import annotations

import json
import math
import statistics
import urllib.parse
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import _formats
from ._assignments import Assignment
from ._boards import board_family
from ._boards._picture import BoardPicture
from ._errors import BoardError
from ._files import sync_folders, write_atomic
from ._plain import printable, printable_lines
from ._reports import (
    board_label,
    feedback_names,
    gradebook_status,
    points,
    score_buckets,
    tally_mistakes,
)
from ._results import SubmissionResult, TestResult
from ._svg import (
    ARROW_COLOURS,
    FLAG_STROKE,
    Bar,
    Paint,
    bars_svg,
    board_svg,
    pairs_svg,
    shared_drawings,
    templates,
)
from ._texts import GENERIC_MISTAKES

__all__ = [
    "ERROR_STEPS",
    "ERROR_TONES",
    "HEAT_FILLS",
    "HEAT_NOBODY",
    "INDEX",
    "batch_html",
    "board_paint",
    "board_picture",
    "drawn_keys",
    "entry_place",
    "error_legend",
    "error_tone",
    "heat_band",
    "heat_legend",
    "heat_range",
    "legend_swatch",
    "legend_words",
    "relative_error",
    "submission_fragment",
    "submission_html",
    "write_html_reports",
]

# How far a wrong value is from the right one: its error relative to the right value (to 1
# where the right value is smaller, so that a value near 0 is not called far off for a
# rounding), in steps, each holding the errors under its bound and at or above the one
# before. A value within the assignment's tolerance is right whatever its error. Every board
# of a student's page (``check --html``, the batch's pages, Gradescope's) is painted on these
# steps, and its legend names them: (colour class, fill, bound, words).
ERROR_STEPS: tuple[tuple[str, str, float, str], ...] = (
    # Pale yellow to raspberry: the darkest still light enough for the numbers on it.
    ("off-1", "#fff5bf", 0.01, "off by under 1%"),
    ("off-2", "#fedb7a", 0.05, "1% to under 5%"),
    ("off-3", "#fdae61", 0.10, "5% to under 10%"),
    ("off-4", "#f67e58", 0.25, "10% to under 25%"),
    ("off-5", "#e0546f", math.inf, "25% or more"),
)
# Every colour a value's square can take, in the legend's order: (class, fill, words).
ERROR_TONES: tuple[tuple[str, str, str], ...] = (
    ("right", "#cdebd3", "right (within the tolerance)"),
    *((tone, fill, words) for tone, fill, _, words in ERROR_STEPS),
    ("unread", "#d9d9d9", "not a number (nan, inf, or nothing printed)"),
)
_FILL = {tone: fill for tone, fill, _ in ERROR_TONES}
_GOAL_FILL = "#e8e2f4"
_PLAIN_FILL = "#ffffff"  # a square with no entry (the start, in token-boosted's lower tables)
# The class heat map's colours, lightest first: no student got the square wrong, then five
# equal bands from the fewest students who got some square of the map wrong to the most.
# Blues: apart from the arrows (red chutes, green ladders) and from the error scale of the
# students' pages, and light enough at the dark end for the numbers on them.
HEAT_NOBODY = "#ffffff"
HEAT_FILLS = ("#d6e6f4", "#abcfe5", "#82badb", "#5aa2cf", "#3a87c0")
# A square of a heat map with nothing graded on it (the start, on the actions' map): grey,
# apart from the white of a square no student got wrong.
HEAT_UNGRADED = "#eeeeee"
# What each kind of arrow stands for, in a legend.
_ARROW_WORDS = {
    "chute": "a chute: the piece slides down",
    "ladder": "a ladder: the piece climbs up",
    "lane": "the way on: from the junction to the fast lane, and from each lane's end",
    "circle": "the way round: past the goal, on to square 1",
}
INDEX = "index.html"


def entry_place(key: str) -> tuple[int, int | None, bool] | None:
    """Where entry ``key`` is drawn: ``(square, table, is an action)``, as the print format
    that made the key says (``None`` for the start entry, which is drawn on the start square
    when no entry of its own is there, and for entries of no square)."""
    return _formats.entry_place(key)


def _places(value: float | None, tolerance: float) -> str:
    return "-" if value is None else f"{value:.{2 if tolerance >= 0.005 else 4}f}"


def relative_error(printed: float, expected: float) -> float:
    """How far ``printed`` is from ``expected``, as a share of ``expected`` (of 1 where
    ``expected`` is nearer 0): what the colour steps (``ERROR_STEPS``) go by."""
    return abs(printed - expected) / max(1.0, abs(expected))


def error_tone(share: float) -> str:
    """The colour class of a wrong value whose relative error is ``share``: the first step
    whose bound ``share`` is under."""
    return next(tone for tone, _, bound, _ in ERROR_STEPS if share < bound)


def _percent(share: float) -> str:
    """A relative error in words: whole percents from 10%, finer below, so that an error
    under 1% never reads as 0%."""
    return f"{100 * share:.{0 if share >= 0.1 else 1 if share >= 0.01 else 2}f}%"


def _value_paint(square: int, record: Sequence[Any]) -> Paint:
    printed, expected, tolerance, wrong = record
    shown = _places(expected, tolerance)
    # The right value, drawn under a wrong one: what a student compares without hovering.
    right = f"\u2192 {shown}"
    if printed is None:
        return Paint("unread", _FILL["unread"], f"square {square}: printed no number; "
                     f"expected {shown}", expected=right)  # fmt: skip
    if isinstance(printed, str):  # nan, inf
        return Paint("unread", _FILL["unread"], f"square {square}: printed {printed}, "
                     f"expected {shown}", text=printed, expected=right)  # fmt: skip
    error = printed - expected
    text = _places(printed, tolerance)
    if not wrong:
        title = f"square {square}: printed {text}, expected {shown} (right)"
        return Paint("right", _FILL["right"], title, text=text)
    share = relative_error(printed, expected)
    tone = error_tone(share)
    side = "high" if error > 0 else "low"
    how = f"{_places(abs(error), tolerance)} too {side}, off by {_percent(share)}"
    title = f"square {square}: printed {text}, expected {shown} ({how})"
    return Paint(tone, _FILL[tone], title, text=text, expected=right)


def board_paint(
    entries: Mapping[str, Sequence[Any]], start: int, goal: int | None
) -> dict[int | None, dict[int, Paint]]:
    """Each table's squares painted by ``TestResult.entries``: a value's square by its
    error, with the printed action under it (outlined when it is counted wrong).
    ``start``: the square the start entry belongs to; ``goal``: the goal square, if the
    board has one (it is never printed)."""
    values: dict[int | None, dict[int, Sequence[Any]]] = {}
    actions: dict[int, Sequence[Any]] = {}
    for key, record in entries.items():
        place = entry_place(key)
        if place is None:
            continue
        square, table, is_action = place
        if is_action:
            actions[square] = record
        else:
            values.setdefault(table, {})[square] = record
    if not values:
        values[None] = {}
    top = max((t for t in values if t is not None), default=None)
    if "start" in entries and start not in values[top]:
        values[top][start] = entries["start"]
    painted: dict[int | None, dict[int, Paint]] = {}
    for table, records in values.items():
        paint = {square: _value_paint(square, record) for square, record in records.items()}
        for square, (text, accepted, wrong) in actions.items():
            printed = None if text is None else printable(text)  # the program's own text
            best = " or ".join(accepted) or "-"
            said = "nothing" if printed is None else printed
            base = paint.get(square) or Paint("plain", _PLAIN_FILL, f"square {square}")
            title = f"{base.title}; action printed {said}, best {best}"
            note = "" if printed is None else printed
            if wrong:  # what to print instead, readable without hovering: "2→5"
                note = f"{note}\u2192{accepted[0] if accepted else '-'}"
            paint[square] = Paint(base.tone, base.fill, title, base.text, note=note,
                                  flag="wrong-action" if wrong else "",
                                  expected=base.expected)  # fmt: skip
        if goal is not None:
            paint[goal] = Paint("goal", _GOAL_FILL, f"square {goal}: the goal")
        painted[table] = paint
    return painted


def board_picture(
    assignment: Assignment, board: Mapping[str, Any]
) -> tuple[BoardPicture | None, str]:
    """The assignment's board (a board file's data) laid out, or ``None`` and why not.
    Kept per board: a batch draws the public board once for every student's page."""
    return _laid_out(assignment.family, json.dumps(board, sort_keys=True))


@lru_cache(maxsize=64)
def _laid_out(family_name: str, board: str) -> tuple[BoardPicture | None, str]:
    family = board_family(family_name)
    try:
        loaded = family.parse(json.loads(board), "board")
    except BoardError as err:  # a results file edited by hand, or from another version
        return None, f"the board cannot be drawn: {err}"
    picture = family.picture(loaded.board, loaded.params)
    if picture is None:
        return None, "this board is too large to draw square by square"
    return picture, ""


def _goal(picture: BoardPicture) -> int:
    return max(place.square for place in picture.places)


# --- legends: every colour, arrow, letter and number a picture shows, in words ------------


# A legend (``templates/_legend.html.j2``) is a list of rows, each ``{"label": words,
# "parts": [...]}``; a part is a colour swatch, an arrow or words, made by the three below.


def legend_swatch(
    fill: str, words: str, tone: str = "", border: str = "1px solid #999"
) -> dict[str, str]:
    """A colour and what it means; ``tone`` the class of the squares it paints."""
    return {"kind": "swatch", "fill": fill, "words": words, "tone": tone, "border": border}


def legend_words(words: str) -> dict[str, str]:
    return {"kind": "text", "words": words}


def drawn_keys(picture: BoardPicture) -> list[dict[str, Any]]:
    """The legend's rows for what the board itself draws: its kinds of arrow (in a fixed
    order, those it has) and the letters on its squares."""
    rows: list[dict[str, Any]] = []
    kinds = [kind for kind in ARROW_COLOURS if any(a.kind == kind for a in picture.arrows)]
    if kinds:
        arrows = [{"kind": "arrow", "colour": ARROW_COLOURS[kind], "words": _ARROW_WORDS[kind]}
                  for kind in kinds]  # fmt: skip
        rows.append({"label": "Arrows", "parts": arrows})
    if picture.legend:
        letters = [legend_words(f"{mark}: {words}") for mark, words in picture.legend]
        rows.append({"label": "Letters", "parts": letters})
    return rows


def _starts_off_the_board(picture: BoardPicture) -> bool:
    """Whether the picture has the jump boards' square 0: the start, before square 1."""
    return picture.places[0].square == 0


def error_legend(picture: BoardPicture, actions: bool, plain: bool = False) -> list[dict[str, Any]]:
    """The legend of a student's board: what is drawn on a square, each colour of the error
    scale (all of its steps, used or not, so that every board reads the same), the goal,
    the arrows and the letters. ``actions``: the board shows a printed action per square;
    ``plain``: some square of it has no entry (left white)."""
    parts = [
        "its number (top left)",
        "the value printed (middle)",
        "where that value is wrong, the right one under it, after \u2192",
    ]
    if actions:
        parts.append(
            "at the foot, the action printed; where it is not a best one, the square is "
            "outlined in dark blue and a best action follows the \u2192"
        )
    if picture.legend:
        parts.append("top right, the letter of a trap")
    reading = "; ".join(parts) + "."
    if _starts_off_the_board(picture):
        reading += (" Square 0, off the board, is the start: it shows the value printed for "
                    "the whole game.")  # fmt: skip
    colours = [legend_swatch(fill, words, tone) for tone, fill, words in ERROR_TONES]
    colours.append(legend_swatch(_GOAL_FILL, "the goal (no value printed)", "goal"))
    if plain:
        colours.append(legend_swatch(_PLAIN_FILL, "no entry for this square here", "plain"))
    if actions:
        colours.append(
            legend_swatch("#ffffff", "a wrong action", "wrong-action", f"3px solid {FLAG_STROKE}")
        )
    rows = [
        {"label": "On a square", "parts": [legend_words(reading)]},
        {"label": "Colour: how far the value printed is from the right one", "parts": colours},
    ]
    return rows + drawn_keys(picture)


def _shows_actions(entries: Mapping[str, Any]) -> bool:
    """Whether some entry is a printed action (drawn at the foot of its square)."""
    return any(place[2] for place in map(entry_place, entries) if place is not None)


def _table_caption(table: int | None) -> str:
    if table is None:
        return "each square coloured by how far the value printed is from the right one"
    return _formats.table_caption(table)


def _pair_cells(entries: Mapping[str, Sequence[Any]]) -> list[list[tuple[str, str]]]:
    """Entries of pairs of squares (a game of two pieces) as a map's cells, each painted by
    its error as a square would be; ``[]`` where the answer has none."""
    placed = {pair: record for key, record in entries.items()
              if (pair := _formats.entry_pair(key)) is not None}  # fmt: skip
    if not placed:
        return []
    n = 1 + max(max(pair) for pair in placed)
    cells = [[(_PLAIN_FILL, f"{a}, {b}: no entry") for b in range(n)] for a in range(n)]
    for (a, b), record in placed.items():
        paint = _value_paint(a, record)
        cells[a][b] = (paint.fill, paint.title.replace(f"square {a}:", f"{a}, {b}:", 1))
    return cells


def _pair_legend() -> list[dict[str, Any]]:
    """The legend of a map of pairs: what a cell is, and the error scale's colours."""
    return [
        {"label": "A cell", "parts": [legend_words(
            "a pair of squares: the player to move on the square down the side, the other "
            "player on the square across the top; hover over it for the value printed and "
            "the right one")]},
        {"label": "Colour: how far the value printed is from the right one",
         "parts": [legend_swatch(fill, words, tone) for tone, fill, words in ERROR_TONES]},
    ]  # fmt: skip


def _visible_board(test: TestResult, assignment: Assignment, ident: str) -> dict[str, Any]:
    pictures = []
    legend: list[dict[str, Any]] = []
    note = ""
    pairs = _pair_cells(test.entries)
    if pairs:
        caption = "each pair of squares coloured by how far the value printed is from the right one"
        svg = pairs_svg(pairs, caption=caption, rows="the square of the player to move",
                        columns="the other player's square")  # fmt: skip
        pictures.append({"svg": svg, "caption": caption})
        legend = _pair_legend()
    elif test.board and test.entries:
        picture, note = board_picture(assignment, test.board)
        if picture is not None:
            start = picture.places[0].square
            painted = board_paint(test.entries, start, _goal(picture))
            tables = sorted(painted, key=lambda t: -1 if t is None else -t)
            for k, table in enumerate(tables):
                caption = _table_caption(table)
                svg = board_svg(picture, painted[table], ident=f"{ident}-{k}", caption=caption)
                pictures.append({"svg": svg, "caption": caption})
            # (a square some table leaves out is drawn plain, and the legend says so)
            plain = any(p.square not in paint for paint in painted.values() for p in picture.places)
            legend = error_legend(picture, _shows_actions(test.entries), plain)
    elif test.status not in ("passed", "partial", "wrong"):
        note = "no values to draw: the program gave no answer on this board"
    return {
        "title": test.title,
        "score": points(test.score, test.max_score),
        "pictures": pictures,
        "legend": legend,
        "note": note,
        "feedback": test.feedback,
    }


def _verdict(result: SubmissionResult) -> str:
    if result.status != "graded":
        return "Your submission could not be graded: see the problem below."
    if result.passed:
        return "Every board is right."
    right = sum(t.status == "passed" for t in result.tests)
    return f"{right} of {len(result.tests)} boards right: what is wrong is shown below."


_STATUS_WORDS = {"passed": "right", "partial": "partly right", "wrong": "wrong"}


def _context(
    result: SubmissionResult,
    assignment: Assignment,
    descriptions: Mapping[str, str] | None,
    visible_only: bool = False,
) -> dict[str, Any]:
    """What the submission templates show. ``visible_only``: nothing of a hidden board (not
    even that it exists, nor the total it counts in) and no feedback lines, which the page
    around it shows (Gradescope's tests, each at its own visibility)."""
    words = {**GENERIC_MISTAKES, **(descriptions or {})}
    headline: list[str] = []
    tests = [t for t in result.tests if t.visible or not visible_only]
    for test in tests:
        for name in test.mistakes:
            line = f"Your answer looks like: {words.get(name, name)}"
            if line not in headline:
                headline.append(line)
    for test in result.tests:
        if test.visible:
            headline += [line for line in test.feedback if line.startswith("policy:")]
    boards = [
        _visible_board(test, assignment, f"board-{k}")
        for k, test in enumerate(result.tests)
        if test.visible
    ]
    if visible_only:
        boards = [{**board, "feedback": ()} for board in boards]
    hidden = [
        {
            "title": test.title,
            "status": _STATUS_WORDS.get(test.status, test.status.replace("-", " ")),
            "tone": "passed" if test.status == "passed" else
                    "partial" if test.status == "partial" else "failed",
            "score": points(test.score, test.max_score),
            "feedback": test.feedback,
        }
        for test in tests
        if not test.visible
    ]  # fmt: skip
    return {
        "page_title": f"{assignment.title}: {printable(result.student)}",
        "assignment_title": assignment.title,
        # A student id and a problem quoting a file name are the student's to choose: shown
        # escaped as in the text reports (a name from undecodable bytes has no UTF-8 form).
        "student": printable(result.student),
        "score": "" if visible_only else f"{result.score:.2f}",
        "max_score": f"{result.max_score:.2f}",
        "passed": result.passed,
        "verdict": "" if visible_only else _verdict(result),
        "headline": headline,
        "problems": [printable_lines(p) for p in result.problems],
        "boards": boards,
        "hidden": hidden,
    }


def submission_html(
    result: SubmissionResult,
    assignment: Assignment,
    descriptions: Mapping[str, str] | None = None,
    *,
    score_label: str = "score",
) -> str:
    """The student's report, a whole page; ``score_label`` words the total, as the text
    feedback does (``check`` says which boards it counts)."""
    context = {**_context(result, assignment, descriptions), "score_label": score_label}
    return templates().get_template("submission.html.j2").render(context)


def submission_fragment(
    result: SubmissionResult,
    assignment: Assignment,
    descriptions: Mapping[str, str] | None = None,
) -> str:
    """The report of the visible boards as a piece of a page: what Gradescope shows above
    the tests, which carry the feedback, each at its own visibility."""
    context = {**_context(result, assignment, descriptions, visible_only=True),
               "score_label": "score"}  # fmt: skip
    return templates().get_template("fragment.html.j2").render(context)


# --- the batch ---------------------------------------------------------------------------


def _heat(
    results: Sequence[SubmissionResult], name: str, board: Mapping[str, Any]
) -> tuple[dict[str, int], int, int]:
    """``(students who got each entry wrong, students whose answer on the visible board
    ``name`` was read, of them those graded on another board)``."""
    wrong: dict[str, int] = {}
    read = other = 0
    for result in results:
        for test in result.tests:
            if test.name != name or not test.entries:
                continue
            read += 1
            other += test.board != board
            for key, record in test.entries.items():
                if record[-1]:
                    wrong[key] = wrong.get(key, 0) + 1
    return wrong, read, other


def _heat_counts(
    wrong: Mapping[str, int], keys: Sequence[str], start: int
) -> tuple[dict[int | None, dict[int, int]], dict[int, int]]:
    """How many students got each square wrong: per value table (``None`` on a board with
    one table; the start's value on the table of the most tokens) and for the actions."""
    values: dict[int | None, dict[int, int]] = {}
    actions: dict[int, int] = {}
    for key in keys:
        place = (start, None, False) if key == "start" else entry_place(key)
        if place is None:
            continue
        square, table, is_action = place
        if is_action:
            actions[square] = wrong.get(key, 0)
        elif not (key == "start" and square in values.get(table, {})):
            values.setdefault(table, {})[square] = wrong.get(key, 0)
    layered = [table for table in values if table is not None]
    if layered and None in values:  # the start's value is the table of the most tokens'
        top = values[max(layered)]
        for square, count in values.pop(None).items():
            top.setdefault(square, count)
    return values, actions


def heat_range(counts: Iterable[int]) -> tuple[int, int]:
    """The fewest and the most students who got some square of a map wrong, among the
    squares someone got wrong (``(0, 0)`` when no one got any wrong)."""
    some = [count for count in counts if count > 0]
    return (min(some), max(some)) if some else (0, 0)


def heat_band(count: int, low: int, high: int) -> int:
    """The colour band of a square ``count`` students got wrong, on a map whose squares
    range from ``low`` to ``high`` such students: 0 when no one did, else 1..5, five equal
    bands from ``low`` to ``high`` (the map's own range, so the bands show where the class
    differs even where every square was missed by many); 5 when they all had as many."""
    bands = len(HEAT_FILLS)
    if count <= 0:
        return 0
    if high <= low:
        return bands
    return 1 + min(bands - 1, bands * (count - low) // (high - low))


def _students(low: int, high: int, read: int) -> str:
    """``2-3 of 30 students (7-10%)``: a count, or a range of counts, out of ``read``."""

    def share(count: int) -> str:
        return f"{100 * count / read:.0f}%"

    if low == high:
        return f"{low} of {read} students ({share(low)})"
    return f"{low}\u2013{high} of {read} students ({share(low)}\u2013{share(high)})"


def heat_legend(
    picture: BoardPicture, counts: Mapping[int, int], read: int
) -> list[dict[str, Any]]:
    """The legend of a class heat map (``counts``: students who got each square wrong):
    what a square shows, the map's scale (the counts of students each band holds, from the
    fewest to the most on this map), the goal, the arrows and the letters."""
    reading = "its number (top left) and the share of the students who got it wrong (middle)."
    label, colours = _heat_colours(counts, read)
    colours.append(legend_swatch(_GOAL_FILL, "the goal", "goal"))
    if _ungraded(picture, counts):
        colours.append(legend_swatch(HEAT_UNGRADED, "nothing graded on this square", "plain"))
    rows = [
        {"label": "On a square", "parts": [legend_words(reading)]},
        {"label": label, "parts": colours},
    ]
    return rows + drawn_keys(picture)


def _heat_colours(counts: Mapping[Any, int], read: int) -> tuple[str, list[dict[str, str]]]:
    """A class heat map's scale: what its colours say, and a swatch for each."""
    low, high = heat_range(counts.values())
    colours = [legend_swatch(HEAT_NOBODY, "no student", "heat-0")]
    if high == 0:
        label = "Colour: no student got any square of this map wrong"
    elif high == low:
        label = f"Colour: every square someone got wrong, {_students(low, high, read)}"
        colours.append(
            legend_swatch(HEAT_FILLS[-1], _students(low, high, read), f"heat-{len(HEAT_FILLS)}")
        )
    else:
        label = (
            "Colour: five equal bands from the fewest students who got a square of this map "
            f"wrong ({low}) to the most ({high}), of the {read} whose answer was read"
        )
        for band, fill in enumerate(HEAT_FILLS, start=1):
            held = [n for n in range(low, high + 1) if heat_band(n, low, high) == band]
            if held:  # (a narrow range leaves some bands without a whole count)
                colours.append(
                    legend_swatch(fill, _students(held[0], held[-1], read), f"heat-{band}")
                )
    return label, colours


def _pair_heat(wrong: Mapping[str, int], keys: Sequence[str], read: int) -> dict[str, Any] | None:
    """The class heat map of an answer over pairs of squares (two pieces): each pair coloured by
    the band of the students who got it wrong; ``None`` where the answer has no pairs."""
    placed = {pair: key for key in keys if (pair := _formats.entry_pair(key)) is not None}
    if not placed:
        return None
    counts = {pair: wrong.get(key, 0) for pair, key in placed.items()}
    low, high = heat_range(counts.values())
    n = 1 + max(max(pair) for pair in placed)
    cells = [[(_PLAIN_FILL, f"{a}, {b}: nothing graded") for b in range(n)] for a in range(n)]
    for (a, b), count in counts.items():
        band = heat_band(count, low, high)
        fill = HEAT_NOBODY if band == 0 else HEAT_FILLS[band - 1]
        cells[a][b] = (fill, f"{a}, {b}: {count} of {read} students got it wrong")
    caption = "values: how many students got each pair of squares wrong"
    mover, other = "the square of the player to move", "the other player's square"
    label, colours = _heat_colours(counts, read)
    legend = [
        {"label": "A cell", "parts": [legend_words(
            f"a pair of squares: {mover} down the side, {other} across the top; hover over "
            "it for the count")]},
        {"label": label, "parts": colours},
    ]  # fmt: skip
    svg = pairs_svg(cells, caption=caption, rows=mover, columns=other)
    return {"caption": caption, "legend": legend, "svg": svg}


def _ungraded(picture: BoardPicture, counts: Mapping[int, int]) -> list[int]:
    """The squares of a heat map with nothing graded on them (neither counted nor goal)."""
    goal = _goal(picture)
    return [p.square for p in picture.places if p.square not in counts and p.square != goal]


def _heat_paint(
    picture: BoardPicture, counts: Mapping[int, int], read: int, what: str
) -> dict[int, Paint]:
    """A heat map's squares: each coloured by its band (``heat_band``) on the map's own
    range, with the share of the students who got its ``what`` (value, action) wrong."""
    low, high = heat_range(counts.values())
    paint = {}
    for square, count in counts.items():
        band = heat_band(count, low, high)
        share = count / read if read else 0.0
        fill = HEAT_NOBODY if band == 0 else HEAT_FILLS[band - 1]
        paint[square] = Paint(f"heat-{band}", fill,
                              f"square {square}: {count} of {read} students got its {what} wrong",
                              text=f"{100 * share:.0f}%")  # fmt: skip
    for square in _ungraded(picture, counts):
        paint[square] = Paint("plain", HEAT_UNGRADED, f"square {square}: nothing graded here")
    goal = _goal(picture)
    paint[goal] = Paint("goal", _GOAL_FILL, f"square {goal}: the goal")
    return paint


def batch_html(
    results: Sequence[SubmissionResult],
    assignment: Assignment,
    descriptions: Mapping[str, str] | None = None,
    links: Mapping[str, str] | None = None,
) -> str:
    """``index.html``: the class at a glance, with a link to each student's report
    (``links``: student -> file name, relative to the page)."""
    maximum = max((r.max_score for r in results), default=0.0)
    scores = [r.score for r in results]
    buckets = score_buckets(scores, maximum)
    bars = [
        Bar(count, "100%" if k == 10 else f"{10 * k}%",
            f"{count} students scored {'full marks' if k == 10 else f'{10 * k}-{10 * k + 9}%'}")
        for k, count in enumerate(buckets)
    ]  # fmt: skip
    histogram = bars_svg(bars, caption="score histogram", axis="share of the full score")
    graded = [r for r in results if r.status == "graded"]
    boards = []
    if graded:
        for test in graded[0].tests:
            outcomes = [t for r in graded for t in r.tests if t.name == test.name]
            passed = sum(t.status == "passed" for t in outcomes)
            share = passed / len(outcomes) if outcomes else 0.0
            # (one student's title, "your board (100 squares, 20 jumps)", is not the class's;
            # a run that gave no answer to mark has no board)
            own = len({json.dumps(t.board, sort_keys=True) for t in outcomes if t.board}) > 1
            # (named as the student reads it, with the gradebook's column where the title
            # does not say it: "edge board 1" is no-jumps there)
            title = f"each student's own board ({test.name})" if own else board_label(
                test.name, test.title)  # fmt: skip
            row = {"title": title, "passed": passed, "of": len(outcomes)}
            boards.append({**row, "percent": f"{100 * share:.0f}", "width": round(120 * share)})
    mistakes = [row for row in tally_mistakes(results, descriptions) if row.kind == "mistake"]
    heat_maps = []
    note = ""
    # The first board shown (the public board, or each student's own), where it was read.
    shown = next((t.name for r in results for t in r.tests if t.visible), None)
    first = next((t for r in results for t in r.tests if t.name == shown and t.entries), None)
    if first is not None:
        picture, note = board_picture(assignment, first.board)
        wrong, read, other = _heat(results, first.name, first.board)
        if other:
            # Square 37 of one board is not square 37 of another: no one picture is the
            # class's, and one student's board would show that student's jumps.
            picture, note = (
                None,
                (
                    f"{other} of {read} students were graded on boards of their own, so no one "
                    "board shows where the class went wrong; the mistakes recognised above count "
                    "every board."
                ),
            )
        pair_map = None if other else _pair_heat(wrong, list(first.entries), read)
        if pair_map is not None:
            heat_maps.append(pair_map)
        elif picture is not None:
            start = picture.places[0].square
            values, actions = _heat_counts(wrong, list(first.entries), start)
            maps = [
                ("values" if table is None else f"values {_formats.table_caption(table)}", "value",
                 values[table])
                for table in sorted(values, key=lambda t: -1 if t is None else -t)
            ]  # fmt: skip
            if actions:
                maps.append(("actions", "action", actions))
            for k, (caption, what, counts) in enumerate(maps):
                paint = _heat_paint(picture, counts, read, what)
                ident = "heat-actions" if what == "action" else f"heat-{k}"
                heat_maps.append({"caption": caption, "legend": heat_legend(
                    picture, counts, read), "svg": board_svg(
                    picture, paint, ident=ident, caption=caption)})  # fmt: skip
    students = []
    for r in sorted(results, key=lambda r: r.student):
        status, problems = gradebook_status(r)
        href = (links or {}).get(r.student)
        said = "; ".join(" ".join(printable_lines(p)) for p in problems)  # a line per cell
        students.append({"student": printable(r.student), "score": f"{r.score:.2f}",
                         "status": status, "problems": said,
                         "href": None if href is None else urllib.parse.quote(href)})  # fmt: skip
    context = {
        "page_title": f"{assignment.title}: {len(results)} submissions",
        "assignment_title": assignment.title,
        "count": len(results),
        "graded": len(graded),
        "full": sum(r.passed for r in results),
        "mean": f"{statistics.fmean(scores):.2f}" if scores else "-",
        "median": f"{statistics.median(scores):.2f}" if scores else "-",
        "maximum": f"{maximum:.2f}",
        "histogram": histogram,
        "boards": boards,
        "mistakes": mistakes,
        "heat_maps": heat_maps,
        "heat_note": note,
        "students": students,
    }
    return templates().get_template("batch.html.j2").render(context)


def write_html_reports(
    out: Path,
    results: Sequence[SubmissionResult],
    assignment: Assignment,
    descriptions: Mapping[str, str] | None = None,
    *,
    synced: bool = True,
    rendered: Mapping[str, tuple[SubmissionResult, str]] | None = None,
) -> list[str]:
    """``feedback/<student>.html`` beside each student's text feedback, and ``index.html``
    linking them, each replaced atomically. A report that cannot be written (or drawn) does
    not stop the others: what went wrong is returned, one line per file. ``synced=False``:
    the pages are not made durable here, for a caller that syncs the folders later (as
    ``write_reports`` does, before its gradebook): one flush for all the reports.
    ``rendered``: pages made already (``submission_html``), by student, each with the
    result it was made from; one is used only for that very result."""
    problems: list[str] = []
    names = {s: Path(n).with_suffix(".html").name for s, n in feedback_names(
        r.student for r in results).items()}  # fmt: skip
    links: dict[str, str] = {}
    with shared_drawings():  # most students' public boards look the same: drawn once
        for result in results:
            name = names[result.student]
            made = (rendered or {}).get(result.student)
            try:
                if made is not None and made[0] is result:
                    page = made[1]
                else:
                    page = submission_html(result, assignment, descriptions)
                write_atomic(out / "feedback" / name, page, synced=False)
            except (OSError, ValueError) as err:
                problems.append(f"report of {result.student} not written: {err}")
                continue
            links[result.student] = f"feedback/{name}"
    try:
        write_atomic(out / INDEX, batch_html(results, assignment, descriptions, links),
                     synced=False)  # fmt: skip
    except (OSError, ValueError) as err:
        problems.append(f"{INDEX} not written: {err}")
    if synced:
        sync_folders(out / "feedback", out)
    return problems
