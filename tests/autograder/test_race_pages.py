"""The race's answers in the pages and the feedback: entries of pairs of squares drawn as a
map of pairs, each painted by its own error; the format, not the engine, says where an entry
belongs."""

from __future__ import annotations

import re

from autograder import load_assignment, submission_html
from autograder._formats import entry_pair, entry_place, output_format
from tests.grading import graded_without_running


def test_the_format_places_entries_and_the_engine_reads_no_key_itself():
    assert entry_pair("3,5") == (3, 5)
    assert entry_place("3,5") is None  # a pair of squares is on no square of the board
    assert entry_place("12@2") == (12, 2, False)
    assert entry_place("7:action") == (7, None, True)
    assert entry_pair("12@2") is None
    grid = output_format("token-values")
    assert grid.table_of("12@2") == "2" and grid.table_words("1") == "1 token"
    assert output_format("values").table_of("12") is None


def test_a_race_submission_page_draws_every_pair_painted_by_its_error():
    assignment = load_assignment("race")
    right = graded_without_running("race", "s1")
    page = submission_html(right, assignment)
    # (the public board and the public edge board are drawn; a hidden one never)
    maps = re.findall(r'<svg[^>]*class="pairs".*?</svg>', page, re.S)
    assert len(maps) == 2
    n = 100  # the public board's goal: rows and columns 0..99
    cells = re.findall(r"<rect [^>]*fill=\"(#[0-9a-f]{6})\"><title>(\d+), (\d+): ", maps[0])
    assert len(cells) == n * n
    assert {(int(a), int(b)) for _, a, b in cells} == {(a, b) for a in range(n) for b in range(n)}
    assert len({fill for fill, _, _ in cells}) == 1  # all right: one colour
    assert "the player to move on the square down the side" in page

    wrong = graded_without_running("race", "s2", "fewest-turns")
    page = submission_html(wrong, assignment)
    first = re.findall(r'<svg[^>]*class="pairs".*?</svg>', page, re.S)[0]
    titles = re.findall(r"<title>(\d+), (\d+): ([^<]*)</title>", first)
    off = [t for t in titles if "expected" in t[2] and "(right)" not in t[2]]
    assert off, "the wrong answer's pairs are told apart from the right ones"
    fills = set(re.findall(r'fill="(#[0-9a-f]{6})"><title>', first))
    assert len(fills) >= 2
    public = next(t for t in wrong.tests if t.visible)
    assert "fewest-turns" in public.mistakes


def test_the_class_page_maps_how_many_students_got_each_pair_wrong():
    from autograder import batch_html

    assignment = load_assignment("race")
    results = [
        graded_without_running("race", "s1"),
        graded_without_running("race", "s2", "fewest-turns"),
        graded_without_running("race", "s3", "who-moves-swapped"),
    ]
    page = batch_html(results, assignment)
    maps = re.findall(r'<svg[^>]*class="pairs".*?</svg>', page, re.S)
    assert len(maps) == 1
    counts = [
        int(c) for c in re.findall(r"<title>\d+, \d+: (\d) of 3 students got it wrong", maps[0])
    ]
    assert len(counts) == 100 * 100
    # the swapped reading is wrong almost everywhere, the turn-minimiser in places: some
    # pairs by one student, some by two, none by the student who is right
    assert max(counts) == 2 and 1 in counts
