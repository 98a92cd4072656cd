"""``autograder grade``: a folder of submissions, graded in parallel, each result written
as it finishes so that an interrupted batch resumes without losing or redoing anything."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ._assignments import Assignment, Limits, load_assignment
from ._cases import TestCase
from ._engine import SubmissionResult, grade_submission
from ._errors import UsageError
from ._reports import summary_text, write_reports
from ._submissions import Submission, find_submissions

__all__ = ["Batch", "grade_folder", "read_results"]

RESULTS = "results.jsonl"
META = "batch.json"


@dataclass(frozen=True)
class Batch:
    """A finished batch: every result (resumed ones included) and the notes on the folder."""

    out: Path
    results: tuple[SubmissionResult, ...]
    notes: tuple[str, ...]
    graded_now: int

    def summary(self) -> str:
        return summary_text(self.results, self.notes)


def _fingerprint(assignment: Assignment, cases: Sequence[TestCase]) -> str:
    """Changes whenever the answer key does, so a resume never mixes two keys."""
    digest = hashlib.sha256(assignment.name.encode())
    for case in cases:
        digest.update(json.dumps([case.name, case.points, case.board], sort_keys=True).encode())
        digest.update(repr(case.expected).encode())
    return digest.hexdigest()[:16]


def read_results(path: Path) -> list[SubmissionResult]:
    """The results in a JSON-lines file. A last line cut short by a kill is dropped (and cut
    off the file), so the submission it was for is graded again."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    results, good = [], 0
    for line in raw.splitlines(keepends=True):
        try:
            results.append(SubmissionResult.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            if line.endswith(b"\n"):
                raise UsageError(str(path), f"line {len(results) + 1} is not a result") from None
            break
        good += len(line)
    if good < len(raw):
        with open(path, "r+b") as file:
            file.truncate(good)
    return results


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


def _grade_one(
    assignment: Assignment,
    submission: Submission,
    cases: Sequence[TestCase],
    limits: Limits,
) -> SubmissionResult:
    try:
        return grade_submission(
            assignment, submission.path, cases, student=submission.student, limits=limits
        )
    except Exception as err:  # a grader bug on one submission must not stop the batch
        return SubmissionResult(
            student=submission.student,
            submission=str(submission.path),
            assignment=assignment.name,
            score=0.0,
            max_score=sum(c.points for c in cases),
            status="error",
            problems=(f"grader error: {err.__class__.__name__}: {err}",),
        )


def _prepare_out(out: Path, fingerprint: str, name: str, resume: bool) -> None:
    meta = out / META
    if (out / RESULTS).exists() and not resume:
        raise UsageError(
            str(out), "already holds results; pass --resume to continue, or choose another --out"
        )
    if resume and meta.exists():
        try:
            old = json.loads(meta.read_text(encoding="utf-8"))
        except ValueError:
            raise UsageError(str(meta), "not valid JSON; cannot tell what was graded") from None
        if old.get("assignment") != name or old.get("answer_key") != fingerprint:
            raise UsageError(
                str(out), "was graded with another assignment or answer key; cannot resume"
            )
    out.mkdir(parents=True, exist_ok=True)
    meta.write_text(json.dumps({"assignment": name, "answer_key": fingerprint}) + "\n")


def grade_folder(
    name: str,
    folder: str | Path,
    out: str | Path,
    *,
    workers: int = 1,
    resume: bool = False,
    cases: Sequence[TestCase] | None = None,
    limits: Limits | None = None,
    progress: TextIO | None = None,
    on_result: Callable[[SubmissionResult], None] | None = None,
) -> Batch:
    """Grade every submission in ``folder`` into ``out`` (``results.jsonl``, then the
    reports). ``cases`` default to the assignment's answer key (public, edge and hidden)."""
    assignment = load_assignment(name)
    folder, out = Path(folder), Path(out)
    if not folder.is_dir():
        raise UsageError(str(folder), "no such folder of submissions")
    if cases is None:
        from reference_solutions import answer_key

        cases = answer_key(name)
    limits = limits or assignment.limits
    _prepare_out(out, _fingerprint(assignment, cases), name, resume)
    submissions, notes = find_submissions(folder, exclude=out)
    path = out / RESULTS
    done = {r.student: r for r in read_results(path)} if resume else {}
    todo = [s for s in submissions if s.student not in done]
    results = dict(done)
    progress_bar = _Progress(len(todo), progress)
    lock = threading.Lock()
    with open(path, "a", encoding="utf-8") as log, ThreadPoolExecutor(max(1, workers)) as pool:

        def record(result: SubmissionResult) -> None:
            with lock:
                log.write(json.dumps(result.to_json()) + "\n")
                log.flush()
                os.fsync(log.fileno())
                results[result.student] = result
                progress_bar.update(result)
            if on_result is not None:
                on_result(result)

        pending: set[Future[SubmissionResult]] = set()
        queue = list(reversed(todo))
        try:
            while queue or pending:
                # Keep a few submissions in flight, not the whole folder, so an interrupt
                # leaves little running.
                while queue and len(pending) < 2 * max(1, workers):
                    pending.add(pool.submit(_grade_one, assignment, queue.pop(), cases, limits))
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    record(future.result())
        except KeyboardInterrupt:
            for future in pending:
                future.cancel()
            raise
    ordered = tuple(sorted(results.values(), key=lambda r: r.student))
    write_reports(out, ordered, assignment.title)
    return Batch(out, ordered, tuple(notes), len(todo))


def grade_command(
    name: str,
    folder: str,
    out: str | None,
    workers: int,
    resume: bool,
    timeout: float | None,
) -> str:
    """The ``grade`` verb: grade, write the reports, return the summary."""
    assignment = load_assignment(name)
    limits = assignment.limits
    if timeout is not None:
        if not 0 < timeout <= 3600:
            raise UsageError(f"--timeout {timeout:g}", "expected seconds in (0, 3600]")
        limits = limits.with_timeout(timeout)
    target = Path(out) if out else Path(f"{name}-results")
    batch = grade_folder(
        name, folder, target, workers=workers, resume=resume, limits=limits, progress=sys.stderr
    )
    resumed = len(batch.results) - batch.graded_now
    head = f"graded {batch.graded_now} submissions" + (
        f" ({resumed} already graded before --resume)" if resumed else ""
    )
    where = f"results in {target}: grades.csv, feedback/, results.jsonl, histogram.txt"
    return f"{head}\n{where}\n\n{batch.summary()}"
