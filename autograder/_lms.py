"""Collecting a folder of submissions: one file or one folder per student, named plainly
or the way a learning-management system (Canvas, Moodle, Blackboard) names its downloads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Submission", "find_submissions"]

# Moodle: "Ada Lovelace_123456_assignsubmission_file_" (a folder per student).
_MOODLE = re.compile(r"(?P<name>.+?)_(?P<id>\d+)_assignsubmission_[a-z]+_?")
# Blackboard: "Homework 3_alovelace_attempt_2026-11-20-14-03-59_classic.py" (plus a receipt
# "..._attempt_<time>.txt" without the original name).
_BLACKBOARD = re.compile(
    r"(?P<assignment>.+)_(?P<id>[^_]+)_attempt_(?P<time>\d{4}(?:-\d\d){5})(?:_(?P<orig>.+))?"
)
# Canvas: "lovelaceada_LATE_12345_678901_classic-1.py" (sortable name, user id, submission id).
_CANVAS = re.compile(r"(?P<name>[a-z0-9]+)(?:_LATE)?_(?P<id>\d+)_(?P<sub>\d+)_(?P<orig>.+)")

_SKIPPED = {"__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini"}


@dataclass(frozen=True)
class Submission:
    """One student's work: ``path`` is a file or a folder; ``order`` sorts attempts."""

    student: str
    path: Path
    order: str = ""
    name: str = ""


def _identify(entry: Path) -> tuple[Submission | None, str]:
    """The submission an entry holds, or ``None`` and why it is skipped."""
    text = entry.name
    if m := _MOODLE.fullmatch(text):
        return Submission(m["id"], entry, name=m["name"]), ""
    receipt = entry.is_file() and entry.suffix == ".txt" and "_attempt_" in text
    if m := _BLACKBOARD.fullmatch(entry.stem if receipt else text):
        if m["orig"] is None:
            return None, "a Blackboard receipt"
        return Submission(m["id"], entry, order=m["time"]), ""
    if m := _CANVAS.fullmatch(text):
        return Submission(m["id"], entry, order=m["sub"].zfill(12), name=m["name"]), ""
    return Submission(entry.stem if entry.is_file() else entry.name, entry), ""


def find_submissions(
    folder: Path, exclude: Path | None = None
) -> tuple[list[Submission], list[str]]:
    """Every student's newest submission in ``folder``, and notes on what was skipped or
    chosen (hidden files, receipts, older attempts)."""
    notes: list[str] = []
    newest: dict[str, Submission] = {}
    older: dict[str, list[Submission]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.name in _SKIPPED:
            continue
        if exclude is not None and entry.resolve() == exclude.resolve():
            continue
        submission, why = _identify(entry)
        if submission is None:
            notes.append(f"skipped {entry.name}: {why}")
            continue
        current = newest.get(submission.student)
        if current is None:
            newest[submission.student] = submission
            continue
        keep, drop = (
            (submission, current)
            if (submission.order, submission.path.stat().st_mtime)
            > (current.order, current.path.stat().st_mtime)
            else (current, submission)
        )
        newest[submission.student] = keep
        older.setdefault(submission.student, []).append(drop)
    for student, dropped in sorted(older.items()):
        names = ", ".join(d.path.name for d in dropped)
        notes.append(
            f"student {student} has {len(dropped) + 1} submissions: graded the newest, "
            f"{newest[student].path.name}; not graded: {names}"
        )
    return sorted(newest.values(), key=lambda s: s.student), notes
