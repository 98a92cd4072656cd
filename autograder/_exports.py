"""Gradebooks an LMS imports as they are, beside ``grades.csv``.

* **Canvas** (``grades-canvas.csv``), for the gradebook's import (Canvas's importer is
  instructure/canvas-lms ``lib/gradebook_importer.rb``). The header must start ``Student``,
  ``ID``; ``SIS User ID``, ``SIS Login ID`` may follow, in that order; ``Section`` ends the
  student columns; then one column per assignment. A row whose first cell holds ``Points
  Possible`` gives each column's points, and is no student. Canvas matches a row by ``ID``
  (its user id, read as an integer), else by ``SIS User ID``, else by ``SIS Login ID``, else
  by the name in ``Student`` as Canvas spells it; a row it cannot match is left out of the
  import. A column headed ``Title (<assignment id>)`` (``Assignment.title_and_id``) updates
  that assignment; without the id, the assignment of exactly that title, else a new one.
* **Moodle** (``grades-moodle.csv``): the assignment's offline grading worksheet (Moodle's
  importer is moodle/moodle ``mod/assign/feedback/offline/importgradeslib.php``). It needs
  the columns ``Identifier``, ``Grade`` and ``Last modified (grade)``, named as in the
  uploading user's language (English here); ``Identifier`` is ``Participant <number>``, the
  number Moodle's own download names carry. ``Last modified (grade)`` is read with PHP's
  ``strtotime``: Moodle skips a row whose grade was changed in Moodle more than a minute
  after that time, unless "ignore modified" is ticked. ``Feedback comments`` replaces each
  student's comment where that feedback plugin is on; other columns are ignored.

Rows follow ``grades.csv``, a row per student with the score with two decimals, but for
the students an LMS could match to no one (an id that is not its number, and for Canvas
no SIS id or name either): they are left out and the notes name them. Text goes through
``cell`` (a student chooses part of an LMS name, and of a roster's names).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ._errors import UsageError
from ._lms import BLACKBOARD, CANVAS, MOODLE
from ._plain import cell
from ._results import SubmissionResult
from ._roster import Roster, RosterStudent, read_roster

__all__ = [
    "CANVAS_FILE",
    "CANVAS_STUDENT_COLUMNS",
    "MOODLE_COLUMNS",
    "MOODLE_FILE",
    "canvas_gradebook",
    "canvas_notes",
    "lms_warnings",
    "moodle_gradebook",
    "moodle_notes",
    "roster_again",
]

CANVAS_FILE = "grades-canvas.csv"
MOODLE_FILE = "grades-moodle.csv"
# The student columns in the order Canvas's importer looks for them (the assignment's
# column follows).
CANVAS_STUDENT_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
# Moodle's English strings: mod/assign's 'recordid', core's 'fullname' and 'gradenoun',
# mod/assign's 'maxgrade' and 'lastmodifiedgrade', assignfeedback_comments' 'pluginname'.
# The importer requires the first, third and fifth, reads the last where that plugin is
# on, and ignores the others.
MOODLE_COLUMNS = ("Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)",
                  "Feedback comments")  # fmt: skip
# mod/assign's 'hiddenuser': the importer cuts this many characters off Identifier.
PARTICIPANT = "Participant "
# What Canvas's Assignment.title_and_id reads as a column naming its assignment.
_TITLE_AND_ID = re.compile(r"(?P<title>.*)\s\((?P<id>\d+)\)")
_SHOWN = 8  # ids named in one note, at most
# Canvas takes a row whose first cell holds this for its points row, not a student's
# (gradebook_importer.rb, check_for_non_student_row): a name that holds it is not written.
_POINTS_ROW = "points possible"


def _digits(text: str) -> bool:
    """Whether ``text`` is a number as both importers need it: ASCII digits alone. Canvas
    reads ``ID`` with Ruby's ``to_i``, which reads ``12_34`` as 1234 and ``7abc`` as 7, so
    any other id would land on whatever user has that number."""
    return text.isascii() and text.isdigit()


def _lms(result: SubmissionResult) -> str:
    """The LMS whose download named the student by the id the result carries (``grade``
    keeps it), or ``""``: a Canvas file's id is a Canvas user id, a Moodle folder's a
    participant number, and neither is the other's."""
    named = result.extra.get("lms")
    return named if isinstance(named, str) else ""


def _listed(ids: Sequence[str]) -> str:
    shown = ", ".join(repr(i) for i in ids[:_SHOWN])
    return shown + (f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else "")


@dataclass(frozen=True)
class _Found:
    row: RosterStudent | None
    ambiguous: str = ""  # why it was not found although the roster names it


class _RosterIndex:
    """The rows of a roster by what a submission may be named by, strongest first: the id
    the roster gives (Canvas's user id in Canvas's export), the SIS user id, the SIS login
    id, the email. A value two rows share matches neither; so does one that names one row
    at one level and another row at another (a Canvas user id equal to another student's
    SIS user id)."""

    def __init__(self, students: Iterable[RosterStudent]) -> None:
        self.levels: list[dict[str, list[RosterStudent]]] = []
        students = list(students)
        for field in ("id", "sis_user_id", "sis_login_id", "email"):
            by: dict[str, list[RosterStudent]] = {}
            for s in students:
                value = str(getattr(s, field)).casefold()
                if value:
                    by.setdefault(value, []).append(s)
            self.levels.append(by)

    def find(self, student: str, levels: int = 4) -> _Found:
        """The row ``student`` names, looked for at the first ``levels`` levels (1: the
        roster's id alone, for a Canvas user id)."""
        key = student.casefold()
        rows = {id(r): r for by in self.levels[:levels] for r in by.get(key, [])}
        if len(rows) == 1:
            return _Found(next(iter(rows.values())))
        if rows:
            lines = " and ".join(str(r.row) for r in sorted(rows.values(), key=lambda r: r.row))
            return _Found(None, ambiguous=f"the roster has it on rows {lines}")
        return _Found(None)


@dataclass(frozen=True)
class _CanvasRow:
    student: str
    name: str
    canvas_id: str
    sis_user_id: str
    sis_login_id: str
    section: str
    score: float
    found: _Found
    points_name: bool = False  # its name held "Points Possible", and is not written

    @property
    def lost(self) -> bool:
        """Whether Canvas has nothing but the name to match the row by."""
        return not (self.canvas_id or self.sis_user_id or self.sis_login_id)


def _canvas_rows(
    results: Sequence[SubmissionResult],
    names: Mapping[str, str] | None,
    roster: Sequence[RosterStudent],
) -> list[_CanvasRow]:
    index = _RosterIndex(roster) if roster else None
    rows = []
    for r in sorted(results, key=lambda r: r.student):
        lms = _lms(r)
        # A Canvas download's id is the student's Canvas user id: matched to the roster by
        # the roster's id alone, never by another student's SIS id that happens to equal it.
        levels = 1 if lms == CANVAS else 4
        found = index.find(r.student, levels) if index is not None else _Found(None)
        row = found.row
        sis = {row.sis_user_id.casefold(), row.sis_login_id.casefold()} - {""} if row else set()
        if lms == CANVAS:
            canvas_id = r.student if _digits(r.student) else ""
        elif lms in (MOODLE, BLACKBOARD):
            canvas_id = ""  # (another LMS's number: Canvas would read it as a user id)
        else:
            # An id the roster gives as an SIS id is one, even when it is digits: in ID,
            # Canvas would take it for a user id first.
            canvas_id = r.student if _digits(r.student) and r.student.casefold() not in sis else ""
        # The roster's name first: Canvas's own export writes the sortable name, which
        # Canvas matches on when nothing else does.
        name = row.name if row is not None and row.name else (names or {}).get(r.student, "")
        points_name = _POINTS_ROW in name.casefold()
        name = "" if points_name else name  # (Canvas would take it for its points row)
        rows.append(_CanvasRow(
            r.student, name, canvas_id, row.sis_user_id if row else "",
            row.sis_login_id if row else "", row.section if row else "", r.score, found,
            points_name,
        ))  # fmt: skip
    return rows


def canvas_gradebook(
    results: Sequence[SubmissionResult],
    column: str,
    names: Mapping[str, str] | None = None,
    roster: Sequence[RosterStudent] = (),
) -> str:
    """``grades-canvas.csv``: the student columns (SIS ids and section from ``roster``
    where a row of it is the student's), the ``Points Possible`` row, a row per student
    Canvas can match: one with nothing to match by, not even a name, is left out (Canvas
    would ask whose it is, with nothing to go by)."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([*CANVAS_STUDENT_COLUMNS, cell(column)])
    maximum = max((r.max_score for r in results), default=0.0)
    writer.writerow(["Points Possible", "", "", "", "", f"{maximum:g}"])
    for row in _canvas_rows(results, names, roster):
        if row.lost and not row.name:
            continue
        writer.writerow([cell(row.name), row.canvas_id, cell(row.sis_user_id),
                         cell(row.sis_login_id), cell(row.section),
                         f"{row.score:.2f}"])  # fmt: skip
    return text.getvalue()


def canvas_notes(
    results: Sequence[SubmissionResult],
    column: str,
    names: Mapping[str, str] | None = None,
    roster: Roster | None = None,
    column_given: bool = False,
) -> list[str]:
    """What the teaching assistant must know before importing ``grades-canvas.csv``: each
    row Canvas cannot match to a student (one line for the file when it can match none),
    the roster's rows left out, and a ``column_given`` that names no assignment id."""
    notes = [f"{CANVAS_FILE}: {problem}" for problem in (roster.problems if roster else ())]
    if column_given and not _TITLE_AND_ID.fullmatch(column):
        notes.append(
            f"{CANVAS_FILE}: the column {column!r} names no Canvas assignment id: Canvas "
            "updates the assignment of exactly that title, or else adds a new one; give "
            "--canvas-column as Canvas's own export heads it ('Homework 3 (4321)')"
        )
    rows = _canvas_rows(results, names, roster.students if roster else ())
    hijack = [row.student for row in rows if row.points_name]
    if hijack:
        notes.append(
            f"{CANVAS_FILE}: the names of {_listed(hijack)} hold 'Points Possible', "
            "which Canvas would take for its points row: written without a name"
        )
    lost = [row for row in rows if row.lost]
    if not lost:
        return notes
    if len(lost) == len(rows) and len(rows) > 1:
        source = (
            f"and the roster ({roster.source}) gave no SIS User ID or SIS Login ID for any"
            if roster else "and no roster (--roster) gave their SIS ids"
        )  # fmt: skip
        notes.append(
            f"{CANVAS_FILE}: Canvas can match none of the {len(rows)} students, but by a "
            f"name: no id is a Canvas user id (digits, as a Canvas download names files) "
            f"{source}, and those without a name are left out; grade with the roster "
            "Canvas exports (--roster), or enter the grades from grades.csv"
        )
        return notes
    for row in lost:
        if row.found.ambiguous:
            why = f"{row.found.ambiguous}, so it names neither"
        elif row.found.row is not None:
            why = f"its roster row ({row.found.row.row}) has no SIS User ID or SIS Login ID"
        elif roster is not None:
            why = "the roster has no row for it (by id, SIS User ID, SIS Login ID or email)"
        else:
            why = "no roster (--roster) gave its SIS ids"
        then = (
            f"Canvas can match the row only by the name {row.name!r}, if Canvas spells it so"
            if row.name else "left out, as Canvas could match it to no one"
        )  # fmt: skip
        notes.append(f"{CANVAS_FILE}: student {row.student!r} is not a Canvas user id (not "
                     f"all digits) and {why}: {then}")  # fmt: skip
    return notes


def _participant(result: SubmissionResult) -> bool:
    """Whether the result's id is a Moodle participant number: digits, from a Moodle
    download or a name of no LMS (never a Canvas user id or a Blackboard name)."""
    return _digits(result.student) and _lms(result) in ("", MOODLE)


def moodle_gradebook(
    results: Sequence[SubmissionResult],
    names: Mapping[str, str] | None = None,
    modified: datetime | None = None,
) -> str:
    """``grades-moodle.csv``: a row per student whose id is a Moodle participant number.
    ``Last modified (grade)`` is ``modified`` (default: now) in ISO 8601 with its offset,
    which ``strtotime`` reads whatever the server's time zone: Moodle then keeps a grade
    changed in Moodle after the file was written, unless told to ignore that."""
    when = (modified or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(MOODLE_COLUMNS)
    for r in sorted(results, key=lambda r: r.student):
        if not _participant(r):
            continue  # (no participant has it: moodle_notes says so)
        name = (names or {}).get(r.student, "")
        said = "graded by the autograder" if r.status == "graded" else "could not be graded"
        writer.writerow([cell(f"{PARTICIPANT}{r.student}"), cell(name), f"{r.score:.2f}",
                         f"{r.max_score:g}", when, said])  # fmt: skip
    return text.getvalue()


def moodle_notes(results: Sequence[SubmissionResult]) -> list[str]:
    """The students left out of ``grades-moodle.csv``, as one line (naming them when
    only some are)."""
    left = sorted(r.student for r in results if not _participant(r))
    if not left:
        return []
    digits = "(digits, as a Moodle download names folders)"
    if len(left) == len(results):
        return [f"{MOODLE_FILE}: no student id is a Moodle participant number {digits}, so "
                "no student has a row"]  # fmt: skip
    return [
        f"{MOODLE_FILE}: left out {len(left)} of {len(results)} students, whose ids are not "
        f"Moodle participant numbers {digits}: {_listed(left)}"
    ]


def lms_warnings(notes: Iterable[str]) -> list[str]:
    """The notes about the LMS gradebooks, which the command line also gives as warnings."""
    return [n for n in notes if n.startswith((f"{CANVAS_FILE}: ", f"{MOODLE_FILE}: "))]


def roster_again(source: str) -> tuple[Roster | None, list[str]]:
    """The roster a batch was graded with, read again from ``source`` (for ``--resume``
    and ``regrade``); when it cannot be, ``None`` and a note saying so."""
    try:
        return read_roster(source), []
    except UsageError as err:
        return None, [
            f"{CANVAS_FILE}: the roster the batch was graded with cannot be read now ({err}); "
            "SIS User ID, SIS Login ID and Section are left empty: give --roster"
        ]
