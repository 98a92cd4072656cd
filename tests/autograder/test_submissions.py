"""A folder of submissions: plain names, LMS download names, newest attempt wins, and the
files of one Moodle submission graded together."""

from __future__ import annotations

import csv
import os
import tempfile

import pytest

from autograder import find_submissions
from autograder._batch import grade_folder
from reference_solutions import ReferenceAnswers, answer_key, reference_program
from tests.grading import public_board


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


def test_a_hidden_submission_is_named_and_a_systems_own_files_are_not(tmp_path):
    touch(tmp_path / "alice.py")
    touch(tmp_path / ".bob.py")  # a student's, hidden by its name
    touch(tmp_path / ".carol" / "classic.py")
    for noise in (".DS_Store", "._alice.py", ".git/config", ".ipynb_checkpoints/x.ipynb"):
        touch(tmp_path / noise)
    found, notes = find_submissions(tmp_path)
    assert [s.student for s in found] == ["alice"]
    assert notes == [
        f"skipped {name}: its name starts with '.', so it is hidden; rename it to grade it"
        for name in (".bob.py", ".carol")
    ]


def test_a_link_in_the_folder_is_an_error_row_not_its_target_graded(tmp_path):
    """A link would grade another student's work, or any file, under its own name."""
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "alice.py").write_text(reference_program("classic"))
    (subs / "mallory.py").symlink_to(subs / "alice.py")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "classic.py").write_text(reference_program("classic"))
    (subs / "bob").symlink_to(tmp_path / "elsewhere")
    batch = grade_folder("classic", subs, tmp_path / "out", answers=ReferenceAnswers(),
                         cases=public_board("classic"), isolation="process")  # fmt: skip
    by = {r.student: r for r in batch.results}
    assert by["alice"].score == by["alice"].max_score
    for name, entry in (("mallory", "mallory.py"), ("bob", "bob")):
        assert by[name].status == "error" and by[name].score == 0
        assert by[name].problems == (
            f"{entry}: a symbolic link, so it is not graded; put the submission itself in "
            "the folder",
        )


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


# --- Moodle's download without a folder per student: one entry per uploaded file -----------

ANN = "Ann Lee_777_assignsubmission_file_"


def test_the_uploaded_files_of_one_moodle_submission_are_its_parts(tmp_path):
    main = touch(tmp_path / f"{ANN}trap_lane.py")
    helper = touch(tmp_path / f"{ANN}helper.py")
    # Moodle's online text is written beside the files: it is not a part of the program.
    touch(tmp_path / "Ann Lee_777_assignsubmission_onlinetext_onlinetext.html")
    alone = touch(tmp_path / "Bo Chen_888_assignsubmission_file_trap_lane.py")
    found, notes = find_submissions(tmp_path)
    ann, bo = found
    assert (ann.student, ann.name, ann.lms) == ("777", "Ann Lee", "Moodle")
    assert ann.path == tmp_path / ANN  # the folder Moodle would have made
    assert ann.parts == (("helper.py", helper), ("trap_lane.py", main))
    assert (bo.student, bo.path, bo.parts) == ("888", alone, ())  # one file: as it is
    assert notes == [
        "skipped Ann Lee_777_assignsubmission_onlinetext_onlinetext.html: Moodle's "
        "onlinetext entry, not a program (student 777 uploaded files)"
    ]


def test_moodle_online_text_alone_is_still_the_students_entry(tmp_path):
    text = touch(tmp_path / "Ann Lee_777_assignsubmission_onlinetext_onlinetext.html")
    (found,), notes = find_submissions(tmp_path)
    assert (found.student, found.path, found.parts) == ("777", text, ())
    assert notes == []


def test_moodle_parts_of_two_downloads_are_two_submissions_and_the_newest_wins(tmp_path):
    # The same participant under two full names: two downloads put in one folder, so two
    # submissions, of which the newest (by its newest part) is graded.
    touch(tmp_path / f"{ANN}trap_lane.py", mtime=1_000_000_000)
    touch(tmp_path / f"{ANN}helper.py", mtime=1_000_000_100)
    touch(tmp_path / "Ann Leigh_777_assignsubmission_file_" / "trap_lane.py")
    os.utime(tmp_path / "Ann Leigh_777_assignsubmission_file_", (1_000_000_050,) * 2)
    (found,), notes = find_submissions(tmp_path)
    assert found.path == tmp_path / ANN and len(found.parts) == 2
    assert notes == [
        f"student 777 has 2 submissions: graded the newest, {ANN} (helper.py, trap_lane.py); "
        "not graded: Ann Leigh_777_assignsubmission_file_"
    ]


def test_other_lms_files_of_one_student_are_attempts_not_parts(tmp_path):
    # Canvas and Blackboard name attempts: the newest wins, as before.
    touch(tmp_path / "lovelaceada_12345_900001_classic.py")
    touch(tmp_path / "lovelaceada_12345_900002_helper.py")
    touch(tmp_path / "HW3_alovelace_attempt_2026-11-20-14-03-59_classic.py")
    touch(tmp_path / "HW3_alovelace_attempt_2026-11-21-09-00-00_helper.py")
    found, notes = find_submissions(tmp_path)
    assert [(s.student, s.path.name, s.parts) for s in found] == [
        ("12345", "lovelaceada_12345_900002_helper.py", ()),
        ("alovelace", "HW3_alovelace_attempt_2026-11-21-09-00-00_helper.py", ()),
    ]
    assert len(notes) == 2 and all("has 2 submissions" in n for n in notes)


def test_a_moodle_folder_named_like_an_uploaded_file_is_not_a_part(tmp_path):
    # A zip a student uploaded, unpacked into a folder of its name, is a whole submission.
    touch(tmp_path / f"{ANN}hw3.zip" / "trap_lane.py", mtime=1_000_000_000)
    os.utime(tmp_path / f"{ANN}hw3.zip", (1_000_000_000,) * 2)
    touch(tmp_path / f"{ANN}..", mtime=1_000_000_100)  # no file name of its own
    found, notes = find_submissions(tmp_path)
    assert [(s.path.name, s.parts) for s in found] == [(f"{ANN}..", ())]
    assert "2 submissions" in notes[0]


def split_program(folder, prefix=ANN):
    """The trap lane's reference program handed in as Moodle writes two uploaded files: its
    functions in helper.py, and trap_lane.py, which imports them."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{prefix}helper.py").write_text(reference_program("trap-lane"))
    main = "import sys\n\nfrom helper import *\n\nif __name__ == '__main__':\n    main(sys.argv)\n"
    (folder / f"{prefix}trap_lane.py").write_text(main)
    return folder


@pytest.fixture
def own_temporary_folder(tmp_path, monkeypatch):
    """The grader's temporary folders go under the test's, so that what they leave is seen."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    return temporary


def test_a_moodle_submission_in_parts_is_graded_as_one_folder(tmp_path, own_temporary_folder):
    subs = split_program(tmp_path / "subs")
    split_program(subs, "Bo Chen_888_assignsubmission_file_")
    cases = answer_key("trap-lane", hidden=False)
    out = tmp_path / "out"
    batch = grade_folder("trap-lane", subs, out, answers=ReferenceAnswers(), cases=cases)
    assert [r.student for r in batch.results] == ["777", "888"]
    assert all(r.status == "graded" and r.score == r.max_score > 0 for r in batch.results)
    assert batch.results[0].submission == str(subs / ANN)
    assert not any("submissions" in n for n in batch.notes)
    assert list(own_temporary_folder.iterdir()) == []  # the folders put together are gone
    # The similarity report reads the parts too: the two students' code is the same.
    with open(out / "similarity.csv", newline="") as file:
        (pair,) = list(csv.DictReader(file))
    assert (pair["student_a"], pair["student_b"]) == ("777", "888")


def test_a_moodle_part_that_is_a_link_is_an_error_row(tmp_path, own_temporary_folder):
    subs = split_program(tmp_path / "subs")
    helper = subs / f"{ANN}helper.py"
    helper.rename(tmp_path / "elsewhere.py")
    helper.symlink_to(tmp_path / "elsewhere.py")
    cases = answer_key("trap-lane", hidden=False)
    batch = grade_folder("trap-lane", subs, tmp_path / "out", answers=ReferenceAnswers(),
                         cases=cases)  # fmt: skip
    (result,) = batch.results
    assert result.status == "error" and result.problems == (
        f"{ANN}helper.py: not a file (a link?), so it is not graded",
    )
    assert list(own_temporary_folder.iterdir()) == []


def test_the_names_an_lms_download_gives_fill_the_gradebooks(tmp_path):
    subs = tmp_path / "subs"
    (subs / "Ana Lopez_2001_assignsubmission_file_").mkdir(parents=True)
    (subs / "Ana Lopez_2001_assignsubmission_file_" / "classic.py").write_text("print(1)\n")
    (subs / "smithjohn_1001_5001_classic.py").write_text("print(1)\n")
    out = tmp_path / "out"
    batch = grade_folder("classic", subs, out, answers=ReferenceAnswers(),
                         cases=public_board("classic"), isolation="process")  # fmt: skip
    assert not any("not named as an LMS download" in n for n in batch.notes)
    with open(out / "grades.csv", newline="") as file:
        names = {row["student"]: row["name"] for row in csv.DictReader(file)}
    assert names == {"1001": "smithjohn", "2001": "Ana Lopez"}
    with open(out / "grades-moodle.csv", newline="") as file:
        moodle = {row["Full name"] for row in csv.DictReader(file)}
    assert "Ana Lopez" in moodle
    # Marked again, the gradebook keeps them (each result keeps its name).
    from autograder._regrade import regrade_folder

    regrade_folder(out, ReferenceAnswers())
    with open(out / "grades.csv", newline="") as file:
        assert {row["student"]: row["name"] for row in csv.DictReader(file)} == names


def test_plain_names_are_told_to_be_no_lms_ids(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "Zoë Müller final (1).py").write_text("print(1)\n")
    batch = grade_folder("classic", subs, tmp_path / "out", answers=ReferenceAnswers(),
                         cases=public_board("classic"), isolation="process")  # fmt: skip
    assert (
        "the submissions are not named as an LMS download names them, so the ids in "
        "grades-canvas.csv and grades-moodle.csv are their file names, which neither Canvas "
        "nor Moodle will match: enter the grades from grades.csv"
    ) in batch.notes
