"""Rosters: the CSV of students an instructor exports from a learning-management system.

A roster needs a column of student ids; names, emails and what a Canvas gradebook needs to
match a student (``SIS User ID``, ``SIS Login ID``, ``Section``) are optional. Headers are
matched loosely, because every system spells them its own way (``SID``, ``Student ID``,
``Username``; ``Email``, ``E-mail address``; ``Name`` or ``First name`` + ``Last name``;
``SIS User ID`` or ``sis_user_id``).
A bad row is reported with its row number and left out; the other rows stand. Columns are
separated by commas, or by semicolons or tabs (as a spreadsheet in a European locale, or
one saving "text", writes them).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ._errors import UsageError, decode_text

__all__ = ["Roster", "RosterStudent", "read_roster"]

# In order of preference; the last two where an LMS's export has none of the others (D2L's
# "OrgDefinedId", a Canvas roster of "SIS User ID" without its "ID").
ID_HEADERS = ("id", "student id", "studentid", "student_id", "sid", "student number", "username",
              "login", "user id", "userid", "orgdefinedid", "sis user id")  # fmt: skip
EMAIL_HEADERS = ("email", "e-mail", "email address", "e-mail address", "mail")
NAME_HEADERS = ("name", "full name", "student name", "student")
FIRST_HEADERS = ("first name", "first", "given name")
LAST_HEADERS = ("last name", "last", "surname", "family name")
# What Canvas matches a gradebook row by when its user id is not known (Canvas's gradebook
# export names them so; its SIS import files say ``user_id`` and ``login_id``).
SIS_USER_HEADERS = ("sis user id", "sis id", "sisid", "user sis id")
SIS_LOGIN_HEADERS = ("sis login id", "login id", "sis login", "loginid")
SECTION_HEADERS = ("section", "sections", "section name", "course section")
# An id becomes a folder name and a key in JSON: keep it to what is safe everywhere.
_ID_CHARACTERS = re.compile(r"[A-Za-z0-9._@+-]*")
MAX_ID = 100
# Between columns: the comma first (the documented format), then what other locales use.
DELIMITERS = (",", ";", "\t")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@dataclass(frozen=True)
class RosterStudent:
    id: str
    name: str = ""
    email: str = ""
    row: int = 0  # the line of the CSV file its row starts on
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""


@dataclass(frozen=True)
class Roster:
    source: str
    students: tuple[RosterStudent, ...]
    problems: tuple[str, ...]


def _simple(name: str) -> str:
    return re.sub(r"[\s_]+", " ", name.strip().lower())


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    simple = [_simple(h) for h in header]
    for name in names:
        if name in simple:
            return simple.index(name)
    return None


def _twice(header: list[str]) -> str:
    """The first column the roster reads that the header names twice, which would leave it
    unclear which one is meant, as a problem; ``""`` when there is none."""
    known = {*ID_HEADERS, *EMAIL_HEADERS, *NAME_HEADERS, *FIRST_HEADERS, *LAST_HEADERS,
             *SIS_USER_HEADERS, *SIS_LOGIN_HEADERS, *SECTION_HEADERS}  # fmt: skip
    first: dict[str, int] = {}
    for k, name in enumerate(header):
        simple = _simple(name)
        if simple not in known:
            continue
        if simple in first:
            return (
                f"the header names the column {name.strip()!r} twice (columns "
                f"{first[simple] + 1} and {k + 1}); keep one"
            )
        first[simple] = k
    return ""


Row = list[str] | None  # None: a row whose quote is never closed on its line


def _rows(text: str, delimiter: str = ",") -> list[tuple[int, Row]]:
    """Each CSV row with its line of the file, blank lines before the header left out.
    No roster cell holds a line break, so each line is read on its own: a quote it opens
    and never closes makes its row ``None`` (read whole, the csv module would take the rest
    of the file into that cell, up to its 128 KB limit)."""
    rows: list[tuple[int, Row]] = []
    # (split as the csv module splits a file opened with newline="")
    for line, text_line in enumerate(io.StringIO(text, newline="").readlines(), 1):
        row: Row
        try:
            row = next(csv.reader([text_line], delimiter=delimiter, strict=True), [])
        except csv.Error as err:
            if "unexpected end of data" in str(err):
                row = None
            else:  # (a stray quote inside a cell: read as the csv module reads it)
                row = next(csv.reader([text_line], delimiter=delimiter), [])
        if rows or row is None or any(cell.strip() for cell in row):
            rows.append((line, row))
    return rows


def _roster_text(path: str | Path) -> str:
    """The file's text; one line naming the file for a missing, unreadable or not UTF-8
    file (with the line and the byte where UTF-8 fails, so it can be found)."""
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise UsageError(source, "no such roster file") from None
    except IsADirectoryError:
        raise UsageError(source, "is a folder; give the roster's CSV file") from None
    except OSError as err:
        raise UsageError(
            source, f"cannot read the roster file ({err.strerror or err.__class__.__name__})"
        ) from None
    return decode_text(data, source, "roster", '"CSV UTF-8"')


def _read_rows(text: str, source: str) -> list[tuple[int, Row]]:
    """The rows, split by the delimiter whose header has a student id column: the comma
    when it has, else the semicolon or the tab when exactly one of them has."""
    readings: dict[str, list[tuple[int, Row]]] = {}
    for delimiter in DELIMITERS:
        try:
            if rows := _rows(text, delimiter):
                readings[delimiter] = rows
        except csv.Error as err:  # a cell over the csv module's limit (128 KB), a NUL, ...
            if delimiter == ",":  # (another split that fails is just not the one meant)
                why = f"is not a roster the csv module can read ({err})"
                raise UsageError(source, why) from None
    if "," not in readings:
        raise UsageError(
            source, "the roster is empty (expected a header row, then one row per student)"
        )
    line, header = readings[","][0]
    if header is None:
        raise UsageError(source, f"line {line}: the header opens a quote it never closes")
    found = [d for d, rows in readings.items() if _column(rows[0][1] or [], ID_HEADERS) is not None]
    if found[:1] == [","] or len(found) == 1:
        return readings[found[0]]
    if found:
        raise UsageError(
            source,
            "the header has both semicolons and tabs between names; save the roster with "
            "commas between columns",
        )
    # The way of splitting that gives the most columns is likelier what was meant.
    widest = max(readings, key=lambda d: len(readings[d][0][1] or []))
    header = readings[widest][0][1]
    names = "name one 'id', 'sid', 'student id' or 'username'"
    if widest != ",":
        names = f"columns split at {widest!r}; {names}"
    raise UsageError(source, f"no student id column in the header {header!r} ({names})")


def _id_problem(student_id: str) -> str:
    """Why an id cannot name a folder and a JSON key safely everywhere; ``""`` when it can."""
    if len(student_id) > MAX_ID:
        return (
            f"student id {student_id[:20]!r}... is {len(student_id)} characters long; ids "
            f"have at most {MAX_ID}"
        )
    foreign = next((c for c in student_id if not c.isascii()), "")
    if foreign:
        kind = "letter" if foreign.isalpha() else "digit" if foreign.isnumeric() else "character"
        return (
            f"student id {student_id!r} has {foreign!r}, a {kind} outside ASCII; ids keep to "
            "the ASCII letters, digits and . _ @ + -"
        )
    if not _ID_CHARACTERS.fullmatch(student_id):
        other = next(c for c in student_id if not _ID_CHARACTERS.fullmatch(c))
        return (
            f"student id {student_id!r} has characters other than letters, digits and "
            f". _ @ + - ({other!r})"
        )
    if not student_id[0].isalnum():
        # A name starting with "." is hidden (".." is the parent folder), one starting
        # with "-" reads as an option.
        return (
            f"student id {student_id!r} starts with {student_id[0]!r}; ids start with a "
            "letter or a digit"
        )
    return ""


def read_roster(path: str | Path) -> Roster:
    """The students in a roster CSV, and one line per row that could not be used."""
    source = str(path)
    rows = _read_rows(_roster_text(path), source)
    header = rows[0][1]
    assert header is not None  # _read_rows refuses a header left open
    twice = _twice(header)
    if twice:
        raise UsageError(source, twice)
    id_col = _column(header, ID_HEADERS)
    assert id_col is not None  # _read_rows chose the delimiter by it
    email_col = _column(header, EMAIL_HEADERS)
    name_col = _column(header, NAME_HEADERS)
    first_col, last_col = _column(header, FIRST_HEADERS), _column(header, LAST_HEADERS)
    sis_user_col = _column(header, SIS_USER_HEADERS)
    sis_login_col = _column(header, SIS_LOGIN_HEADERS)
    section_col = _column(header, SECTION_HEADERS)

    def cell(row: list[str], col: int | None) -> str:
        return row[col].strip() if col is not None and col < len(row) else ""

    students: list[RosterStudent] = []
    problems: list[str] = []
    first_row: dict[str, int] = {}
    emails: dict[str, int] = {}
    for line, row in rows[1:]:
        if row is not None and not any(c.strip() for c in row):
            continue
        where = f"{source} row {line}"
        if row is None:
            problems.append(f"{where}: a quote opens a cell and is never closed on its line; "
                            "row left out")  # fmt: skip
            continue
        if len(row) > len(header):
            problems.append(f"{where}: {len(row)} cells for {len(header)} columns; row left out")
            continue
        student_id = cell(row, id_col)
        if not student_id:
            problems.append(f"{where}: no student id; row left out")
            continue
        why = _id_problem(student_id)
        if why:
            problems.append(f"{where}: {why}; row left out")
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
        students.append(
            RosterStudent(student_id, name, email, line, cell(row, sis_user_col),
                          cell(row, sis_login_col), cell(row, section_col))
        )  # fmt: skip
    if not students and not problems:
        raise UsageError(source, "the roster has a header but no students")
    return Roster(source, tuple(students), tuple(problems))
