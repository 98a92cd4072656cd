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
            RosterStudent("4711", "Lee, Ann", "", 2, "s1", "alee", "Section 1"),
        ),
        (
            "  SID  , Email ",
            "  s1 ,  ann@uni.edu  ",
            RosterStudent("s1", "", "ann@uni.edu", 2),
        ),
        ("id", "s1", RosterStudent("s1", "", "", 2)),
        (  # D2L's classlist export
            "OrgDefinedId,Last Name,First Name,Email",
            "s1,Lee,Ann,ann@uni.edu",
            RosterStudent("s1", "Ann Lee", "ann@uni.edu", 2),
        ),
        (  # a Canvas roster without its "ID": the SIS id is the student's id, and stays one
            "Name,SIS User ID",
            "Ann Lee,s1",
            RosterStudent("s1", "Ann Lee", "", 2, sis_user_id="s1"),
        ),
        (  # Canvas's SIS import spelling, matched as loosely as the other headers
            "user_id,login_id,full_name,email,Course Section",
            "s1,alee,Ann Lee,ann@uni.edu,MDP 101",
            RosterStudent("s1", "Ann Lee", "ann@uni.edu", 2, "", "alee", "MDP 101"),
        ),
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
    # Each id says what is wrong with it, not only that something is.
    "id of two dots": ("..,Hal,hal@uni.edu", "student id '..' starts with '.'; ids start with"),
    "hidden id": (".hidden,Hal,hal@uni.edu", "student id '.hidden' starts with '.'"),
    "id like an option": ("-rf,Hal,hal@uni.edu", "student id '-rf' starts with '-'"),
    "id with an accent": (
        "Jos\u00e9,Jo,jo@uni.edu",
        "'Jos\u00e9' has '\u00e9', a letter outside ASCII",
    ),
    "id of wide digits": ("\uff11\uff12,Jo,jo@uni.edu", "has '\uff11', a digit outside ASCII"),
    "id too long": ("a" * 300 + ",Jo,jo@uni.edu", "is 300 characters long; ids have at most 100"),
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
        (";;;\n\t\n", "no student id column in the header [';;;']"),
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


@pytest.mark.parametrize("mark", ["", "\ufeff"])
def test_a_file_that_is_not_utf8_names_the_line_and_the_byte(tmp_path, mark):
    path = tmp_path / "roster.csv"
    path.write_bytes(mark.encode() + "SID,Name\ns1,Jos\u00e9\n".encode("latin-1"))
    with pytest.raises(UsageError) as caught:
        read_roster(path)
    assert caught.value.where == str(path)
    assert caught.value.message.startswith("the roster is not UTF-8: byte 7 of line 2 is 0xe9;")
    assert '"CSV UTF-8"' in caught.value.message


def test_a_utf16_file_is_named_so(tmp_path):
    path = roster(tmp_path, "SID,Name\ns1,Ann\n", encoding="utf-16")
    with pytest.raises(UsageError, match="the roster is UTF-16, not UTF-8"):
        read_roster(path)


@pytest.mark.parametrize(
    ("header", "twice"),
    [("Name,ID,ID", "'ID' twice (columns 2 and 3)"), ("SID,Email, e-mail ,E-Mail", "'E-Mail'"),
     ("Student_ID,Name,student id", "'student id' twice (columns 1 and 3)"),
     ("SID,SIS Login ID,Section,section", "'section' twice (columns 3 and 4)")],
)  # fmt: skip
def test_a_header_naming_a_column_twice_is_refused(tmp_path, header, twice):
    path = roster(tmp_path, f"{header}\nann,Ann,ann@uni.edu\n")
    with pytest.raises(UsageError) as caught:
        read_roster(path)
    assert_names_file(caught.value, path, f"the header names the column {twice}")


def test_columns_the_roster_does_not_read_may_repeat(tmp_path):
    result = read_roster(roster(tmp_path, "SID,Note,Note,,\ns1,a,b,,\n"))
    assert result.problems == ()
    assert ids(result) == ["s1"]


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_semicolons_or_tabs_between_columns_are_read(tmp_path, delimiter):
    # As a spreadsheet in a European locale (";") or saving text (tabs) writes a roster,
    # a quoted cell keeping a comma and a semicolon.
    lines = [["Name", "ID", "Email"], ['"Lee, Ann; B."', "4711", "ann@uni.edu"],
             ["Bob", "4712", ""], [], ["Cy", "a/b", "cy@uni.edu"]]  # fmt: skip
    path = roster(tmp_path, "\n".join(delimiter.join(cells) for cells in lines) + "\n")
    result = read_roster(path)
    assert result.students == (
        RosterStudent("4711", "Lee, Ann; B.", "ann@uni.edu", 2),
        RosterStudent("4712", "Bob", "", 3),
    )
    (problem,) = result.problems
    assert problem.startswith(f"{path} row 5: student id 'a/b'")


def test_a_semicolon_roster_without_an_id_column_shows_its_header_split(tmp_path):
    path = roster(tmp_path, "Name;Email\nAnn;ann@uni.edu\n")
    with pytest.raises(UsageError) as caught:
        read_roster(path)
    assert_names_file(caught.value, path, "no student id column in the header ['Name', 'Email']")
    assert "columns split at ';'" in caught.value.message


def test_a_comma_header_with_an_id_column_is_read_with_commas(tmp_path):
    # Semicolons inside cells of a comma roster change nothing.
    result = read_roster(roster(tmp_path, "SID;x,Name;y,ID\ns1;a,Ann;b,4711\n"))
    assert ids(result) == ["4711"]


def test_a_header_that_reads_both_with_semicolons_and_with_tabs_is_refused(tmp_path):
    path = roster(tmp_path, "ID;x\tSID\ns1;a\tb\n")
    with pytest.raises(UsageError) as caught:
        read_roster(path)
    assert_names_file(caught.value, path, "both semicolons and tabs")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_quote_left_open_costs_its_own_row_alone(tmp_path, newline):
    """The csv module reads everything after a quote that is never closed into one cell:
    the students after it would be lost without a word."""
    text = newline.join(['Student,ID,Email', '"Lovelace, Ada",1001,a@x.edu',
                         '"Unclosed, quote,1002,b@x.edu', "Hopper,1003,c@x.edu", ""])  # fmt: skip
    path = roster(tmp_path, text)
    result = read_roster(path)
    assert ids(result) == ["1001", "1003"]
    assert [s.row for s in result.students] == [2, 4]
    assert result.problems == (
        f"{path} row 3: a quote opens a cell and is never closed on its line; row left out",
    )


def test_a_quote_left_open_before_thousands_of_rows_or_on_the_last_line(tmp_path):
    # Read whole, the rest of the file went into one cell: past 128 KB the csv module
    # refused the roster; on a last line without its newline the quote passed unseen.
    rows = [f"s{k:05d},Student {k},s{k}@uni.edu" for k in range(3_000)]
    text = "\n".join(["SID,Name,Email", '"s-open,Ann,ann@uni.edu', *rows, 's-last,"Bob'])
    result = read_roster(roster(tmp_path, text))
    assert len(result.students) == 3_000
    assert [p.split(": ", 1)[1] for p in result.problems] == [
        "a quote opens a cell and is never closed on its line; row left out"
    ] * 2
    assert [p.split(": ")[0].rsplit(" ", 1)[1] for p in result.problems] == ["2", "3003"]


def test_a_header_that_opens_a_quote_is_refused(tmp_path):
    path = roster(tmp_path, '"Student,ID,Email\nAda,1001,a@x.edu\n')
    with pytest.raises(UsageError, match="line 1: the header opens a quote it never closes"):
        read_roster(path)


# --- the command line ---------------------------------------------------------------------


BAD_FILES = {
    "no id column": ("Name,Email\nAnn,ann@uni.edu\n", "utf-8", "no student id column"),
    "a column twice": ("Name,ID,ID\nAnn,1,2\n", "utf-8", "names the column 'ID' twice"),
    "latin-1": ("SID,Name\ns1,Jos\u00e9\n", "latin-1", "not UTF-8: byte 7 of line 2 is 0xe9"),
    "semicolons, no id": ("Name;Email\nAnn;ann@uni.edu\n", "utf-8", "columns split at ';'"),
    # No byte-order mark: its header would read as 'S\x00I\x00D\x00...'.
    "utf-16, no mark": ("SID,Name\ns1,Ann\n", "utf-16-le", "holds NUL bytes, so it is not UTF-8"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_variants_with_a_bad_roster_file_exits_2_with_one_line(tmp_path, case):
    text, encoding, needle = BAD_FILES[case]
    bad = roster(tmp_path, text, name="BAD.csv", encoding=encoding)
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
    assert needle in lines[0]
    # Refused before anything is written: no folder, no secret.
    assert not out.exists()


def test_a_cell_over_the_csv_limit_is_one_error_and_only_in_the_split_used(tmp_path):
    from autograder._roster import read_roster as read

    # Many long cells split at commas: each under the csv module's 128 KB limit, the whole
    # line (as a tab split reads it) over it. The comma roster is read.
    wide = tmp_path / "wide.csv"
    notes = ",".join(f"note{k}" for k in range(200))
    wide.write_text(f"Name,ID,Email,{notes}\nAda,s1,a@x.edu," + ",".join(["x" * 1000] * 200))
    assert [s.id for s in read(wide).students] == ["s1"]
    # One cell over the limit, at commas too: one line naming the file.
    big = tmp_path / "big.csv"
    big.write_text("Name,ID,Email\nAda,s1," + "y" * 200_000 + "\n")
    with pytest.raises(UsageError, match="field larger than field limit") as err:
        read(big)
    assert str(big) in str(err.value)
