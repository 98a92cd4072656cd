"""What a student runs before submitting: their program on the public board only, with
everything the feedback may show."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import TextIO

from . import _texts
from ._answers import AnswerSource, policy_judge
from ._assignments import load_assignment
from ._cases import mistake_words
from ._errors import UsageError
from ._html import submission_html
from ._reports import feedback_text
from ._results import SubmissionResult
from ._submission import grade_submission

__all__ = ["check_html", "check_submission", "check_text", "fit_to_width", "terminal_width"]

# How much further a line broken to fit the terminal indents its continuation lines.
HANGING_INDENT = 4


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
    """The feedback a student reads, ending with the verdict. The total is that of the
    boards checked, and says so: the grade adds the hidden boards' points."""
    title = load_assignment(result.assignment).title
    verdict = _texts.PUBLIC_PASS if result.passed else _texts.NOT_YET
    text = feedback_text(result, title, score_label=_texts.CHECKED_SCORE)
    return text + "\n" + verdict + "\n"


def check_html(result: SubmissionResult, answers: AnswerSource) -> str:
    """The same feedback as a page: the public board painted square by square."""
    assignment = load_assignment(result.assignment)
    words = mistake_words(answers.cases(assignment, hidden=False))
    return submission_html(result, assignment, words, score_label=_texts.CHECKED_SCORE)


def terminal_width(stream: TextIO) -> int | None:
    """The width of the terminal ``stream`` writes to, or ``None`` when it is no terminal
    (a file, a pipe: lines are left whole there, for whoever reads them next)."""
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):  # a stream with no file, or closed
        return None
    return shutil.get_terminal_size().columns


def fit_to_width(text: str, width: int | None) -> str:
    """``text`` with every line longer than ``width`` broken between words, each line it
    goes on to indented ``HANGING_INDENT`` spaces more than its own first line; ``width``
    ``None`` leaves ``text`` as it is. A line is broken at spaces only, so a number (or any
    word: ``1e-9``, a path) is never cut in two; a word longer than the room left stays
    whole, on a line of its own."""
    if width is None:
        return text
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        # (a narrow terminal keeps at least half of each line for words)
        hanging = " " * min(indent + HANGING_INDENT, width // 2)
        wrapper = textwrap.TextWrapper(
            width=width,
            subsequent_indent=hanging,
            break_long_words=False,
            break_on_hyphens=False,
            expand_tabs=False,
            replace_whitespace=False,
        )
        lines += wrapper.wrap(line) or [line]
    return "\n".join(lines)
