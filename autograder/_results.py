"""What grading produces, as plain data: a result per board and per submission.

``results.jsonl`` holds one :class:`SubmissionResult` per line (``to_json``); the reports,
Gradescope's ``results.json`` and ``--resume`` all read them back from there.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

__all__ = ["SubmissionResult", "SubmissionStatus", "TestResult", "TestStatus"]

# How one board went: the marks (passed, partial, wrong) or why there were none.
TestStatus = Literal[
    "passed", "partial", "wrong", "unreadable", "timeout", "crashed", "output-limit", "not-run"
]
# "error": the submission could not be graded at all (no program, a grader error, ...).
SubmissionStatus = Literal["graded", "error"]


@dataclass(frozen=True)
class TestResult:
    """One board's outcome. ``feedback`` is safe to show the student; ``staff`` adds what
    only teaching staff may see on hidden boards (expected values, standard error)."""

    name: str
    title: str
    score: float
    max_score: float
    visible: bool
    status: TestStatus
    right: int = 0
    total: int = 0
    seconds: float = 0.0
    feedback: tuple[str, ...] = ()
    staff: tuple[str, ...] = ()
    # What the grader made of the answer, for the batch's tallies: the named mistakes seen
    # (``Variation.name``, or a generic diagnosis such as "stopped-early"), the labels of
    # the wrong entries ("square 12"), and the accepted convention the answer follows.
    mistakes: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    convention: str = ""
    # What a report draws of a visible board (none of a hidden one): the board file's data,
    # and each graded entry by key (``Entry.key``) as ``[printed, expected, tolerance,
    # counted wrong]`` for a value (``printed`` None when it is not a finite number) or
    # ``[printed, accepted actions, counted wrong]`` for an action, under the reading the
    # answer follows.
    board: dict[str, Any] = field(default_factory=dict)
    entries: dict[str, list[Any]] = field(default_factory=dict)
    # What the program printed, for a run that exited normally: a batch keeps it apart
    # (``outputs/``, for ``regrade``), never in the log or anything a student reads.
    output: str = field(default="", compare=False, repr=False)


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
    status: SubmissionStatus
    tests: tuple[TestResult, ...] = ()
    problems: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    isolation: str = ""  # the level its runs had (``_sandbox.LEVELS``); "" if none ran

    @property
    def passed(self) -> bool:
        return self.status == "graded" and all(t.status == "passed" for t in self.tests)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for test in data["tests"]:
            test.pop("output", None)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SubmissionResult:
        """Read back :meth:`to_json`. Keys this version does not know (a log written by a
        newer grader) are left out, so ``--resume`` works across versions."""
        tests = tuple(
            TestResult(
                **{
                    **{k: v for k, v in _known(TestResult, t).items() if k != "output"},
                    "feedback": tuple(t["feedback"]),
                    "staff": tuple(t["staff"]),
                    "mistakes": tuple(t.get("mistakes", ())),
                    "wrong": tuple(t.get("wrong", ())),
                }
            )
            for t in data["tests"]
        )
        return cls(**{**_known(cls, data), "tests": tests, "problems": tuple(data["problems"])})

    @classmethod
    def failed(
        cls, student: str, submission: str, assignment: str, max_score: float, problem: str
    ) -> SubmissionResult:
        """A submission that could not be graded at all, and why."""
        return cls(student, submission, assignment, 0.0, max_score, "error", problems=(problem,))
