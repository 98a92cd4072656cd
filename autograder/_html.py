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
import re
import statistics
import urllib.parse
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ._assignments import Assignment
from ._boards import board_family
from ._boards._picture import BoardPicture
from ._errors import BoardError
from ._files import sync_folders, write_atomic
from ._plain import printable, printable_lines
from ._reports import feedback_names, gradebook_status, score_buckets, tally_mistakes
from ._results import SubmissionResult, TestResult
from ._svg import Bar, Paint, bars_svg, board_svg, scale_fill, shared_drawings, templates
from ._texts import GENERIC_MISTAKES

__all__ = [
    "ERROR_TONES",
    "INDEX",
    "batch_html",
    "board_paint",
    "board_picture",
    "entry_place",
    "submission_fragment",
    "submission_html",
    "write_html_reports",
]

# How far a printed value is from the right one, relative to that value (at least 1): the
# colour class of its square, its fill, and the words of the legend.
ERROR_TONES: tuple[tuple[str, str, str], ...] = (
    ("right", "#cdebd3", "right"),
    ("off-1", "#fff1b8", "off by up to 2%"),
    ("off-2", "#ffc98a", "off by up to 10%"),
    ("off-3", "#ef8f7f", "off by more"),
    ("unread", "#d9d9d9", "not a number"),
)
_FILL = {tone: fill for tone, fill, _ in ERROR_TONES}
_GOAL_FILL = "#e8e2f4"
INDEX = "index.html"
_KEY = re.compile(r"(\d+)(?:@(\d+))?(?::(\w+))?")


def entry_place(key: str) -> tuple[int, int | None, bool] | None:
    """Where entry ``key`` is drawn: ``(square, table, is an action)``; ``table`` is the
    tokens left (``"12@2"``), ``None`` for a board with one table. ``None`` for the start
    entry, which is drawn on the start square when no entry of its own is there."""
    match = _KEY.fullmatch(key)
    if match is None:
        return None
    tokens = match.group(2)
    return int(match.group(1)), None if tokens is None else int(tokens), bool(match.group(3))


def _places(value: float | None, tolerance: float) -> str:
    return "-" if value is None else f"{value:.{2 if tolerance >= 0.005 else 4}f}"


def _value_paint(square: int, record: Sequence[Any]) -> Paint:
    printed, expected, tolerance, wrong = record
    shown = _places(expected, tolerance)
    if printed is None:
        return Paint("unread", _FILL["unread"], f"square {square}: printed no number; "
                     f"expected {shown}")  # fmt: skip
    if isinstance(printed, str):  # nan, inf
        return Paint("unread", _FILL["unread"], f"square {square}: printed {printed}, "
                     f"expected {shown}", text=printed)  # fmt: skip
    error = printed - expected
    if not wrong:
        tone = "right"
    else:
        share = abs(error) / max(1.0, abs(expected))
        tone = "off-1" if share <= 0.02 else "off-2" if share <= 0.10 else "off-3"
    how = (
        "right"
        if not wrong
        else f"{_places(abs(error), tolerance)} too {'high' if error > 0 else 'low'}"
    )
    title = f"square {square}: printed {_places(printed, tolerance)}, expected {shown} ({how})"
    return Paint(tone, _FILL[tone], title, text=_places(printed, tolerance))


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
            base = paint.get(square) or Paint("plain", "#ffffff", f"square {square}")
            title = f"{base.title}; action printed {said}, best {best}"
            paint[square] = Paint(base.tone, base.fill, title, base.text,
                                  note="" if printed is None else printed,
                                  flag="wrong-action" if wrong else "")  # fmt: skip
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


def _marks(picture: BoardPicture) -> str:
    """What the letters on the squares mean, for a caption."""
    if not picture.legend:
        return ""
    return "; " + ", ".join(f"{mark}: {words}" for mark, words in picture.legend)


def _table_caption(table: int | None) -> str:
    if table is None:
        return "each square's colour: how far your value is from the right one"
    return f"with {table} token{'s' if table != 1 else ''} left"


def _visible_board(test: TestResult, assignment: Assignment, ident: str) -> dict[str, Any]:
    pictures = []
    note = ""
    if test.board and test.entries:
        picture, note = board_picture(assignment, test.board)
        if picture is not None:
            start = picture.places[0].square
            painted = board_paint(test.entries, start, _goal(picture))
            tables = sorted(painted, key=lambda t: -1 if t is None else -t)
            for k, table in enumerate(tables):
                caption = _table_caption(table)
                svg = board_svg(picture, painted[table], ident=f"{ident}-{k}", caption=caption)
                pictures.append({"svg": svg, "caption": caption + _marks(picture)})
    elif test.status not in ("passed", "partial", "wrong"):
        note = "no values to draw: the program gave no answer on this board"
    return {
        "title": test.title,
        "score": f"{test.score:.2f} of {test.max_score:.2f}",
        "pictures": pictures,
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
            "score": f"{test.score:.2f} of {test.max_score:.2f}",
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
        "legend": ERROR_TONES,
    }


def submission_html(
    result: SubmissionResult,
    assignment: Assignment,
    descriptions: Mapping[str, str] | None = None,
) -> str:
    """The student's report, a whole page."""
    context = _context(result, assignment, descriptions)
    return templates().get_template("submission.html.j2").render(context)


def submission_fragment(
    result: SubmissionResult,
    assignment: Assignment,
    descriptions: Mapping[str, str] | None = None,
) -> str:
    """The report of the visible boards as a piece of a page: what Gradescope shows above
    the tests, which carry the feedback, each at its own visibility."""
    context = _context(result, assignment, descriptions, visible_only=True)
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


def _heat_paint(
    wrong: Mapping[str, int], read: int, keys: Sequence[str], start: int, goal: int
) -> tuple[dict[int | None, dict[int, Paint]], dict[int, Paint]]:
    """The share of students who got each square's value wrong (a table per token count),
    and the share who got its action wrong."""
    values: dict[int | None, dict[int, Paint]] = {}
    actions: dict[int, Paint] = {}
    for key in keys:
        place = entry_place(key)
        if key == "start":
            place = (start, None, False)
        if place is None:
            continue
        square, table, is_action = place
        count = wrong.get(key, 0)
        share = count / read if read else 0.0
        tone = f"heat-{min(5, math.ceil(share * 5))}"
        what = "action" if is_action else "value"
        paint = Paint(tone, scale_fill(share, "#ffffff", "#b0281a"),
                      f"square {square}: {count} of {read} students got its {what} wrong",
                      text=f"{100 * share:.0f}%")  # fmt: skip
        if is_action:
            actions[square] = paint
        elif not (key == "start" and square in values.get(table, {})):
            values.setdefault(table, {})[square] = paint
    layered = [table for table in values if table is not None]
    if layered and None in values:  # the start's value is the table of the most tokens'
        top = values[max(layered)]
        for square, paint in values.pop(None).items():
            top.setdefault(square, paint)
    for painted in (*values.values(), actions):
        painted[goal] = Paint("goal", _GOAL_FILL, f"square {goal}: the goal")
    return values, actions


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
            # (the gradebook's columns name the boards: "edge board 1" is no-jumps there)
            title = (
                f"each student's own board ({test.name})"
                if own
                else (test.title if test.name in test.title else f"{test.title} ({test.name})")
            )
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
        if picture is not None:
            start, goal = picture.places[0].square, _goal(picture)
            values, actions = _heat_paint(wrong, read, list(first.entries), start, goal)
            tables = sorted(values, key=lambda t: -1 if t is None else -t)
            for k, table in enumerate(tables):
                caption = (
                    "values"
                    if table is None
                    else (f"values with {table} token{'' if table == 1 else 's'} left")
                )
                caption += _marks(picture)
                heat_maps.append({"caption": caption, "svg": board_svg(
                    picture, values[table], ident=f"heat-{k}", caption=caption)})  # fmt: skip
            if any(p.tone != "goal" for p in actions.values()):
                heat_maps.append({"caption": "actions", "svg": board_svg(
                    picture, actions, ident="heat-actions", caption="actions")})  # fmt: skip
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
        "maximum": f"{maximum:g}",
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
