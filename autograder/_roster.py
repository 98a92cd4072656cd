"""Rosters: the CSV of students an instructor exports from a learning-management system.

A roster needs a column of student ids; names and emails are optional. Headers are matched
loosely, because every system spells them its own way (``SID``, ``Student ID``,
``Username``; ``Email``, ``E-mail address``; ``Name`` or ``First name`` + ``Last name``).
A bad row is reported with its row number and left out; the other rows stand.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ._errors import UsageError, read_text

__all__ = ["Roster", "RosterStudent", "read_roster"]

ID_HEADERS = ("id", "student id", "studentid", "student_id", "sid", "student number", "username",
              "login", "user id", "userid")  # fmt: skip
EMAIL_HEADERS = ("email", "e-mail", "email address", "e-mail address", "mail")
NAME_HEADERS = ("name", "full name", "student name", "student")
FIRST_HEADERS = ("first name", "first", "given name")
LAST_HEADERS = ("last name", "last", "surname", "family name")
# An id becomes a folder name and a key in JSON: keep it to what is safe everywhere.
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@dataclass(frozen=True)
class RosterStudent:
    id: str
    name: str = ""
    email: str = ""
    row: int = 0  # the line of the CSV file its row starts on


@dataclass(frozen=True)
class Roster:
    source: str
    students: tuple[RosterStudent, ...]
    problems: tuple[str, ...]


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    simple = [re.sub(r"[\s_]+", " ", h.strip().lower()) for h in header]
    for name in names:
        if name in simple:
            return simple.index(name)
    return None


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """Each CSV row with the line of the file it starts on. The csv module splits lines
    itself, so a quoted cell may hold a line break and no other character splits a row."""
    reader = csv.reader(io.StringIO(text, newline=""))
    rows, line = [], 1
    for row in reader:
        rows.append((line, row))
        line = reader.line_num + 1
    return rows


def read_roster(path: str | Path) -> Roster:
    """The students in a roster CSV, and one line per row that could not be used."""
    source = str(path)
    # utf-8-sig: spreadsheets often start the file with a byte-order mark.
    text = read_text(path, "roster file", encoding="utf-8-sig")
    rows = _rows(text)
    while rows and not any(cell.strip() for cell in rows[0][1]):
        rows.pop(0)
    if not rows:
        raise UsageError(
            source, "the roster is empty (expected a header row, then one row per student)"
        )
    header = rows[0][1]
    id_col = _column(header, ID_HEADERS)
    if id_col is None:
        raise UsageError(
            source,
            f"no student id column in the header {header!r} (name one 'id', 'sid', "
            "'student id' or 'username')",
        )
    email_col = _column(header, EMAIL_HEADERS)
    name_col = _column(header, NAME_HEADERS)
    first_col, last_col = _column(header, FIRST_HEADERS), _column(header, LAST_HEADERS)

    def cell(row: list[str], col: int | None) -> str:
        return row[col].strip() if col is not None and col < len(row) else ""

    students: list[RosterStudent] = []
    problems: list[str] = []
    first_row: dict[str, int] = {}
    emails: dict[str, int] = {}
    for line, row in rows[1:]:
        if not any(c.strip() for c in row):
            continue
        where = f"{source} row {line}"
        if len(row) > len(header):
            problems.append(f"{where}: {len(row)} cells for {len(header)} columns; row left out")
            continue
        student_id = cell(row, id_col)
        if not student_id:
            problems.append(f"{where}: no student id; row left out")
            continue
        if not _ID.fullmatch(student_id):
            problems.append(
                f"{where}: student id {student_id!r} has characters other than letters, "
                "digits and . _ @ + -; row left out"
            )
            continue
        if student_id.lower() in first_row:
            problems.append(
                f"{where}: duplicate student id {student_id!r} (first on row "
                f"{first_row[student_id.lower()]}); row left out"
            )
            continue
        email = cell(row, email_col)
        if email and not _EMAIL.fullmatch(email):
            problems.append(f"{where}: {email!r} is not an email address; row left out")
            continue
        if email and email.lower() in emails:
            problems.append(
                f"{where}: email {email!r} is already on row {emails[email.lower()]}; row left out"
            )
            continue
        name = cell(row, name_col) or " ".join(
            part for part in (cell(row, first_col), cell(row, last_col)) if part
        )
        first_row[student_id.lower()] = line
        if email:
            emails[email.lower()] = line
        students.append(RosterStudent(student_id, name, email, line))
    if not students and not problems:
        raise UsageError(source, "the roster has a header but no students")
    return Roster(source, tuple(students), tuple(problems))
