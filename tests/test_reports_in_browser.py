"""Each kind of report, opened from disk in a real headless browser: no console error,
nothing fetched from the network, every square of every board laid out, and a screenshot
that shows a drawing. (Where no browser is installed these are skipped with the reason;
CI sets AUTOGRADER_EXPECT_BROWSER, and there a missing browser fails.)"""

from __future__ import annotations

import dataclasses
import re
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
from tests.browser import browser_or_skip, colours_shown, distinct_colours, visit
from tests.grading import answer_cases, graded_without_running

SQUARES = "svg.board g.square rect"
ARROWS = "svg.board path.arrow"
BARS = "svg.bars g.bar rect"


graded = graded_without_running


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


def _fills(page: str) -> dict[str, str]:
    """Each class of square on the page's boards and its fill, as the SVG gives them."""
    found = re.findall(r'<g class="square ([\w-]+)[^"]*" data-square="\d+"><title>[^<]*</title>'
                       r'<rect [^>]*fill="(#[0-9a-f]{6})"', page)  # fmt: skip
    return dict(found)


def test_every_step_of_the_error_scale_the_right_values_and_the_legend_show_in_the_browser(
    tmp_path,
):
    browser_or_skip()
    assignment = load_assignment("classic")
    cases = answer_cases("classic")
    public = cases[0]
    answer = public.expected.answer
    # One wrong square in each of the five steps (0.5%, 3%, 7%, 15%, 50% off), as in
    # tests/autograder/test_html_reports.py.
    factors = {30: 1.005, 40: 1.03, 50: 1.07, 60: 1.15, 70: 1.5}
    values = tuple(v * factors.get(k, 1.0) for k, v in enumerate(answer.values))
    text = output_format(answer.output).render(dataclasses.replace(answer, values=values))
    tests = [grade_output(c, text if c is public else output_format(c.expected.answer.output)
                          .render(c.expected.answer), assignment) for c in cases]  # fmt: skip
    result = SubmissionResult("s1", "s1", "classic", sum(t.score for t in tests), 100.0,
                              "graded", tuple(tests))  # fmt: skip
    page = tmp_path / "report.html"
    html = submission_html(result, assignment)
    page.write_text(html)
    seen = visit(page, ["svg.board text.expected", ".legend", ".legend .swatch",
                        ".legend .arrow-key"])  # fmt: skip
    assert seen.errors == () and seen.network == ()
    # The right value is readable on each wrong square, without hovering.
    assert seen.laid_out["svg.board text.expected"] == len(factors)
    # A legend under each board shown: the seven colours of the scale and the goal, and the
    # two kinds of arrow (chutes and ladders) of a jump board.
    shown = sum(c.visible for c in cases)
    assert seen.laid_out[".legend"] == shown
    assert seen.laid_out[".legend .swatch"] == 8 * shown
    assert seen.laid_out[".legend .arrow-key"] == 2 * shown
    fills = _fills(html)
    on_screen = colours_shown(seen.screenshot)
    for step in ("off-1", "off-2", "off-3", "off-4", "off-5", "right", "goal"):
        assert fills[step] in on_screen, step


def test_the_class_heat_map_shows_where_the_class_differs_in_the_browser(tmp_path):
    browser_or_skip()
    assignment = load_assignment("classic")
    cases = answer_cases("classic")
    public = cases[0]
    answer = public.expected.answer
    # Five students all wrong on squares 30..35 (a near-uniform share), four of them also on
    # square 50, two on 60, one on 70: five different counts, so five bands of colour.
    results = []
    for k in range(5):
        wrong = set(range(30, 36)) | {s for s, n in {50: 4, 60: 2, 70: 1}.items() if k < n}
        values = tuple(v * 1.2 if i in wrong else v for i, v in enumerate(answer.values))
        text = output_format(answer.output).render(dataclasses.replace(answer, values=values))
        test = grade_output(public, text, assignment)
        results.append(SubmissionResult(f"s{k}", f"s{k}", "classic", test.score, 25.0,
                                        "graded", (test,)))  # fmt: skip
    page = tmp_path / "index.html"
    html = batch_html(results, assignment)
    page.write_text(html)
    seen = visit(page, ["svg.board g.square rect", ".legend .swatch"])
    assert seen.errors == () and seen.network == ()
    assert seen.laid_out["svg.board g.square rect"] == public.board["goal"] + 1
    # Counts 1, 2, 4 and 5 between the fewest (1) and the most (5): bands 1, 2, 4 and 5
    # (1 + int(5 * (n - 1) / 4)), and white for no student; the legend lists the bands that
    # hold a count (3 makes band 3 too, though no square has it), the white and the goal.
    fills = _fills(html)
    assert {"heat-0", "heat-1", "heat-2", "heat-4", "heat-5"} <= set(fills)
    assert seen.laid_out[".legend .swatch"] == 1 + 5 + 1
    on_screen = colours_shown(seen.screenshot)
    for band in ("heat-0", "heat-1", "heat-2", "heat-4", "heat-5"):
        assert fills[band] in on_screen, band
