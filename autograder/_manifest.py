"""The manifest of a set of variants: which board each student was given.

``autograder variants`` writes it; ``grade --manifest`` and the Gradescope autograder read it
to grade every student on their own board. It holds boards, never expected answers, and a
short fingerprint of the secret rather than the secret itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._assignments import load_assignment
from ._boards import parse_board
from ._errors import BoardError, UsageError, read_json
from ._files import write_atomic

__all__ = ["MANIFEST_FORMAT", "Manifest", "StudentBoard", "load_manifest", "write_manifest"]

MANIFEST_FORMAT = 1


@dataclass(frozen=True)
class StudentBoard:
    """One student's entry: who they are, their board, and what their bundle says."""

    id: str
    board: dict[str, Any] = field(hash=False)
    name: str = ""
    email: str = ""
    self_check: str = ""
    bundle: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "email": self.email,
            "board": self.board,
            "self_check": self.self_check,
            "bundle": self.bundle,
        }


@dataclass(frozen=True)
class Manifest:
    assignment: str
    students: tuple[StudentBoard, ...]
    secret_id: str = ""
    source: str = ""
    problems: tuple[str, ...] = ()
    # (id, problem) of entries that name a student but were left out (a broken board, ...)
    left_out: tuple[tuple[str, str], ...] = ()

    def names(self) -> dict[str, str]:
        """Each student's name by id, for the gradebooks (students with none left out)."""
        return {s.id: s.name for s in self.students if s.name}

    def why_left_out(self, key: str) -> str | None:
        """The problem of the left-out entry whose id is ``key``, if there is one."""
        wanted = key.strip().lower()
        return next((why for sid, why in self.left_out if sid.lower() == wanted), None)

    def find(self, *keys: str) -> StudentBoard | None:
        """The student any of ``keys`` names: an id or an email, ignoring case; else, for a
        key that is not an email, the one student whose email starts with it before the
        ``@`` (an LMS login often is just that)."""
        wanted = [k.strip().lower() for k in keys if k and k.strip()]
        for key in wanted:
            for student in self.students:
                if key in (student.id.lower(), student.email.lower()):
                    return student
        for key in wanted:
            if "@" in key:  # an email at another domain is someone else
                continue
            same = [s for s in self.students
                    if s.email and key == s.email.lower().partition("@")[0]]  # fmt: skip
            if len(same) == 1:  # two students sharing the name before the @: neither
                return same[0]
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": MANIFEST_FORMAT,
            "assignment": self.assignment,
            "secret_id": self.secret_id,
            "students": [s.to_json() for s in self.students],
        }


def write_manifest(path: Path, manifest: Manifest) -> None:
    """Write atomically: a reader never sees half a manifest."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(manifest.to_json(), indent=1) + "\n")


def _text(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key, "")
    return value.strip() if isinstance(value, str) else ""


def _entries(data: Any, source: str) -> tuple[str, Iterable[Any]]:
    if not isinstance(data, dict):
        raise UsageError(source, "a manifest is a JSON object with 'assignment' and 'students'")
    if data.get("format", MANIFEST_FORMAT) != MANIFEST_FORMAT:
        raise UsageError(source, f"manifest format {data.get('format')!r} is not supported")
    name = data.get("assignment")
    if not isinstance(name, str) or not name:
        raise UsageError(source, "the manifest names no 'assignment'")
    students = data.get("students")
    if not isinstance(students, list):
        raise UsageError(source, "'students' must be a list of entries")
    return name, students


def load_manifest(path: str | Path, assignment: str | None = None) -> Manifest:
    """Read a manifest. A broken file is a :class:`UsageError`; a broken entry (no id, a
    repeated id or email, an invalid board) is left out and listed in ``problems``."""
    source = str(path)
    data = read_json(path, "manifest")
    name, entries = _entries(data, source)
    if assignment is not None and name != assignment:
        raise UsageError(source, f"is a manifest for {name!r}, not {assignment!r}")
    try:
        family = load_assignment(name).family
    except UsageError as err:
        raise err.located(source) from None
    students: list[StudentBoard] = []
    problems: list[str] = []
    left_out: list[tuple[str, str]] = []
    ids: dict[str, int] = {}
    emails: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"{source} student {number}"
        if not isinstance(entry, dict):
            problems.append(f"{where}: not an object; left out")
            continue
        student_id, email = _text(entry, "id"), _text(entry, "email")
        if not student_id:
            problems.append(f"{where}: no 'id'; left out")
            continue
        where = f"{where} ({student_id})"
        if student_id.lower() in ids:
            problems.append(f"{where}: the id is also student {ids[student_id.lower()]}; left out")
            continue
        if email and email.lower() in emails:
            problems.append(
                f"{where}: email {email} is also student {emails[email.lower()]}; left out"
            )
            continue
        try:
            parse_board(entry.get("board"), family, "board")
        except BoardError as err:
            problems.append(f"{where}: {err}; left out")
            left_out.append((student_id, str(err)))
            continue
        ids[student_id.lower()] = number
        if email:
            emails[email.lower()] = number
        students.append(
            StudentBoard(
                id=student_id,
                board=dict(entry["board"]),
                name=_text(entry, "name"),
                email=email,
                self_check=_text(entry, "self_check"),
                bundle=_text(entry, "bundle"),
            )
        )
    secret_id = data.get("secret_id", "")
    return Manifest(
        name,
        tuple(students),
        secret_id if isinstance(secret_id, str) else "",
        source,
        tuple(problems),
        tuple(left_out),
    )
