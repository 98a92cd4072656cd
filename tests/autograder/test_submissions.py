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
