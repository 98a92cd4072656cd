"""What a course changes without editing the installed package: its own assignments folder
(``$AUTOGRADER_ASSIGNMENTS``), laid over the shipped assignments, and its settings file
(``--course FILE``, ``$AUTOGRADER_COURSE``), laid over each assignment's own sections."""

from __future__ import annotations

import csv
import os
import shutil
from datetime import UTC, datetime

import pytest

from autograder import UsageError, assignments_dir, load_assignment
from autograder._assignments import assignment_names
from autograder.cli import main

SHIPPED = ("aimed", "boosted", "classic", "efron", "race", "token-boosted", "trap-lane")


@pytest.fixture
def course(tmp_path, monkeypatch):
    """``course(text)``: a settings file holding ``text``, in effect for the test."""

    def make(text: str, name: str = "course.toml"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        monkeypatch.setenv("AUTOGRADER_COURSE", str(path))
        return path

    return make


def test_a_course_sets_tolerances_points_late_policy_and_limits_for_all_or_one(course):
    shipped = load_assignment("classic")
    course(
        """
[tolerance]
values = 0.05
[tests]
hidden_points = 20
seed = 77
[limits]
timeout = 4
[late]
deadline = 2026-11-20T23:59:00Z
penalty_per_day = 5

[classic.tests]
public_points = 40
[classic.late]
penalty_per_day = 20
"""
    )
    classic, boosted = load_assignment("classic"), load_assignment("boosted")
    for assignment in (classic, boosted):
        assert assignment.value_tolerance == 0.05
        assert assignment.tests.hidden_points == 20 and assignment.tests.seed == 77
        assert assignment.limits.timeout == 4
        assert assignment.late is not None
        assert assignment.late.deadline == datetime(2026, 11, 20, 23, 59, tzinfo=UTC)
    # The assignment's own table wins over the course-wide one, key by key; what neither
    # sets stays the assignment's.
    assert classic.tests.public_points == 40 and boosted.tests.public_points == 25
    assert classic.late is not None and boosted.late is not None
    assert classic.late.per_day == 20 and boosted.late.per_day == 5
    assert classic.tests.edge_boards == shipped.tests.edge_boards
    assert classic.policy_tolerance == shipped.policy_tolerance
    assert classic.tests.total_points == 40 + 3 * 20 + 3 * 10


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[board]\ngoal = 50\n", "unknown section [board]"),
        ("[classic.params]\nfaces = 4\n", "unknown section [classic.params]"),
        ("[tolerance]\nvalue = 0.5\n", "unknown key 'value' in [tolerance]"),
        ("[tests]\nhidden_points = -1\n", "hidden_points must be a number >= 0"),
        ("[late]\npenalty_per_day = 10\n", "[late] needs a deadline"),
        ("[nosuch.late]\ndeadline = 2026-01-01\n", "unknown section [nosuch]"),
        ("[tolerance\n", "cannot read the configuration"),
        ("[classic]\nlate = 3\n", "[classic.late] must be a table"),
    ],
)
def test_a_bad_settings_file_is_one_line_naming_it(course, text, needle):
    path = course(text)
    with pytest.raises(UsageError) as caught:
        load_assignment("classic")
    said = str(caught.value)
    assert str(path) in said and needle in said and "\n" not in said


def test_a_settings_file_that_is_not_there_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOGRADER_COURSE", str(tmp_path / "missing.toml"))
    with pytest.raises(UsageError, match="is not a course settings file"):
        load_assignment("classic")


def test_an_edited_settings_file_is_read_again(course):
    path = course("[tolerance]\nvalues = 0.02\n")
    assert load_assignment("classic").value_tolerance == 0.02
    path.write_text("[tolerance]\nvalues = 0.125\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))  # (a new time, whatever the clock's resolution)
    assert load_assignment("classic").value_tolerance == 0.125


def test_the_course_option_holds_for_the_command_and_no_longer(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("AUTOGRADER_COURSE", raising=False)
    settings = tmp_path / "course.toml"
    settings.write_text("[classic.tests]\npublic_points = 33\n", encoding="utf-8")
    out = tmp_path / "handout.md"
    assert main(["handout", "classic", "--course", str(settings), "-o", str(out)]) == 0
    assert "**Public board** (33 points)" in out.read_text(encoding="utf-8")
    assert "AUTOGRADER_COURSE" not in os.environ
    assert main(["handout", "classic", "--course", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"autograder: error: --course {tmp_path / 'nope.toml'}: no such course "
                   "settings file")  # fmt: skip


def test_grade_takes_a_late_policy_from_the_course_settings(tmp_path, capsys):
    """The way on that --times refuses to go without: a [late] policy in the settings."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "ada.py").write_text("print(1)\n")
    times = tmp_path / "times.csv"
    times.write_text("student,submitted\nada,2026-11-23T10:00:00Z\n", encoding="utf-8")
    base = ["grade", "classic", str(folder), "--times", str(times), "--isolation", "process"]
    assert main([*base, "--out", str(tmp_path / "refused")]) == 2
    assert "has no [late] policy" in capsys.readouterr().err
    settings = tmp_path / "course.toml"
    settings.write_text("[late]\ndeadline = 2026-11-20T23:59:00Z\n", encoding="utf-8")
    out = tmp_path / "graded"
    assert main([*base, "--out", str(out), "--course", str(settings)]) == 0
    with open(out / "grades.csv", newline="", encoding="utf-8") as file:
        (row,) = csv.DictReader(file)
    # Submitted on the 23rd at 10:00, due on the 20th at 23:59: 3 days late (any part of a
    # day counts), 10% a day (the [late] default).
    assert row["late"] == "3 days (-30%)"


def test_a_course_folder_adds_assignments_and_replaces_shipped_ones(tmp_path, monkeypatch):
    own = tmp_path / "course"
    shutil.copytree(assignments_dir() / "classic", own / "classic-2026")
    text = (own / "classic-2026" / "assignment.toml").read_text(encoding="utf-8")
    (own / "classic-2026" / "assignment.toml").write_text(
        text.replace("seed = 2026", "seed = 4242"), encoding="utf-8"
    )
    shutil.copytree(assignments_dir() / "boosted", own / "boosted")
    text = (own / "boosted" / "assignment.toml").read_text(encoding="utf-8")
    (own / "boosted" / "assignment.toml").write_text(
        text.replace('title = "', 'title = "Our own: '), encoding="utf-8"
    )
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(own))
    assert set(assignment_names()) == {*SHIPPED, "classic-2026"}
    assert load_assignment("classic-2026").tests.seed == 4242
    assert load_assignment("boosted").title.startswith("Our own: ")
    assert load_assignment("boosted").config.parent.parent == own
    assert load_assignment("efron").config.parent.parent == assignments_dir()


@pytest.mark.parametrize("verb", [["list"], ["solve", "classic"], ["demo"], ["conformance"]])
def test_a_course_folder_that_is_not_there_is_one_line_in_every_command(
    tmp_path, monkeypatch, capsys, verb
):
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path / "no-such-folder"))
    assert main(verb) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"autograder: error: $AUTOGRADER_ASSIGNMENTS={tmp_path / 'no-such-folder'}: "
        "is not a folder of assignments"
    )


@pytest.mark.parametrize(
    "verb", [["list"], ["demo"], ["conformance"], ["solve", "classic"], ["starter", "classic"]]
)
def test_no_assignment_found_is_an_error_in_every_command(tmp_path, monkeypatch, capsys, verb):
    """An install whose package data went missing finds no assignment: never an empty
    success (exit 0 with nothing printed), always one line and exit 2."""
    import autograder._assignments as assignments

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setattr(assignments, "assignments_dir", lambda: empty)
    monkeypatch.delenv("AUTOGRADER_ASSIGNMENTS", raising=False)
    assert main(verb) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err == f"autograder: error: {empty}: no assignment found (no <name>/assignment.toml)"


def test_the_demo_passes_over_a_course_assignment_without_examples(tmp_path, monkeypatch):
    from autograder import demo_text
    from reference_solutions import ReferenceAnswers, examples_dir

    own = tmp_path / "course"
    shutil.copytree(assignments_dir() / "classic", own / "classic-ours")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(own))
    text, ok = demo_text(ReferenceAnswers(), examples_dir(), names=["classic-ours"])
    assert ok
    assert text.splitlines() == ["== classic-ours: Chutes and Ladders: the classic game",
                                 "  no example submissions"]  # fmt: skip


def test_a_course_folder_s_shared_parts_and_hidden_folders_are_no_assignments(
    tmp_path, monkeypatch, capsys
):
    own = tmp_path / "course"
    for folder in ("_partial", ".hidden"):
        shutil.copytree(assignments_dir() / "classic", own / folder)
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(own))
    assert set(assignment_names()) == set(SHIPPED)
    assert main(["list"]) == 0
    assert "_partial" not in capsys.readouterr().out


def test_an_assignment_a_course_adds_takes_its_starter_from_beside_it(
    tmp_path, monkeypatch, capsys
):
    """A course's assignment without a starter template is one line naming where one goes;
    with one in starter_code/ beside the course's assignments, it is used."""
    own = tmp_path / "course"
    shutil.copytree(assignments_dir() / "classic", own / "mine")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(own))
    assert main(["starter", "mine"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("autograder: error: mine: has no template mine.py.j2 (in starter_code/")
    assert "\n" not in err
    (own / "starter_code").mkdir()
    shipped = (assignments_dir().parent / "starter_code" / "classic.py.j2").read_text()
    (own / "starter_code" / "mine.py.j2").write_text(shipped.replace(
        '"""', '"""Our course\'s own starter.\n', 1))  # fmt: skip
    assert main(["starter", "mine"]) == 0
    out = capsys.readouterr().out
    assert "Our course's own starter." in out and "def " in out
    assert "mine" in assignment_names() and "starter_code" not in assignment_names()


def test_the_course_settings_are_hidden_from_submissions(course):
    from autograder._sandbox import protected_paths

    path = course("[tests]\nseed = 4242\n")
    assert path.resolve() in protected_paths()
