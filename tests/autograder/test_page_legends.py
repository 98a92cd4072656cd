"""What the pages explain and how they name things (issue 40, the pages):

* every colour, arrow and letter drawn on a board is in the legend under it, and a square's
  colour is the one the legend gives its class;
* the class heat map is scaled to the range of the map itself, in five equal bands from the
  fewest students who got a square wrong to the most, and its legend says that range;
* a board has one name and a score one scale everywhere: the feedback, ``check``, the page,
  the terminal summary, ``index.html`` and ``grades.csv``.

Expected bands, labels and scores follow from the rules written out here (and in
docs/contracts.md), not from the code's output.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import xml.etree.ElementTree as ET

import pytest

from autograder import (
    SubmissionResult,
    batch_html,
    load_assignment,
    output_format,
    submission_html,
)
from autograder._check import check_html, check_text
from autograder._reports import feedback_text, gradebook_text, summary_text
from autograder._verdict import grade_output
from reference_solutions import ReferenceAnswers
from tests.autograder.test_html_reports import SVG, squares, title, tone
from tests.grading import answer_cases, graded_without_running

# The legend of a picture: the <div class="legend"> after it.
LEGEND = re.compile(r'<div class="legend">(.*?)</div>', re.S)
SWATCH = re.compile(
    r'<span class="swatch ([\w-]*)" style="[^"]*background: (#[0-9a-f]{6}); border: ([^"]*)"'
)
ARROW_KEY = re.compile(r'<span class="arrow-key" style="color: (#[0-9a-f]{6})')
LETTER = re.compile(r"\b([A-Z]): (\w+)")
# Every colour a student's board may show, by class: the steps of the error scale, the
# right and unreadable values, and the goal (docs/contracts.md).
STUDENT_TONES = {"right", "off-1", "off-2", "off-3", "off-4", "off-5", "unread", "goal"}


graded = graded_without_running


def pictured(page: str) -> list[tuple[list[ET.Element], str]]:
    """Each legend of the page with the boards drawn since the legend before it."""
    found = []
    at = 0
    for match in LEGEND.finditer(page):
        drawn = re.findall(r"<svg\b.*?</svg>", page[at : match.start()], re.S)
        boards = [ET.fromstring(svg) for svg in drawn if 'class="board"' in svg]
        found.append((boards, match.group(1)))
        at = match.end()
    return found


def explained(boards: list[ET.Element], legend: str) -> None:
    """Everything drawn on ``boards`` that carries a meaning is in ``legend``: each square's
    fill, under the class it has; the outline of a flagged square; each kind of arrow's
    colour; each letter."""
    swatches = {tone: fill for tone, fill, _ in SWATCH.findall(legend) if tone}
    outlines = {m for _, _, border in SWATCH.findall(legend) for m in re.findall(
        r"3px solid (#[0-9a-f]{6})", border)}  # fmt: skip
    arrows = set(ARROW_KEY.findall(legend))
    letters = dict(LETTER.findall(legend))
    assert boards, "a legend follows a picture"
    for board in boards:
        for square, group in squares(board).items():
            rect = group.find(f"{SVG}rect")
            assert swatches.get(tone(group)) == rect.get("fill"), (square, tone(group))
            if rect.get("stroke-width") == "3":
                assert rect.get("stroke") in outlines, square
            for mark in group.iter(f"{SVG}text"):
                if mark.get("class") == "mark":
                    assert mark.text in letters, (square, mark.text)
        for path in board.iter(f"{SVG}path"):
            if "arrow" in path.get("class", "").split():
                assert path.get("stroke") in arrows, path.get("class")


@pytest.mark.parametrize(
    ("name", "mistake"),
    [("classic", "overshoot-wins"), ("aimed", "noise-ignored"), ("trap-lane", "junction-ignored"),
     ("token-boosted", None), ("efron", None)],
)  # fmt: skip
def test_every_colour_arrow_and_letter_of_a_students_board_is_in_its_legend(name, mistake):
    assignment = load_assignment(name)
    page = submission_html(graded(name, "s1", mistake), assignment)
    found = pictured(page)
    visible = [c for c in answer_cases(name) if c.visible]
    assert len(found) == len(visible), "a legend under each board shown"
    for boards, legend in found:
        explained(boards, legend)
        # The whole scale, used or not, so that every board reads the same.
        assert {t for t, _, _ in SWATCH.findall(legend)} >= STUDENT_TONES
        reading = legend[: legend.index("Colour")]
        for words in ("number (top left)", "value printed", "the right one under it"):
            assert words in reading
        shows_actions = any(":" in key for key in graded(name, "s").tests[0].entries)
        assert ("action printed" in reading) == shows_actions


def test_the_same_error_gets_the_same_colour_on_every_board_of_every_page():
    """The scale is one: a class is painted with one fill wherever it is drawn."""
    fills: dict[str, set[str]] = {}
    for name, mistake in (("classic", "overshoot-wins"), ("trap-lane", "junction-ignored")):
        page = submission_html(graded(name, "s1", mistake), load_assignment(name))
        for boards, _ in pictured(page):
            for board in boards:
                for group in squares(board).values():
                    fill = group.find(f"{SVG}rect").get("fill")
                    fills.setdefault(tone(group), set()).add(fill)
    assert all(len(used) == 1 for used in fills.values()), fills
    assert len({next(iter(used)) for used in fills.values()}) == len(fills)


def test_the_trap_lane_legend_names_each_trap_letter_and_the_way_round():
    assignment = load_assignment("trap-lane")
    page = submission_html(graded("trap-lane", "s1"), assignment)
    legends = [legend for _, legend in pictured(page)]
    visible = [c for c in answer_cases("trap-lane") if c.visible]
    for case, legend in zip(visible, legends, strict=True):
        used = {trap for trap in case.board["layout"] if trap}
        words = {1: "restart", 2: "penalty", 3: "prison", 4: "special"}
        assert set(dict(LETTER.findall(legend)).values()) == {words[t] for t in used}
        assert ("the way round" in legend) == bool(case.board.get("circle"))


# --- the class heat map ----------------------------------------------------------------------


def wrong_on(name: str, student: str, squares_wrong: set[int]) -> SubmissionResult:
    """A submission right everywhere but on ``squares_wrong`` of the public board (each
    value there 20% too high)."""
    assignment = load_assignment(name)
    tests = []
    for case in answer_cases(name):
        answer = case.expected.answer
        if case.name == "public":
            values = [v * 1.2 if k in squares_wrong else v for k, v in enumerate(answer.values)]
            answer = dataclasses.replace(answer, values=tuple(values))
        tests.append(grade_output(case, output_format(answer.output).render(answer), assignment))
    return SubmissionResult(student, student, name, sum(t.score for t in tests),
                            sum(t.max_score for t in tests), "graded", tuple(tests))  # fmt: skip


def band(count: int, low: int, high: int) -> int:
    """The rule as stated: 0 for no student; else five equal bands from ``low`` to
    ``high`` (the fewest and the most students on any square of the map), the highest
    count in the fifth; all in the fifth when ``low == high``."""
    if count == 0:
        return 0
    if low == high:
        return 5
    return min(5, 1 + int(5 * (count - low) / (high - low)))


def heat_squares(page: str) -> dict[int, ET.Element]:
    boards, _ = pictured(page)[0]
    return squares(boards[0])


def test_the_heat_map_colours_squares_by_their_place_in_the_maps_own_range():
    # 12 students: every one wrong on squares 30..35 (a mistake the whole class makes), 11
    # of them also on square 50, 9 on square 60, 6 on 70, 3 on 85; square 2 by nobody (no
    # jump square among them: a jump square's value may follow another reading). On a scale
    # of the absolute share, 30..35 (100%) and 50 (92%) would look alike, and so would 85
    # (25%) and square 2.
    who = {50: 11, 60: 9, 70: 6, 85: 3}
    results = []
    for k in range(12):
        mine = set(range(30, 36)) | {square for square, n in who.items() if k < n}
        results.append(wrong_on("classic", f"s{k:02d}", mine))
    page = batch_html(results, load_assignment("classic"))
    drawn = heat_squares(page)
    counts = {**dict.fromkeys(range(30, 36), 12), **who}
    low, high = min(counts.values()), max(counts.values())
    assert (low, high) == (3, 12)
    for square, count in counts.items():
        assert tone(drawn[square]) == f"heat-{band(count, low, high)}", square
        said = f"square {square}: {count} of 12 students got its value wrong"
        assert title(drawn[square]) == said
    # By the rule: 3 is the first band, 6 the second (1 + 5*3/9 = 2.67), 9 the fourth
    # (1 + 5*6/9 = 4.33), 11 and 12 the fifth: square 50 stands with the whole class's.
    assert [band(n, 3, 12) for n in (3, 6, 9, 11, 12)] == [1, 2, 4, 5, 5]
    assert tone(drawn[2]) == "heat-0"
    fills = {tone(g): g.find(f"{SVG}rect").get("fill") for g in drawn.values()}
    assert len({fills[f"heat-{b}"] for b in (0, 1, 2, 4, 5)}) == 5
    # The legend says the range and what each band holds, in counts and shares.
    _, legend = pictured(page)[0]
    assert "from the fewest students who got a square of this map wrong (3) to the most (12)" in (
        legend
    )
    keys = {t for t, _, _ in SWATCH.findall(legend)}
    said = re.findall(r'class="swatch (heat-\d)"[^>]*></span>([^<]*)</span>', legend)
    # Band 1 holds 3 and 4 (1 + int(5 * 1/9) = 1), band 5 holds 11 and 12 (10: 1 + int(5 *
    # 7/9) = 4): each band's counts, then their shares of the 12 students.
    assert [n for n in range(3, 13) if band(n, 3, 12) == 1] == [3, 4]
    assert [n for n in range(3, 13) if band(n, 3, 12) == 5] == [11, 12]
    assert dict(said)["heat-1"] == "3\u20134 of 12 students (25%\u201333%)"
    assert dict(said)["heat-5"] == "11\u201312 of 12 students (92%\u2013100%)"
    assert dict(said)["heat-0"] == "no student"
    assert set(keys) >= {"heat-0", "heat-1", "heat-5", "goal"}
    explained(*pictured(page)[0])


def test_a_map_every_wrong_square_of_which_as_many_students_missed_says_so():
    results = [wrong_on("classic", s, {5, 6}) for s in ("a", "b")] + [
        wrong_on("classic", "c", set())
    ]
    page = batch_html(results, load_assignment("classic"))
    drawn = heat_squares(page)
    assert tone(drawn[5]) == tone(drawn[6]) == "heat-5" and tone(drawn[7]) == "heat-0"
    _, legend = pictured(page)[0]
    assert "every square someone got wrong, 2 of 3 students (67%)" in legend


def test_the_action_heat_map_has_a_legend_of_its_own_range():
    # aimed: the whole class prints aims ignoring the noise; the actions map is scaled apart.
    results = [graded("aimed", s, "noise-ignored") for s in ("a", "b")] + [graded("aimed", "c")]
    page = batch_html(results, load_assignment("aimed"))
    found = pictured(page)
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert captions[-1] == "actions" and len(found) == len(captions)
    for boards, legend in found:
        explained(boards, legend)


# --- one name and one score scale everywhere ------------------------------------------------


def label(name: str, title: str) -> str:
    """How staff see a board named (docs/contracts.md): its title, and its column in
    grades.csv in brackets where the title does not hold it."""
    return title if name in title else f"{title} ({name})"


def test_each_board_has_one_name_and_one_score_in_every_report():
    assignment = load_assignment("classic")
    result = graded("classic", "ann", "chutes-ignored")
    other = graded("classic", "bob")
    tests = result.tests
    assert len({t.score for t in tests}) > 1, "scores that differ by board"
    feedback = feedback_text(result, assignment.title)
    page = submission_html(result, assignment)
    rows = list(csv.DictReader(io.StringIO(gradebook_text([result, other]))))
    row = next(r for r in rows if r["student"] == "ann")
    summary = summary_text([result, other])
    index = batch_html([result, other], assignment)
    # The total: points of the maximum, two decimals, in the feedback, the page and the csv.
    total = f"{result.score:.2f} / {result.max_score:.2f}"
    assert f"score: {total}\n" in feedback
    assert f"score: <strong>{result.score:.2f}</strong> / {result.max_score:.2f}" in page
    assert float(row["score"]) == round(result.score, 2)
    assert float(row["max_score"]) == result.max_score
    for test in tests:
        points = f"{test.score:.2f} / {test.max_score:.2f}"
        hidden = "" if test.visible else " [hidden]"
        assert re.search(rf"\n(PASS|PART|FAIL)  {re.escape(test.title + hidden)}: {points}\n",
                         feedback), test.name  # fmt: skip
        if test.visible:
            assert f"<h2>{test.title}: {points}</h2>" in page
        else:
            assert re.search(rf"<tr><td>{re.escape(test.title)}</td><td[^>]*>[^<]*</td>"
                             rf'<td class="num">{points}</td>', page), test.name  # fmt: skip
        # grades.csv: the board's column is its id, the cell the same points.
        assert row[test.name] == f"{test.score:.2f}"
        # Staff see the title the student reads and the column together.
        assert re.search(rf"\n  {re.escape(label(test.name, test.title))} +\d+ of 2\n", summary)
        assert f"<td>{label(test.name, test.title)}</td>" in index
    # The hidden edge boards, whose titles say nothing of the board, are told apart.
    assert "edge board 1 (no-jumps)" in summary and "hidden board 2 (hidden-2)" in summary


def test_check_names_its_total_as_that_of_the_boards_it_ran():
    answers = ReferenceAnswers()
    assignment = load_assignment("classic")
    full = graded("classic", "ann", "chutes-ignored")
    shown = tuple(t for t in full.tests if t.visible)
    result = SubmissionResult("ann", "ann", "classic", sum(t.score for t in shown),
                              sum(t.max_score for t in shown), "graded", shown)  # fmt: skip
    checked = sum(c.points for c in answer_cases("classic") if c.visible)
    assert result.max_score == checked
    total = f"{result.score:.2f} / {checked:.2f}"
    text = check_text(result)
    assert f"\nscore on the boards checked here: {total}\n" in text
    page = check_html(result, answers)
    assert f"score on the boards checked here: <strong>{result.score:.2f}</strong> / " in page
    for test in shown:
        assert f"{test.title}: {test.score:.2f} / {test.max_score:.2f}" in text
        assert f"<h2>{test.title}: {test.score:.2f} / {test.max_score:.2f}</h2>" in page
    assert assignment.title in text
