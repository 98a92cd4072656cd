"""Each kind of report, opened from disk in a real headless browser: no console error,
nothing fetched from the network, every square of every board laid out, and a screenshot
that shows a drawing. (Where no browser is installed these are skipped with the reason;
CI sets AUTOGRADER_EXPECT_BROWSER, and there a missing browser fails.)"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from autograder import (
    SubmissionResult,
    batch_html,
    grade_output,
    load_assignment,
    output_format,
    submission_html,
)
from autograder._cases import mistake_words
from tests.browser import browser_or_skip, distinct_colours, visit
from tests.grading import answer_cases

SQUARES = "svg.board g.square rect"
ARROWS = "svg.board path.arrow"
BARS = "svg.bars g.bar rect"


def graded(name: str, student: str, mistake: str | None = None) -> SubmissionResult:
    """A submission that prints the right answer everywhere, or the answer of the named
    ``mistake`` on every board that knows it; graded without running anything."""
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


def tables(test) -> int:
    """The pictures of a visible board: one per token count."""
    return max(1, len({key.partition("@")[2] for key in test.entries if "@" in key}))


def drawn(result: SubmissionResult) -> tuple[int, int]:
    """``(squares, arrows)`` the visible boards' pictures hold."""
    squares = arrows = 0
    for test in result.tests:
        if test.visible and test.entries:
            board = test.board
            if "goal" in board:
                squares += (board["goal"] + 1) * tables(test)
                arrows += len(board["jumps"]) * tables(test)
            else:  # the trap lane: the junction, both lanes' ends, and the way round
                squares += len(board["layout"])
                arrows += 3 + bool(board.get("circle"))
    return squares, arrows


def check_page(page: Path, squares: int, arrows: int = 0, bars: int = 0) -> None:
    seen = visit(page, [SQUARES, ARROWS, BARS])
    assert seen.errors == ()
    assert seen.network == ()
    assert seen.laid_out[SQUARES] == squares
    assert seen.laid_out[ARROWS] == arrows
    assert seen.laid_out[BARS] == bars
    # A drawing: the page is not one or two colours (a blank page, or text alone).
    assert distinct_colours(seen.screenshot) > 20


@pytest.mark.parametrize(
    ("name", "mistake"),
    [("classic", "overshoot-wins"), ("trap-lane", "junction-ignored"),
     ("token-boosted", None), ("aimed", "noise-ignored")],
)  # fmt: skip
def test_a_students_report_draws_every_square_in_the_browser(name, mistake, tmp_path):
    browser_or_skip()
    assignment = load_assignment(name)
    result = graded(name, "s1", mistake)
    page = tmp_path / "report.html"
    page.write_text(submission_html(result, assignment, mistake_words(answer_cases(name))))
    check_page(page, *drawn(result))


def test_the_batch_page_draws_its_histogram_and_heat_maps_in_the_browser(tmp_path):
    browser_or_skip()
    assignment = load_assignment("classic")
    cases = answer_cases("classic")
    results = [graded("classic", "right"), graded("classic", "wrong", "overshoot-wins"),
               dataclasses.replace(graded("classic", "none"), status="error", tests=(),
                                   score=0.0, problems=("no program found",))]  # fmt: skip
    page = tmp_path / "index.html"
    page.write_text(batch_html(results, assignment, mistake_words(cases)))
    public = cases[0].board
    # A bar has a height where some student's score falls: tenths, then full marks.
    filled = {10 if r.score >= r.max_score else int(10 * r.score / r.max_score) for r in results}
    check_page(page, public["goal"] + 1, len(public["jumps"]), bars=len(filled))
