"""The HTML reports: each board square drawn once, coloured by the printed value's error,
with its numbers in its hover title; arrows for every jump; the trap lane's two lanes and
traps; hidden boards without values; the batch page's tallies; the same bytes every time.

The pages are read back as a browser's parser would see them (html.parser), the pictures as
XML. The errors are made here, by changing chosen squares of the right answer by chosen
amounts, so the colour each square must get follows from the change, not from the code.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autograder import (
    SubmissionResult,
    batch_html,
    load_assignment,
    output_format,
    submission_html,
)
from autograder._batch import grade_folder
from autograder._boards import board_family
from autograder._cases import mistake_words
from autograder._gradescope import gradescope_results
from autograder._html import submission_fragment, write_html_reports
from autograder._reports import feedback_text
from autograder._verdict import grade_output
from autograder.cli import main
from tests.grading import answer_cases

SVG = "{http://www.w3.org/2000/svg}"


def svgs(page: str) -> list[ET.Element]:
    """Every picture of a page, parsed as the XML it must be."""
    return [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", page, re.S)]


def squares(svg: ET.Element) -> dict[int, ET.Element]:
    groups = [g for g in svg.iter(f"{SVG}g") if "square" in g.get("class", "").split()]
    numbers = [int(g.get("data-square")) for g in groups]
    assert len(numbers) == len(set(numbers)), "a square is drawn twice"
    return dict(zip(numbers, groups, strict=True))


def tone(group: ET.Element) -> str:
    return group.get("class").split()[1]


def title(group: ET.Element) -> str:
    first = group[0]
    assert first.tag == f"{SVG}title", "the hover title comes first"
    return first.text or ""


def cases_of(name: str):
    return load_assignment(name), answer_cases(name)


def changed(answer, changes: dict[int, float]):
    """``answer`` with value ``i`` of its (first) table multiplied by ``changes[i]``."""
    values = list(answer.values)
    for index, factor in changes.items():
        values[index] = values[index] * factor
    return dataclasses.replace(answer, values=tuple(values))


def graded(name: str, texts: dict[str, str] | None = None, student: str = "s1"):
    """A submission that printed ``texts[case name]`` on each board (the right answer on
    the others), graded without running anything."""
    assignment, cases = cases_of(name)
    tests = []
    for case in cases:
        text = (texts or {}).get(case.name)
        if text is None:
            text = output_format(case.expected.answer.output).render(case.expected.answer)
        tests.append(grade_output(case, text, assignment))
    score = sum(t.score for t in tests)
    total = sum(c.points for c in cases)
    result = SubmissionResult(student, "sub", name, score, total, "graded", tuple(tests))
    return assignment, cases, result


# --- the student's report -----------------------------------------------------------------


# The colour steps as docs/contracts.md states them: a wrong value's error relative to the
# right value (to 1 where the right value is smaller), each step holding the errors under its
# bound. Written out here, not read from the code.
STEPS = ((0.01, "off-1"), (0.05, "off-2"), (0.10, "off-3"), (0.25, "off-4"), (math.inf, "off-5"))


def step_of(printed: float, expected: float) -> str:
    error = abs(printed - expected) / max(1.0, abs(expected))
    return next(tone for bound, tone in STEPS if error < bound)


def texts(group: ET.Element, kind: str) -> list[str]:
    """The texts of class ``kind`` drawn on a square: "value", "expected", "action"."""
    return [t.text or "" for t in group.iter(f"{SVG}text") if t.get("class") == kind]


def test_each_square_is_coloured_by_how_far_its_printed_value_is():
    assignment, cases = cases_of("classic")
    public = cases[0]
    answer = public.expected.answer
    # One square in each step, well inside it (printed to 2 decimals, the error moves by
    # 0.005 at most): 0.5%, 3%, 7%, 15% and 50% too high; the rest right. (No jump square:
    # a jump square's value may follow another reading.)
    factors = {30: 1.005, 40: 1.03, 50: 1.07, 60: 1.15, 70: 1.5}
    wrong = changed(answer, factors)
    text = output_format(answer.output).render(wrong)
    _, _, result = graded("classic", {public.name: text})
    page = submission_html(result, assignment)
    board = svgs(page)[0]
    drawn = squares(board)
    goal = public.board["goal"]
    assert sorted(drawn) == list(range(goal + 1))
    expected_tone = {k: step_of(round(wrong.values[k], 2), answer.values[k]) for k in factors}
    # The rule puts each square in its own step, the five in order.
    assert [expected_tone[k] for k in sorted(factors)] == [tone for _, tone in STEPS]
    for square, group in drawn.items():
        want = expected_tone.get(square, "goal" if square == goal else "right")
        assert tone(group) == want, square
        # The right value is drawn under a wrong one, and only there.
        right = [f"\u2192 {answer.values[square]:.2f}"] if square in factors else []
        assert texts(group, "expected") == right, square
    said = title(drawn[70])
    assert said.startswith("square 70: printed ")
    assert f"printed {wrong.values[70]:.2f}, expected {answer.values[70]:.2f}" in said
    assert "too high" in said and "off by 50%" in said
    # The fill is an attribute too, so the colour survives a page whose styles are stripped.
    fills = {tone(g): g.find(f"{SVG}rect").get("fill") for g in drawn.values()}
    assert len({fills[t] for _, t in STEPS} | {fills["right"]}) == len(STEPS) + 1


def test_an_error_on_a_step_bound_falls_in_the_step_above():
    """Steps hold the errors under their bounds: exactly 5% off is "5% to under 10%". A
    right value of 40.00 printed as 42.00 is 5% off, whatever the binary rounding."""
    from autograder._html import error_tone, relative_error

    assert relative_error(42.0, 40.0) == pytest.approx(0.05)
    assert error_tone(0.05) == "off-3" and error_tone(0.0499) == "off-2"
    assert error_tone(0.0) == "off-1" and error_tone(10.0) == "off-5"
    # Near 0 the error is taken against 1: 0.20 for 0.25 is 5% off, not 20%.
    assert relative_error(0.2, 0.25) == pytest.approx(0.05)


def test_a_square_that_printed_nan_says_nan_as_the_text_does():
    assignment, cases = cases_of("classic")
    public = cases[0]
    answer = public.expected.answer
    text = output_format(answer.output).render(changed(answer, {30: float("nan")}))
    _, _, result = graded("classic", {public.name: text})
    assert "square 30: printed nan" in feedback_text(result)
    # The page is drawn from the result as the log keeps it: through JSON and back.
    kept = SubmissionResult.from_json(json.loads(json.dumps(result.to_json())))
    said = title(squares(svgs(submission_html(kept, assignment))[0])[30])
    assert said.startswith("square 30: printed nan, expected ")


def test_every_jump_is_an_arrow_from_its_start_to_its_end():
    assignment, cases = cases_of("classic")
    _, _, result = graded("classic")
    board = svgs(submission_html(result, assignment))[0]
    arrows = [p for p in board.iter(f"{SVG}path") if "arrow" in p.get("class", "")]
    drawn = {(int(a.get("data-from")), int(a.get("data-to")), a.get("class").split()[1])
             for a in arrows}  # fmt: skip
    jumps = cases[0].board["jumps"]
    assert drawn == {(a, b, "chute" if b < a else "ladder") for a, b in jumps}


def test_the_board_snakes_as_a_printed_board_does():
    """Squares 1..10 left to right on the bottom row, 11..20 right to left above them."""
    assignment, _ = cases_of("classic")
    _, _, result = graded("classic")
    drawn = squares(svgs(submission_html(result, assignment))[0])

    def at(square: int) -> tuple[float, float]:
        rect = drawn[square].find(f"{SVG}rect")
        return float(rect.get("x")), float(rect.get("y"))

    assert at(1)[1] == at(10)[1] > at(11)[1] == at(20)[1] > at(21)[1]
    assert at(1)[0] < at(2)[0] < at(10)[0]
    assert at(11)[0] == at(10)[0] and at(20)[0] == at(1)[0]
    assert at(0)[0] < at(1)[0]  # the start, off the board, left of square 1


def test_the_trap_lane_shows_both_lanes_and_each_trap():
    assignment, cases = cases_of("trap-lane")
    _, _, result = graded("trap-lane")
    page = submission_html(result, assignment)
    visible = [c for c in cases if c.visible]
    pictures = svgs(page)
    assert len(pictures) == len(visible)
    for case, board in zip(visible, pictures, strict=True):
        drawn = squares(board)
        assert sorted(drawn) == list(range(1, 16))

        def y(square: int, drawn=drawn) -> float:
            return float(drawn[square].find(f"{SVG}rect").get("y"))

        # The fast lane 11..14 is a row of its own above the slow lane 1..10.
        assert len({y(s) for s in range(1, 11)}) == 1 and len({y(s) for s in range(11, 15)}) == 1
        assert y(11) < y(1)
        layout = case.board["layout"]
        marks = {"R": 1, "P": 2, "J": 3, "S": 4}
        for square, group in drawn.items():
            mark = [t for t in group.iter(f"{SVG}text") if t.get("class") == "mark"]
            trap = layout[square - 1]
            assert [marks[m.text] for m in mark] == ([trap] if trap else []), square
        arrows = {(int(p.get("data-from")), int(p.get("data-to")))
                  for p in board.iter(f"{SVG}path") if p.get("data-from")}  # fmt: skip
        assert {(3, 11), (14, 15), (10, 15)} <= arrows
        assert ((15, 1) in arrows) == bool(case.board.get("circle"))
    # A board with traps has its letters explained under it.
    if any(any(c.board["layout"]) for c in visible):
        assert re.search(r"[RPJS]: (restart|penalty|prison|special)", page)


def test_token_boosted_draws_a_board_per_token_count():
    assignment, cases = cases_of("token-boosted")
    _, _, result = graded("token-boosted")
    page = submission_html(result, assignment)
    tables = len(cases[0].expected.answer.values)
    shown = sum(c.visible for c in cases)  # the public board and the edge board shown
    assert len(svgs(page)) == tables * shown
    for k in range(tables):
        assert f"with {k} token" in page


def test_the_printed_policy_is_drawn_and_a_wrong_action_is_outlined():
    assignment, cases = cases_of("aimed")
    public = cases[0]
    answer = public.expected.answer
    accepted = public.expected.accepted
    # Square 30 gets an aim that is not among the best ones there.
    square = 30
    bad = next(str(k) for k in range(1, 7) if str(k) not in accepted[square])
    actions = list(answer.actions)
    actions[square] = bad
    text = output_format(answer.output).render(dataclasses.replace(answer, actions=tuple(actions)))
    _, _, result = graded("aimed", {public.name: text})
    drawn = squares(svgs(submission_html(result, assignment))[0])
    flagged = [s for s, g in drawn.items() if "wrong-action" in g.get("class")]
    assert flagged == [square]
    notes = {s: texts(g, "action") for s, g in drawn.items()}
    # A wrong action is drawn with a best one after it, readable without hovering.
    (note,) = notes[square]
    printed, arrow, best = note.partition("\u2192")
    assert (printed, arrow) == (bad, "\u2192") and best in accepted[square]
    assert notes[square + 1] == [actions[square + 1]]
    assert f"action printed {bad}, best " in title(drawn[square])


def test_hidden_boards_are_listed_without_any_value():
    assignment, cases = cases_of("classic")
    hidden = [c for c in cases if not c.visible]
    answer = hidden[0].expected.answer
    text = output_format(answer.output).render(changed(answer, {5: 1.5}))
    _, _, result = graded("classic", {hidden[0].name: text})
    page = submission_html(result, assignment)
    assert len(svgs(page)) == sum(c.visible for c in cases)  # the boards shown only
    section = page[page.index("Other boards") :]
    for case in hidden:
        assert case.title in section
    # Not one number of a hidden board: neither printed nor expected.
    assert f"{answer.values[5]:.2f}" not in section
    assert f"{answer.values[5] * 1.5:.2f}" not in section


def test_the_mistake_named_and_the_policy_cost_head_the_report():
    assignment, cases = cases_of("classic")
    public = cases[0]
    mistake = next(m for m in public.expected.mistakes if m.name == "overshoot-wins")
    text = output_format(mistake.answer.output).render(mistake.answer)
    _, _, result = graded("classic", {public.name: text})
    page = submission_html(result, assignment, mistake_words(cases))
    head = page[: page.index("<svg")]
    assert f"Your answer looks like: {mistake.says}" in head


def test_a_hostile_student_id_and_printed_action_are_text_on_the_page():
    assignment, cases = cases_of("aimed")
    public = cases[0]
    answer = public.expected.answer
    actions = list(answer.actions)
    actions[7] = "<img/src=x>"
    text = output_format(answer.output).render(dataclasses.replace(answer, actions=tuple(actions)))
    student = '<script>alert("x")</script>'
    _, _, result = graded("aimed", {public.name: text}, student=student)
    page = submission_html(result, assignment)

    seen: list[str] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            seen.append(tag)

    Tags().feed(page)
    assert "script" not in seen and "img" not in seen
    assert "&lt;script&gt;" in page


def test_the_same_result_gives_the_same_bytes_also_after_a_trip_through_json():
    assignment, _ = cases_of("trap-lane")
    _, _, result = graded("trap-lane")
    again = SubmissionResult.from_json(json.loads(json.dumps(result.to_json())))
    first = submission_html(result, assignment)
    assert submission_html(again, assignment) == first
    assert submission_html(result, assignment) == first


def test_a_board_of_a_hundred_squares_makes_a_page_under_100_kb():
    assignment, cases = cases_of("classic")
    public = cases[0]
    text = output_format(public.expected.answer.output).render(
        changed(public.expected.answer, {k: 1.2 for k in range(1, 100, 2)})
    )
    _, _, result = graded("classic", {public.name: text})
    assert public.board["goal"] == 100
    assert len(submission_html(result, assignment).encode()) < 100_000


def test_a_run_that_printed_nothing_readable_has_no_picture_but_says_why():
    assignment, cases = cases_of("classic")
    unread = {c.name: "no numbers here\n" for c in cases if c.visible}
    _, _, result = graded("classic", unread)
    page = submission_html(result, assignment)
    assert not svgs(page)
    assert "no values to draw" in page


def test_gradescope_shows_the_visible_boards_and_nothing_of_the_hidden_ones():
    assignment, cases = cases_of("classic")
    hidden = [c for c in cases if not c.visible]
    _, _, result = graded("classic")
    page = submission_fragment(result, assignment)
    results = gradescope_results(result, "after_due_date", page=page)
    assert results["output_format"] == "html"
    assert all(t["output_format"] == "text" for t in results["tests"])
    assert len(svgs(results["output"])) == sum(c.visible for c in cases)
    for case in hidden:
        assert case.title not in results["output"]
    assert "<html" not in results["output"]  # a piece of Gradescope's page


# --- the batch page -------------------------------------------------------------------------


def test_the_batch_page_counts_scores_boards_mistakes_and_squares():
    assignment, cases = cases_of("classic")
    public = cases[0]
    answer = public.expected.answer
    mistake = next(m for m in public.expected.mistakes if m.name == "overshoot-wins")
    off = output_format(answer.output).render(changed(answer, {33: 1.5}))
    named = {c.name: output_format(m.answer.output).render(m.answer)
             for c in cases for m in c.expected.mistakes if m.name == "overshoot-wins"}  # fmt: skip
    results = [
        graded("classic", student="right-1")[2],
        graded("classic", student="right-2")[2],
        graded("classic", {public.name: off}, student="square-33")[2],
        graded("classic", named, student="overshoot")[2],
    ]
    links = {r.student: f"feedback/{r.student}.html" for r in results}
    page = batch_html(results, assignment, mistake_words(cases), links)
    pictures = svgs(page)
    histogram = pictures[0]
    bars = [int(g.get("data-count")) for g in histogram.iter(f"{SVG}g")]
    assert len(bars) == 11 and sum(bars) == 4 and bars[10] == 2
    # Boards passed: the public board by the two right answers alone.
    assert re.search(rf"<td>{re.escape(public.title)}</td><td class=\"num\">2 of 4</td>", page)
    # Each board as the gradebook's columns name it too.
    for row in ("edge board 1 (no-jumps)", "hidden board 2 (hidden-2)",
                "public board: chute-before-goal"):  # fmt: skip
        assert f"<td>{row}</td>" in page
    assert f'<td>{mistake.says}</td><td class="num">1 of 4</td>' in page
    heat = squares(pictures[1])
    assert title(heat[33]) == "square 33: 2 of 4 students got its value wrong"
    tolerance = assignment.value_tolerance  # the start's too: it is printed to 2 decimals
    wrong_by_overshoot = sum(
        1 for k in range(100)
        if abs(mistake.answer.values[k] - answer.values[k]) > tolerance + 1e-9 and k != 33
    )  # fmt: skip
    ones = [
        s for s, g in heat.items() if title(g).endswith(": 1 of 4 students got its value wrong")
    ]
    assert len(ones) == wrong_by_overshoot
    for student, href in links.items():
        assert f'href="{href}"' in page, student


def test_token_boosted_heat_maps_are_one_per_token_count_with_the_start_on_the_first():
    assignment, cases = cases_of("token-boosted")
    tokens = cases[0].expected.answer.values
    page = batch_html([graded("token-boosted", student=s)[2] for s in ("a", "b")], assignment)
    captions = [c for c in re.findall(r"<figcaption>(.*?)</figcaption>", page) if "values" in c]
    counts = range(len(tokens) - 1, -1, -1)
    assert [c.split(" (")[0] for c in captions] == [
        f"values with {t} token{'' if t == 1 else 's'} left" for t in counts
    ]
    first = squares(svgs(page)[1])
    # Square 0 is the start: its value is the start's, on the board with every token left.
    assert title(first[0]) == "square 0: 0 of 2 students got its value wrong"


def test_students_on_boards_of_their_own_get_no_one_students_board_as_the_class_heat_map():
    assignment, cases = cases_of("classic")
    results = [graded("classic", student=s)[2] for s in ("a", "b", "c")]
    public = cases[0]
    # "b" and "c" were graded on boards of their own (a manifest's): as if so drawn.
    for k in (1, 2):
        own = {**public.board, "jumps": public.board["jumps"][k:]}
        tests = tuple(dataclasses.replace(t, board=own, title="your board (100 squares)")
                      if t.name == public.name else t for t in results[k].tests)  # fmt: skip
        results[k] = dataclasses.replace(results[k], tests=tests)
    page = batch_html(results, assignment)
    assert len(svgs(page)) == 1  # the histogram alone
    assert "2 of 3 students were graded on boards of their own, so no one board" in page
    assert f"<td>each student's own board ({public.name})</td>" in html.unescape(page)
    assert "your board (100 squares)" not in page


# --- the command line ---------------------------------------------------------------------


def test_check_writes_the_report_where_asked(tmp_path, capsys):
    from reference_solutions import reference_program

    program = tmp_path / "classic.py"
    program.write_text(reference_program("classic"))
    page = tmp_path / "out" / "report.html"
    page.parent.mkdir()
    status = main(["check", "classic", str(program), "--html", str(page), "--isolation",
                   "process"])  # fmt: skip
    assert status == 0
    assert f"report written to {page}" in capsys.readouterr().out
    drawn = squares(svgs(page.read_text())[0])
    assert drawn and all(tone(g) in ("right", "goal") for g in drawn.values())


def test_check_names_a_report_it_cannot_write(tmp_path, capsys):
    from reference_solutions import reference_program

    program = tmp_path / "classic.py"
    program.write_text(reference_program("classic"))
    page = tmp_path / "no-such-folder" / "report.html"
    status = main(["check", "classic", str(program), "--html", str(page), "--isolation",
                   "process"])  # fmt: skip
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(page) in err[0]


@pytest.fixture(scope="module")
def graded_folder(tmp_path_factory):
    from reference_solutions import reference_program

    root = tmp_path_factory.mktemp("batch")
    folder = root / "submissions"
    folder.mkdir()
    (folder / "ada.py").write_text(reference_program("trap-lane"))
    (folder / "bob.py").write_text("print('nothing useful')\n")
    (folder / "<eve>.py").write_text("raise SystemExit(3)\n")
    out = root / "out"
    status = main(["grade", "trap-lane", str(folder), "--out", str(out), "--isolation",
                   "process"])  # fmt: skip
    assert status in (0, 1)
    return out


def test_grade_writes_a_page_per_student_and_the_index(graded_folder):
    out = graded_folder
    pages = sorted(p.name for p in (out / "feedback").glob("*.html"))
    texts = sorted(p.name for p in (out / "feedback").glob("*.txt"))
    assert [Path(p).stem for p in pages] == [Path(t).stem for t in texts] and len(pages) == 3
    index = (out / "index.html").read_text()
    for name in pages:
        assert f'href="feedback/{name}"' in index or (
            f'href="feedback/{name.replace("<", "%3C").replace(">", "%3E")}"' in index
        )
    ada = (out / "feedback" / "ada.html").read_text()
    assert all(tone(g) in ("right", "goal") for g in squares(svgs(ada)[0]).values())


def test_grade_resume_writes_the_same_pages_from_the_log(graded_folder, tmp_path):
    out = graded_folder
    before = {p.name: p.read_bytes() for p in (out / "feedback").glob("*.html")}
    index = (out / "index.html").read_bytes()
    (out / "index.html").unlink()
    for page in (out / "feedback").glob("*.html"):
        page.unlink()
    folder = out.parent / "submissions"
    status = main(["grade", "trap-lane", str(folder), "--out", str(out), "--resume",
                   "--isolation", "process"])  # fmt: skip
    assert status in (0, 1)
    after = {p.name: p.read_bytes() for p in (out / "feedback").glob("*.html")}
    assert after == before
    assert (out / "index.html").read_bytes() == index


def test_every_family_draws_every_square_of_its_public_board():
    for name in ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane"):
        assignment, cases = cases_of(name)
        family = board_family(assignment.family)
        loaded = family.parse(dict(cases[0].board), "board")
        picture = family.picture(loaded.board, loaded.params)
        assert picture is not None
        numbers = [p.square for p in picture.places]
        assert len(numbers) == len(set(numbers))


def test_a_page_made_earlier_is_written_only_for_the_result_it_was_made_from(tmp_path):
    assignment, _, result = graded("trap-lane", student="ada")
    twin = SubmissionResult.from_json(json.loads(json.dumps(result.to_json())))  # equal, not it
    (tmp_path / "feedback").mkdir()
    made = {"ada": (result, "<p>made while the others ran</p>")}
    assert write_html_reports(tmp_path, [result], assignment, rendered=made) == []
    assert (tmp_path / "feedback" / "ada.html").read_text() == made["ada"][1]
    assert write_html_reports(tmp_path, [twin], assignment, rendered=made) == []
    assert (tmp_path / "feedback" / "ada.html").read_text() == submission_html(twin, assignment)


def test_a_batch_makes_each_page_as_its_result_is_logged(tmp_path, monkeypatch):
    """A batch's pages are made while the other submissions run, each right after its
    result is logged: the renderer the reports call at the end may fail, and every page is
    still there, each as a page made at the end would be."""
    import autograder._batch as batch_module
    import autograder._html as html
    from reference_solutions import ReferenceAnswers, reference_program

    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "ada.py").write_text(reference_program("trap-lane"))
    (folder / "bob.py").write_text("print('nothing useful')\n")
    answers = ReferenceAnswers()
    assignment = load_assignment("trap-lane")
    cases = answers.cases(assignment)

    def at_the_end(*args, **kwargs):
        raise ValueError("not made at the end")

    events: list[tuple[str, str]] = []

    def early(result, *args):
        events.append(("page", result.student))
        return submission_html(result, *args)

    monkeypatch.setattr(html, "submission_html", at_the_end)
    monkeypatch.setattr(batch_module, "submission_html", early)
    batch = grade_folder("trap-lane", folder, tmp_path / "out", answers=answers, cases=cases,
                         workers=2, isolation="process",
                         on_result=lambda r: events.append(("logged", r.student)))  # fmt: skip
    assert not [n for n in batch.notes if "not written" in n], batch.notes
    first, second = (student for what, student in events if what == "logged")
    assert events == [("logged", first), ("page", first), ("logged", second), ("page", second)]
    monkeypatch.undo()
    words = mistake_words(cases)
    for result in batch.results:
        page = (tmp_path / "out" / "feedback" / f"{result.student}.html").read_text()
        assert page == submission_html(result, assignment, words)


def test_the_pages_kept_while_a_batch_runs_are_bounded(monkeypatch):
    import autograder._batch as batch

    assignment, _, ada = graded("trap-lane", student="ada")
    _, _, bob = graded("trap-lane", student="bob")
    page = submission_html(ada, assignment)
    # Room for a little less than one page: the first is kept, none after it.
    monkeypatch.setattr(batch, "EARLY_PAGES_MB", len(page) / 2 / (1 << 20))
    early = batch._EarlyReports(assignment, {}, {})
    early.prepare(ada)
    early.prepare(bob)
    assert list(early.pages) == ["ada"] and early.pages["ada"] == (ada, page)


def test_a_student_whose_public_answer_was_unreadable_does_not_make_the_boards_their_own():
    assignment, cases = cases_of("classic")
    public = cases[0]
    # One student printed nothing readable on the public board but answered the edge board
    # shown: both students played the same boards.
    results = [graded("classic", student="a")[2],
               graded("classic", {public.name: "nothing\n"}, student="b")[2]]  # fmt: skip
    page = html.unescape(batch_html(results, assignment))
    assert f'<td>{public.title}</td><td class="num">1 of 2</td>' in page
    assert "own board" not in page and "boards of their own" not in page
    heat = squares(svgs(page)[1])
    assert title(heat[5]) == "square 5: 0 of 1 students got its value wrong"
