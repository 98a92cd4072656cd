"""The gradebooks in the LMS's own layouts, checked against what each importer reads, as
its public source reads it (the constants below come from there, not from our code):
Canvas's gradebook import with its Points Possible row, matched by user id, then SIS ids;
Moodle's offline grading worksheet, matched on "Participant <id>", with the time of the
grade that its importer requires."""

from __future__ import annotations

import csv
import json
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from autograder import grade_folder, load_assignment, read_roster
from autograder.cli import main
from reference_solutions import ReferenceAnswers, examples_dir, reference_program
from tests.autograder.test_impersonation import corpus, put

# --- Canvas: instructure/canvas-lms, lib/gradebook_importer.rb ------------------------------
# row_has_student_headers?: the first header holds "Student", the second "ID" (4+ columns).
CANVAS_NAME, CANVAS_ID = "Student", "ID"
# update_column_count: after them, "SIS User ID" then "SIS Login ID" (or the login alone).
CANVAS_SIS_USER, CANVAS_SIS_LOGIN = "SIS User ID", "SIS Login ID"
# header?: the last of the student columns holds "Section"; the assignments follow it.
CANVAS_SECTION = "Section"
# check_for_non_student_row: a first cell holding this is the points row, not a student.
CANVAS_POINTS = "Points Possible"
# app/models/assignment.rb, Assignment.title_and_id: a header naming an existing assignment.
CANVAS_TITLE_AND_ID = re.compile(r"\A(.*)\s\((\d+)\)\Z")

# --- Moodle: moodle/moodle, mod/assign/feedback/offline/importgradeslib.php -----------------
# init() refuses the file unless each of these headers is there, compared exactly with the
# strings of the uploading user's language: mod/assign/lang/en/assign.php 'recordid' and
# 'lastmodifiedgrade', lang/en/moodle.php 'gradenoun'.
MOODLE_REQUIRED = ("Identifier", "Grade", "Last modified (grade)")
# next(): strlen(get_string('hiddenuser', 'assign')) characters are cut off the identifier
# and the rest looked up as the participant's number.
MOODLE_PARTICIPANT = "Participant "
# importgradesform.php / locallib.php: a row is stale, and skipped unless "ignore modified"
# is ticked, when the grade in Moodle changed more than 60 s after strtotime() of its time.
MOODLE_SLACK = 60
# PHP's strtotime() (php.net "Supported Date and Time Formats"): the date "YY-MM-DD", the
# time "'t'? HH ':' II ':' SS" and a tzcorrection "GMT"? [+-] hh ":"? MM?; an empty string
# reads as false (ext/date's strtotime tests), which PHP adds to 60 as 0.
PHP_DATE_TIME = re.compile(
    r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})[Tt](?P<H>\d{2}):(?P<M>\d{2}):(?P<S>\d{2})"
    r"(?:GMT)?(?P<sign>[+-])(?P<oh>\d{2}):?(?P<om>\d{2})?"
)

TITLE = load_assignment("classic").title


def strtotime(text: str) -> int | None:
    """What strtotime() makes of a time in the format above (``None``: PHP's false); the
    importer's only reading of ``Last modified (grade)``."""
    m = PHP_DATE_TIME.fullmatch(text)
    if m is None:
        return None
    offset = (int(m["oh"]) * 60 + int(m["om"] or 0)) * 60 * (1 if m["sign"] == "+" else -1)
    when = datetime(int(m["y"]), int(m["m"]), int(m["d"]), int(m["H"]), int(m["M"]),
                    int(m["S"]), tzinfo=UTC)  # fmt: skip
    return int(when.timestamp()) - offset


def ruby_to_i(text: str) -> int:
    """Ruby's String#to_i, as Canvas reads the ID column: leading digits, underscores
    between digits skipped, 0 when there are none."""
    m = re.match(r"\s*[+-]?\d+(?:_\d+)*", text)
    return int(m.group().replace("_", "")) if m else 0


def canvas_import(path: Path) -> tuple[list[str], dict[str, tuple[str, str]]]:
    """Canvas's reading of a gradebook: its assignment columns, and each student row's name
    with what Canvas matches it by (process_student: the user id, else the SIS user id,
    else the SIS login id, else the name)."""
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    header = rows[0]
    assert len(header) > 3 and CANVAS_NAME in header[0] and CANVAS_ID in header[1]
    columns, sis_user, sis_login = 3, None, None
    if CANVAS_SIS_LOGIN in header[2]:
        columns, sis_login = 4, 2
    elif CANVAS_SIS_USER in header[2] and CANVAS_SIS_LOGIN in header[3]:
        columns, sis_user, sis_login = 5, 2, 3
    assert CANVAS_SECTION in header[columns - 1]
    matched: dict[str, tuple[str, str]] = {}
    for row in rows[1:]:
        assert len(row) == len(header)
        if CANVAS_POINTS in row[0]:
            continue
        if row[1]:
            # Whatever Ruby reads there is the user looked up: it must be the cell itself.
            assert row[1].isascii() and row[1].isdigit() and ruby_to_i(row[1]) == int(row[1])
            matched[row[0]] = (CANVAS_ID, row[1])
        elif sis_user is not None and row[sis_user]:
            matched[row[0]] = (CANVAS_SIS_USER, row[sis_user])
        elif sis_login is not None and row[sis_login]:
            matched[row[0]] = (CANVAS_SIS_LOGIN, row[sis_login])
        else:
            matched[row[0]] = (CANVAS_NAME, row[0])
    return header[columns:], matched


def moodle_import(path: Path) -> dict[str, tuple[float, int | None]]:
    """Moodle's reading of a worksheet: each participant number with its grade and the
    time of its grade, as init() and next() read them; the file is refused (here: an
    assertion) without a required column or with a row of another width (lib/csvlib.class.php,
    load_csv_content: 'csvweirdcolumns')."""
    with open(path, newline="", encoding="utf-8-sig") as file:
        rows = list(csv.reader(file))
    header = rows[0]
    assert all(name in header for name in MOODLE_REQUIRED), header
    at = {name: header.index(name) for name in MOODLE_REQUIRED}
    read = {}
    for row in rows[1:]:
        assert len(row) == len(header)
        identifier = row[at["Identifier"]]
        assert identifier.startswith(MOODLE_PARTICIPANT)
        number = identifier[len(MOODLE_PARTICIPANT) :]
        modified = strtotime(row[at["Last modified (grade)"]])
        read[number] = (float(row[at["Grade"]]), modified)
    return read


def test_the_time_reader_reads_as_php_does():
    assert strtotime("2026-11-24T09:05:00+00:00") == 1795511100
    assert strtotime("2026-11-24T10:05:00+01:00") == 1795511100
    assert strtotime("") is None and strtotime("-") is None
    assert ruby_to_i("104231") == 104231 and ruby_to_i("2_2222_1_2_x.py") == 2222212
    assert ruby_to_i("anon_x") == 0 and ruby_to_i("7abc") == 7


# --- a batch -------------------------------------------------------------------------------


def grade(folder: Path, out: Path, **options):
    assignment = load_assignment("classic")
    public = [c for c in ReferenceAnswers().cases(assignment) if c.visible]
    batch = grade_folder("classic", folder, out, answers=ReferenceAnswers(), cases=public,
                         isolation="process", **options)  # fmt: skip
    return batch, sum(c.points for c in public)


def test_canvas_and_moodle_gradebooks_hold_every_student_their_importer_reads(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    # A Canvas download name (user id 12345) and a Moodle one (participant 678).
    (folder / "smithjane_12345_67890_classic.py").write_text(reference_program("classic"))
    moodle = folder / "Bob Jones_678_assignsubmission_file_"
    moodle.mkdir()
    (moodle / "classic.py").write_text("raise SystemExit(1)\n")
    out = tmp_path / "out"
    before = int(datetime.now(UTC).timestamp())
    batch, full = grade(folder, out)
    after = int(datetime.now(UTC).timestamp()) + 1
    assert {r.student: r.score for r in batch.results} == {"12345": full, "678": 0.0}

    columns, matched = canvas_import(out / "grades-canvas.csv")
    assert columns == [TITLE]
    # Each LMS's number goes only where that LMS reads it: Moodle's participant 678 is no
    # Canvas user id (Canvas would put the grade on the user of that number), so Canvas
    # can match Bob by his name alone; Canvas's user id 12345 is no participant number.
    assert matched == {"smithjane": (CANVAS_ID, "12345"), "Bob Jones": ("Student", "Bob Jones")}
    with open(out / "grades-canvas.csv", newline="") as file:
        rows = list(csv.reader(file))
    assert rows[1][0] == CANVAS_POINTS and float(rows[1][-1]) == full
    assert {row[1]: float(row[-1]) for row in rows[2:]} == {"12345": full, "": 0.0}

    read = moodle_import(out / "grades-moodle.csv")
    assert {n: grade for n, (grade, _) in read.items()} == {"678": 0.0}
    for _, modified in read.values():
        assert modified is not None and before <= modified <= after
        # A grade Moodle made before the file was written is overwritten; one changed in
        # Moodle well after it is kept (unless "ignore modified" is ticked).
        assert not before - 3600 > modified + MOODLE_SLACK
        assert after + 120 > modified + MOODLE_SLACK
    with open(out / "grades-moodle.csv", newline="") as file:
        by_id = {row["Identifier"]: row for row in csv.DictReader(file)}
    assert float(by_id["Participant 678"]["Maximum Grade"]) == full
    assert by_id["Participant 678"]["Full name"] == "Bob Jones"
    # Each file says whom it could not place.
    (canvas,) = [n for n in batch.notes if n.startswith("grades-canvas")]
    (moodle,) = [n for n in batch.notes if n.startswith("grades-moodle")]
    assert "'678'" in canvas and "'12345'" in moodle


def test_an_id_canvas_would_misread_is_never_written_where_canvas_reads_a_user_id(tmp_path):
    # Ruby's to_i reads "2_2222_1_2_classic.py" as 2222212: an error row labelled so (the
    # name has two Canvas readings) must not land on that user, nor a plain id on any.
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("2_2222_1_2_classic.py", "7abc.py", "anon_x9Yq_77_classic.py"):
        (folder / name).write_text("raise SystemExit(1)\n")
    roster = tmp_path / "roster.csv"
    roster.write_text("Name,SID\nSeven Abc,7abc\n")
    batch, _ = grade(folder, tmp_path / "out", roster=read_roster(roster))
    # The named one by its name alone; the others, with nothing to match them by, not
    # even a name, have no row, rather than one Canvas would ask whose it is.
    _, matched = canvas_import(tmp_path / "out" / "grades-canvas.csv")
    assert matched == {"Seven Abc": (CANVAS_NAME, "Seven Abc")}
    assert moodle_import(tmp_path / "out" / "grades-moodle.csv") == {}
    (canvas,) = [n for n in batch.notes if n.startswith("grades-canvas.csv: ")]
    assert "can match none of the 3 students" in canvas and "left out" in canvas
    (moodle,) = [n for n in batch.notes if n.startswith("grades-moodle.csv: ")]
    assert "no student id is a Moodle participant number" in moodle


# --- a roster: SIS ids and sections ------------------------------------------------------


def sample_roster(tmp_path: Path) -> Path:
    path = tmp_path / "roster.csv"
    shutil.copy(examples_dir() / "roster.csv", path)
    return path


def test_a_roster_fills_the_sis_ids_and_says_which_rows_canvas_cannot_match(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    failing = "raise SystemExit(1)\n"
    # Canvas's user id 104231 (Ada on the roster); Alan by his SIS login, as a Blackboard
    # download names him; Grace by her SIS user id as a plain name; Edsger by email; an
    # anonymous Canvas id no roster knows.
    (folder / "lovelaceada_104231_900001_classic.py").write_text(failing)
    (folder / "HW3_alan.turing_attempt_2026-11-20-10-00-00_classic.py").write_text(failing)
    (folder / "s1003.py").write_text(failing)
    (folder / "edsger.dijkstra@example.edu.py").write_text(failing)
    (folder / "anon_Q7x2_900009_classic.py").write_text(failing)
    roster = read_roster(sample_roster(tmp_path))
    out = tmp_path / "out"
    batch, _ = grade(folder, out, roster=roster, canvas_column="Homework 3 (4321)")

    columns, matched = canvas_import(out / "grades-canvas.csv")
    assert columns == ["Homework 3 (4321)"] and CANVAS_TITLE_AND_ID.match(columns[0])
    assert matched == {
        "Lovelace, Ada": (CANVAS_ID, "104231"),
        "Turing, Alan": (CANVAS_SIS_USER, "s1002"),
        "Hopper, Grace": (CANVAS_SIS_USER, "s1003"),
        "Dijkstra, Edsger": (CANVAS_SIS_USER, "s1004"),
    }
    with open(out / "grades-canvas.csv", newline="") as file:
        rows = {row["Student"]: row for row in csv.DictReader(file)}
    assert rows["Turing, Alan"]["SIS Login ID"] == "alan.turing"
    sections = {row["Section"] for name, row in rows.items() if name not in ("", CANVAS_POINTS)}
    assert sections == {"MDP 101 Fall 2026"}
    warned = [n for n in batch.notes if n.startswith("grades-canvas.csv: ")]
    assert warned == [
        "grades-canvas.csv: student 'anon_Q7x2' is not a Canvas user id (not all digits) "
        "and the roster has no row for it (by id, SIS User ID, SIS Login ID or email): "
        "left out, as Canvas could match it to no one"
    ]
    # Moodle's worksheet has no row: no id is a Moodle participant number (Ada's is
    # Canvas's user id, digits though it is), and it says so.
    assert set(moodle_import(out / "grades-moodle.csv")) == set()
    (moodle,) = [n for n in batch.notes if n.startswith("grades-moodle.csv: ")]
    assert moodle.startswith("grades-moodle.csv: no student id is a Moodle participant")
    # grades.csv is as it was: the graded ids, no roster columns.
    with open(out / "grades.csv", newline="") as file:
        header = next(csv.reader(file))
    assert header[:4] == ["student", "score", "max_score", "status"]
    assert "SIS User ID" not in header and "Section" not in header


def test_a_canvas_user_id_is_never_matched_to_another_students_sis_id(tmp_path):
    """Bob's Canvas user id (2002, from his Canvas download name) is Ann's SIS user id: his
    row must keep his own id and none of Ann's, or Canvas would put his grade on her."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "ableann_1001_11_classic.py").write_text("raise SystemExit(1)\n")
    (folder / "bob_2002_12_classic.py").write_text(reference_program("classic"))
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      '"Able, Ann",1001,2002,ann,S1\n')  # fmt: skip
    out = tmp_path / "out"
    _, full = grade(folder, out, roster=read_roster(roster))
    with open(out / "grades-canvas.csv", newline="") as file:
        rows = {row["ID"]: row for row in csv.DictReader(file) if row["ID"]}
    assert rows["1001"]["SIS User ID"] == "2002" and float(rows["1001"][TITLE]) == 0
    assert rows["2002"]["SIS User ID"] == "" and rows["2002"]["Student"] != "Able, Ann"
    assert float(rows["2002"][TITLE]) == full
    _, matched = canvas_import(out / "grades-canvas.csv")
    assert sorted(v for v in matched.values()) == [(CANVAS_ID, "1001"), (CANVAS_ID, "2002")]


def test_a_plain_name_two_roster_rows_answer_to_names_neither(tmp_path):
    """A plain file name that is one student's id and another's SIS user id is ambiguous:
    written with no SIS id of either, and said."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "s7.py").write_text("raise SystemExit(1)\n")
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      '"One, A",s7,x1,a,S\n"Two, B",s8,s7,b,S\n')  # fmt: skip
    out = tmp_path / "out"
    batch, _ = grade(folder, out, roster=read_roster(roster))
    with open(out / "grades-canvas.csv", newline="") as file:
        assert [r for r in csv.DictReader(file) if r["SIS User ID"]] == []
    assert any("rows 2 and 3" in n for n in batch.notes if n.startswith("grades-canvas.csv"))


def test_a_name_holding_points_possible_never_heads_a_row(tmp_path):
    """Canvas takes any row whose first cell holds "Points Possible" for its points row: a
    student who names themselves so would lose their grade and set the column's points."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "pat_1003_13_classic.py").write_text("raise SystemExit(1)\n")
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      '"Points Possible, Pat",1003,s3,pat,S1\n')  # fmt: skip
    out = tmp_path / "out"
    batch, full = grade(folder, out, roster=read_roster(roster))
    with open(out / "grades-canvas.csv", newline="") as file:
        rows = list(csv.reader(file))
    assert [row[0] for row in rows if CANVAS_POINTS.casefold() in row[0].casefold()] == [
        CANVAS_POINTS
    ]
    assert rows[1][-1] == f"{full:g}"
    assert [row[1] for row in rows[2:]] == ["1003"]
    assert any("hold 'Points Possible'" in n and "'1003'" in n for n in batch.notes)


def test_no_cell_of_either_gradebook_is_a_formula(tmp_path):
    # Ids from hostile file names (tests/adversarial/sheet_formulas.py), and a roster
    # whose free text (names, SIS ids, sections) a student may have chosen.
    program, names = corpus("sheet_formulas")
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in names:
        put(folder, name, program)
    (folder / "lovelaceada_104231_900001_classic.py").write_text(program)
    (folder / "Ada Lovelace_2001_assignsubmission_file_.py").write_text(program)  # (Moodle's)
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section\n"
        '"=HYPERLINK(""http://x.example"",""a"")",104231,@s1,-login,+section\n'
        "Eve,s9,+1+1,e,=1+1\n"
    )
    grade(folder, tmp_path / "out", roster=read_roster(roster), canvas_column="=cmd (12)")
    for book in ("grades-canvas.csv", "grades-moodle.csv"):
        with open(tmp_path / "out" / book, newline="", encoding="utf-8") as file:
            rows = list(csv.reader(file))
        assert len(rows) > 1
        for row in rows:
            for text in row:
                if re.fullmatch(r"\d+(\.\d+)?", text):
                    continue  # a number the grader wrote
                assert not text.lstrip().startswith(("=", "+", "-", "@", "\t")), (book, row)


# --- the command line ------------------------------------------------------------------


@pytest.fixture()
def canvas_folder(tmp_path) -> Path:
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "lovelaceada_104231_900001_classic.py").write_text("raise SystemExit(1)\n")
    (folder / "anon_Q7x2_900009_classic.py").write_text("raise SystemExit(1)\n")
    return folder


def canvas_header(out: Path) -> list[str]:
    with open(out / "grades-canvas.csv", newline="") as file:
        return next(csv.reader(file))


def test_grade_and_regrade_keep_the_canvas_column_and_the_roster(canvas_folder, tmp_path, capsys):
    out = tmp_path / "out"
    roster = sample_roster(tmp_path)
    options = ["--canvas-column", "Homework 3 (4321)", "--roster", str(roster)]
    grading = ["grade", "classic", str(canvas_folder), "--out", str(out), "--isolation", "process"]
    assert main([*grading, *options]) == 0
    said = capsys.readouterr()
    assert canvas_header(out)[-1] == "Homework 3 (4321)"
    warning = ("autograder: warning: grades-canvas.csv: student 'anon_Q7x2' is not a Canvas "
               "user id")  # fmt: skip
    assert [line for line in said.err.splitlines() if line.startswith(warning)]
    assert "note: grades-canvas.csv: student 'anon_Q7x2'" in said.out
    meta = json.loads((out / "batch.json").read_text())
    assert meta["canvas_column"] == "Homework 3 (4321)" and meta["roster"] == str(roster.resolve())

    # Marked again without them: the batch's column and roster.
    assert main(["regrade", str(out)]) == 0
    assert warning in capsys.readouterr().err
    assert canvas_header(out)[-1] == "Homework 3 (4321)"
    _, matched = canvas_import(out / "grades-canvas.csv")
    assert matched["Lovelace, Ada"] == (CANVAS_ID, "104231")
    # Another column given: it is the column from now on.
    assert main(["regrade", str(out), "--canvas-column", "Homework 3 (5555)"]) == 0
    assert canvas_header(out)[-1] == "Homework 3 (5555)"
    assert json.loads((out / "batch.json").read_text())["canvas_column"] == "Homework 3 (5555)"
    # A roster gone since: said, and the SIS ids left empty rather than the regrade refused.
    roster.unlink()
    capsys.readouterr()
    assert main(["regrade", str(out)]) == 0
    said = capsys.readouterr()
    assert "the roster the batch was graded with cannot be read now" in said.err
    with open(out / "grades-canvas.csv", newline="") as file:
        assert {row["SIS User ID"] for row in csv.DictReader(file)} == {""}


def test_without_a_column_the_title_heads_it_and_resume_keeps_one(canvas_folder, tmp_path, capsys):
    out = tmp_path / "out"
    args = ["grade", "classic", str(canvas_folder), "--out", str(out), "--isolation", "process"]
    assert main(args) == 0
    assert canvas_header(out) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                                  TITLE]  # fmt: skip
    assert main([*args, "--resume", "--canvas-column", "HW (9)"]) == 0
    assert main([*args, "--resume"]) == 0
    assert canvas_header(out)[-1] == "HW (9)"
    # A column without Canvas's assignment id is taken, with a word on what Canvas does.
    capsys.readouterr()
    assert main([*args, "--resume", "--canvas-column", "HW 3"]) == 0
    assert "names no Canvas assignment id" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "needle"),
    [("--canvas-column", " ", "--canvas-column: is empty"),
     ("--canvas-column", "HW\n3", "holds a control character"),
     ("--roster", "missing.csv", "missing.csv: no such roster file")],
)  # fmt: skip
def test_a_bad_gradebook_option_is_one_line_and_exit_2(
    canvas_folder, tmp_path, capsys, option, value, needle
):
    out = tmp_path / "out"
    given = str(tmp_path / value) if option == "--roster" else value
    assert main(["grade", "classic", str(canvas_folder), "--out", str(out), option, given]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("autograder: error: ") and needle in err[0]
    assert not out.exists()
