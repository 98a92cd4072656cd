"""Marking a finished batch again, from what each program printed (``outputs/``), against
the answer key and tolerances as they are now: after a corrected key or a changed
tolerance, no program runs again.

A board whose run failed (a crash, a timeout, too much output) has nothing to mark and
keeps its result; so does a board whose output was not kept. The log, the reports and
``batch.json`` are rewritten, so a later ``grade --resume`` goes on with the new key.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ._answers import AnswerSource, policy_judge, with_own_board
from ._assignments import load_assignment
from ._batch import (
    META,
    RESULTS,
    board_digests,
    current_results,
    fingerprint,
    gradebook_names,
    kept_exports,
    manifest_digest,
)
from ._cases import TestCase, mistake_words
from ._errors import UsageError
from ._files import write_atomic
from ._html import write_html_reports
from ._manifest import Manifest
from ._reports import OUTPUTS, output_name, write_reports
from ._results import SubmissionResult, TestResult
from ._roster import Roster
from ._texts import STDERR_HEADING, unreadable
from ._verdict import grade_output, same_everywhere

__all__ = ["Regrade", "graded_course", "regrade_folder"]

# Boards whose output was read (or could have been): only these can be marked again.
_MARKED = ("passed", "partial", "wrong", "unreadable")


@dataclass(frozen=True)
class Regrade:
    """``changed``: ``(student, score before, score now)`` for each score that moved;
    ``kept``: boards left as they were because their output was not kept."""

    results: tuple[SubmissionResult, ...]
    changed: tuple[tuple[str, float, float], ...]
    kept: int
    notes: tuple[str, ...]

    def summary(self) -> str:
        lines = [f"{len(self.results)} submissions marked again; "
                 f"{len(self.changed)} scores changed"]  # fmt: skip
        lines += [f"  {who}: {before:.2f} -> {now:.2f}" for who, before, now in self.changed]
        if self.kept:
            lines.append(f"{self.kept} boards kept as they were: their output was not kept")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines) + "\n"


def _printed(out: Path, student: str) -> dict[str, str]:
    path = out / OUTPUTS / output_name(student)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _run_lines(staff: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A marked board's staff lines that came from its run, not its marking: the notes
    before the marking's lines (a notebook's cells, a compiler's warnings) and the standard
    error after them. A hidden board's marking begins with the count of entries right, or
    with "output not readable"; where neither is found (a visible board's marking is the
    student's own; a batch graded before the count was kept), only the standard error is
    kept, as nothing tells a note from an old marking's line."""
    end = staff.index(STDERR_HEADING) if STDERR_HEADING in staff else len(staff)
    head = staff[:end]
    start = next((i for i, line in enumerate(head) if _marking(line)), 0)
    return tuple(head[:start]), tuple(staff[end:])


def _marking(line: str) -> bool:
    counts = line.removesuffix(" entries right").split(" of ")
    counted = line.endswith(" entries right") and all(c.isdigit() for c in counts)
    return (counted and len(counts) == 2) or line.startswith(unreadable(""))


def _same_manifest(out: Path, recorded: str | None, manifest: Manifest | None) -> None:
    """Refuse to mark a batch's outputs on other boards than they were printed on: a batch
    graded with a manifest needs that manifest again, one graded without needs none."""
    given = manifest_digest(manifest)
    if recorded == given:
        return
    if recorded is None:
        raise UsageError(str(out), "was graded without --manifest (everyone on the same "
                         "boards): mark it again without one")  # fmt: skip
    if given is None:
        raise UsageError(str(out), "was graded with --manifest (each student on their own "
                         "board): pass the same --manifest to mark it again")  # fmt: skip
    assert manifest is not None  # (given is its digest)
    raise UsageError(
        str(manifest.source),
        f"is not the manifest {out} was graded with: its outputs were printed on that one's boards",
    )


def _late_again(result: SubmissionResult) -> SubmissionResult:
    """``result``, newly marked, with the late penalty its grading took off taken off again
    (the days late are what they were; the penalty is a share of the new score)."""
    late = result.extra.get("late")
    if not isinstance(late, dict) or "penalty" not in late:
        return result
    penalty = float(late["penalty"])
    score = round(result.score * (1 - penalty / 100), 4)
    extra = {**result.extra, "late": {**late, "score_before": result.score}}
    return dataclasses.replace(result, score=score, extra=extra)


def graded_course(out: str | Path) -> str | None:
    """The course settings file the batch in ``out`` was graded with (its path, as
    ``batch.json`` keeps it), or ``None``: ``regrade`` marks with it again unless told
    otherwise, so that a batch is not marked again with the package's tolerances and points
    where the course had set its own."""
    try:
        recorded = json.loads((Path(out) / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    course = recorded.get("course") if isinstance(recorded, dict) else None
    return course if isinstance(course, str) else None


def regrade_folder(
    out: str | Path,
    answers: AnswerSource,
    *,
    manifest: Manifest | None = None,
    canvas_column: str | None = None,
    roster: Roster | None = None,
) -> Regrade:
    """Mark every result in batch folder ``out`` again from its kept outputs, on the cases
    ``answers`` gives now (and each student's own board from ``manifest``, as ``grade``).
    ``canvas_column`` and ``roster`` are for ``grades-canvas.csv``; without them, those the
    batch was graded with (``batch.json``)."""
    out = Path(out)
    meta = out / META
    try:
        recorded = json.loads(meta.read_text(encoding="utf-8"))
        name = recorded["assignment"]
    except (OSError, ValueError, KeyError, TypeError):
        raise UsageError(str(out), f"is not a graded batch (no readable {META})") from None
    if "manifest" in recorded:  # (a batch from before batch.json named it is let be)
        _same_manifest(out, recorded["manifest"], manifest)
    assignment = load_assignment(name)
    cases = answers.cases(assignment)
    judge = policy_judge(answers, assignment)
    # Boards that are not the ones the programs ran on (another [tests] seed, edge boards
    # or public board): their outputs answer other boards, and are marked on none.
    graded_on = recorded.get("boards") if isinstance(recorded.get("boards"), dict) else {}
    now_on = board_digests(cases)
    moved = {n for n, d in graded_on.items() if n in now_on and now_on[n] != d}
    before = current_results(out)
    if not before:
        raise UsageError(str(out / RESULTS), "holds no result to mark again")
    results: list[SubmissionResult] = []
    changed: list[tuple[str, float, float]] = []
    kept = 0
    for result in before:
        own: Sequence[TestCase] = cases
        if manifest is not None and (entry := manifest.find(result.student)) is not None:
            own = with_own_board(answers.own_board_case(assignment, entry.board), cases)
        by_name = {case.name: case for case in own}
        printed = _printed(out, result.student)
        tests: list[TestResult] = []
        # (one judge per submission, as when it was graded: its boards in order)
        mine = judge.for_submission() if judge is not None else None
        for test in result.tests:
            case = by_name.get(test.name)
            if test.status not in _MARKED or case is None or test.name in moved:
                tests.append(test)
                continue
            if test.name not in printed:
                kept += 1
                tests.append(test)
                continue
            again = grade_output(case, printed[test.name], assignment, policy=mine)
            # What the run was (its time, its notes, its standard error) stays as it was;
            # the old marking's lines go, the new marking's come.
            noted, stderr = _run_lines(test.staff)
            tests.append(dataclasses.replace(again, seconds=test.seconds,
                                             staff=(*noted, *again.staff, *stderr)))  # fmt: skip
        tests = same_everywhere(tests, printed, by_name)
        now = result
        if result.status == "graded":
            now = dataclasses.replace(result, tests=tuple(tests),
                                      score=round(sum(t.score for t in tests), 4))  # fmt: skip
            now = _late_again(now)
        if abs(now.score - result.score) > 1e-9:
            changed.append((result.student, result.score, now.score))
        results.append(now)
    log = "".join(json.dumps(r.to_json()) + "\n" for r in results)
    write_atomic(out / RESULTS, log)
    key = fingerprint(assignment, cases, manifest)
    exports, canvas_column, roster, notes = kept_exports(recorded, canvas_column, roster)
    # (a board kept as it was still answers the board it was graded on)
    exports["boards"] = {**now_on, **{n: graded_on[n] for n in moved}}
    if moved:
        notes.append(
            f"{len(moved)} board{'s' if len(moved) > 1 else ''} kept as graded "
            f"({', '.join(sorted(moved))}): not the board{'s' if len(moved) > 1 else ''} the "
            "programs ran on any more (the [tests] seed or the boards changed), so their "
            "outputs cannot be marked on them; grade again to grade on them"
        )
    course = exports["course"]
    if "course" in recorded and recorded["course"] != course:
        notes.append(f"marked with the course settings {course or '(none)'}, where the batch "
                     f"was graded with {recorded['course'] or '(none)'}")  # fmt: skip
    # (what else batch.json keeps, the folder graded and its limits, stays for --resume)
    write_atomic(
        meta,
        json.dumps(
            {**recorded, "answer_key": key, "manifest": manifest_digest(manifest), **exports}
        )
        + "\n",
    )
    ordered = tuple(sorted(results, key=lambda r: r.student))
    words = mistake_words(cases)
    # (write_reports syncs the pages with its own files, before the gradebook)
    notes += write_html_reports(out, ordered, assignment, words, synced=False)
    notes += write_reports(
        out, ordered, assignment.title, words, gradebook_names(ordered, manifest),
        canvas_column or "", roster,
    )  # fmt: skip
    changed.sort()
    return Regrade(ordered, tuple(changed), kept, tuple(notes))
