"""``autograder check``: what a student runs before submitting. Public boards only."""

from __future__ import annotations

from pathlib import Path

from ._assignments import load_assignment
from ._engine import SubmissionResult, grade_submission
from ._errors import UsageError
from ._reports import feedback_text

__all__ = ["check_submission", "check_text"]


def check_submission(
    name: str, submission: str | Path, isolation: str | None = None
) -> SubmissionResult:
    """Grade ``submission`` on the public test of assignment ``name``."""
    from reference_solutions import answer_key

    assignment = load_assignment(name)
    path = Path(submission)
    if not path.exists():
        raise UsageError(str(path), "no such file or folder")
    return grade_submission(assignment, path, answer_key(name, hidden=False), isolation=isolation)


def check_text(name: str, submission: str | Path, isolation: str | None = None) -> tuple[str, bool]:
    """The feedback a student reads, and whether every public test passed."""
    result = check_submission(name, submission, isolation)
    text = feedback_text(result, load_assignment(name).title)
    verdict = (
        "all public tests pass. Your program is also graded on hidden boards (see the handout)."
        if result.passed
        else "not yet: fix what is listed above and run the check again."
    )
    return text + "\n" + verdict + "\n", result.passed
