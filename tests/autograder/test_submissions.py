"""A folder of submissions: plain names, LMS download names, newest attempt wins."""

from __future__ import annotations

import os

from autograder import find_submissions


def touch(path, mtime=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("print()\n")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_plain_files_and_folders(tmp_path):
    touch(tmp_path / "alice.py")
    touch(tmp_path / "bob" / "classic.py")
    touch(tmp_path / ".DS_Store")
    found, notes = find_submissions(tmp_path)
    assert [(s.student, s.path.name) for s in found] == [("alice", "alice.py"), ("bob", "bob")]
    assert notes == []


def test_canvas_names_keep_the_newest_submission(tmp_path):
    touch(tmp_path / "lovelaceada_12345_900001_classic.py")
    touch(tmp_path / "lovelaceada_LATE_12345_900007_classic-1.py")
    touch(tmp_path / "turingalan_777_900002_solution.py")
    found, notes = find_submissions(tmp_path)
    assert [(s.student, s.path.name) for s in found] == [
        ("12345", "lovelaceada_LATE_12345_900007_classic-1.py"),
        ("777", "turingalan_777_900002_solution.py"),
    ]
    assert len(notes) == 1 and "12345 has 2 submissions" in notes[0]


def test_moodle_folders(tmp_path):
    touch(tmp_path / "Ada Lovelace_123456_assignsubmission_file_" / "classic.py")
    found, _ = find_submissions(tmp_path)
    assert found[0].student == "123456" and found[0].name == "Ada Lovelace"


def test_blackboard_attempts_and_receipts(tmp_path):
    touch(tmp_path / "HW3_alovelace_attempt_2026-11-20-14-03-59_classic.py")
    touch(tmp_path / "HW3_alovelace_attempt_2026-11-21-09-00-00_classic.py")
    touch(tmp_path / "HW3_alovelace_attempt_2026-11-21-09-00-00.txt")
    found, notes = find_submissions(tmp_path)
    assert [s.path.name for s in found] == ["HW3_alovelace_attempt_2026-11-21-09-00-00_classic.py"]
    assert any("receipt" in n for n in notes)


def test_output_folder_inside_is_not_a_submission(tmp_path):
    touch(tmp_path / "alice.py")
    out = tmp_path / "results"
    out.mkdir()
    found, _ = find_submissions(tmp_path, exclude=out)
    assert [s.student for s in found] == ["alice"]


def test_canvas_sortable_names_are_any_lowercase_word_characters(tmp_path):
    # Canvas keeps letters of any script, digits and underscores, lowercased.
    touch(tmp_path / "lövelace_ada_12345_900001_classic.py")
    touch(tmp_path / "o_brien2_777_900002_classic.py")
    found, notes = find_submissions(tmp_path)
    assert [(s.student, s.name, s.lms) for s in found] == [
        ("12345", "lövelace_ada", "Canvas"),
        ("777", "o_brien2", "Canvas"),
    ]
    assert notes == []


def test_canvas_anonymous_grading_names_the_anonymous_id(tmp_path):
    touch(tmp_path / "anon_Xk3pQ_900001_classic.py")
    touch(tmp_path / "LATE_anon_Xk3pQ_900009_classic.py")
    found, notes = find_submissions(tmp_path)
    assert [(s.student, s.path.name) for s in found] == [
        ("anon_Xk3pQ", "LATE_anon_Xk3pQ_900009_classic.py")
    ]
    assert len(notes) == 1 and "anon_Xk3pQ has 2 submissions" in notes[0]


def test_canvas_file_ids_are_compared_as_numbers(tmp_path):
    touch(tmp_path / "ada_12345_99999_classic.py")
    touch(tmp_path / "ada_12345_100000000000001_classic.py")  # longer than any padding
    found, _ = find_submissions(tmp_path)
    assert [s.path.name for s in found] == ["ada_12345_100000000000001_classic.py"]


def test_a_canvas_upload_named_with_leading_numbers_is_refused_not_guessed(tmp_path):
    # "ada_123_900_2_hw.py" is user 123 with file 2_hw.py, or user 900 whose display
    # name ends in "_123": the grader cannot tell, so it says so (a documented cost).
    touch(tmp_path / "ada_123_900_2_hw.py")
    (found,) = find_submissions(tmp_path)[0]
    assert found.student == "ada_123_900_2_hw.py"
    assert "Canvas student 123" in found.problem and "Canvas student 900" in found.problem
    assert "rename it" in found.problem


def test_blackboard_assignment_names_and_usernames_may_hold_underscores(tmp_path):
    for user in ("ab_x", "cd", "ef_y_z"):
        touch(tmp_path / f"Lab_2_part_1_{user}_attempt_2026-11-20-14-03-59_lab.py")
    touch(tmp_path / "Lab_2_part_1_cd_attempt_2026-11-20-14-03-59.txt")
    found, notes = find_submissions(tmp_path)
    assert [(s.student, s.lms) for s in found] == [
        ("ab_x", "Blackboard"),
        ("cd", "Blackboard"),
        ("ef_y_z", "Blackboard"),
    ]
    assert notes == [
        "skipped Lab_2_part_1_cd_attempt_2026-11-20-14-03-59.txt: a Blackboard receipt"
    ]


def test_moodle_files_without_a_folder_per_student(tmp_path):
    touch(tmp_path / "Ada Lovelace_123456_assignsubmission_file_classic.py")
    touch(tmp_path / "Alan_Turing 2_654321_assignsubmission_file_my_classic.py")
    found, _ = find_submissions(tmp_path)
    assert [(s.student, s.name) for s in found] == [
        ("123456", "Ada Lovelace"),
        ("654321", "Alan_Turing 2"),
    ]


def test_a_plain_name_and_an_lms_name_of_one_id_are_not_ordered(tmp_path):
    # A plain name has no attempt order; an LMS one has: neither is "the newest".
    touch(tmp_path / "12345.py", mtime=2_000_000_000)
    touch(tmp_path / "lovelaceada_12345_900001_classic.py", mtime=1_000_000_000)
    (found,), notes = find_submissions(tmp_path)
    assert found.student == "12345" and "2 formats" in found.problem
    assert notes == [f"not graded: {found.problem}"]
