"""What a batch leaves behind: the gradebook (CSV), a feedback file per student, a score
histogram, what the class got wrong (CSV) and a summary for the terminal."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._exports import (
    CANVAS_FILE,
    MOODLE_FILE,
    canvas_gradebook,
    canvas_notes,
    moodle_gradebook,
    moodle_notes,
)
from ._files import sync_folders, write_atomic
from ._plain import cell, printable, printable_lines
from ._results import SubmissionResult, TestResult
from ._roster import Roster
from ._texts import GENERIC_MISTAKES

__all__ = [
    "MISTAKES",
    "MISTAKES_HEADER",
    "OUTPUTS",
    "Tally",
    "board_label",
    "feedback_names",
    "feedback_text",
    "gradebook_status",
    "gradebook_text",
    "histogram",
    "late_text",
    "mistakes_text",
    "output_name",
    "points",
    "safe_name",
    "score_buckets",
    "summary_text",
    "tally_mistakes",
    "write_reports",
]

_MARK = {"passed": "PASS", "partial": "PART"}
# The longest feedback file name kept whole, in bytes: well under the 255 of common file
# systems, with room for a hash and ".txt".
_LONGEST = 120
# A board that gave no answer to mark, as grades.csv names it: the word in the status column
# (in this order, joined with "+") and the phrase before the boards in the problems column.
_FAILED = {
    "crashed": "crashed on",
    "timeout": "timed out on",
    "output-limit": "printed too much on",
    "unreadable": "unreadable output on",
    "not-run": "not run on",
}
# The header of mistakes.csv; its rows are ``Tally`` objects.
MISTAKES_HEADER = ("kind", "board", "entry", "students", "out_of", "boards", "description")
# What the summary shows of the tally, at most: the rest is in mistakes.csv.
_SHOWN_MISTAKES = 5
_SHOWN_ENTRIES = 5  # lines: the entries of one board missed by as many students share one
_SHOWN_LABELS = 4  # entries named on such a line
MISTAKES = "mistakes.csv"


def safe_name(student: str) -> str:
    """A file name for a student id: nothing that could leave the feedback folder."""
    return re.sub(r"[^\w.@-]", "_", student).lstrip(".") or "_"


def points(score: float, max_score: float) -> str:
    """A score as every report writes it: points out of the points it could have had, two
    decimals each (``12.50 / 25.00``). The feedback, ``check``, the pages and the summary
    all use it, and ``grades.csv`` holds the same points (its cells, the score alone)."""
    return f"{score:.2f} / {max_score:.2f}"


def board_label(name: str, title: str) -> str:
    """A board as staff see it named: its title (what the student reads: ``edge board 1``),
    then its id (``grades.csv``'s column, ``mistakes.csv``'s board: ``no-jumps``) in
    brackets, unless the title already says it (``public board``, ``public board:
    circle``)."""
    return title if name in title else f"{title} ({name})"


def feedback_text(result: SubmissionResult, title: str = "", *, score_label: str = "score") -> str:
    """What the student reads: visible detail on the public board, none on hidden ones.
    ``score_label`` words the total's line (``check`` says which boards it counts)."""
    # The id and the problems may quote a file name, which a student chose.
    lines = [f"{result.assignment}: {title}".rstrip(": "), f"student: {printable(result.student)}"]
    lines.append(f"{score_label}: {points(result.score, result.max_score)}")
    late = result.extra.get("late")
    if isinstance(late, dict) and late.get("days"):
        taken = f"-{float(late.get('penalty', 0)):g}% of {float(late['score_before']):.2f}"
        lines.append(f"late: {late['days']} day(s) ({late.get('how', '')}): {taken}")
    for problem in result.problems:
        first, *rest = printable_lines(problem)
        lines += [f"problem: {first}", *(f"    {line}" for line in rest)]
    for test in result.tests:
        mark = _MARK.get(test.status, "FAIL")
        hidden = "" if test.visible else " [hidden]"
        lines.append("")
        lines.append(f"{mark}  {test.title}{hidden}: {points(test.score, test.max_score)}")
        lines += [f"      {line}" for line in test.feedback]
    return "\n".join(lines) + "\n"


def score_buckets(scores: Sequence[float], maximum: float) -> list[int]:
    """Counts per tenth of the maximum score (0-9%, ..., 90-99%), then full marks."""
    buckets = [0] * 11
    for score in scores:
        share = score / maximum if maximum else 0.0
        buckets[10 if share >= 1 - 1e-9 else min(9, int(share * 10))] += 1
    return buckets


def histogram(scores: Sequence[float], maximum: float, width: int = 40) -> list[str]:
    """Counts per tenth of the maximum score, the last bucket being full marks."""
    buckets = score_buckets(scores, maximum)
    tallest = max(buckets) or 1
    lines = []
    for k, count in enumerate(buckets):
        label = "100%" if k == 10 else f"{10 * k:>2d}-{10 * k + 9:>2d}%"
        bar = "#" * round(width * count / tallest)
        lines.append(f"  {label:>7} {count:>5} {bar}")
    return lines


def summary_text(
    results: Sequence[SubmissionResult],
    notes: Sequence[str] = (),
    descriptions: Mapping[str, str] | None = None,
) -> str:
    """What the terminal shows after a batch: counts, the score histogram, the boards
    passed, the mistakes the class made most and the entries it missed most (all of them in
    ``mistakes.csv``), and the notes. ``descriptions``: a named mistake's plain words."""
    if not results:
        return "no submissions graded\n"
    maximum = max(r.max_score for r in results)
    graded = [r for r in results if r.status == "graded"]
    scores = [r.score for r in results]
    lines = [
        f"{len(results)} submissions: {len(graded)} graded, {len(results) - len(graded)} "
        f"could not be run; {sum(r.passed for r in results)} with full marks",
        f"score: mean {statistics.fmean(scores):.2f}, median {statistics.median(scores):.2f} "
        f"of {maximum:g}",
        "",
        "score histogram:",
        *histogram(scores, maximum),
    ]
    if graded:
        # Each board by its title and its column in grades.csv, as index.html names it.
        labels = [board_label(t.name, t.title) for t in graded[0].tests]
        width = max([22, *map(len, labels)])
        lines += ["", "boards passed:"]
        for test, label in zip(graded[0].tests, labels, strict=True):
            outcomes = [t for r in graded for t in r.tests if t.name == test.name]
            passed = sum(t.status == "passed" for t in outcomes)
            lines.append(f"  {label:<{width}} {passed:>5} of {len(outcomes)}")
    lines += _tally_lines(tally_mistakes(results, descriptions))
    lines += [f"note: {n}" for n in notes]
    # Notes name files and students: shown escaped, so no name runs an escape sequence in
    # the terminal or starts a line of its own.
    return "\n".join(printable(line) for line in lines) + "\n"


def _tally_lines(rows: Sequence[Tally]) -> list[str]:
    """The top of the tally, briefly: the commonest mistakes, then the entries missed by
    most students, those of one board missed by as many students on one line."""
    mistakes = [row for row in rows if row.kind == "mistake"]
    entries = [row for row in rows if row.kind == "entry"]
    lines: list[str] = []
    if mistakes:
        lines += ["", "mistakes recognised (out of the students whose output was read):"]
        for row in mistakes[:_SHOWN_MISTAKES]:
            lines.append(
                f"  {row.students} of {row.out_of} students: {row.description} "
                f"({row.boards} {'board' if row.boards == 1 else 'boards'} in all)"
            )
    groups: list[list[Tally]] = []
    for row in entries:  # sorted, so rows of one board and count are together
        if groups and (groups[-1][0].board, groups[-1][0].students) == (row.board, row.students):
            groups[-1].append(row)
        else:
            groups.append([row])
    if groups:
        lines += ["", "entries missed most:"]
        for group in groups[:_SHOWN_ENTRIES]:
            labels = [row.entry for row in group]
            shown = ", ".join(labels[:_SHOWN_LABELS])
            more = f" and {len(labels) - _SHOWN_LABELS} more" if len(labels) > _SHOWN_LABELS else ""
            first = group[0]
            lines.append(
                f"  {first.students} of {first.out_of} students on {first.board}: {shown}{more}"
            )
    if rows:
        counts = f"{len(mistakes)} mistakes and {len(entries)} missed entries"
        lines.append(f"  (all {counts} are in mistakes.csv)")
    return lines


OUTPUTS = "outputs"  # what each program printed, per student: for ``regrade``, staff only


def output_name(student: str) -> str:
    """The file under ``outputs/`` of a student's printed outputs: a safe name and a hash
    of the id, so two ids never share a file whatever the file system's rules."""
    digest = hashlib.sha256(student.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return f"{safe_name(student)[:_LONGEST]}-{digest}.json"


def feedback_names(students: Iterable[str]) -> dict[str, str]:
    """The feedback file of each student: ``<safe name>.txt``, unless that name is too long
    for a file system or already taken (``a b`` and ``a_b``, or ``Ada`` and ``ada`` on a
    file system that ignores case): then a shortened name and a hash of the id, so no
    student ever reads, or overwrites, another's feedback."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    # A student whose id is already a safe name gets it, whoever else maps onto it.
    for student in sorted(set(students), key=lambda s: (safe_name(s) != s, s)):
        name = safe_name(student)
        if len(name.encode()) > _LONGEST or name.lower() in taken:
            digest = hashlib.sha256(student.encode()).hexdigest()
            short = name.encode()[:_LONGEST].decode(errors="ignore")
            name = f"{short}-{digest[:10]}"
            if name.lower() in taken:  # only a deliberate clash gets here
                name = f"{short}-{digest}"
        taken.add(name.lower())
        names[student] = f"{name}.txt"
    return names


def gradebook_status(result: SubmissionResult) -> tuple[str, list[str]]:
    """The status and problems cells of ``result``'s row in ``grades.csv``: ``error`` when
    it could not be run at all; ``graded`` when every board ran and its output was read;
    otherwise how boards failed (``crashed+timeout``), with the boards of each
    (``crashed on public, hidden-2``) after the submission's own problems."""
    problems = list(result.problems)
    if result.status != "graded":
        return result.status, problems
    kinds = []
    for kind, phrase in _FAILED.items():
        boards = [t.name for t in result.tests if t.status == kind]
        if boards:
            kinds.append(kind)
            problems.append(f"{phrase} {', '.join(boards)}")
    return "+".join(kinds) or "graded", problems


def late_text(result: SubmissionResult) -> str:
    """The late cell of a row: days and penalty under a ``[late]`` policy, or the LMS's own
    ``LATE`` mark where there is no policy to apply."""
    late = result.extra.get("late")
    if isinstance(late, dict):
        days = int(late.get("days", 0))
        if not days:
            return ""
        return f"{days} day{'s' if days != 1 else ''} (-{float(late.get('penalty', 0)):g}%)"
    return "LATE" if result.extra.get("lms_late") else ""


def gradebook_text(
    results: Sequence[SubmissionResult], names: Mapping[str, str] | None = None
) -> str:
    """``grades.csv``: a row per student, the total, what happened (``gradebook_status``),
    each board, the problems, the isolation level its runs had, the student's name (from
    the manifest, ``names``) and how late the work was (``late_text``)."""
    boards: list[str] = []
    for result in results:
        for test in result.tests:
            if test.name not in boards:
                boards.append(test.name)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([cell(n) for n in ("student", "score", "max_score", "status", *boards,
                                       "problems", "isolation", "name", "late")])  # fmt: skip
    for r in sorted(results, key=lambda r: r.student):
        by_name = {t.name: f"{t.score:.2f}" for t in r.tests}
        status, problems = gradebook_status(r)
        # Text through cell(): a student id or a problem quoting a file name is the
        # student's to choose. The scores are the grader's numbers and stay numbers.
        row = [cell(r.student), f"{r.score:.2f}", f"{r.max_score:g}", cell(status)]
        marks = [by_name.get(n, "") for n in boards]
        name = (names or {}).get(r.student, "")
        writer.writerow([*row, *marks, cell("; ".join(problems)), cell(r.isolation), cell(name),
                         cell(late_text(r))])  # fmt: skip
    return text.getvalue()


@dataclass(frozen=True)
class Tally:
    """A row of ``mistakes.csv``. ``kind`` ``mistake``: a named mistake (``entry`` is its
    name, ``board`` empty), made by ``students`` of the ``out_of`` students whose answer was
    read on some board, on ``boards`` boards in all. ``kind`` ``entry``: one entry of one
    board (``entry`` its label, ``square 12``) that ``students`` of the ``out_of`` students
    whose answer on that board was read got wrong (``boards`` 0)."""

    kind: str
    board: str
    entry: str
    students: int
    out_of: int
    boards: int = 0
    description: str = ""

    def cells(self) -> list[str]:
        boards = str(self.boards) if self.kind == "mistake" else ""
        return [cell(self.kind), cell(self.board), cell(self.entry), str(self.students),
                str(self.out_of), boards, cell(self.description)]  # fmt: skip


# Boards whose output was read and marked: only they can show mistakes or wrong entries.
_READ = ("passed", "partial", "wrong")


def _natural(label: str) -> list[tuple[int, str]]:
    """``square 9`` before ``square 10``."""
    return [(int(p), "") if p.isdigit() else (-1, p) for p in re.split(r"(\d+)", label)]


def tally_mistakes(
    results: Sequence[SubmissionResult], descriptions: Mapping[str, str] | None = None
) -> list[Tally]:
    """What the class got wrong: each named mistake with how many students made it (each
    once, on however many boards), then each board's entries with how many students got
    them wrong; each kind by count, most first. A mistake's ``description`` is its plain
    words from ``descriptions``, else the generic diagnoses', else its name."""
    words = {**GENERIC_MISTAKES, **(descriptions or {})}
    read_any = 0
    read_on: dict[str, int] = {}
    made: dict[str, set[str]] = {}
    runs: dict[str, int] = {}
    missed: dict[tuple[str, str], set[str]] = {}
    order: dict[str, int] = {}  # the boards in the order the results list them
    for result in results:
        tests: list[TestResult] = [t for t in result.tests if t.status in _READ]
        read_any += bool(tests)
        for test in tests:
            order.setdefault(test.name, len(order))
            read_on[test.name] = read_on.get(test.name, 0) + 1
            for name in set(test.mistakes):
                made.setdefault(name, set()).add(result.student)
                runs[name] = runs.get(name, 0) + 1
            for label in set(test.wrong):
                missed.setdefault((test.name, label), set()).add(result.student)
    mistakes = [
        Tally("mistake", "", name, len(students), read_any, runs[name], words.get(name, name))
        for name, students in made.items()
    ]
    mistakes.sort(key=lambda t: (-t.students, -t.boards, t.entry))
    entries = [
        Tally("entry", board, label, len(students), read_on[board])
        for (board, label), students in missed.items()
    ]
    entries.sort(key=lambda t: (-t.students, order[t.board], _natural(t.entry)))
    return mistakes + entries


def mistakes_text(rows: Sequence[Tally]) -> str:
    """``mistakes.csv``: ``MISTAKES_HEADER``, then a row per ``Tally``."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(MISTAKES_HEADER)
    writer.writerows(row.cells() for row in rows)
    return text.getvalue()


def write_reports(
    out: Path,
    results: Sequence[SubmissionResult],
    title: str = "",
    descriptions: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
    canvas_column: str = "",
    roster: Roster | None = None,
) -> list[str]:
    """``feedback/<student>.txt``, ``histogram.txt``, ``mistakes.csv``, the LMS gradebooks
    (``_exports``: Canvas's with ``canvas_column`` as its assignment's header, else the
    title, and the SIS ids of ``roster``) and ``grades.csv`` in ``out``, each replaced
    atomically, the gradebook last. ``mistakes.csv`` is written only when the class made
    some mistake or missed some entry (a batch where every run was right, or none was read,
    has none). A feedback file that cannot be written does not stop the others: what went
    wrong is returned, one line per file, for the summary, and after it what the LMS
    gradebooks cannot carry (``canvas_notes``, ``moodle_notes``).

    Everything in ``out`` and ``out/feedback`` (the pages ``write_html_reports`` left
    unsynced too) is made durable at once just before the gradebook, which is synced on its
    own: a gradebook that survives a power cut means every report before it did."""
    problems: list[str] = []
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    files = feedback_names(r.student for r in results)
    for r in results:
        try:
            write_atomic(feedback / files[r.student], feedback_text(r, title), synced=False)
        except OSError as err:
            problems.append(f"feedback of {r.student} not written: {err}")
    maximum = max((r.max_score for r in results), default=0.0)
    write_atomic(
        out / "histogram.txt",
        "\n".join(histogram([r.score for r in results], maximum)) + "\n",
        synced=False,
    )
    tally = tally_mistakes(results, descriptions)
    # The csv module ends rows with CRLF; newline="" keeps them as they are.
    # Always written, a header alone when no one made a named mistake, so that a TA's
    # spreadsheet or script finds the file in every batch.
    write_atomic(out / MISTAKES, mistakes_text(tally), newline="", synced=False)
    # The LMS's own layouts (``_exports``), then the gradebook, last.
    column = canvas_column or title or (results[0].assignment if results else "score")
    students = roster.students if roster is not None else ()
    write_atomic(out / CANVAS_FILE, canvas_gradebook(results, column, names, students),
                 newline="", synced=False)  # fmt: skip
    write_atomic(out / MOODLE_FILE, moodle_gradebook(results, names), newline="", synced=False)
    sync_folders(feedback, out)
    write_atomic(out / "grades.csv", gradebook_text(results, names), newline="")
    problems += canvas_notes(results, column, names, roster, column_given=bool(canvas_column))
    return problems + moodle_notes(results)
