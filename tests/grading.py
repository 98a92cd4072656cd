"""Helpers the tests share."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autograder import SubmissionResult, TestCase


def fill_in(starter: str, reference: str) -> str:
    """``starter`` with its "YOUR PART" section replaced by the reference program's: what
    a student who solved the assignment would hand in for their own board."""

    def part(text: str) -> tuple[list[str], int, int]:
        lines = text.splitlines(keepends=True)
        start = next(i for i, line in enumerate(lines) if line.rstrip().endswith("-- YOUR PART"))
        end = next(i for i, line in enumerate(lines) if line.rstrip().endswith("END OF YOUR PART"))
        return lines, start, end

    own, a, b = part(starter)
    ref, c, d = part(reference)
    return "".join(own[:a] + ref[c:d] + own[b:])


def assert_names_file(error: Exception, path: Path, needle: str) -> None:
    """``error`` is one line that starts with the file's path and says ``needle``."""
    text = str(error)
    assert getattr(error, "where", None) == str(path)
    assert text.startswith(f"{path}: ")
    assert needle in text
    assert "\n" not in text


def isolation_or_skip(level: str) -> str:
    """``level``, when runs can have it here; else a skip, or a failure where CI expects
    namespace isolation (``AUTOGRADER_EXPECT_ISOLATION``)."""
    import os

    import pytest

    from autograder._isolation import detect_isolation

    if level == "namespace" and detect_isolation("strongest").level != "namespace":
        if os.environ.get("AUTOGRADER_EXPECT_ISOLATION") == "namespace":
            pytest.fail("namespace isolation expected but unavailable")
        pytest.skip("namespace isolation is not available here")
    return level


# The assignments whose examples, reference program and starter are graded on the whole answer
# key in the default run (the session's shared batch, tests/conftest.py): one of each board
# family. The others' examples are graded with `pytest -m slow`; their reference program and
# starter by default (tests/test_conformance.py).
GRADED_BY_DEFAULT = ("classic", "trap-lane")


def by_default_if_graded(name: str, *more: object):
    """A parameter set for assignment ``name`` (and ``more``), marked ``slow`` unless
    ``name`` is in ``GRADED_BY_DEFAULT``: for tests that need its examples graded."""
    import pytest

    marks = () if name in GRADED_BY_DEFAULT else pytest.mark.slow
    return pytest.param(name, *more, marks=marks)


@functools.cache
def answer_cases(name: str, hidden: bool = True) -> tuple[TestCase, ...]:
    """``answer_key(name, hidden=hidden)``, solved once per session: the tests that grade
    printed text without running anything ask for the same keys again and again, and the
    token-boosted key alone takes about a second to solve. For the assignments as the
    checkout has them: a test that changes an assignment's files calls ``answer_key``."""
    from reference_solutions import answer_key

    return tuple(answer_key(name, hidden=hidden))


def public_board(name: str) -> list[TestCase]:
    """The public board's case alone: what a test that runs a program on "the board it
    shows" means (``check`` also shows an edge board or two: ``public_edge_boards``)."""
    return [case for case in answer_cases(name, hidden=False) if case.name == "public"]


def gradescope_zip(name: str, out: Path, **options: Any) -> Path:
    """The Gradescope zip of ``name`` as ``autograder gradescope`` builds it: the answer
    keys' package carried beside the engine."""
    from autograder import build_gradescope
    from autograder.cli.gradescope import grading_package

    return build_gradescope(name, out, packages=[grading_package()], **options)


def graded_without_running(name: str, student: str, mistake: str | None = None) -> SubmissionResult:
    """A submission of assignment ``name`` printing the right answer everywhere, or the
    answer of the named ``mistake`` on every board that knows it; graded without running
    anything."""
    from autograder import SubmissionResult, load_assignment, output_format
    from autograder._verdict import grade_output

    assignment = load_assignment(name)
    tests = []
    for case in answer_cases(name):
        answer = case.expected.answer
        for variation in case.expected.mistakes:
            if variation.name == mistake:
                answer = variation.answer
        text = output_format(answer.output).render(answer)
        tests.append(grade_output(case, text, assignment))
    score = sum(t.score for t in tests)
    total = sum(t.max_score for t in tests)
    return SubmissionResult(student, student, name, score, total, "graded", tuple(tests))
