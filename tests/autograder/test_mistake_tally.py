"""What the batch learns about the class: how many students made each named mistake and
which entries they missed, in ``mistakes.csv`` and the terminal summary."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import autograder._batch as batch_module
import autograder._reports as reports
from autograder import Variation
from autograder._batch import grade_folder, mistake_words
from autograder._reports import MISTAKES_HEADER, Tally, mistakes_text, summary_text, tally_mistakes
from autograder._results import SubmissionResult
from autograder._results import TestResult as BoardResult  # (not collected as a test)
from autograder._texts import GENERIC_MISTAKES
from reference_solutions import ReferenceAnswers, answer_key, reference_program

ANSWERS = ReferenceAnswers()
WORDS = {"overshoot-wins": "overshooting the goal wins", "no-jumps": "the jumps were left out"}


def run(
    name: str,
    status: str = "partial",
    mistakes: tuple[str, ...] = (),
    wrong: tuple[str, ...] = (),
) -> BoardResult:
    return BoardResult(name, name, 0.0, 10.0, name == "public", status,  # type: ignore[arg-type]
                       mistakes=mistakes, wrong=wrong)  # fmt: skip


def student(name: str, *tests: BoardResult) -> SubmissionResult:
    return SubmissionResult(name, f"{name}.py", "classic", 0.0, 10.0 * len(tests), "graded",
                            tests)  # fmt: skip


def class_of_five() -> list[SubmissionResult]:
    return [
        # The same mistake on three boards is one student, three boards.
        student("ann", run("public", mistakes=("overshoot-wins",), wrong=("square 97",)),
                run("hidden-1", mistakes=("overshoot-wins",), wrong=("square 12", "square 97")),
                run("hidden-2", "wrong", mistakes=("overshoot-wins", "stopped-early"))),
        student("bob", run("public", mistakes=("overshoot-wins",), wrong=("square 97",)),
                run("hidden-1", wrong=("square 97", "square 9"))),
        student("cy", run("public", "passed"), run("hidden-1", "passed")),
        # Crashed everywhere: nothing of it was read, so it counts in no tally.
        student("dee", run("public", "crashed"), run("hidden-1", "timeout")),
        student("eve", run("public", mistakes=("mystery",), wrong=("square 97",)),
                run("hidden-1", "unreadable")),
    ]  # fmt: skip


def test_each_student_counts_once_per_mistake_and_each_board_it_was_on():
    rows = tally_mistakes(class_of_five(), WORDS)
    mistakes = [r for r in rows if r.kind == "mistake"]
    assert mistakes == [
        # 4 students were read on some board (not dee); most students first.
        Tally("mistake", "", "overshoot-wins", 2, 4, 4, "overshooting the goal wins"),
        # then, at one student each, the one on more boards first, then by name.
        Tally("mistake", "", "mystery", 1, 4, 1, "mystery"),  # no words known: its name
        Tally("mistake", "", "stopped-early", 1, 4, 1, GENERIC_MISTAKES["stopped-early"]),
    ]


def test_each_entry_counts_the_students_who_got_it_wrong_on_that_board():
    rows = tally_mistakes(class_of_five(), WORDS)
    entries = [(r.board, r.entry, r.students, r.out_of) for r in rows if r.kind == "entry"]
    # Out of the students whose answer on that board was read: public 4 (all but dee),
    # hidden-1 3 (not dee, nor eve's unreadable one). Most students first, then the boards
    # in order, then the squares in order (9 before 12).
    assert entries == [
        ("public", "square 97", 3, 4),
        ("hidden-1", "square 97", 2, 3),
        ("hidden-1", "square 9", 1, 3),
        ("hidden-1", "square 12", 1, 3),
    ]
    assert all(r.kind == "mistake" for r in rows[:3]), "the named mistakes come first"


def test_a_label_repeated_in_one_run_counts_once_and_errors_count_nowhere():
    repeated = student("fay", run("public", mistakes=("off-by-one", "off-by-one"),
                                  wrong=("square 3", "square 3")))  # fmt: skip
    broken = SubmissionResult.failed("gus", "gus.ipynb", "classic", 10.0, "a notebook")
    rows = tally_mistakes([repeated, broken])
    assert rows == [
        Tally("mistake", "", "off-by-one", 1, 1, 1, GENERIC_MISTAKES["off-by-one"]),
        Tally("entry", "public", "square 3", 1, 1),
    ]
    assert tally_mistakes([broken]) == [] and tally_mistakes([]) == []


def test_mistakes_csv_is_one_table_a_spreadsheet_opens():
    text = mistakes_text(tally_mistakes(class_of_five(), WORDS))
    header = "kind,board,entry,students,out_of,boards,description\r\n"
    assert tuple(header.strip().split(",")) == MISTAKES_HEADER
    assert text.startswith(header) and text.endswith("\r\n")
    table = list(csv.DictReader(io.StringIO(text, newline="")))
    assert table[0] == {"kind": "mistake", "board": "", "entry": "overshoot-wins",
                        "students": "2", "out_of": "4", "boards": "4",
                        "description": "overshooting the goal wins"}  # fmt: skip
    assert table[3] == {"kind": "entry", "board": "public", "entry": "square 97",
                        "students": "3", "out_of": "4", "boards": "",
                        "description": ""}  # fmt: skip
    assert len(table) == 7
    assert mistakes_text([]) == header


def test_the_summary_shows_the_top_mistakes_and_the_most_missed_entries():
    text = summary_text(class_of_five(), descriptions=WORDS)
    assert (
        "mistakes recognised (out of the students whose output was read):\n"
        "  2 of 4 students: overshooting the goal wins (4 boards in all)\n"
        "  1 of 4 students: mystery (1 board in all)\n"
        f"  1 of 4 students: {GENERIC_MISTAKES['stopped-early']} (1 board in all)\n"
        "\n"
        "entries missed most:\n"
        "  3 of 4 students on public: square 97\n"
        "  2 of 3 students on hidden-1: square 97\n"
        # the entries of one board missed by as many students share a line
        "  1 of 3 students on hidden-1: square 9, square 12\n"
        "  (all 3 mistakes and 4 missed entries are in mistakes.csv)\n"
    ) in text


def test_the_summary_keeps_to_the_top_five_and_a_few_entries_a_line():
    # s0 misses square 0, s1 squares 0 and 1, ...: square 0 by 7 students, square 6 by 1.
    many = [student(f"s{k}", run("public", mistakes=(f"m{k}",),
                                 wrong=tuple(f"square {j}" for j in range(k + 1))))
            for k in range(7)]  # fmt: skip
    lines = summary_text(many).splitlines()
    assert sum(" students: m" in line for line in lines) == 5
    missed = [line for line in lines if " students on public: " in line]
    assert missed == [f"  {7 - j} of 7 students on public: square {j}" for j in range(5)]
    assert lines[-1] == "  (all 7 mistakes and 7 missed entries are in mistakes.csv)"
    one = student("fay", run("public", wrong=tuple(f"square {j}" for j in range(1, 7))))
    assert "  1 of 1 students on public: square 1, square 2, square 3, square 4 and 2 more" in (
        summary_text([one]).splitlines()
    )


def test_a_class_with_nothing_wrong_gets_no_tally_in_its_summary():
    text = summary_text([student("cy", run("public", "passed"))])
    assert "mistakes recognised" not in text and "entries missed" not in text


def with_mistakes(case, *mistakes: tuple[str, str]):
    """``case`` with named mistakes (the answer itself stands for theirs)."""
    variations = tuple(Variation(n, says, case.expected.answer) for n, says in mistakes)
    return replace(case, expected=replace(case.expected, mistakes=variations))


def test_the_words_of_a_mistake_come_from_the_cases_else_the_generic_ones():
    public, edge, *_ = answer_key("classic")
    cases = [
        with_mistakes(public, ("overshoot-wins", "overshooting the goal wins")),
        with_mistakes(edge, ("overshoot-wins", "said otherwise"), ("off-by-one", "one more")),
    ]
    words = mistake_words(cases)
    assert words == {"overshoot-wins": "overshooting the goal wins", "off-by-one": "one more"}
    # A case's words come before the generic ones; the generic ones fill in the rest.
    run_ = run("public", mistakes=("off-by-one", "stopped-early"))
    rows = tally_mistakes([student("ann", run_)], words)
    assert {r.entry: r.description for r in rows if r.kind == "mistake"} == {
        "off-by-one": "one more", "stopped-early": GENERIC_MISTAKES["stopped-early"]
    }  # fmt: skip


# --- the real flow: a batch, its reports and --resume --------------------------------------


def tagged(grade):
    """``grade_submission`` whose result on the public board carries the mistakes and wrong
    entries the program's name asks for, as the grader's diagnosis would."""

    def tag(assignment, path, *args, **kwargs):
        result = grade(assignment, path, *args, **kwargs)
        mistakes = ("overshoot-wins",) if "overshoot" in path.name else ()
        wrong = ("square 97", "square 98") if "overshoot" in path.name else ()
        tests = tuple(replace(t, mistakes=mistakes, wrong=wrong) for t in result.tests)
        return replace(result, tests=tests)

    return tag


def batch_folder(tmp_path: Path, students: list[str]) -> Path:
    folder = tmp_path / "subs"
    folder.mkdir()
    for name in students:
        (folder / f"{name}.py").write_text(reference_program("classic"))
    return folder


def test_the_batch_writes_mistakes_csv_and_resume_rebuilds_it(tmp_path, monkeypatch):
    monkeypatch.setattr(batch_module, "grade_submission", tagged(batch_module.grade_submission))
    written: list[str] = []
    real = reports.write_atomic

    def recorded(path, *args, **kwargs):
        written.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(reports, "write_atomic", recorded)
    folder = batch_folder(tmp_path, ["ann", "bob-overshoot", "cy-overshoot"])
    cases = [with_mistakes(answer_key("classic", hidden=False)[0],
                           ("overshoot-wins", "overshooting the goal wins"))]  # fmt: skip
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=cases)
    # Written atomically, before the gradebook, which stays the last report.
    assert written == ["ann.txt", "bob-overshoot.txt", "cy-overshoot.txt",
                       "histogram.txt", "mistakes.csv", "grades-canvas.csv",
                       "grades-moodle.csv", "grades.csv"]  # fmt: skip
    text = (out / "mistakes.csv").read_bytes().decode()
    assert text == (
        "kind,board,entry,students,out_of,boards,description\r\n"
        "mistake,,overshoot-wins,2,3,2,overshooting the goal wins\r\n"
        "entry,public,square 97,2,3,,\r\n"
        "entry,public,square 98,2,3,,\r\n"
    )
    summary = batch.summary()
    assert "  2 of 3 students: overshooting the goal wins (2 boards in all)\n" in summary
    assert "  2 of 3 students on public: square 97, square 98\n" in summary
    # --resume grades nothing and writes the reports again from results.jsonl.
    (out / "mistakes.csv").unlink()
    monkeypatch.undo()
    again = grade_folder("classic", folder, out, answers=ANSWERS, cases=cases, resume=True)
    assert again.graded_now == 0
    assert (out / "mistakes.csv").read_bytes().decode() == text
    assert again.summary() == summary
    assert not list(out.rglob(".autograder-*.tmp"))


def test_a_batch_with_nothing_wrong_writes_a_mistakes_csv_of_its_header_alone(tmp_path):
    folder = batch_folder(tmp_path, ["ann"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "mistakes.csv").write_text("left by hand\n")
    grade_folder("classic", folder, out, answers=ANSWERS, cases=answer_key("classic", hidden=False))
    lines = (out / "mistakes.csv").read_text().splitlines()
    assert [tuple(line.split(",")) for line in lines] == [MISTAKES_HEADER]
    assert (out / "grades.csv").exists()
