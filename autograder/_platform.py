"""What the graders that run inside another platform (Gradescope's ``run_autograder``,
PrairieLearn's external grader) share: checking the folder the platform lays out, grading
the one submission in it, the staff's log, the summary a student reads first, and writing
the results."""

from __future__ import annotations

import json
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ._answers import AnswerSource, policy_judge
from ._assignments import Assignment, Limits
from ._cases import TestCase
from ._errors import UsageError
from ._files import write_atomic
from ._isolation import detect_isolation
from ._results import SubmissionResult
from ._submission import grade_submission

__all__ = [
    "check_layout",
    "grade_in_platform",
    "run_job",
    "staff_log",
    "visible_summary",
    "write_results",
]


def check_layout(root: Path, platform: str, needed: Sequence[tuple[str, str]], why: str) -> None:
    """Refuse, in one line, a ``root`` that is not laid out as ``platform`` lays out its
    folder: ``needed`` is ``(relative path, "file" or "folder")`` pairs, ``why`` says what
    they hold. Nothing is graded and no result written where there is no submission or no
    configuration to grade it by."""
    if not root.is_dir():
        raise UsageError(f"--root {root}", "is not a folder")
    for rel, kind in needed:
        path = root / rel
        if not (path.is_dir() if kind == "folder" else path.is_file()):
            raise UsageError(
                f"--root {root}", f"is not {platform}'s layout: no {rel} ({kind}); it needs {why}"
            )


def run_job(
    grade: Callable[[], dict[str, Any]], failed: dict[str, Any]
) -> tuple[dict[str, Any], float]:
    """The platform's results of ``grade()``, and the seconds it took. A failure of the
    grader itself gives ``failed`` (which tells the student), and the traceback goes to
    the staff's log."""
    started = time.monotonic()
    print(f"autograder from {Path(__file__).resolve().parent}")
    try:
        results = grade()
    except Exception:
        traceback.print_exc(file=sys.stdout)
        results = dict(failed)
    return results, time.monotonic() - started


def grade_in_platform(
    answers: AnswerSource,
    assignment: Assignment,
    submission: Path,
    cases: Sequence[TestCase],
    *,
    student: str,
    limits: Limits,
    isolation: str | None,
    hidden: Sequence[Path],
) -> SubmissionResult:
    """Grade the one submission of a platform's job, with everything the platform put in
    the job besides it (``hidden``) and the answer material kept from every run, and log it
    for the staff.

    A visible board's feedback shows what the program printed there, as ``autograder
    check`` does; hidden boards never quote it (``_verdict`` quotes only where the case is
    visible), since a program can echo a board it was handed. Quoting lets a program read
    back, in its feedback, files it found: only where the answer material is kept from it
    (every level but ``process``) is that safe."""
    level = detect_isolation(isolation)
    print(f"isolation: {level.describe()}")
    result = grade_submission(
        assignment, submission, cases, student=student, limits=limits,
        quote_output=level.level != "process", isolation=level,
        hidden=[*hidden, *answers.secret_paths()], policy=policy_judge(answers, assignment),
    )  # fmt: skip
    staff_log(result)
    return result


def staff_log(result: SubmissionResult) -> None:
    """What the platform's log (for the staff only) says of a graded submission."""
    print(f"student {result.student}: {result.score:g} / {result.max_score:g} ({result.status})")
    for problem in result.problems:
        print(f"  problem: {problem}")
    for test in result.tests:
        print(
            f"  {test.name}: {test.score:g} / {test.max_score:g} {test.status} {test.seconds:.2f}s"
        )
        for line in (*test.feedback, *test.staff):
            print(f"    {line}")


def visible_summary(result: SubmissionResult, every_board: bool, later: str) -> list[str]:
    """The lines a student reads first, at once, whatever the boards' visibility: how many
    of the boards they see are fully right (every board, with ``every_board``), and, of the
    others, only that they count (``later`` says when or how they show). A student who
    could read there how the others went could learn, one resubmission at a time, what
    passes them: nothing of them, not even how many are right."""
    if not result.tests:
        return []
    shown = [t for t in result.tests if t.visible or every_board]
    right = sum(t.status == "passed" for t in shown)
    if len(shown) == len(result.tests):
        return [f"{right} of {len(shown)} boards fully right."]
    boards = "board" if len(shown) == 1 else "boards"
    return [f"{right} of {len(shown)} visible {boards} fully right.",
            f"Your program is also graded on other boards, {later}."]  # fmt: skip


def write_results(root: Path, results: dict[str, object]) -> Path:
    """``<root>/results/results.json``, written whole or not at all."""
    folder = root / "results"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "results.json"
    write_atomic(target, json.dumps(results, indent=1) + "\n")
    return target
