"""The gradebook (``grades.csv``): its columns, and what its status and problems cells say
when boards crashed, timed out or could not be read."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from autograder import load_assignment
from autograder._batch import grade_folder
from autograder._reports import gradebook_status, gradebook_text
from autograder._results import SubmissionResult
from autograder._results import TestResult as BoardResult  # (not collected as a test)
from reference_solutions import ReferenceAnswers, answer_key, reference_program

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
    header = "student,score,max_score,status,public,hidden-1,problems,isolation\r\n"
    assert text.startswith(header)
    assert text.count("\r\n") == 4  # the header and three rows (a cell's own newline is kept)
    table = rows(text)
    assert [r["student"] for r in table] == ["amy", "kim", "zed"]
    assert [r["status"] for r in table] == ["graded", "error", "crashed"]
    assert table[1]["problems"] == 'odd; "quoted", two\nlines'
    assert table[2] == {"student": "zed", "score": "10.00", "max_score": "20", "status": "crashed",
                        "public": "0.00", "hidden-1": "10.00", "problems": "crashed on public",
                        "isolation": "namespace"}  # fmt: skip


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
    limits = load_assignment("classic").limits.with_timeout(1.0)
    cases = answer_key("classic")
    names = [c.name for c in cases]
    grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS, cases=cases,
                 limits=limits, workers=2)  # fmt: skip
    with open(tmp_path / "out" / "grades.csv", newline="") as file:
        table = {r["student"]: r for r in csv.DictReader(file)}
    assert list(next(iter(table.values()))) == [
        "student", "score", "max_score", "status", *names, "problems", "isolation"
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
