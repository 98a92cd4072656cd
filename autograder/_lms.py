"""Collecting a folder of submissions: one file or one folder per student, named plainly
or the way a learning-management system (Canvas, Moodle, Blackboard) names its downloads.

A student controls part of every LMS name: the name of the file they uploaded (the tail)
and, in Canvas and Moodle, their display name. So an id is read only where the LMS writes
it, every way a name can be read is worked out, and a name with two readings (two ids,
two attempt orders or two formats) is given to nobody: it becomes an ``error`` row saying
why (``Submission.problem``), and the students it names are graded on their other
entries as usual.

* **Canvas** ``<sortable name>[_LATE]_<user id>_<file id>_<original name>``. Canvas makes
  the sortable name lowercase and drops every character that is not a word character, so
  the name is letters, marks, digits and underscores, never A-Z (so ``_LATE`` is
  Canvas's); the ids are ASCII digits. Canvas itself takes the first ``_<digits>_`` after
  the name for the user id, but a display name may end in ``_<digits>`` (``mallory_22222``)
  and a tail may start with ``<digits>_<digits>_`` (or hold them after word characters),
  so every split ``<name>[_LATE]_<digits>_<digits>_<rest>`` whose name is such a name is a
  reading. Honest names have one; a tail such as ``1_2_hw.py`` gives two, and the file is
  an error row (renaming it settles it). Anonymous grading:
  ``[LATE_]anon_<anonymous id>_<file id>_<original name>`` is the student
  ``anon_<anonymous id>``. The attempt order is the file id.
* **Blackboard** ``<assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>[_<original>]``,
  and ``.txt`` receipts without the original name (skipped). The assignment name and the
  username are Blackboard's, so the first ``_attempt_<time>`` (followed by ``_`` or the
  end) is the one it wrote, whatever the tail holds after it; ``<time>`` is the attempt
  order. What is before it, ``<assignment>_<username>``, is split where the assignment
  name ends. That name is the same for every file of a download and may hold
  underscores, so it is found in the folder: the longest prefix (ending before a ``_``) of
  the head that is shared by as many heads of the folder as any of its prefixes, counting
  the names that read as Blackboard only (another format's name, such as a Moodle folder
  named after a student's display name, has no say). With several students this is the
  assignment name even when usernames hold underscores, as long as the usernames do not
  all begin with the same ``<part>_``; with one student (or usernames that all do) the
  username is read as the part after the last ``_``. Unlike a greedy match, nothing in a
  tail moves the split: a tail never comes first.
* **Moodle** ``<full name>_<participant id>_assignsubmission_<plugin>_`` (a folder) or
  ``..._assignsubmission_<plugin>_<original name>`` (a file). The full name is the
  student's own and may hold underscores, digits and ``_assignsubmission_`` itself, and so
  may the original name; even the end of a folder's name is not Moodle's alone once an
  uploaded zip is unpacked into a folder of its name. So every
  ``_<digits>_assignsubmission_<plugin>`` after a non-empty name is a reading. Moodle
  gives no attempt order (the newest file wins, as for plain names). Without a folder per
  student, Moodle writes one file per uploaded file of a submission: the ``file`` plugin's
  files of one participant under one full name are the parts of one submission, graded
  together as the folder Moodle would have made (``<full name>_<id>_assignsubmission_file_``,
  each part under its original name). Other plugins' entries (``onlinetext``: the text
  typed in Moodle's editor, as ``onlinetext.html``) hold no program: they are graded only
  when the participant uploaded no file.

A name can also fit two formats (a Canvas file uploaded as ``x_22222_attempt_<time>_y.py``
reads as Blackboard too): that is two readings as well. Attempts are compared only within
one format: a Canvas file id and a Blackboard time say nothing about each other, so a
student with entries in two formats is one error row under their id, naming the files.
An entry that fits no LMS format is named plainly: its stem (a file) or its name (a
folder) is the id; a plain name is a format of its own.

Choices: only the folder's own entries are read (no roster), so an ambiguity is reported,
never guessed away, and an honest name can be caught too (a Canvas upload named
``1_2_hw.py``); the error tells the teaching assistant to rename it. The error row of an
ambiguous name is filed under the entry's name, not under an id: no position in an
ambiguous name is beyond a student's reach (a display name moves Canvas's, an unpacked zip
Moodle's), and a row under the victim's id would stand in the victim's place.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

__all__ = ["Submission", "find_submissions"]

CANVAS, BLACKBOARD, MOODLE = "Canvas", "Blackboard", "Moodle"
# Moodle's plugin of uploaded files; the others (online text) hold no program.
MOODLE_FILES = "file"

# From a position in a Canvas name: [_LATE]_<user id>_<file id>_<original name>.
_CANVAS_IDS = re.compile(r"(?:_LATE)?_(?P<id>[0-9]+)_(?P<file>[0-9]+)_(?P<orig>.+)", re.S)
_CANVAS_ANONYMOUS = re.compile(
    r"(?:LATE_)?anon_(?P<id>[A-Za-z0-9]+)_(?P<file>[0-9]+)_(?P<orig>.+)", re.S
)
# Followed by "_" or the end: Blackboard puts nothing else right after the time.
_BLACKBOARD_MARK = re.compile(r"_attempt_(?P<time>[0-9]{4}(?:-[0-9]{2}){5})(?=_|\Z)")
_MOODLE_MARK = re.compile(r"_(?P<id>[0-9]+)_assignsubmission_(?P<plugin>[a-z]+)(?=_|\Z)")
# Ruby's [[:word:]], which Canvas keeps in a sortable name: letters, marks, decimal digits
# and connector punctuation (the underscore).
_WORD = ("L", "M", "Nd", "Pc")

_SKIPPED = {"__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini"}
# Hidden entries that are a system's or a tool's, never a student's: skipped without a note
# (any other hidden entry is named, so that a student's ".solution.py" is not lost unseen).
_HIDDEN_NOISE = {".DS_Store", ".git", ".ipynb_checkpoints", ".Trashes", ".Spotlight-V100",
                 ".fseventsd", ".TemporaryItems", ".directory", ".venv", ".vscode", ".idea",
                 ".Trash"}  # fmt: skip


@dataclass(frozen=True)
class Submission:
    """One student's work: ``path`` is a file or a folder; ``order`` sorts attempts of one
    format (``lms``, empty for a plain name). With a ``problem`` it cannot be graded (a name
    that fits two students or two formats) and ``student`` only labels its row. With
    ``parts`` it is the files of one Moodle submission, each entry with its original name:
    ``path`` is then the folder Moodle would have put them in, which does not exist (the
    grader puts them together in a temporary folder of that name)."""

    student: str
    path: Path
    order: str = ""
    name: str = ""
    lms: str = ""
    problem: str = ""
    late: bool = False  # the LMS marked it late (Canvas's LATE), whatever its time
    parts: tuple[tuple[str, Path], ...] = ()

    def shown(self) -> str:
        """The entry as notes name it: a submission in parts with its parts' names."""
        if not self.parts:
            return self.path.name
        return f"{self.path.name} ({', '.join(name for name, _ in self.parts)})"


@dataclass(frozen=True)
class _Reading:
    """One way to read an entry's name."""

    lms: str
    student: str
    order: str
    shown: str  # the attempt, as the problem text names it
    name: str = ""
    receipt: bool = False
    late: bool = False
    plugin: str = ""  # Moodle's: what the entry holds (uploaded files, online text)
    part: str = ""  # Moodle's: an uploaded file's original name, after the plugin

    def key(self) -> tuple[str, str, str, bool]:
        return (self.lms, self.student, self.order, self.receipt)

    def describe(self) -> str:
        what = "a receipt of " if self.receipt else ""
        return f"{what}{self.lms} student {self.student} ({self.shown})"


def _ordinal(digits: str) -> str:
    """A file id as a string that sorts as the number does."""
    digits = digits.lstrip("0") or "0"
    return f"{len(digits):04d}{digits}"


def _canvas_name_length(text: str) -> int:
    """How long the prefix of ``text`` is that could be a Canvas sortable name."""
    for i, char in enumerate(text):
        if "A" <= char <= "Z" or not unicodedata.category(char).startswith(_WORD):
            return i
    return len(text)


def _canvas(text: str) -> list[_Reading]:
    readings: list[_Reading] = []
    if m := _CANVAS_ANONYMOUS.fullmatch(text):
        student, order = f"anon_{m['id']}", _ordinal(m["file"])
        late = text.startswith("LATE_")
        readings.append(_Reading(CANVAS, student, order, f"file {m['file']}", late=late))
    end = _canvas_name_length(text)
    return readings + [
        _Reading(
            CANVAS,
            m["id"],
            _ordinal(m["file"]),
            f"file {m['file']}",
            name=text[:i],
            late=m.group(0).startswith("_LATE"),
        )
        for i in range(1, end)
        if text[i] == "_" and (m := _CANVAS_IDS.match(text, i))
    ]


def _blackboard_text(entry: Path) -> str:
    """Where to look for the attempt: a receipt's stem (``..._attempt_<time>.txt``)."""
    return entry.stem if entry.is_file() and entry.suffix == ".txt" else entry.name


def _blackboard_head(text: str) -> tuple[str, re.Match[str]] | None:
    """``<assignment>_<username>`` and the first attempt mark, if ``text`` has one."""
    m = _BLACKBOARD_MARK.search(text)
    return (text[: m.start()], m) if m else None


def _blackboard_users(heads: Iterable[str]) -> dict[str, str]:
    """The username in each head ``<assignment>_<username>`` of a folder: after the
    longest ``_``-bounded prefix shared by as many heads as the head's most shared prefix
    (see the module's docstring)."""
    heads = set(heads)
    prefixes = {
        head: [head[:i] for i, char in enumerate(head) if char == "_" and 0 < i < len(head) - 1]
        for head in heads
    }
    shared: dict[str, int] = {}
    for own in prefixes.values():
        for prefix in own:
            shared[prefix] = shared.get(prefix, 0) + 1
    users: dict[str, str] = {}
    for head, own in prefixes.items():
        if own:
            most = max(shared[p] for p in own)
            assignment = max((p for p in own if shared[p] == most), key=len)
            users[head] = head[len(assignment) + 1 :]
    return users


def _blackboard(text: str, users: dict[str, str]) -> list[_Reading]:
    found = _blackboard_head(text)
    if found is None or found[0] not in users:
        return []
    head, m = found
    rest = text[m.end() :]
    return [
        _Reading(BLACKBOARD, users[head], m["time"], f"attempt {m['time']}",
                 receipt=rest in ("", "_"))
    ]  # fmt: skip


def _moodle(text: str) -> list[_Reading]:
    return [
        _Reading(MOODLE, m["id"], "", f"{m['plugin']} submission", name=text[: m.start()],
                 plugin=m["plugin"], part=_original_name(text[m.end() :]))
        for m in _MOODLE_MARK.finditer(text)
        if m.start() > 0
    ]  # fmt: skip


def _original_name(tail: str) -> str:
    """The uploaded file's name in what follows a Moodle mark (``_trap_lane.py``), or ``""``
    when there is none (a folder's ``_``) or it could not be a file's name of its own."""
    name = tail[1:]
    return name if tail.startswith("_") and name not in ("", ".", "..") else ""


def _readings(entry: Path, users: dict[str, str]) -> list[_Reading]:
    """Every way ``entry``'s name reads, each once."""
    found = [*_canvas(entry.name), *_blackboard(_blackboard_text(entry), users)]
    found += _moodle(entry.name)
    distinct: dict[tuple[str, str, str, bool], _Reading] = {}
    for reading in found:
        distinct.setdefault(reading.key(), reading)
    return list(distinct.values())


def _ambiguous(entry: Path, readings: list[_Reading]) -> Submission:
    problem = (
        f"{entry.name}: the name reads as {' or as '.join(r.describe() for r in readings)}; "
        "a student chooses part of an LMS name (the uploaded file's name, the display "
        "name), so it is graded as none of them: find out whose it is and rename it"
    )
    # Filed under the entry's name: under an id it would sit in that student's place.
    return Submission(entry.name, entry, problem=problem)


def _identify(entry: Path, users: dict[str, str]) -> tuple[Submission | None, str, _Reading | None]:
    """The submission an entry holds, or ``None`` and why it is skipped; and the one
    reading of its name, if it has one."""
    readings = _readings(entry, users)
    if not readings:
        return Submission(_plain_id(entry), entry), "", None
    if len(readings) > 1:
        return _ambiguous(entry, readings), "", None
    (reading,) = readings
    if reading.receipt:
        return None, "a Blackboard receipt", reading
    r = reading
    return Submission(r.student, entry, r.order, r.name, r.lms, late=r.late), "", r


def _plain_id(entry: Path) -> str:
    """The student a plain name stands for: a folder's name, a file's without its suffix
    (both of ``alice.tar.gz``)."""
    if not entry.is_file():
        return entry.name
    lower = entry.name.lower()
    for double in (".tar.gz", ".tar.bz2", ".tar.xz"):
        if lower.endswith(double) and len(entry.name) > len(double):
            return entry.name[: -len(double)]
    return entry.stem


def _modified(submission: Submission) -> float:
    """When a submission was last changed: its entry's time, or its newest part's."""
    paths = [path for _, path in submission.parts] or [submission.path]
    return max(path.stat().st_mtime for path in paths)


def _newest(group: list[Submission]) -> Submission:
    return max(group, key=lambda s: (s.order, _modified(s), s.path.name))


def _moodle_submissions(
    student: str, group: list[tuple[Submission, _Reading]]
) -> tuple[list[Submission], list[str]]:
    """A Moodle participant's submissions: the uploaded files of one download (one full
    name) put together as one submission in parts, and other plugins' entries (online text)
    set aside when there are uploaded files; notes on what was set aside."""
    files = [(s, r) for s, r in group if r.plugin == MOODLE_FILES]
    others = [(s, r) for s, r in group if r.plugin != MOODLE_FILES]
    notes: list[str] = []
    if files and others:
        notes = [
            f"skipped {s.path.name}: Moodle's {r.plugin} entry, not a program "
            f"(student {student} uploaded files)"
            for s, r in others
        ]
        group = files
    whole: list[Submission] = []
    parts: dict[str, list[tuple[str, Submission]]] = {}
    for s, r in group:
        if r.plugin == MOODLE_FILES and r.part and s.path.is_file():
            parts.setdefault(r.name, []).append((r.part, s))
        else:
            whole.append(s)
    for name, found in parts.items():
        if len(found) == 1:  # one file: graded as it is, under its entry's name
            whole.append(found[0][1])
            continue
        first = found[0][1]
        folder = first.path.parent / f"{name}_{student}_assignsubmission_{MOODLE_FILES}_"
        whole.append(
            replace(first, path=folder, parts=tuple(sorted((p, s.path) for p, s in found)))
        )
    return whole, notes


def _formats(student: str, group: list[Submission]) -> Submission:
    """The error row of a student with entries in two formats: which is newer cannot be
    told, so neither is graded."""
    by_format: dict[str, list[str]] = {}
    for s in sorted(group, key=lambda s: s.path.name):
        by_format.setdefault(s.lms or "plain name", []).append(s.path.name)
    listed = "; ".join(f"{lms}: {', '.join(names)}" for lms, names in sorted(by_format.items()))
    problem = (
        f"student {student} has submissions in {len(by_format)} formats ({listed}), whose "
        "attempts cannot be ordered against each other, so none is graded: keep one and "
        "grade again"
    )
    first = min(group, key=lambda s: s.path.name)
    return Submission(student, first.path, problem=problem)


def unused_label(label: str, taken: set[str]) -> str:
    """``label``, else ``label #2``, ``label #3``...: the first not in ``taken``, which it
    joins (an error row's label never takes a student's id)."""
    found, n = label, 1
    while found in taken:
        n += 1
        found = f"{label} #{n}"
    taken.add(found)
    return found


def _distinct_labels(submissions: list[Submission]) -> list[Submission]:
    """Every row its own key: an error row's label never takes a student's id."""
    taken = {s.student for s in submissions if not s.problem}
    return [
        replace(s, student=unused_label(s.student, taken)) if s.problem else s for s in submissions
    ]


def find_submissions(
    folder: Path, exclude: Path | None = None
) -> tuple[list[Submission], list[str]]:
    """Every student's newest submission in ``folder``, the entries that cannot be given to
    one student (with a ``problem``), and notes on what was skipped, chosen or refused
    (hidden files, receipts, older attempts, ambiguous names)."""
    everything = [
        entry
        for entry in sorted(folder.iterdir())
        if entry.name not in _SKIPPED and (exclude is None or entry.resolve() != exclude.resolve())
    ]
    entries = [entry for entry in everything if not entry.name.startswith(".")]
    notes = [
        f"skipped {entry.name}: its name starts with '.', so it is hidden; rename it to grade it"
        for entry in everything
        if entry.name.startswith(".")
        and entry.name not in _HIDDEN_NOISE
        # (a Mac's resource forks, NFS's files of the deleted, the grader's temporaries)
        and not entry.name.startswith(("._", ".nfs", ".autograder-"))
    ]
    heads: dict[Path, str] = {}
    for entry in entries:
        if mark := _blackboard_head(_blackboard_text(entry)):
            heads[entry] = mark[0]
    users = _blackboard_users(heads.values())
    # Where the assignment name ends is settled again by the names that read as
    # Blackboard only: a name that fits another format too may be a student's own (a
    # Moodle display name), which must not move the split of anyone else's.
    only = [h for e, h in heads.items() if {r.lms for r in _readings(e, users)} == {BLACKBOARD}]
    users = {**users, **_blackboard_users(only)}
    refused: list[Submission] = []
    by_student: dict[str, list[tuple[Submission, _Reading | None]]] = {}
    for entry in entries:
        submission, why, reading = _identify(entry, users)
        if submission is None:
            notes.append(f"skipped {entry.name}: {why}")
        elif submission.problem:
            refused.append(submission)
        else:
            by_student.setdefault(submission.student, []).append((submission, reading))
    chosen: list[Submission] = []
    for student, read in sorted(by_student.items()):
        group = [s for s, _ in read]
        if len({s.lms for s in group}) > 1:
            refused.append(_formats(student, group))
            continue
        if group[0].lms == MOODLE:
            # (every Moodle entry was read as Moodle's: it has its reading)
            moodle = [(s, r) for s, r in read if r is not None]
            group, set_aside = _moodle_submissions(student, moodle)
            notes += set_aside
        newest = _newest(group)
        chosen.append(newest)
        if len(group) > 1:
            names = ", ".join(s.shown() for s in group if s is not newest)
            notes.append(
                f"student {student} has {len(group)} submissions: graded the newest, "
                f"{newest.shown()}; not graded: {names}"
            )
    notes += [f"not graded: {s.problem}" for s in refused]
    found = _distinct_labels(chosen + refused)
    return sorted(found, key=lambda s: s.student), notes
