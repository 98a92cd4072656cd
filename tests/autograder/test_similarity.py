"""Code similarity for the staff: a disguised copy is found, independent solutions and the
starter everyone keeps are not, and the report stays out of everything a student reads."""

from __future__ import annotations

import csv
import re
import time
from pathlib import Path

import pytest

from autograder import load_assignment, render_examples
from autograder._batch import grade_folder
from autograder._similarity import (
    HEADER,
    SIMILARITY,
    THRESHOLD,
    similar_pairs,
    starter_program,
    submission_tokens,
    tokens,
    write_similarity,
)
from reference_solutions import ReferenceAnswers, examples_dir
from tests.grading import public_board

CLASSIC = load_assignment("classic")
CASES = public_board("classic")
ANSWERS = ReferenceAnswers()


@pytest.fixture(scope="module")
def examples(tmp_path_factory) -> dict[str, str]:
    """The classic examples as programs, by file name."""
    folder = tmp_path_factory.mktemp("examples")
    made = render_examples(CLASSIC, folder, examples_dir())
    return {p.name: p.read_text() for p in made if p.is_file()}


RENAMES = {
    "next_square": "where_next",
    "new": "fresh",
    "total": "acc",
    "delta": "biggest_change",
    "spin": "roll",
    "V": "values",
}


def disguised(program: str) -> str:
    """The program with its solving part's names changed, every comment rewritten, the
    indentation and spacing changed and blank lines added: what a student copying would do."""
    for old, new in RENAMES.items():
        program = re.sub(rf"\b{old}\b", new, program)
    lines = []
    for line in program.splitlines():
        code = line.split("#")[0].rstrip() if "#" in line and "'" not in line else line
        if line.lstrip().startswith("#"):
            lines.append("# " + "my own words here")
            continue
        indent = len(code) - len(code.lstrip(" "))
        code = " " * (indent // 2) + code.lstrip(" ")  # two spaces a level, not four
        code = code.replace(" = ", "=").replace(", ", ",")
        lines.append(code + ("  # thinking about this step" if code.strip() else ""))
        if code.strip().endswith(":"):
            lines.append("")
    return "\n".join(lines) + "\n"


def read(name: str, text: str, suffix: str = ".py") -> tuple[str, str, list[str]]:
    return name, name + suffix, tokens(text, suffix)


def starter() -> list[str]:
    return tokens(starter_program(CLASSIC), ".py")


def test_tokens_ignore_names_comments_and_layout():
    one = tokens("x = 1  # one\nif x:\n    y = 'a'\n", ".py")
    two = tokens('count=2\n\nif count :  # two\n  other = "b"\n', ".py")
    assert one == two and "N" in one and "S" in one and "1" in one
    assert tokens("int x = 1; // c\n/* block */ y = \"s\";", ".java") == [
        "int", "N", "=", "1", ";", "N", "=", "S", ";",
    ]  # fmt: skip


def test_a_renamed_reformatted_recommented_copy_is_found(examples):
    original = examples["correct_loops.py"]
    copy = disguised(original)
    assert copy != original and "where_next" in copy and "my own words" in copy
    compile(copy, "copy.py", "exec")  # still a program
    pairs = similar_pairs(
        [read("alice", original), read("bob", copy), read("carol", examples["correct_numpy.py"])],
        starter(),
    )
    assert [(p.student_a, p.student_b) for p in pairs] == [("alice", "bob")]
    assert pairs[0].similarity > 0.9 and pairs[0].jaccard > 0.8


def test_independent_correct_solutions_are_not_a_pair(examples):
    pairs = similar_pairs(
        [read("loops", examples["correct_loops.py"]),
         read("numpy", examples["correct_numpy.py"]),
         read("linear", examples["correct_linear_solve.py"])],
        starter(),
    )  # fmt: skip
    assert pairs == []


def test_the_starter_everyone_keeps_is_not_a_pair():
    # Thirty students hand in the starter with a one-line solving part each of their own.
    program = starter_program(CLASSIC)
    body = 'raise NotImplementedError("expected_turns: your value iteration goes here")'
    assert body in program
    students = [
        read(f"s{k}", program.replace(body, f"return [{k}.0] * (goal + 1)")) for k in range(30)
    ]
    assert similar_pairs(students, starter()) == []
    # Without the starter taken out, they would all be pairs.
    assert similar_pairs(students[:3], ())


def test_notebooks_are_read_by_their_code_cells(examples):
    import json

    program = examples["correct_loops.py"]
    notebook = json.dumps(
        {
            "cells": [
                {"cell_type": "markdown", "source": ["# My solution\n"]},
                {"cell_type": "code", "source": program.splitlines(keepends=True)},
                {"cell_type": "code", "source": ["%timeit main([])\n"]},
            ]
        }
    )
    pairs = similar_pairs([read("py", program), read("nb", notebook, ".ipynb")], starter())
    assert [(p.student_a, p.student_b) for p in pairs] == [("nb", "py")]


def test_the_batch_writes_the_csv_for_the_staff_only(tmp_path, examples):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "alice.py").write_text(examples["correct_loops.py"])
    (folder / "bob.py").write_text(disguised(examples["correct_loops.py"]))
    (folder / "carol.py").write_text(examples["correct_numpy.py"])
    (folder / "dan").mkdir()
    (folder / "dan" / "classic.py").write_text(examples["correct_linear_solve.py"])
    (folder / "erin.py").write_text(starter_program(CLASSIC))
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=CASES, workers=2)
    assert {r.student: r.score for r in batch.results}["bob"] == 25
    with open(out / SIMILARITY, newline="") as file:
        rows = list(csv.reader(file))
    assert tuple(rows[0]) == HEADER
    assert [(r[0], r[1]) for r in rows[1:]] == [("alice", "bob")]
    assert all(float(r[2]) >= THRESHOLD for r in rows[1:])
    assert rows[1][5] == str(folder / "alice.py") and rows[1][6] == str(folder / "bob.py")
    # Nothing a student reads mentions it: feedback files, pages, the index.
    student_facing = [*(out / "feedback").iterdir(), out / "index.html"]
    assert len(student_facing) >= 10
    for path in student_facing:
        assert "similar" not in path.read_text(errors="replace").lower(), path


def test_the_csv_holds_no_pair_below_the_threshold(tmp_path, examples):
    folder = tmp_path / "subs"
    folder.mkdir()
    for name, text in examples.items():
        (folder / name).write_text(text)
    subs = [(p.stem, str(p), submission_tokens(p)) for p in sorted(folder.iterdir())]
    everything = similar_pairs(subs, starter(), threshold=0.0, min_shared=1)
    listed = similar_pairs(subs, starter())
    assert any(p.similarity < THRESHOLD for p in everything)
    assert listed and all(p.similarity >= THRESHOLD for p in listed)
    assert {(p.student_a, p.student_b) for p in listed} <= {
        (p.student_a, p.student_b) for p in everything
    }


def test_a_failure_is_a_note_not_a_crash(tmp_path, monkeypatch):
    import autograder._similarity as similarity

    def broken(assignment):
        raise RuntimeError("template gone")

    monkeypatch.setattr(similarity, "starter_program", broken)
    notes = similarity.write_similarity(tmp_path, [], CLASSIC)
    assert notes == [f"{SIMILARITY} not written: RuntimeError: template gone"]


def test_three_hundred_submissions_take_seconds(tmp_path, examples):
    # Half of them copies of five programs, disguised, the rest the examples as they are.
    sources = list(examples.values())
    texts = [disguised(sources[k % 5]) if k % 2 else sources[k % len(sources)] for k in range(300)]
    # This process's CPU time, not the clock's: other work on a busy machine does not count.
    starting = time.process_time()
    subs = [read(f"s{k:03d}", text) for k, text in enumerate(texts)]
    pairs = similar_pairs(subs, starter())
    seconds = time.process_time() - starting
    assert pairs and seconds < 30, seconds
    print(f"300 submissions: {seconds:.2f} s, {len(pairs)} pairs")


def test_submission_tokens_read_files_folders_and_archives(tmp_path, examples):
    import zipfile

    program = examples["correct_loops.py"]
    (tmp_path / "a.py").write_text(program)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "classic.py").write_text(program)
    (tmp_path / "b" / "data.csv").write_text("1,2,3\n")
    with zipfile.ZipFile(tmp_path / "c.zip", "w") as archive:
        archive.writestr("c/classic.py", program)
    found = [submission_tokens(tmp_path / n) for n in ("a.py", "b", "c.zip")]
    assert found[0] == found[1] == found[2] and len(found[0]) > 100
    assert submission_tokens(Path(tmp_path / "missing.py")) == []


def test_tokens_read_already_are_used_in_place_of_the_files(tmp_path, examples):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "alice.py").write_text(examples["correct_loops.py"])
    (folder / "bob.py").write_text(examples["correct_numpy.py"])
    code = [(s, folder / f"{s}.py", f"{s}.py") for s in ("alice", "bob")]
    # As read while the batch ran: bob's code was alice's then.
    loops = tokens(examples["correct_loops.py"], ".py")
    for read, pairs in (({}, []), ({"bob": loops}, [("alice", "bob")])):
        assert write_similarity(tmp_path, code, CLASSIC, read=read) == []
        with open(tmp_path / SIMILARITY, newline="") as file:
            assert [(r[0], r[1]) for r in list(csv.reader(file))[1:]] == pairs


def test_a_batch_reads_each_submission_as_its_result_is_logged(tmp_path, examples, monkeypatch):
    import autograder._similarity as similarity

    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "alice.py").write_text(examples["correct_loops.py"])
    (folder / "bob.py").write_text(disguised(examples["correct_loops.py"]))
    (folder / "carol.py").write_text(examples["correct_numpy.py"])

    def at_the_end(path):
        raise OSError("not read at the end")

    monkeypatch.setattr(similarity, "submission_tokens", at_the_end)
    batch = grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS, cases=CASES,
                         workers=2)  # fmt: skip
    assert not [n for n in batch.notes if SIMILARITY in n], batch.notes
    with open(tmp_path / "out" / SIMILARITY, newline="") as file:
        assert [(r[0], r[1]) for r in list(csv.reader(file))[1:]] == [("alice", "bob")]


def test_a_string_left_open_is_one_token_to_the_end_of_its_line():
    assert tokens('x = "\\"\\"abc\ny = 1;', ".java") == ["N", "=", "S", "N", "=", "1", ";"]
    assert tokens("c = 'open\nd = 'shut';", ".java") == ["N", "=", "S", "N", "=", "S", ";"]
    # Python that does not tokenize is read the same way: a line of escaped quotes left
    # open is one string, read once (it was read again from each quote: 14 s for 32 KB,
    # the reports waiting; 256 KB, a file's cap, would take about half an hour).
    text = 'print(1)\nx = (\n"' + '\\"' * 128_000
    assert tokens(text, ".py")[-3:] == ["=", "(", "S"]
    assert tokens(text + "\\", ".py")[-3:] == ["=", "(", "S"]  # a lone backslash last
