"""What one run of a program on one board earns: its status, its score and the lines the
student reads (and the lines only staff read)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from . import _texts
from ._assignments import Limits
from ._cases import TestCase
from ._parse import OutputError, parse_output
from ._results import TestResult, TestStatus
from ._run import Run
from ._score import mark

__all__ = ["verdict"]

# Control characters other than tab, shown escaped: feedback read in a terminal must not run
# a program's escape sequences.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _stderr_lines(run: Run, folder: Path | None = None) -> list[str]:
    text = run.stderr_tail.decode("utf-8", errors="replace").rstrip()
    if folder is not None:  # tracebacks name the temporary folder; the student's file is enough
        text = text.replace(f"{folder}/", "")
    lines = text.splitlines()[-_texts.STDERR_LINES :]
    return [_CONTROL.sub(lambda m: repr(m.group())[1:-1], line) for line in lines]


def _failed_run(run: Run, stderr: list[str], limits: Limits) -> tuple[TestStatus, str]:
    """``(status, one-line explanation)`` for a run that produced no usable output."""
    if run.status == "timeout":
        return "timeout", _texts.time_limit(limits.timeout)
    if run.status == "cpu-limit":
        return "timeout", _texts.cpu_limit(limits.cpu)
    if run.status == "output-limit":
        return "output-limit", _texts.output_limit(limits.output_kb)
    reason = _texts.crash_reason(
        run.returncode or 0, run.signal_name, stderr,
        cpu_seconds=limits.cpu, memory_mb=limits.memory_mb,
    )  # fmt: skip
    return "crashed", reason


def verdict(
    case: TestCase,
    run: Run,
    limits: Limits,
    value_tolerance: float,
    folder: Path,
    quote_output: bool = True,
) -> TestResult:
    """The result of ``run``, the program's run on ``case`` in ``folder`` under ``limits``;
    printed values count within ``value_tolerance``."""
    seconds = round(run.seconds, 3)
    stderr = _stderr_lines(run, folder)
    staff_stderr = tuple([_texts.STDERR_HEADING, *stderr]) if stderr else ()

    def result(
        status: TestStatus,
        feedback: Sequence[str],
        score: float = 0.0,
        right: int = 0,
        total: int = 0,
        staff: tuple[str, ...] = staff_stderr,
    ) -> TestResult:
        return TestResult(case.name, case.title, score, case.points, case.visible, status,
                          right, total, seconds, tuple(feedback), staff)  # fmt: skip

    if run.status != "exited" or run.returncode != 0:
        failed, why = _failed_run(run, stderr, limits)
        feedback = [why]
        if quote_output and case.visible and stderr and failed == "crashed":
            feedback += [_texts.STDERR_HEADING, *stderr]
        return result(failed, feedback)
    text = run.stdout.decode("utf-8", errors="replace")
    # What a program printed on a hidden board may hold that board (a program can echo its
    # input), so it is quoted back only on visible boards, and never where it is turned off.
    quote = quote_output and case.visible
    try:
        printed = parse_output(text, case.expected, quote=quote)
    except OutputError as err:
        why = _texts.unreadable(err) if text.strip() else _texts.PRINTED_NOTHING
        return result("unreadable", [why])
    marked = mark(printed, case.expected, value_tolerance)
    score = round(case.points * marked.fraction, 4)
    status: TestStatus = (
        "passed" if marked.right == marked.total else "partial" if marked.right else "wrong"
    )
    feedback = [_texts.entries_right(marked.right, marked.total)]
    if case.self_check is not None:
        feedback.append(case.expected.format.self_check_line(case.self_check, printed.numbers))
    feedback += [f"warning: {w}" for w in printed.warnings]
    listing = marked.listing(quote)
    if case.visible:
        feedback += listing
        staff: tuple[str, ...] = staff_stderr
    else:
        labels = [w.label for w in marked.wrong]
        if labels:
            shown = labels[: _texts.SHOWN_WRONG]
            feedback.append("wrong: " + ", ".join(shown) + (" ..." if labels != shown else ""))
        staff = tuple(listing) + staff_stderr
    return result(status, feedback, score=score, right=marked.right, total=marked.total,
                  staff=staff)  # fmt: skip
