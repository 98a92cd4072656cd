"""Grading the bundled material once, for the tests that look at the results."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autograder import load_assignment
from autograder._cases import TestCase
from autograder._engine import SubmissionResult
from autograder._examples import render_examples
from autograder._grade import grade_folder
from autograder._programs import render_program
from reference_solutions import answer_key, make_problem, params_to_json, reference_program

TIMEOUT = 3.0  # per board; generous next to a correct program's 0.1 s


@dataclass
class Graded:
    results: dict[str, SubmissionResult]
    cases: list[TestCase]
    folder: Path


def grade_examples(name: str, tmp: Path) -> Graded:
    assignment = load_assignment(name)
    folder = tmp / "submissions"
    render_examples(assignment, folder)
    problem = make_problem(name)
    (folder / "reference.py").write_text(reference_program(name))
    starter = render_program(assignment, problem.board, params_to_json(problem.params))
    (folder / "starter.py").write_text(starter)
    cases = answer_key(name)
    batch = grade_folder(
        name, folder, tmp / "results", workers=2, cases=cases,
        limits=assignment.limits.with_timeout(TIMEOUT),
    )  # fmt: skip
    return Graded({r.student: r for r in batch.results}, cases, folder)


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
