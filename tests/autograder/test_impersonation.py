"""Impersonation through LMS download names (``autograder/_lms.py``), and file names that
try the teaching assistant's terminal.

A student writes part of every LMS download name: the name of the file they uploaded and,
in Canvas and Moodle, their display name. The hostile names are in the corpus
(``tests/adversarial/lms_*.py``, each program printing a plausible wrong answer, with its
``NAMES``: each name and where the grader must file it). Each is graded next to an honest
victim whose program is right: the victim must keep their own row with full marks, and the
attacker's file must be graded as the attacker or be an error row naming the candidate ids,
never the victim's; with ``--manifest`` too, where a row means a board.
"""

from __future__ import annotations

import ast
import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import find_submissions
from autograder._batch import Batch, grade_folder
from autograder._manifest import load_manifest
from autograder._results import SubmissionResult
from reference_solutions import ReferenceAnswers, reference_program
from tests.grading import public_board

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "adversarial"
# The corpus files about names: every one is used in this module or in test_reports.py.
LMS_CORPUS = (
    "lms_blackboard",
    "lms_canvas",
    "lms_cross_format",
    "lms_escape_names",
    "lms_manifest_email",
    "lms_moodle",
    "lms_sabotage",
    "sheet_formulas",
)
ANSWERS = ReferenceAnswers()
CASES = public_board("classic")
RIGHT = reference_program("classic")
ATTACKER = "111"  # the attacker's own id where the LMS's ids are numbers
# Where each corpus's victim uploaded their own (right) program, and the victim's id.
VICTIMS = {
    "lms_canvas": ("veravictim_22222_900001_classic.py", "22222"),
    "lms_blackboard": ("Homework 3_part_1_vera_attempt_2026-11-20-09-00-00_classic.py", "vera"),
    "lms_moodle": ("Vera Victim_22222_assignsubmission_file_", "22222"),
    "lms_cross_format": ("veravictim_22222_900001_classic.py", "22222"),
}
# With a manifest: the victim's upload, the victim's and the attacker's manifest ids.
MANIFEST_VICTIMS = {
    "lms_manifest_email": (
        "HW3_vera@uni.edu_attempt_2026-11-20-09-00-00_classic.py",
        "s0002",
        "s0001",
    ),
    **{stem: (entry, victim, ATTACKER) for stem, (entry, victim) in VICTIMS.items()},
    "lms_blackboard": (VICTIMS["lms_blackboard"][0], "vera", "mallory"),
}
VICTIM_BOARD = {"goal": 40, "jumps": [[5, 25], [33, 9]]}
ATTACKER_BOARD = {"goal": 30, "jumps": [[3, 12], [17, 5]]}
# What a terminal acts on (or shows as something else), newlines and tabs aside.
RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)


def corpus(stem: str) -> tuple[str, dict[str, str]]:
    """The program attack ``stem`` uploads (``lms_sabotage.py``, after the attack's own
    text, which says what it tries) and its ``NAMES``."""
    text = (CORPUS / f"{stem}.py").read_text()
    program = text + "\n" + (CORPUS / "lms_sabotage.py").read_text()
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "NAMES":
            return program, ast.literal_eval(node.value)
    raise AssertionError(f"{stem} has no NAMES")


def put(folder: Path, name: str, program: str) -> Path:
    """An entry named ``name``: a folder holding ``classic.py`` when the name ends as a
    Moodle folder's does, else the program itself."""
    entry = folder / name
    if name.endswith("_"):
        entry.mkdir()
        (entry / "classic.py").write_text(program)
    else:
        entry.write_text(program)
    return entry


def grade(folder: Path, out: Path, manifest: Path | None = None) -> Batch:
    return grade_folder(
        "classic", folder, out, answers=ANSWERS, cases=CASES, isolation="process", workers=2,
        manifest=load_manifest(manifest, "classic") if manifest is not None else None,
    )  # fmt: skip


def by_entry(batch: Batch) -> dict[str, SubmissionResult]:
    return {Path(r.submission).name: r for r in batch.results}


def assert_victim_whole(batch: Batch, entry: str, victim: str) -> None:
    """The victim's row is theirs alone, graded on their own (right) program, and nothing
    of theirs is listed as not graded."""
    row = by_entry(batch)[entry]
    assert (row.student, row.status, row.score) == (victim, "graded", row.max_score), row
    assert [r for r in batch.results if r.student == victim] == [row]
    assert not [note for note in batch.notes if entry in note]


def assert_filed(batch: Batch, name: str, expected: str, victim: str, attacker: str) -> None:
    """The attacker's file is graded as the attacker (``expected``), or is an error row
    naming both ids (``expected`` empty) filed under neither."""
    row = by_entry(batch)[name]
    if expected:
        assert (row.student, row.status) == (expected, "graded"), row.problems
        assert row.score < row.max_score  # the attacker's own (wrong) program
        assert not [note for note in batch.notes if name in note]
        return
    assert (row.status, row.score) == ("error", 0.0)
    (problem,) = row.problems
    assert problem.startswith(f"{name}: the name reads as ")
    assert f"student {victim} (" in problem and f"student {attacker} (" in problem
    assert row.student == name  # under its own name, never under an id
    assert f"not graded: {problem}" in batch.notes


HOSTILE = [(stem, name) for stem in VICTIMS for name in corpus(stem)[1]]


@pytest.mark.parametrize(("stem", "name"), HOSTILE, ids=[f"{s}-{n[:40]}" for s, n in HOSTILE])
def test_a_hostile_name_never_takes_the_victims_place(tmp_path, stem, name):
    program, names = corpus(stem)
    entry, victim = VICTIMS[stem]
    folder = tmp_path / "submissions"
    folder.mkdir()
    put(folder, entry, RIGHT)
    put(folder, name, program)
    batch = grade(folder, tmp_path / "out")
    assert len(batch.results) == 2
    assert_victim_whole(batch, entry, victim)
    assert_filed(batch, name, names[name], victim, ATTACKER)


def manifest_for(tmp_path: Path, victim: str, attacker: str) -> Path:
    path = tmp_path / "manifest.json"
    students = [
        {"id": attacker, "email": "mallory@uni.edu", "board": ATTACKER_BOARD},
        {"id": victim, "email": "vera@uni.edu", "board": VICTIM_BOARD},
    ]
    path.write_text(json.dumps({"format": 1, "assignment": "classic", "students": students}))
    assert load_manifest(path, "classic").problems == ()
    return path


MANIFEST_HOSTILE = [(stem, name) for stem in MANIFEST_VICTIMS for name in corpus(stem)[1]]


@pytest.mark.parametrize(
    ("stem", "name"), MANIFEST_HOSTILE, ids=[f"{s}-{n[:40]}" for s, n in MANIFEST_HOSTILE]
)
def test_with_a_manifest_the_victim_keeps_their_board_and_grade(tmp_path, stem, name):
    program, names = corpus(stem)
    entry, victim, attacker = MANIFEST_VICTIMS[stem]
    manifest = manifest_for(tmp_path, victim, attacker)
    folder = tmp_path / "submissions"
    folder.mkdir()
    put(folder, entry, RIGHT)
    put(folder, name, program)
    batch = grade(folder, tmp_path / "out", manifest)
    assert len(batch.results) == 2
    assert_victim_whole(batch, entry, victim)
    mine = by_entry(batch)[entry]
    assert mine.tests[0].title.startswith(f"your board ({VICTIM_BOARD['goal']} squares")
    expected = names[name] and attacker  # graded as the attacker: under their manifest id
    assert_filed(batch, name, expected, victim, attacker)
    theirs = by_entry(batch)[name]
    if expected:
        assert theirs.tests[0].title.startswith(f"your board ({ATTACKER_BOARD['goal']} squares")


def test_a_refused_double_never_replaces_the_graded_row(tmp_path):
    # "S1.py" and "s1.py" both name student s1: one is graded, the other refused; the
    # refused row must not be filed under "s1" too, where it would replace the graded one.
    manifest = tmp_path / "manifest.json"
    students = [{"id": "s1", "board": VICTIM_BOARD}]
    manifest.write_text(json.dumps({"format": 1, "assignment": "classic", "students": students}))
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "S1.py").write_text(RIGHT)
    (folder / "s1.py").write_text(RIGHT)
    batch = grade(folder, tmp_path / "out", manifest)
    assert len(batch.results) == 2
    graded = [r for r in batch.results if r.status == "graded"]
    refused = [r for r in batch.results if r.status == "error"]
    assert [r.student for r in graded] == ["s1"] and graded[0].score == graded[0].max_score
    assert len(refused) == 1 and refused[0].student != "s1"
    assert "also submitted" in refused[0].problems[0]
    with open(tmp_path / "out" / "grades.csv", newline="", encoding="utf-8") as file:
        assert len(list(csv.DictReader(file))) == 2


# --- find_submissions on names alone ------------------------------------------------------


def entries(tmp_path: Path, *names: str) -> tuple[list, list[str]]:
    for name in names:
        put(tmp_path, name, "print()\n")
    return find_submissions(tmp_path)


@pytest.mark.parametrize("stem", sorted(VICTIMS))
def test_no_hostile_name_alone_is_read_as_the_victim(tmp_path, stem):
    # Without the victim's own upload (a student who handed nothing in, or who colludes),
    # no hostile name stands in for them.
    _, names = corpus(stem)
    _, victim = VICTIMS[stem]
    for k, name in enumerate(names):
        folder = tmp_path / str(k)
        folder.mkdir()
        found, _ = entries(folder, name)
        assert [s.student for s in found if not s.problem] == ([names[name]] if names[name] else [])
        assert victim not in [s.student for s in found]


def test_a_display_name_ending_in_digits_makes_a_canvas_name_ambiguous(tmp_path):
    name = "mallory_22222_111_900500_classic.py"
    found, notes = entries(tmp_path, "veravictim_22222_900001_classic.py", name)
    victim, hostile = sorted(found, key=lambda s: s.problem != "")
    assert (victim.student, victim.lms, victim.problem) == ("22222", "Canvas", "")
    assert hostile.student == name  # no fixed position: filed under its own name
    assert "Canvas student 22222 (file 111)" in hostile.problem
    assert "Canvas student 111 (file 900500)" in hostile.problem
    assert notes == [f"not graded: {hostile.problem}"]


def test_a_moodle_marker_in_a_display_name_or_an_unpacked_zip_is_read_both_ways(tmp_path):
    # The end of the name is Moodle's for its own folders, but not for a zip a teaching
    # assistant unpacked into a folder of its name: neither direction is taken on trust.
    display = "Mallory_22222_assignsubmission_file_x_111_assignsubmission_file_"
    unpacked = "Mallory Mal_111_assignsubmission_file_x_22222_assignsubmission_file_"
    found, _ = entries(tmp_path, display, unpacked, "Ann_Lee 2_333_assignsubmission_file_")
    rows = {s.student: s for s in found}
    assert set(rows) == {display, unpacked, "333"}
    for name in (display, unpacked):
        assert "Moodle student 22222" in rows[name].problem
        assert "Moodle student 111" in rows[name].problem
    assert rows["333"].name == "Ann_Lee 2" and rows["333"].problem == ""


def test_one_student_in_two_formats_is_an_error_not_the_newest(tmp_path):
    # Attempt orders of two LMSs say nothing about each other (a Canvas file id against a
    # Blackboard time): the student's row says so, and neither file is graded.
    canvas = "lovelaceada_12345_900001_classic.py"
    blackboard = "HW3_12345_attempt_2099-01-01-00-00-00_classic.py"
    found, notes = entries(tmp_path, canvas, blackboard, "HW3_bob_attempt_2026-11-20-10-00-00_c.py")
    rows = {s.student: s for s in found}
    assert set(rows) == {"12345", "bob"}
    assert rows["bob"].problem == ""
    problem = rows["12345"].problem
    assert "2 formats" in problem and canvas in problem and blackboard in problem
    assert f"not graded: {problem}" in notes
    assert not [n for n in notes if "graded the newest" in n]


def test_tails_of_other_downloads_do_not_move_a_blackboard_split(tmp_path):
    # Canvas uploads whose names hold Blackboard marks, in a folder with Blackboard
    # downloads: the assignment name is what most Blackboard names share.
    found, _ = entries(
        tmp_path,
        "HW3_ab_x_attempt_2026-11-20-10-00-00_c.py",
        "HW3_cd_attempt_2026-11-20-10-00-00_c.py",
        "mallory_111_900500_HW3_ab_attempt_2099-01-01-00-00-00_c.py",
        "mallory_111_900501_HW3_ab_attempt_2099-01-02-00-00-00_c.py",
    )
    readable = sorted((s.student, s.lms) for s in found if not s.problem)
    assert readable == [("ab_x", "Blackboard"), ("cd", "Blackboard")]
    assert len([s for s in found if s.problem]) == 2


def test_a_display_name_does_not_move_where_blackboard_usernames_start(tmp_path):
    # A Moodle folder in the same folder, named after a display name shaped like a
    # Blackboard head, would make "Homework 3" the most shared prefix and read the victim
    # as "part_1_vera"; only names that read as Blackboard alone decide the split.
    found, _ = entries(
        tmp_path,
        VICTIMS["lms_blackboard"][0],
        "Homework 3_part_1_mallory_attempt_2026-11-20-10-00-00_classic.py",
        "Homework 3_zz_attempt_2026-11-20-10-00-00_111_assignsubmission_file_",
        "Homework 3_yy_attempt_2026-11-20-10-00-00_112_assignsubmission_file_",
    )
    readable = sorted(s.student for s in found if not s.problem)
    assert readable == ["mallory", "vera"]
    assert len([s for s in found if s.problem]) == 2


# --- terminal escapes in names --------------------------------------------------------------


def test_names_with_escapes_are_shown_escaped_everywhere(tmp_path):
    program, names = corpus("lms_escape_names")
    folder = tmp_path / "submissions"
    folder.mkdir()
    victim = "HW3_vera_attempt_2026-11-20-09-00-00_classic.py"
    put(folder, victim, RIGHT)
    for name in names:
        put(folder, name, program)
    batch = grade(folder, tmp_path / "out")
    students = {r.student for r in batch.results}
    assert {"vera", *(v for v in names.values() if v)} <= students  # each as its name says
    assert_victim_whole(batch, victim, "vera")

    summary = batch.summary()
    assert not RAW.search(summary), repr(summary)
    assert "\\x1b]0;pwned\\x07" in summary  # the older attempt, in its note
    assert "\\r\\x1b[1Ascore 100.00" in summary  # the ambiguous name, in its note
    out = tmp_path / "out"
    grades = (out / "grades.csv").read_text(encoding="utf-8")
    assert not RAW.search(grades.replace("\r\n", "\n")), repr(grades)
    assert "\\x1b[8mhidden\\x9b31m" in grades and "\\u202eyp.nohtyp\\udcff" in grades
    for feedback in (out / "feedback").iterdir():
        assert not RAW.search(feedback.read_text(encoding="utf-8")), feedback.name
    index = (out / "index.html").read_text(encoding="utf-8")
    assert not RAW.search(index) and "\\u202eyp.nohtyp\\udcff" in index
    assert len(list((out / "feedback").glob("*.html"))) == len(batch.results)

    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", "classic", str(folder), "--out",
         str(tmp_path / "cli"), "--isolation", "process", "-j", "2"],
        capture_output=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    shown = done.stdout.decode("utf-8") + done.stderr.decode("utf-8")
    assert not RAW.search(shown), shown
    assert "\\x1b]0;pwned\\x07" in shown
