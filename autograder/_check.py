"""What a student runs before submitting: their program on the public board only, with
everything the feedback may show."""

from __future__ import annotations

from pathlib import Path

from . import _texts
from ._answers import AnswerSource, policy_judge
from ._assignments import load_assignment
from ._cases import mistake_words
from ._errors import UsageError
from ._html import submission_html
from ._reports import feedback_text
from ._results import SubmissionResult
from ._submission import grade_submission

__all__ = ["check_html", "check_submission", "check_text"]


def check_submission(
    name: str,
    submission: str | Path,
    answers: AnswerSource,
    isolation: str | None = None,
    *,
    every_wrong: bool = False,
) -> SubmissionResult:
    """Grade ``submission`` on the public tests of assignment ``name``; with
    ``every_wrong`` the feedback lists every wrong entry, not the first few."""
    assignment = load_assignment(name)
    path = Path(submission)
    if not path.exists():
        raise UsageError(str(path), "no such file or folder")
    cases = answers.cases(assignment, hidden=False)
    return grade_submission(
        assignment,
        path,
        cases,
        isolation=isolation,
        hidden=answers.secret_paths(),
        policy=policy_judge(answers, assignment),
        shown=None if every_wrong else _texts.SHOWN_WRONG,
    )


def check_text(result: SubmissionResult) -> str:
    """The feedback a student reads, ending with the verdict."""
    title = load_assignment(result.assignment).title
    verdict = _texts.PUBLIC_PASS if result.passed else _texts.NOT_YET
    return feedback_text(result, title) + "\n" + verdict + "\n"


def check_html(result: SubmissionResult, answers: AnswerSource) -> str:
    """The same feedback as a page: the public board painted square by square."""
    assignment = load_assignment(result.assignment)
    words = mistake_words(answers.cases(assignment, hidden=False))
    return submission_html(result, assignment, words)
