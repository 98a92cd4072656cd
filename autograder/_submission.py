"""Grading one submission: find its program, run it on each test board in a fresh folder
of its own, and keep what each run earns (``_verdict``).

Everything the submission does happens in other processes (``_run``, ``_sandbox``); this
module only copies files and hands runs over.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import sys
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ._answers import PolicyJudge
from ._assignments import Assignment, Limits
from ._cases import TestCase
from ._files import remove_tree
from ._isolation import detect_isolation
from ._results import SubmissionResult, TestResult
from ._run import clean_environment, run_limited
from ._sandbox import Isolation, close_to_others, protected_paths
from ._templates import program_name
from ._texts import SHOWN_WRONG
from ._verdict import verdict

__all__ = [
    "SubmissionError",
    "find_program",
    "grade_submission",
    "run_case",
]

HERE = Path(__file__).resolve().parent
MAX_SUBMISSION_MB = 20  # a folder larger than this is not copied
TIMEOUTS_BEFORE_GIVING_UP = 2
IGNORED_NAMES = {"__pycache__", "__MACOSX", ".git", ".ipynb_checkpoints"}


class SubmissionError(Exception):
    """The submission cannot be run at all (no program, unreadable, too large)."""


# --- finding and preparing the program -----------------------------------------------------


def _python_files(folder: Path) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        parts = set(path.relative_to(folder).parts)
        if parts & IGNORED_NAMES or any(p.startswith(".") for p in parts):
            continue
        if path.is_file() and not path.is_symlink():
            found.append(path)
    return found


def find_program(submission: Path, assignment: Assignment) -> Path:
    """The file to run: the submission itself, or inside a folder the file named like the
    starter (``classic.py``), else ``main.py`` / ``submission.py``, else the only ``.py``."""
    if submission.is_file():
        if submission.suffix == ".ipynb":
            raise SubmissionError(
                f"{submission.name} is a notebook; submit the program as {program_name(assignment)}"
            )
        if submission.suffix != ".py":
            raise SubmissionError(f"{submission.name} is not a Python program (.py)")
        return submission
    if not submission.is_dir():
        raise SubmissionError(f"{submission} is neither a file nor a folder")
    files = _python_files(submission)
    for wanted in (program_name(assignment), "main.py", "submission.py"):
        named = sorted((f for f in files if f.name == wanted), key=lambda f: len(f.parts))
        if named:
            return named[0]
    if len(files) == 1:
        return files[0]
    if not files:
        raise SubmissionError(f"{submission.name}: no Python program (.py) in the folder")
    shown = ", ".join(str(f.relative_to(submission)) for f in files[:5])
    raise SubmissionError(
        f"{submission.name}: cannot tell which program to run ({shown}); "
        f"name it {program_name(assignment)}"
    )


def _copy_submission(submission: Path, program: Path, into: Path) -> Path:
    """Copy the program (and, for a folder, its regular files) into ``into``; return the
    copied program's path. Links are not followed."""
    if submission.is_file():
        target = into / program.name
        shutil.copyfile(program, target)
        return target
    total = 0
    for path in sorted(submission.rglob("*")):
        rel = path.relative_to(submission)
        if set(rel.parts) & IGNORED_NAMES or path.is_symlink() or not path.is_file():
            continue
        total += path.stat().st_size
        if total > MAX_SUBMISSION_MB * 1024 * 1024:
            raise SubmissionError(f"{submission.name}: larger than {MAX_SUBMISSION_MB} MB")
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, into / rel)
    return into / program.relative_to(submission)


def is_module_only(source: str, function: str) -> bool:
    """A module that defines ``function`` (the trap lane's ``markovDecision``) and runs
    nothing itself."""
    defines = re.search(rf"^def\s+{re.escape(function)}\s*\(", source, re.M)
    return bool(defines) and "__main__" not in source


RUN_PREFIX = "autograder-run-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


@functools.cache
def _sweep_stale_runs() -> None:
    """Remove the run folders of graders that were killed before they could (their names
    carry the grader's pid), once per process."""
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            pid = entry.name[len(RUN_PREFIX) :].split("-", 1)[0]
            if not entry.name.startswith(RUN_PREFIX) or not pid.isdigit():
                continue
            if not _alive(int(pid)) and entry.is_dir(follow_symlinks=False):
                remove_tree(entry.path)


def run_case(
    program: Path,
    submission: Path,
    case: TestCase,
    assignment: Assignment,
    limits: Limits,
    quote_output: bool = True,
    isolation: Isolation | None = None,
    *,
    hidden: Sequence[Path],
    policy: PolicyJudge | None = None,
    shown: int | None = SHOWN_WRONG,
) -> TestResult:
    """Run the program on one board in a fresh temporary folder, removed afterwards, at the
    ``isolation`` level given (``process`` by default), with ``hidden`` paths kept from it."""
    _sweep_stale_runs()
    work = Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid()}-"))
    try:
        home = work / "submission"
        home.mkdir()
        board = work / "board.json"
        board.write_text(json.dumps(case.board), encoding="utf-8")
        copied = _copy_submission(submission, program, home)
        source = copied.read_text(encoding="utf-8", errors="replace")
        python = [sys.executable, "-E", "-s"]
        entry = case.expected.format.module_entry
        if entry is not None and is_module_only(source, entry.function):
            runner = work / "grader_runner.py"
            shutil.copyfile(HERE / entry.runner, runner)
            argv = [*python, str(runner), str(copied), str(board)]
        else:
            argv = [*python, str(copied), str(board)]
        run = run_limited(argv, copied.parent, clean_environment(work), limits,
                          isolation=isolation, work=work, hidden=hidden)  # fmt: skip
        return verdict(case, run, limits, assignment.value_tolerance, home, quote_output,
                       policy=policy, policy_grading=assignment.policy_grading,
                       shown=shown)  # fmt: skip
    finally:
        remove_tree(work)


def grade_submission(
    assignment: Assignment,
    submission: Path,
    cases: Sequence[TestCase],
    *,
    hidden: Sequence[Path],
    student: str | None = None,
    limits: Limits | None = None,
    workers: int = 1,
    quote_output: bool = True,
    isolation: Isolation | str | None = None,
    policy: PolicyJudge | None = None,
    shown: int | None = SHOWN_WRONG,
) -> SubmissionResult:
    """Grade one submission (a file or a folder) on every case, ``workers`` boards at a
    time. Never raises for anything the submission does: a submission that cannot be run is
    a result with status ``error``. After two timeouts the remaining boards are not run.
    ``quote_output=False`` keeps every word the program printed out of the feedback.

    ``isolation`` is a level name or a detected :class:`Isolation` (the strongest available
    by default). ``hidden`` names what the program must never read besides what the engine
    protects itself (``protected_paths``): the answer source's material
    (``AnswerSource.secret_paths``), other submissions, results. It has no default: the
    engine cannot know where the answers lie, so each caller says it.

    ``policy`` evaluates a printed policy exactly (``AnswerSource.policy_cost``); ``shown``
    is how many wrong entries a visible board lists (``None``: all)."""
    limits = limits or assignment.limits
    if not isinstance(isolation, Isolation):
        isolation = detect_isolation(isolation)
    hidden = protected_paths(*hidden)
    if isolation.level == "user":
        close_to_others(hidden)
    student = student or submission.stem
    max_score = sum(c.points for c in cases)
    name, path = assignment.name, str(submission)
    try:
        program = find_program(submission, assignment)
    except SubmissionError as err:
        return SubmissionResult.failed(student, path, name, max_score, str(err))
    timeouts = 0
    lock = threading.Lock()

    def one(case: TestCase) -> TestResult:
        nonlocal timeouts
        with lock:
            given_up = timeouts >= TIMEOUTS_BEFORE_GIVING_UP
        if given_up:
            why = f"not run: the program ran out of time on {timeouts} boards already"
            return TestResult(case.name, case.title, 0.0, case.points, case.visible, "not-run",
                              feedback=(why,))  # fmt: skip
        result = run_case(program, submission, case, assignment, limits, quote_output,
                          isolation, hidden=hidden, policy=policy, shown=shown)  # fmt: skip
        with lock:
            timeouts += result.status == "timeout"
        return result

    try:
        if workers > 1:
            with ThreadPoolExecutor(workers) as pool:
                results = list(pool.map(one, cases))
        else:
            results = [one(case) for case in cases]
    except SubmissionError as err:
        return SubmissionResult.failed(student, path, name, max_score, str(err))
    score = round(sum(r.score for r in results), 4)
    return SubmissionResult(student, path, name, score, max_score, "graded",
                            tests=tuple(results), isolation=isolation.level)  # fmt: skip
