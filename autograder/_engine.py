"""Grading one submission: run it on each test board in a fresh folder, read, mark, explain.

Everything the submission does happens in other processes (see ``_run.py``); this module
only copies files, reads bytes and compares numbers.
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
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ._assignments import Assignment, Limits
from ._cases import TestCase
from ._files import remove_tree
from ._parse import OutputError, parse_output
from ._programs import program_name
from ._run import Run, clean_environment, run_limited
from ._sandbox import Isolation, close_to_others, detect_isolation, secret_paths
from ._score import mark

__all__ = [
    "SubmissionError",
    "SubmissionResult",
    "TestResult",
    "find_program",
    "grade_submission",
]

RUNNER = Path(__file__).resolve().parent / "_trap_runner.py"
MAX_SUBMISSION_MB = 20  # a folder larger than this is not copied
TIMEOUTS_BEFORE_GIVING_UP = 2
SHOWN_WRONG = 10  # wrong entries listed in feedback
STDERR_LINES = 12  # lines of standard error shown on a visible test
IGNORED_NAMES = {"__pycache__", "__MACOSX", ".git", ".ipynb_checkpoints"}


class SubmissionError(Exception):
    """The submission cannot be run at all (no program, unreadable, too large)."""


@dataclass(frozen=True)
class TestResult:
    """One board's outcome. ``feedback`` is safe to show the student; ``staff`` adds what
    only teaching staff may see on hidden boards (expected values, standard error)."""

    name: str
    title: str
    score: float
    max_score: float
    visible: bool
    status: str  # passed, partial, wrong, unreadable, timeout, crashed, output-limit, not-run
    right: int = 0
    total: int = 0
    seconds: float = 0.0
    feedback: tuple[str, ...] = ()
    staff: tuple[str, ...] = ()


def _known(kind: type, data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(kind)}
    return {k: v for k, v in data.items() if k in names}


@dataclass(frozen=True)
class SubmissionResult:
    student: str
    submission: str
    assignment: str
    score: float
    max_score: float
    status: str  # graded, error
    tests: tuple[TestResult, ...] = ()
    problems: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    isolation: str = ""  # the level its runs had (``_sandbox.LEVELS``); "" if none ran

    @property
    def passed(self) -> bool:
        return self.status == "graded" and all(t.status == "passed" for t in self.tests)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SubmissionResult:
        """Read back :meth:`to_json`. Keys this version does not know (a log written by a
        newer grader) are left out, so ``--resume`` works across versions."""
        tests = tuple(
            TestResult(
                **{
                    **_known(TestResult, t),
                    "feedback": tuple(t["feedback"]),
                    "staff": tuple(t["staff"]),
                }
            )
            for t in data["tests"]
        )
        return cls(**{**_known(cls, data), "tests": tests, "problems": tuple(data["problems"])})


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


def is_module_only(source: str) -> bool:
    """A trap-lane module that defines ``markovDecision`` and runs nothing itself."""
    return bool(re.search(r"^def\s+markovDecision\s*\(", source, re.M)) and "__main__" not in source


# --- one board -------------------------------------------------------------------------------


# Control characters other than tab, shown escaped: feedback read in a terminal must not run
# a program's escape sequences.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _stderr_lines(run: Run, folder: Path | None = None) -> list[str]:
    text = run.stderr_tail.decode("utf-8", errors="replace").rstrip()
    if folder is not None:  # tracebacks name the temporary folder; the student's file is enough
        text = text.replace(f"{folder}/", "")
    lines = text.splitlines()[-STDERR_LINES:]
    return [_CONTROL.sub(lambda m: repr(m.group())[1:-1], line) for line in lines]


def _exception_name(run: Run) -> str:
    for line in reversed(_stderr_lines(run)):
        m = re.match(r"([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit))\b", line.strip())
        if m:
            return m.group(1)
    return ""


def _failed_run(case: TestCase, run: Run, limits: Limits) -> tuple[str, str]:
    """``(status, one-line explanation)`` for a run that produced no usable output."""
    if run.status == "timeout":
        return "timeout", f"stopped after {limits.timeout:g} s: the time limit for one board"
    if run.status == "cpu-limit":
        return "timeout", f"used up its CPU time limit of {limits.cpu:g} s for one board"
    if run.status == "output-limit":
        return "output-limit", f"printed more than {limits.output_kb} KB; stopped"
    if run.status == "signal":
        name = run.signal_name
        why = {
            "SIGXCPU": f" (the CPU time limit of {limits.cpu:g} s)",
            "SIGKILL": " (a limit was reached)",
            "SIGSEGV": " (a crash in native code, often memory)",
        }.get(name, "")
        return "crashed", f"killed by {name}{why}"
    name = _exception_name(run)
    if name == "MemoryError":
        return "crashed", f"ran out of memory (limit {limits.memory_mb} MB)"
    if name == "NotImplementedError":
        return "crashed", "the solving function still raises NotImplementedError"
    return "crashed", f"exited with status {run.returncode}" + (f" ({name})" if name else "")


def _self_check_line(check: str, case: TestCase, numbers: dict[str, float]) -> str:
    # The trap lane's header has two decimals; its self-check is the four-decimal row 1.
    key = "1" if case.expected.answer.output == "trap-lane" else "start"
    places = len(check.partition(".")[2])
    value = numbers.get(key)
    shown = "nothing" if value is None else f"{value:.{places}f}"
    verdict = "holds" if shown == check else "does not hold"
    return f"self-check {verdict}: printed {shown}, expected {check}"


def _shown_action(printed: str, quote: bool) -> str:
    """An action as printed, or where quoting is off, only when it looks like one."""
    return printed if quote or re.fullmatch(r"[A-Za-z0-9]{1,8}", printed) else "something else"


def _grade_run(
    case: TestCase,
    run: Run,
    assignment: Assignment,
    limits: Limits,
    folder: Path,
    quote_output: bool = True,
) -> TestResult:
    base = dict(name=case.name, title=case.title, max_score=case.points, visible=case.visible)
    seconds = round(run.seconds, 3)
    stderr = _stderr_lines(run, folder)
    staff_stderr = tuple(["standard error (last lines):", *stderr]) if stderr else ()
    if run.status != "exited" or run.returncode != 0:
        status, why = _failed_run(case, run, limits)
        feedback = [why]
        if quote_output and case.visible and stderr and status == "crashed":
            feedback += ["standard error (last lines):", *stderr]
        return TestResult(**base, score=0.0, status=status, seconds=seconds,
                          feedback=tuple(feedback), staff=staff_stderr)  # fmt: skip
    text = run.stdout.decode("utf-8", errors="replace")
    # What a program printed on a hidden board may hold that board (a program can echo its
    # input), so it is quoted back only on visible boards, and never where it is turned off.
    quote = quote_output and case.visible
    try:
        printed = parse_output(text, case.expected, quote=quote)
    except OutputError as err:
        why = f"output not readable: {err}"
        if not text.strip():
            why = "printed nothing"
        return TestResult(**base, score=0.0, status="unreadable", seconds=seconds,
                          feedback=(why,), staff=staff_stderr)  # fmt: skip
    marked = mark(printed, case.expected, assignment.value_tolerance)
    score = round(case.points * marked.fraction, 4)
    status = "passed" if marked.right == marked.total else "partial" if marked.right else "wrong"
    feedback = [f"{marked.right} of {marked.total} entries right"]
    if case.self_check is not None:
        feedback.append(_self_check_line(case.self_check, case, printed.numbers))
    feedback += [f"warning: {w}" for w in printed.warnings]
    listing = [f"{w.label}: printed {_shown_action(w.printed, quote) or 'nothing'}, "
               f"expected {w.expected}" for w in marked.wrong]  # fmt: skip
    more = len(listing) - SHOWN_WRONG
    tail = [f"... and {more} more"] if more > 0 else []
    if case.visible:
        feedback += listing[:SHOWN_WRONG] + tail
        staff: tuple[str, ...] = staff_stderr
    else:
        labels = [w.label for w in marked.wrong]
        if labels:
            feedback.append(
                "wrong: " + ", ".join(labels[:SHOWN_WRONG]) + (" ..." if more > 0 else "")
            )
        staff = tuple(listing[:SHOWN_WRONG] + tail) + staff_stderr
    return TestResult(**base, score=score, status=status, right=marked.right,
                      total=marked.total, seconds=seconds, feedback=tuple(feedback),
                      staff=staff)  # fmt: skip


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
    hidden: Sequence[Path] = (),
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
        if assignment.rules == "trap_lane" and is_module_only(source):
            runner = work / "grader_runner.py"
            shutil.copyfile(RUNNER, runner)
            argv = [*python, str(runner), str(copied), str(board)]
        else:
            argv = [*python, str(copied), str(board)]
        run = run_limited(argv, copied.parent, clean_environment(work), limits,
                          isolation=isolation, work=work, hidden=hidden)  # fmt: skip
        return _grade_run(case, run, assignment, limits, home, quote_output)
    finally:
        remove_tree(work)


def grade_submission(
    assignment: Assignment,
    submission: Path,
    cases: Sequence[TestCase],
    *,
    student: str | None = None,
    limits: Limits | None = None,
    workers: int = 1,
    quote_output: bool = True,
    isolation: Isolation | str | None = None,
    hidden: Sequence[Path] = (),
) -> SubmissionResult:
    """Grade one submission (a file or a folder) on every case, ``workers`` boards at a
    time. Never raises for anything the submission does: a submission that cannot be run is
    a result with status ``error``. After two timeouts the remaining boards are not run.
    ``quote_output=False`` keeps every word the program printed out of the feedback.

    ``isolation`` is a level name or a detected :class:`Isolation` (the strongest available
    by default); ``hidden`` adds paths (other submissions, results) to what the program must
    never read, on top of the answer material (``secret_paths``)."""
    limits = limits or assignment.limits
    if not isinstance(isolation, Isolation):
        isolation = detect_isolation(isolation)
    hidden = secret_paths(*hidden)
    if isolation.level == "user":
        close_to_others(hidden)
    student = student or submission.stem
    max_score = sum(c.points for c in cases)
    common = dict(student=student, submission=str(submission), assignment=assignment.name)
    try:
        program = find_program(submission, assignment)
    except SubmissionError as err:
        return SubmissionResult(**common, score=0.0, max_score=max_score, status="error",
                                problems=(str(err),))  # fmt: skip
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
                          isolation, hidden)  # fmt: skip
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
        return SubmissionResult(**common, score=0.0, max_score=max_score, status="error",
                                problems=(str(err),))  # fmt: skip
    score = round(sum(r.score for r in results), 4)
    return SubmissionResult(**common, score=score, max_score=max_score, status="graded",
                            tests=tuple(results), isolation=isolation.level)  # fmt: skip
