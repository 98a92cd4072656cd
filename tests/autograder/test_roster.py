"""Rosters (autograder/_roster.py): the CSV an instructor exports from an LMS.

A bad row is left out with one problem line naming the file and the row (the header is
row 1); the other rows stand. A file that cannot be a roster at all is a UsageError.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from autograder._errors import UsageError
from autograder._roster import RosterStudent, read_roster
from tests.grading import assert_names_file


def roster(tmp_path, text: str, name: str = "roster.csv", encoding: str = "utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def ids(result) -> list[str]:
    return [s.id for s in result.students]


# --- well-formed rosters ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "row", "expected"),
    [
        (
            "SID,First Name,Last Name,Email",
            "s1,Ann,Lee,ann@uni.edu",
            RosterStudent("s1", "Ann Lee", "ann@uni.edu", 2),
        ),
        (
            "Student ID,Name,email address",
            "1234567,Ann Lee,ann@uni.edu",
            RosterStudent("1234567", "Ann Lee", "ann@uni.edu", 2),
        ),
        (
            "Username,Full Name,E-mail Address",
            "alee,Ann Lee,ann@uni.edu",
            RosterStudent("alee", "Ann Lee", "ann@uni.edu", 2),
        ),
        (
            "student_id,Surname,Given Name,Mail",
            "s1,Lee,Ann,ann@uni.edu",
            RosterStudent("s1", "Ann Lee", "ann@uni.edu", 2),
        ),
        (  # Canvas gradebook export: "Student" is the name, "ID" the id
            "Student,ID,SIS User ID,SIS Login ID,Section",
            '"Lee, Ann",4711,s1,alee,Section 1',
            RosterStudent("4711", "Lee, Ann", "", 2),
        ),
        (
            "  SID  , Email ",
            "  s1 ,  ann@uni.edu  ",
            RosterStudent("s1", "", "ann@uni.edu", 2),
        ),
        ("id", "s1", RosterStudent("s1", "", "", 2)),
    ],
)
def test_lms_headers_are_recognised(tmp_path, header, row, expected):
    result = read_roster(roster(tmp_path, f"{header}\n{row}\n"))
    assert result.problems == ()
    assert result.students == (expected,)
    assert result.source == str(tmp_path / "roster.csv")


def test_several_students_keep_their_order_names_and_rows(tmp_path):
    text = (
        "SID,First Name,Last Name,Email\n"
        "s1,Ann,Lee,ann@uni.edu\n"
        "s2,Bob,,bob@uni.edu\n"
        "s3,,Cho,\n"
        "s.4+x@y,Dee,Dunn,dee@mail.uni.edu\n"
    )
    result = read_roster(roster(tmp_path, text))
    assert result.problems == ()
    assert result.students == (
        RosterStudent("s1", "Ann Lee", "ann@uni.edu", 2),
        RosterStudent("s2", "Bob", "bob@uni.edu", 3),
        RosterStudent("s3", "Cho", "", 4),
        RosterStudent("s.4+x@y", "Dee Dunn", "dee@mail.uni.edu", 5),
    )


def test_byte_order_mark_and_crlf_line_ends(tmp_path):
    path = roster(tmp_path, "\ufeffSID,Email\r\ns1,ann@uni.edu\r\ns2,bob@uni.edu\r\n")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    result = read_roster(path)
    assert result.problems == ()
    assert [(s.id, s.email, s.row) for s in result.students] == [
        ("s1", "ann@uni.edu", 2),
        ("s2", "bob@uni.edu", 3),
    ]


def test_a_full_name_column_wins_over_first_and_last(tmp_path):
    text = "SID,Name,First Name,Last Name\ns1,Ann B. Lee,Ann,Lee\ns2,,Bob,Ray\n"
    result = read_roster(roster(tmp_path, text))
    assert [s.name for s in result.students] == ["Ann B. Lee", "Bob Ray"]


def test_short_rows_are_fine(tmp_path):
    result = read_roster(roster(tmp_path, "SID,Name,Email\ns1\ns2,Bob\n"))
    assert result.problems == ()
    assert result.students == (RosterStudent("s1", "", "", 2), RosterStudent("s2", "Bob", "", 3))


def test_blank_lines_are_skipped_but_still_counted(tmp_path):
    text = "SID,Email\n\ns1,ann@uni.edu\n   \n , ,\n\ns2,not-an-email\ns3,cy@uni.edu\n\n"
    path = roster(tmp_path, text)
    result = read_roster(path)
    assert [(s.id, s.row) for s in result.students] == [("s1", 3), ("s3", 8)]
    assert len(result.problems) == 1
    assert result.problems[0].startswith(f"{path} row 7: ")


# --- row problems -------------------------------------------------------------------------

BAD_ROWS = {
    "duplicate id": ("s1,Ann Again,again@uni.edu", "duplicate student id 's1' (first on row 2)"),
    "duplicate id, other case": ("S1,Ann Again,again@uni.edu", "duplicate student id 'S1'"),
    "missing id": (",Nobody,nobody@uni.edu", "no student id"),
    "blank id": ("   ,Nobody,nobody@uni.edu", "no student id"),
    "bad email": ("s3,Carl,carl-at-uni.edu", "'carl-at-uni.edu' is not an email address"),
    "email with a space": ("s3,Carl,carl x@uni.edu", "is not an email address"),
    "duplicate email": ("s3,Dora,ann@uni.edu", "email 'ann@uni.edu' is already on row 2"),
    "duplicate email, other case": ("s3,Dora,ANN@Uni.EDU", "is already on row 2"),
    "too many cells": ("s3,Eve,eve@uni.edu,extra", "4 cells for 3 columns"),
    "id with a slash": ("a/b,Fay,fay@uni.edu", "student id 'a/b' has characters"),
    "id with a space": ("g h,Gus,gus@uni.edu", "student id 'g h' has characters"),
    "id with a backslash": ("..\\x,Hal,hal@uni.edu", "has characters other than"),
    "id starting with a dot": ("..,Hal,hal@uni.edu", "has characters other than"),
}


@pytest.mark.parametrize("case", list(BAD_ROWS))
def test_each_row_problem_is_one_line_naming_file_and_row(tmp_path, case):
    bad, needle = BAD_ROWS[case]
    text = f"SID,Name,Email\ns1,Ann Lee,ann@uni.edu\n{bad}\ns9,Zed,zed@uni.edu\n"
    path = roster(tmp_path, text)
    result = read_roster(path)
    assert ids(result) == ["s1", "s9"]
    assert [s.row for s in result.students] == [2, 4]
    assert len(result.problems) == 1
    (problem,) = result.problems
    assert "\n" not in problem
    assert problem.startswith(f"{path} row 3: ")
    assert needle in problem
    assert problem.endswith("row left out")


def test_every_problem_of_one_file_on_its_own_line(tmp_path):
    lines = [
        "SID,Name,Email",  # 1
        "s1,Ann Lee,ann@uni.edu",  # 2
        "S1,Ann Again,again@uni.edu",  # 3 duplicate id (case)
        ",Nobody,nobody@uni.edu",  # 4 missing id
        "s3,Carl,not-an-email",  # 5 bad email
        "s4,Dora,Ann@uni.edu",  # 6 duplicate email
        "s5,Eve,eve@uni.edu,extra",  # 7 too many cells
        "a/b,Fay,fay@uni.edu",  # 8 slash
        '"g h",Gus,gus@uni.edu',  # 9 space
        "",  # 10 blank
        "s6,Hal,hal@uni.edu",  # 11
        "s3,Carl,carl@uni.edu",  # 12: s3 was left out on row 5, so it is free
    ]
    path = roster(tmp_path, "\n".join(lines) + "\n")
    result = read_roster(path)
    assert [(s.id, s.row) for s in result.students] == [("s1", 2), ("s6", 11), ("s3", 12)]
    expected = {
        3: "duplicate student id 'S1' (first on row 2)",
        4: "no student id",
        5: "'not-an-email' is not an email address",
        6: "email 'Ann@uni.edu' is already on row 2",
        7: "4 cells for 3 columns",
        8: "student id 'a/b'",
        9: "student id 'g h'",
    }
    assert len(result.problems) == len(expected)
    for problem, (row, needle) in zip(result.problems, expected.items(), strict=True):
        assert problem.startswith(f"{path} row {row}: "), problem
        assert needle in problem
        assert "\n" not in problem


def test_a_roster_of_only_bad_rows_is_not_a_file_error(tmp_path):
    path = roster(tmp_path, "SID,Email\na b,x@y.zz\n,z@y.zz\n")
    result = read_roster(path)
    assert result.students == ()
    assert [p.split(": ")[0] for p in result.problems] == [f"{path} row 2", f"{path} row 3"]


def test_blank_lines_before_the_header_do_not_shift_row_numbers(tmp_path):
    path = roster(tmp_path, "\n\nSID,Email\ns1,not-an-email\ns2,bob@uni.edu\n")
    result = read_roster(path)
    assert result.problems[0].startswith(f"{path} row 4: ")
    assert [(s.id, s.row) for s in result.students] == [("s2", 5)]


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0c", "\x1e"])
def test_unicode_line_separators_inside_a_cell_do_not_split_the_row(tmp_path, separator):
    text = f"SID,Name,Email\ns1,Ann{separator}Lee,ann@uni.edu\ns2,Bob,bob@uni.edu\n"
    result = read_roster(roster(tmp_path, text))
    assert result.problems == ()
    assert [(s.id, s.email, s.row) for s in result.students] == [
        ("s1", "ann@uni.edu", 2),
        ("s2", "bob@uni.edu", 3),
    ]


# --- file-level problems ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty"),
        ("\n\n  \n", "empty"),
        ("\ufeff", "empty"),
        ("Name,Email\nAnn,ann@uni.edu\n", "no student id column"),
        ("First Name,Last Name,Email Address\nAnn,Lee,ann@uni.edu\n", "no student id column"),
        ("SID,Email\n", "no students"),
        ("SID,Email\n\n,\n", "no students"),
    ],
)
def test_file_level_problems_raise_usage_error_naming_the_file(tmp_path, text, needle):
    path = roster(tmp_path, text)
    with pytest.raises(UsageError) as caught:
        read_roster(path)
    assert_names_file(caught.value, path, needle)


def test_missing_file_and_folder_raise_usage_error(tmp_path):
    missing = tmp_path / "nowhere.csv"
    with pytest.raises(UsageError, match="no such roster file") as caught:
        read_roster(missing)
    assert caught.value.where == str(missing)
    with pytest.raises(UsageError) as caught:
        read_roster(tmp_path)
    assert caught.value.where == str(tmp_path)


def test_a_file_that_is_not_utf8_raises_usage_error(tmp_path):
    path = roster(tmp_path, "SID,Name\ns1,Jos\u00e9\n", encoding="latin-1")
    with pytest.raises(UsageError, match="cannot read the roster") as caught:
        read_roster(path)
    assert caught.value.where == str(path)


# --- the command line ---------------------------------------------------------------------


def test_variants_with_no_id_column_exits_2_with_one_line(tmp_path):
    bad = roster(tmp_path, "Name,Email\nAnn,ann@uni.edu\n", name="BAD.csv")
    out = tmp_path / "out"
    command = ["variants", "classic", "--roster", str(bad), "--out", str(out)]
    result = subprocess.run(
        [sys.executable, "-m", "autograder", *command, "--secret", "somesecret123"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"autograder: error: {bad}: ")
    assert "no student id column" in lines[0]
