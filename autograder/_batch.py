"""Grading a batch: a folder of submissions, graded in parallel, each result written as it
finishes so that an interrupted batch resumes without losing or redoing anything."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from ._answers import AnswerSource, policy_judge, with_own_board
from ._archives import ArchiveError, Caps, is_archive, unpacked
from ._assignments import Assignment, Limits, course_settings_file, load_assignment
from ._cases import TestCase, mistake_words
from ._errors import UsageError
from ._exports import roster_again
from ._files import (
    make_folder,
    remove_temporaries,
    remove_tree,
    sync_folder,
    tree_files,
    write_atomic,
)
from ._html import submission_html, write_html_reports
from ._isolation import detect_isolation
from ._late import apply_late, lateness
from ._lms import BLACKBOARD, Submission, find_submissions, unused_label
from ._manifest import Manifest
from ._reports import OUTPUTS, output_name, summary_text, write_reports
from ._results import SubmissionResult
from ._roster import Roster
from ._run import ABANDONED
from ._sandbox import Isolation
from ._similarity import submission_tokens, write_similarity
from ._submission import (
    MAX_SUBMISSION_FILES,
    MAX_SUBMISSION_MB,
    SubmissionError,
    grade_submission,
)
from ._svg import shared_drawings

__all__ = [
    "META",
    "RESULTS",
    "Batch",
    "board_digests",
    "current_results",
    "fingerprint",
    "grade_folder",
    "gradebook_names",
    "kept_exports",
    "mistake_words",
    "read_results",
]

RESULTS = "results.jsonl"
META = "batch.json"
# An LMS download given as one archive: what it may unpack to (students' own archives
# inside it are unpacked later, each with a submission's caps).
DOWNLOAD_CAPS = Caps(500 << 20, 50_000)
# Pages made while a batch runs are kept until its end, up to this much memory: the pages
# of 400 to 2,000 students (30 to 150 kB each).
EARLY_PAGES_MB = 64


@dataclass(frozen=True)
class Batch:
    """A finished batch: every result (resumed ones included) and the notes on the folder."""

    out: Path
    results: tuple[SubmissionResult, ...]
    notes: tuple[str, ...]
    graded_now: int
    isolation: str = ""  # how this run kept submissions apart (``Isolation.describe``)
    # The plain words of each named mistake the cases know (``mistake_words``).
    mistakes: Mapping[str, str] = field(default_factory=dict)

    def summary(self) -> str:
        return summary_text(self.results, self.notes, self.mistakes)


def fingerprint(
    assignment: Assignment, cases: Sequence[TestCase], manifest: Manifest | None = None
) -> str:
    """Changes whenever the answer key does, so a resume never mixes two keys."""
    digest = hashlib.sha256(assignment.name.encode())
    for case in cases:
        digest.update(json.dumps([case.name, case.points, case.board], sort_keys=True).encode())
        # Not repr(): the accepted actions are frozensets, whose order (and so whose repr)
        # changes with the interpreter's hash seed; to_json sorts them.
        digest.update(json.dumps(case.expected.to_json(), sort_keys=True).encode())
    if manifest is not None:
        digest.update(json.dumps(manifest.to_json(), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def board_digests(cases: Sequence[TestCase]) -> dict[str, str]:
    """Which board each case handed the programs, by name, as ``batch.json`` keeps it: a
    program's kept output can be marked again on that board only (another ``[tests]
    seed`` gives ``hidden-1`` another board)."""
    return {
        case.name: hashlib.sha256(json.dumps(case.board, sort_keys=True).encode()).hexdigest()[:16]
        for case in cases
    }


def manifest_digest(manifest: Manifest | None) -> str | None:
    """Which manifest a batch was graded with (``None``: none), as ``batch.json`` keeps it:
    its outputs were printed on that manifest's boards, and can be marked on no others."""
    if manifest is None:
        return None
    return hashlib.sha256(json.dumps(manifest.to_json(), sort_keys=True).encode()).hexdigest()[:16]


def read_results(path: Path) -> list[SubmissionResult]:
    """The results in a JSON-lines file. A last line cut short by a kill is dropped (and cut
    off the file), so the submission it was for is graded again. A line counts only with
    its newline: one cut just before it would otherwise run into the next line appended."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    results, good = [], 0
    for line in raw.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            break  # the last line, torn
        try:
            results.append(SubmissionResult.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            raise UsageError(str(path), f"line {len(results) + 1} is not a result") from None
        good += len(line)
    if good < len(raw):
        with open(path, "r+b") as file:
            file.truncate(good)
    return results


def _log_line(result: SubmissionResult) -> str | None:
    """``result`` as a line of the log, or ``None`` if it would not read back on --resume
    (which would then stop at that line for good)."""
    try:
        line = json.dumps(result.to_json())
        SubmissionResult.from_json(json.loads(line))
    except Exception:
        return None
    return line


def _unloggable(result: SubmissionResult) -> SubmissionResult:
    return SubmissionResult.failed(
        str(result.student),
        str(result.submission),
        str(result.assignment),
        float(result.max_score),
        "grader error: the result could not be recorded",
    )


def _keep_outputs(out: Path, result: SubmissionResult) -> None:
    """What the program printed on each board, in ``outputs/`` (``regrade`` marks it again
    without running anything). A file that cannot be written costs only that regrade."""
    printed = {t.name: t.output for t in result.tests if t.output}
    if not printed:
        return
    folder = out / OUTPUTS
    with contextlib.suppress(OSError, ValueError):
        folder.mkdir(exist_ok=True)
        write_atomic(folder / output_name(result.student), json.dumps(printed) + "\n")


class _Progress:
    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total, self.done, self.errors = total, 0, 0
        self.stream = stream if stream is not None and stream.isatty() else None

    def update(self, result: SubmissionResult) -> None:
        self.done += 1
        self.errors += result.status != "graded"
        if self.stream is None:
            return
        width = 30
        filled = width * self.done // max(1, self.total)
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(
            f"\r  [{bar}] {self.done}/{self.total} graded, {self.errors} could not be run"
        )
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


@dataclass(frozen=True)
class _Work:
    """A submission to grade: under whose name, on which cases (or why it cannot be)."""

    submission: Submission
    student: str
    board: dict | None = None  # the student's own board, from the manifest
    refused: str = ""


def gradebook_names(
    results: Sequence[SubmissionResult], manifest: Manifest | None
) -> dict[str, str]:
    """The name beside each student in the gradebooks: the manifest's, else the one their
    LMS download gave (kept with each result), so that a gradebook of ids can be read."""
    if manifest is not None:
        return manifest.names()
    return {r.student: r.extra["name"] for r in results if isinstance(r.extra.get("name"), str)}


def _left_out(out: Path, gone: Sequence[str]) -> None:
    """Keep in ``batch.json`` which students' results are no longer reported (their
    submissions are gone from the folder), for ``regrade``."""
    meta = _read_meta(out / META) or {}
    if meta.get("left_out", []) != list(gone):
        write_atomic(out / META, json.dumps({**meta, "left_out": list(gone)}) + "\n")


def current_results(out: Path) -> list[SubmissionResult]:
    """The results a batch folder reports: the last one logged for each student (a
    submission graded again on --resume), without those ``batch.json`` leaves out."""
    left_out = set((_read_meta(out / META) or {}).get("left_out", []))
    latest = {r.student: r for r in read_results(out / RESULTS)}
    return [r for s, r in latest.items() if s not in left_out]


def _s(items: Collection[object]) -> str:
    return "" if len(items) == 1 else "s"


def _digest(submission: Submission) -> str:
    """What ``submission`` holds, as a hash of its regular files' names and bytes (``""``
    where that cannot be told: a file that cannot be read, or more than a submission may
    hold): a resume tells a submission replaced since it was graded. Links and special
    files are not followed (a part linked to ``/dev/zero`` would never end)."""
    digest = hashlib.sha256()
    budget = MAX_SUBMISSION_MB << 20
    try:
        if submission.parts:
            files = list(submission.parts)
        elif submission.path.is_dir() and not submission.path.is_symlink():
            files = list(tree_files(submission.path))
        else:
            files = [(submission.path.name, submission.path)]
        if len(files) > MAX_SUBMISSION_FILES:
            return ""
        for name, path in files:
            info = path.lstat()
            budget -= info.st_size
            if not stat.S_ISREG(info.st_mode) or budget < 0:
                return ""
            digest.update(f"{name}\0{info.st_size}\0".encode("utf-8", "surrogateescape"))
            with open(path, "rb") as file:
                while chunk := file.read(1 << 20):
                    digest.update(chunk)
    except OSError:
        return ""
    return digest.hexdigest()[:16]


def _listed(names: Sequence[str], shown: int = 8) -> str:
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def _times_notes(
    assignment: Assignment, assigned: Sequence[_Work], times: Mapping[str, datetime]
) -> list[str]:
    """What a times file (``grade --times``) did not do: its rows that name no submission
    (a mistyped id counts its student on time); the students it has no time for, who count
    on time unless the LMS says. (An assignment with no ``[late]`` policy refuses it.)"""
    named = {w.student for w in assigned} | {w.submission.student for w in assigned}
    notes = []
    if strangers := sorted(set(times) - named):
        notes.append(f"--times: no submission for {_listed(strangers)}")
    untimed = sorted(w.student for w in assigned
                     if w.student not in times and w.submission.student not in times
                     and not w.submission.late and w.submission.lms != BLACKBOARD)  # fmt: skip
    if untimed:
        notes.append(f"--times: no time for {_listed(untimed)}: counted as on time")
    return notes


@contextlib.contextmanager
def _submitted(submission: Submission) -> Iterator[Path]:
    """What is graded of ``submission``: its entry, or for a submission in parts (Moodle's
    download without a folder per student) a temporary folder of the grader's named as
    Moodle names a student's folder, holding a copy of each part under its original name,
    for as long as the ``with`` lasts. Parts are held to a submission's caps before
    anything is copied, and must be files, not links: the download is not the grader's."""
    if not submission.parts:
        # A link is graded nowhere else (one inside a folder is left out, an archive holding
        # one is refused): here it would grade another's work, or any file, under its name.
        if submission.path.is_symlink():
            raise SubmissionError(f"{submission.path.name}: a symbolic link, so it is not "
                                  "graded; put the submission itself in the folder")  # fmt: skip
        yield submission.path
        return
    name = submission.path.name
    if len(submission.parts) > MAX_SUBMISSION_FILES:
        raise SubmissionError(f"{name}: more than {MAX_SUBMISSION_FILES} files and folders; "
                              "submit only the program and what it needs")  # fmt: skip
    limit = MAX_SUBMISSION_MB << 20
    too_large = SubmissionError(f"{name}: larger than {MAX_SUBMISSION_MB} MB")
    size = 0
    for _, part in submission.parts:
        try:
            info = part.lstat()
        except OSError as err:
            raise SubmissionError(f"{part.name}: cannot be read ({err.strerror})") from None
        if not stat.S_ISREG(info.st_mode):
            raise SubmissionError(f"{part.name}: not a file (a link?), so it is not graded")
        size += info.st_size
        if size > limit:
            raise too_large
    top = Path(tempfile.mkdtemp(prefix="autograder-parts-"))
    try:
        folder = top / name
        folder.mkdir()
        left = limit
        for original, part in submission.parts:
            left -= _copy_part(part, folder / original, left)
            if left < 0:  # a part that grew since it was measured
                raise too_large
        yield folder
    finally:
        remove_tree(top)


def _copy_part(part: Path, target: Path, most: int) -> int:
    """Copy the file ``part`` (never through a link) to the new file ``target``, reading at
    most ``most`` + 1 bytes of it; how many bytes were copied."""
    try:
        source = os.open(part, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as err:
        raise SubmissionError(f"{part.name}: cannot be read ({err.strerror})") from None
    with open(source, "rb") as file, open(target, "xb") as copy:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise SubmissionError(f"{part.name}: not a file, so it is not graded")
        data = file.read(most + 1)
        copy.write(data)
    return len(data)


def _tokens(submission: Submission) -> list[str]:
    """The tokens of a submission for the similarity report, a submission in parts put
    together first (``[]`` when it cannot be read)."""
    try:
        with _submitted(submission) as path:
            return submission_tokens(path)
    except (SubmissionError, OSError):
        return []


def _grade_one(
    assignment: Assignment,
    work: _Work,
    cases: Sequence[TestCase],
    answers: AnswerSource | None,
    limits: Limits,
    isolation: Isolation,
    hidden: Sequence[Path],
    times: Mapping[str, datetime] | None = None,
) -> SubmissionResult:
    max_score = sum(c.points for c in cases)

    def failed(problem: str) -> SubmissionResult:
        path = str(work.submission.path)
        return SubmissionResult.failed(work.student, path, assignment.name, max_score, problem)

    if work.refused:
        return failed(work.refused)
    try:
        if work.board is not None:
            assert answers is not None  # grade_folder asks for one with a manifest
            cases = with_own_board(answers.own_board_case(assignment, work.board), cases)
        with _submitted(work.submission) as path:
            result = grade_submission(
                assignment, path, cases, student=work.student, limits=limits,
                isolation=isolation, hidden=hidden, policy=policy_judge(answers, assignment),
            )  # fmt: skip
    except SubmissionError as err:  # a submission in parts that cannot be put together
        return failed(str(err))
    except Exception as err:  # a grader bug on one submission must not stop the batch
        return failed(f"grader error: {err.__class__.__name__}: {err}")
    if work.submission.parts:  # graded in a temporary folder: named as the download has it
        result = replace(result, submission=str(work.submission.path))
    if work.student != work.submission.student:
        result = replace(result, extra={**result.extra, "submitted_as": work.submission.student})
    if work.submission.late:
        result = replace(result, extra={**result.extra, "lms_late": True})
    if assignment.late is not None:
        known = times or {}
        submitted = known.get(work.student, known.get(work.submission.student))
        lms = work.submission
        late = lateness(assignment.late, submitted=submitted,
                        lms_time=lms.order if lms.lms == BLACKBOARD else "",
                        lms_late=lms.late)  # fmt: skip
        result = apply_late(result, assignment.late, late)
    return result


def _assign(
    submissions: Sequence[Submission], manifest: Manifest | None
) -> tuple[list[_Work], list[str]]:
    """Who each submission belongs to. With a manifest: the student it names (by id or
    email), whose board it is graded on; a submission naming nobody, or a second one for
    the same student, is an error result, so it shows in the gradebook. A submission with
    a ``problem`` (a name that fits two students) is an error result either way, and is
    never matched to anyone: it cannot take a student's place."""
    if manifest is None:
        return [_Work(s, s.student, refused=s.problem) for s in submissions], []
    work: list[_Work] = []
    notes: list[str] = []
    taken: dict[str, Submission] = {}
    # A submission named exactly by a student's id comes first, so it is the one graded
    # when the same student also hands one in under their email.
    ids = {s.id.lower() for s in manifest.students}
    ordered = sorted(submissions, key=lambda s: s.student.lower() not in ids)
    for submission in ordered:
        if submission.problem:  # find_submissions noted it already
            work.append(_Work(submission, submission.student, refused=submission.problem))
            continue
        student = manifest.find(submission.student)
        broken = manifest.why_left_out(submission.student)
        if student is None and broken is not None:
            why = (
                f"{submission.path.name}: the entry of student {submission.student} in the "
                f"manifest {manifest.source} was left out ({broken}), so there is no board "
                "to grade it on"
            )
            work.append(_Work(submission, submission.student, refused=why))
            notes.append(f"not graded: {why}")
        elif student is None:
            why = (
                f"{submission.path.name}: matches no student in the manifest "
                f"{manifest.source} (by id or email), so there is no board to grade it on"
            )
            work.append(_Work(submission, submission.student, refused=why))
            notes.append(f"not graded: {why}")
        elif student.id in taken:
            why = (
                f"{submission.path.name}: student {student.id} also submitted "
                f"{taken[student.id].path.name}, which is graded instead"
            )
            work.append(_Work(submission, submission.student, refused=why))
            notes.append(f"not graded: {why}")
        else:
            taken[student.id] = submission
            work.append(_Work(submission, student.id, board=student.board))
    missing = [s.id for s in manifest.students if s.id not in taken]
    if missing:
        shown = ", ".join(missing[:20]) + (" ..." if len(missing) > 20 else "")
        notes.append(f"no submission from {len(missing)} students of the manifest: {shown}")
    notes += [f"manifest: {p}" for p in manifest.problems]
    return _distinct_rows(work), notes


def _manifest_matches(manifest: Manifest, folder: Path, assigned: Sequence[_Work]) -> list[str]:
    """How many submissions the manifest gives a board to: none is an error (the wrong
    manifest, or the wrong folder: a gradebook of zeros helps nobody), some a note that
    says whom it missed."""
    matched = [w for w in assigned if w.board is not None]
    if assigned and not matched:
        names = sorted(w.submission.path.name for w in assigned)
        raise UsageError(
            manifest.source,
            f"matches none of the {len(assigned)} submissions in {folder} by id or email "
            f"({_listed(names, 5)}), so no board to grade them on; is it the manifest of "
            "these students' variants?",
        )
    missed = sorted(w.submission.path.name for w in assigned if w.board is None)
    if not missed:
        return []
    return [f"the manifest matched {len(matched)} of {len(assigned)} submissions; "
            f"not matched: {_listed(missed)}"]  # fmt: skip


def _distinct_rows(work: list[_Work]) -> list[_Work]:
    """Results are keyed by student: a refused row whose label equals a graded student's id
    (possible only when names were chosen to) gets a suffix rather than replacing the
    student's row in the gradebook, or being taken for it by --resume."""
    taken = {w.student for w in work if not w.refused}
    return [replace(w, student=unused_label(w.student, taken)) if w.refused else w for w in work]


def _holds_results(path: Path) -> bool:
    """Whether ``path`` is a folder of results ``grade`` wrote, or holds one."""
    if not path.is_dir() or path.is_symlink():
        return False
    if (path / META).is_file() and (path / RESULTS).is_file():
        return True
    with contextlib.suppress(OSError):
        for inner in path.iterdir():
            if inner.is_dir() and (inner / META).is_file() and (inner / RESULTS).is_file():
                return True
    return False


def _inside(out: Path, folder: Path) -> Path | None:
    """The entry of the submissions ``folder`` that holds the results folder ``out`` (so
    that no report of an earlier run is taken for a student), or ``None``; ``out`` must
    not be ``folder`` itself."""
    where, home = out.resolve(), folder.resolve()
    if where == home:
        raise UsageError(str(out), "is the folder of submissions: the results need a folder "
                         "of their own (--out)")  # fmt: skip
    if home not in where.parents:
        return None
    return home / where.relative_to(home).parts[0]


def _read_meta(meta: Path) -> dict | None:
    """What ``batch.json`` says, or ``None`` when it is missing or unreadable."""
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _limits_said(limits: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in limits.items() if isinstance(v, int | float))


def kept_exports(
    kept: Mapping[str, Any], canvas_column: str | None, roster: Roster | None
) -> tuple[dict[str, Any], str | None, Roster | None, list[str]]:
    """What a batch's gradebooks are written with, and ``batch.json`` keeps for the next
    ``--resume`` or ``regrade``: the Canvas column and the roster given, else those ``kept``
    (a batch's ``batch.json``) names, the roster read again from its path; and the course
    settings in effect (their path), which regrade marks with again. Returns those entries,
    the column, the roster and notes (a kept roster that can no longer be read)."""
    if canvas_column is None and isinstance(kept.get("canvas_column"), str):
        canvas_column = kept["canvas_column"]
    roster_path = kept.get("roster")
    notes: list[str] = []
    if roster is not None:
        roster_path = str(Path(roster.source).resolve())
    elif isinstance(roster_path, str):
        roster, notes = roster_again(roster_path)
    settings = course_settings_file()
    entries = {"canvas_column": canvas_column, "roster": roster_path,
               "course": str(settings.resolve()) if settings is not None else None}  # fmt: skip
    return entries, canvas_column, roster, notes


def _prepare_out(
    out: Path, key: str, name: str, resume: bool, manifest: str | None = None, *,
    submissions: str = "", limits: Limits | None = None,
    exports: Mapping[str, Any] | None = None,
) -> list[str]:  # fmt: skip
    """Make ``out`` ready for results of this assignment and answer key, of the folder (or
    download) ``submissions`` graded under ``limits``; return notes for the summary.
    ``batch.json`` is written (atomically) before ``results.jsonl`` exists, so a kill at any
    point leaves a folder that ``--resume`` can continue, under the same limits (another
    ``--timeout`` would mix two in one gradebook); on another folder it is said."""
    meta, log = out / META, out / RESULTS
    if log.exists() and not resume:
        raise UsageError(
            str(out), "already holds results; pass --resume to continue, or choose another --out"
        )
    make_folder(out, "the results")
    for folder in (out, out / "feedback", out / OUTPUTS):  # what a kill mid-write left
        remove_temporaries(folder)
    wanted: dict[str, Any] = {"assignment": name, "answer_key": key, "manifest": manifest,
                              "submissions": submissions,
                              "limits": dataclasses.asdict(limits) if limits else None,
                              **(exports or {})}  # fmt: skip
    notes: list[str] = []
    if resume:
        old = _read_meta(meta)
        if old == wanted:
            return notes  # nothing to write: a kill here cannot hurt batch.json
        if old is not None and (old.get("assignment"), old.get("answer_key")) == (name, key):
            # (a batch.json of an earlier version names neither submissions nor limits)
            if old.get("submissions", submissions) != submissions and log.exists():
                # (a folder moved, or a download fetched again: the results of submissions
                # not in it are left out, and those changed graded again, as on any resume)
                notes.append(f"resumed on {submissions}, where the results were of "
                             f"{old['submissions']}")  # fmt: skip
            if old.get("limits") not in (None, wanted["limits"]) and log.exists():
                raise UsageError(
                    str(out), f"was graded under other limits ({_limits_said(old['limits'])}); "
                    "resume with the same --timeout, or choose another --out",
                )  # fmt: skip
            # (a batch from before batch.json named its manifest: the key covers it)
            write_atomic(meta, json.dumps(wanted) + "\n")
            return notes
        done = read_results(log)
        if old is not None and done:  # (with no results there is nothing to mix up)
            raise UsageError(
                str(out), "was graded with another assignment or answer key; cannot resume"
            )
        if done:
            # No readable batch.json, yet results. The grader cannot cause that (batch.json
            # is replaced atomically and never removed), so something outside did: a
            # deleted file, or a torn one from an older version of the grader, which wrote
            # it in place. Refusing would leave no way to resume short of grading everything
            # again, so resume, but only on results of this very assignment, and say in the
            # summary that their answer key could not be checked.
            others = sorted({r.assignment for r in done} - {name})
            if others:
                raise UsageError(
                    str(out),
                    f"holds results of {', '.join(others)} and no readable {META}; cannot resume",
                )
            notes.append(
                f"{META} was missing or unreadable: resumed on the {len(done)} results in "
                f"{RESULTS} (all for {name}) without checking their answer key"
            )
        # else nothing was graded yet (a kill before the first result): start afresh.
    write_atomic(meta, json.dumps(wanted) + "\n")
    return notes


@contextlib.contextmanager
def _unpacked_download(archive: Path) -> Iterator[Path]:
    """An LMS download unpacked into a temporary folder (removed afterwards). One top
    folder is unwrapped (a teaching assistant's zipped ``submissions/``) unless its name is
    an LMS name (a Moodle download of one student's folder)."""
    try:
        with unpacked(archive, DOWNLOAD_CAPS, unwrap=False,
                      prefix="autograder-download-") as folder:  # fmt: skip
            entries = list(folder.iterdir())
            if len(entries) == 1 and entries[0].is_dir():
                found, _ = find_submissions(folder)
                if not any(s.lms for s in found):
                    folder = entries[0]
            yield folder
    except ArchiveError as err:
        raise UsageError(str(archive), str(err).removeprefix(f"{archive.name}: ")) from None


def _shown_path(path: Path, folder: Path, unpacked_from: Path | None) -> str:
    """How a result names its submission: as it is, or inside the download it came from."""
    if unpacked_from is None:
        return str(path)
    try:
        return f"{unpacked_from}/{path.relative_to(folder).as_posix()}"
    except ValueError:
        return str(path)


def _shown_as(
    result: SubmissionResult, folder: Path, unpacked_from: Path | None
) -> SubmissionResult:
    if unpacked_from is None:
        return result
    return replace(result, submission=_shown_path(Path(result.submission), folder, unpacked_from))


def _code_of(
    work: Sequence[_Work], folder: Path, unpacked_from: Path | None
) -> list[tuple[str, Path, str]]:
    """What the similarity report reads: each graded student's submission."""
    return [
        (w.student, w.submission.path, _shown_path(w.submission.path, folder, unpacked_from))
        for w in work
        if not w.refused
    ]


class _EarlyReports:
    """The reports' per-student share of the work (a student's page, the tokens of their
    code for the similarity report), done as each result is logged, while the other
    submissions run, rather than all of it after the last one. The reports are still
    written at the end from the whole log; what is done here is only used there for the
    very result it was made from, and anything that fails here is simply done again there,
    where a failure is reported as before. The pages kept are bounded (``EARLY_PAGES_MB``):
    a larger class's later pages are made at the end, as before."""

    def __init__(self, assignment: Assignment, words: Mapping[str, str],
                 submissions: Mapping[str, Submission]) -> None:  # fmt: skip
        self.assignment = assignment
        self.words = words
        self.submissions = submissions
        self.pages: dict[str, tuple[SubmissionResult, str]] = {}
        self.tokens: dict[str, list[str]] = {}
        self._room = int(EARLY_PAGES_MB * (1 << 20))  # bytes of pages still to keep

    def prepare(self, result: SubmissionResult) -> None:
        student = result.student
        if self._room > 0:
            with contextlib.suppress(Exception):
                page = submission_html(result, self.assignment, self.words)
                self.pages[student] = (result, page)
                self._room -= sys.getsizeof(page)
        submission = self.submissions.get(student)
        if submission is not None:
            with contextlib.suppress(Exception):
                self.tokens[student] = _tokens(submission)


def grade_folder(
    name: str,
    folder: str | Path,
    out: str | Path,
    *,
    answers: AnswerSource | None,
    workers: int = 1,
    resume: bool = False,
    cases: Sequence[TestCase] | None = None,
    limits: Limits | None = None,
    progress: TextIO | None = None,
    on_result: Callable[[SubmissionResult], None] | None = None,
    manifest: Manifest | None = None,
    isolation: Isolation | str | None = None,
    times: Mapping[str, datetime] | None = None,
    unpacked_from: Path | None = None,
    canvas_column: str | None = None,
    roster: Roster | None = None,
) -> Batch:
    """Grade every submission in ``folder`` into ``out`` (``results.jsonl``, then the
    reports). The test ``cases`` come from ``answers`` (public, edge and hidden boards)
    unless given; with a ``manifest`` the answers also give each student's own board, which
    takes the public board's place. No program may read the answer source's material.
    ``answers`` has no default, so a caller always says where the answers come from:
    ``None`` only with precomputed ``cases`` (and no manifest). ``isolation``: a level name,
    or the strongest this machine allows (``_isolation``). ``times``: when each student
    submitted (``_late``), for the assignment's ``[late]`` policy.

    ``folder`` may be an LMS download as one archive (``submissions.zip``, ``.tar.gz``): it
    is unpacked (at most ``DOWNLOAD_CAPS``) into a temporary folder, graded there and
    removed; ``unpacked_from`` is then that archive, and results name each submission
    inside it (``submissions.zip/alice.py``), so that ``--resume`` on the same archive finds
    them whatever folder it is unpacked to.

    ``canvas_column`` heads the assignment's column of ``grades-canvas.csv`` and ``roster``
    fills its SIS ids (``_exports``); ``batch.json`` keeps both (the roster as its path), and
    ``--resume`` and ``regrade`` use them when given none."""
    assignment = load_assignment(name)
    folder, out = Path(folder), Path(out)
    if is_archive(folder):
        with _unpacked_download(folder) as inner:
            return grade_folder(
                name, inner, out, answers=answers, workers=workers, resume=resume,
                cases=cases, limits=limits, progress=progress, on_result=on_result,
                manifest=manifest, isolation=isolation, times=times, unpacked_from=folder,
                canvas_column=canvas_column, roster=roster,
            )  # fmt: skip
    if folder.is_file():
        raise UsageError(
            str(folder),
            "is a file: grade takes a folder (or an LMS zip) with one file or folder per "
            "student; to grade one program, use check",
        )
    if not folder.is_dir():
        raise UsageError(str(folder), "no such folder of submissions")
    if answers is None and (cases is None or manifest is not None):
        raise ValueError("grade_folder needs an answer source for these cases")
    if cases is None:
        assert answers is not None
        cases = answers.cases(assignment)
    limits = limits or assignment.limits
    if manifest is not None and manifest.assignment != name:
        raise UsageError(
            manifest.source, f"is a manifest for {manifest.assignment!r}, not {name!r}"
        )
    if not isinstance(isolation, Isolation):
        isolation = detect_isolation(isolation)  # before anything is written
    # Besides the answer material, a program must not see the other submissions, the
    # gradebook or the manifest.
    hidden = [folder, out, *([Path(manifest.source)] if manifest is not None else [])]
    hidden += [unpacked_from] if unpacked_from is not None else []
    if answers is not None:
        hidden += answers.secret_paths()
    holder = _inside(out, folder)
    submissions, found_notes = find_submissions(folder, exclude=holder)
    if holder is not None and holder.resolve() != out.resolve():
        found_notes.append(f"skipped {holder.name}: it holds the results (--out {out})")
    # The results of an earlier grade into another folder inside this one: no student's
    # (said in the summary, so that a student who hands in such a folder is not lost).
    earlier = [s for s in submissions if _holds_results(s.path)]
    submissions = [s for s in submissions if s not in earlier]
    found_notes += [f"skipped {s.path.name}: the results of an earlier grade ({META})"
                    for s in earlier]  # fmt: skip
    if not submissions and not resume:
        raise UsageError(str(folder), "holds no submission (one file or folder per student)")
    if times is not None and assignment.late is None:
        raise UsageError(
            "--times",
            f"{name} has no [late] policy, so submission times would change nothing; give "
            "it one in a course settings file ([late] deadline = 2026-11-20T23:59:00Z, "
            "penalty_per_day = 10; --course FILE or $AUTOGRADER_COURSE), or leave out --times",
        )
    assigned, assign_notes = _assign(submissions, manifest)
    if manifest is not None:
        assign_notes = _manifest_matches(manifest, folder, assigned) + assign_notes
    kept = (_read_meta(out / META) or {}) if resume else {}
    exports, canvas_column, roster, roster_notes = kept_exports(kept, canvas_column, roster)
    exports["boards"] = board_digests(cases)
    notes = _prepare_out(out, fingerprint(assignment, cases, manifest), name, resume,
                         manifest_digest(manifest), limits=limits,
                         submissions=str((unpacked_from or folder).resolve()),
                         exports=exports)  # fmt: skip
    notes += roster_notes + found_notes
    if resume and "course" in kept and kept["course"] != exports["course"]:
        notes.append(
            f"resumed with the course settings {exports['course'] or '(none)'}, "
            f"where the batch began with {kept['course'] or '(none)'}: the "
            "results graded before keep theirs (regrade marks all with these)"
        )
    if manifest is None and submissions and not any(s.lms for s in submissions):
        notes.append(
            "the submissions are not named as an LMS download names them, so the ids in "
            "grades-canvas.csv and grades-moodle.csv are their file names, which neither "
            "Canvas nor Moodle will match: enter the grades from grades.csv"
            if roster is None
            else "the submissions are not named as an LMS download names them, so the ids "
            "in grades-moodle.csv are their file names, which Moodle will not match "
            "(grades-canvas.csv matches them through the roster where it can)"
        )
    notes += assign_notes
    if times is not None:
        notes += _times_notes(assignment, assigned, times)
    path = out / RESULTS
    digests = {w.student: _digest(w.submission) for w in assigned}
    done = {r.student: r for r in read_results(path)} if resume else {}
    # A submission replaced since its result was logged is graded again (its new line wins
    # when the log is read); the results of submissions no longer there are left out of the
    # reports (their lines stay in the log).
    gone = sorted(s for s in done if s not in digests)
    changed = []
    for student, result in sorted(done.items()):
        logged = result.extra.get("digest", "")  # ("": logged before digests were)
        if student in digests and logged and digests[student] and logged != digests[student]:
            changed.append(student)
    if changed:
        notes.append(f"graded again: {len(changed)} submission{_s(changed)} changed since "
                     f"{'its' if len(changed) == 1 else 'their'} result was logged "
                     f"({_listed(changed)})")  # fmt: skip
    if gone:
        notes.append(f"left out of the reports: the results of {len(gone)} submission"
                     f"{_s(gone)} no longer in {unpacked_from or folder} ({_listed(gone)}); "
                     f"{RESULTS} keeps them")  # fmt: skip
    done = {s: r for s, r in done.items() if s in digests and s not in changed}
    lms_names = {w.student: w.submission.name for w in assigned if w.submission.name}
    # Which LMS named the student by the id the result carries (not where a manifest gave
    # another id): the gradebooks put a Canvas user id only in Canvas's ID column, a Moodle
    # participant number only in Moodle's Identifier.
    lms_kinds = {w.student: w.submission.lms for w in assigned
                 if w.submission.lms and w.student == w.submission.student}  # fmt: skip
    if resume:  # (regrade leaves them out too)
        _left_out(out, gone)
    todo = [w for w in assigned if w.student not in done]
    results = dict(done)
    progress_bar = _Progress(len(todo), progress)
    lock = threading.Lock()
    # A student's own board (with a manifest) names the same mistakes as the shared boards.
    words = mistake_words(cases)
    code = _code_of(assigned, folder, unpacked_from)
    early = _EarlyReports(assignment, words,
                          {w.student: w.submission for w in assigned if not w.refused})  # fmt: skip
    # A batch stopped by an error or an interrupt ends its runs under way (ABANDONED) and
    # keeps none of their results; the flag is one per process (the runs' loops read it),
    # cleared once the pool's threads are done (an interrupt during that wait leaves it set,
    # and the process is ending).
    ABANDONED.clear()
    pool = ThreadPoolExecutor(max(1, workers))
    with (
        open(path, "a", encoding="utf-8") as log,
        contextlib.ExitStack() as stack,
        shared_drawings(),  # the early pages': most students' public boards look the same
    ):

        def done_with_the_pool() -> None:
            pool.shutdown()  # (interrupted, it never gets to the next line)
            ABANDONED.clear()

        stack.callback(done_with_the_pool)
        sync_folder(out)  # results.jsonl itself, when it was just created

        def record(result: SubmissionResult) -> None:
            # What a resume compares, and the name an LMS download gives (a Moodle folder's
            # "Ana Lopez", a Canvas file's "lopezana") for the gradebooks, regrade's too.
            noted = {"digest": digests.get(result.student), "name": lms_names.get(result.student),
                     "lms": lms_kinds.get(result.student)}  # fmt: skip
            if any(noted.values()):
                extra = {k: v for k, v in noted.items() if v}
                result = replace(result, extra={**result.extra, **extra})
            _keep_outputs(out, result)  # before the log: a logged result has its outputs
            line = _log_line(result)
            if line is None:  # a result that would not read back is that submission's error
                result = _unloggable(result)
                line = json.dumps(result.to_json())
            with lock:
                log.write(line + "\n")
                log.flush()
                os.fsync(log.fileno())
                results[result.student] = result
                progress_bar.update(result)
            if on_result is not None:
                on_result(result)
            early.prepare(result)

        pending: set[Future[SubmissionResult]] = set()
        queue = list(reversed(todo))
        try:
            while queue or pending:
                # Keep a few submissions in flight, not the whole folder, so an interrupt
                # leaves little running.
                while queue and len(pending) < 2 * max(1, workers):
                    work = queue.pop()
                    pending.add(
                        pool.submit(
                            _grade_one,
                            assignment,
                            work,
                            cases,
                            answers,
                            limits,
                            isolation,
                            hidden,
                            times,
                        )
                    )
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    record(_shown_as(future.result(), folder, unpacked_from))
        except BaseException as stopped:
            running = [f for f in pending if not f.cancel() and not f.done()]
            ABANDONED.set()  # (the pool waits for its threads: their runs end now)
            if isinstance(stopped, KeyboardInterrupt) and running and progress is not None:
                progress.write(f"\nstopping: the {len(running)} submission{_s(running)} under "
                               "way will be graded again on --resume\n")  # fmt: skip
                progress.flush()
            raise
    ordered = tuple(sorted(results.values(), key=lambda r: r.student))
    # Reports are rewritten from the whole log on every run, each file atomically, so a kill
    # while writing them is repaired by --resume, which grades nothing and writes them again.
    # The pages first: the text reports end with the gradebook, the sign that all is there
    # (write_reports makes the pages durable with its own files, before the gradebook).
    (out / "feedback").mkdir(exist_ok=True)
    notes += write_html_reports(out, ordered, assignment, words, synced=False,
                                rendered=early.pages)  # fmt: skip
    early.pages.clear()
    notes += write_reports(
        out, ordered, assignment.title, words, gradebook_names(ordered, manifest),
        canvas_column or "", roster,
    )  # fmt: skip
    # For the staff only, after the gradebook: similar code never holds the grades up, and
    # --resume writes it again.
    # Submissions in parts have no path to read them from: their tokens are given.
    read = {
        w.student: _tokens(w.submission)
        for w in assigned
        if w.submission.parts and not w.refused and w.student not in early.tokens
    }
    notes += write_similarity(out, code, assignment, read={**read, **early.tokens})
    return Batch(out, ordered, tuple(notes), len(todo), isolation.describe(), words)
