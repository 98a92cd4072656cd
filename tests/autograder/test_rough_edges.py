"""What a new teaching assistant trips on, each said in one line: a setting per --set, a
file where a folder is wanted, an empty folder, a stopped batch, the demo's silence."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from autograder.cli import main


def one_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) >= 1
    return err[-1]


def test_two_settings_after_one_set_say_to_repeat_it(capsys):
    assert main_exit(["solve", "classic", "--set", "faces=6", "overshoot=win"]) == 2
    said = one_error(capsys)
    assert "one --set per parameter: --set overshoot=win" in said


def main_exit(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:  # argparse's own errors
        return int(stop.code or 0)


def test_grade_on_a_file_or_an_empty_folder_says_what_it_wants(tmp_path, capsys):
    program = tmp_path / "classic.py"
    program.write_text("print(1)\n")
    assert main(["grade", "classic", str(program), "--out", str(tmp_path / "a")]) == 2
    said = one_error(capsys)
    assert str(program) in said and "is a file" in said and "check" in said
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["grade", "classic", str(empty), "--out", str(tmp_path / "b")]) == 2
    said = one_error(capsys)
    assert str(empty) in said and "holds no submission" in said


def test_simulate_names_the_public_board_in_words(capsys):
    assert main(["simulate", "classic", "--games", "200"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("classic on the public board:") and "toml" not in first


def test_the_demo_says_what_it_is_grading(demo):
    text, ok, said = demo("classic")  # (graded once for the session: tests/conftest.py)
    assert ok and "== classic" in text
    assert said.startswith("grading the ") and "examples of classic" in said


def test_a_stopped_batch_says_how_to_go_on(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("a", "b", "c", "d"):
        (folder / f"{name}.py").write_text("while True:\n    pass\n")
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "autograder", "grade", "classic", str(folder), "--out", str(out),
         "--isolation", "process", "--timeout", "0.5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (out / "batch.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    # Into the first runs (a stopped batch waits for the submission in hand: here two
    # boards of half a second each, the time limit; then the batch would take four).
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err[-2000:]
    said = err.decode()
    assert "--resume" in said and str(out) in said


def test_the_sample_roster_matches_canvas_download_names(tmp_path):
    """The sample roster is a Canvas export: its ids are the ids Canvas puts in download
    names, so a TA's folder of downloads meets the roster's students."""
    from autograder import find_submissions, read_roster
    from autograder._examples import examples_dir

    roster = read_roster(examples_dir() / "roster.csv")
    folder = tmp_path / "downloads"
    folder.mkdir()
    for k, student in enumerate(roster.students):
        sortable = "".join(ch for ch in student.name.lower() if ch.isalpha())
        (folder / f"{sortable}_{student.id}_{9000 + k}_classic.py").write_text("print(1)\n")
    found, _ = find_submissions(folder)
    assert sorted(s.student for s in found) == sorted(s.id for s in roster.students)


def test_starter_keeps_a_file_it_would_replace_and_refuses_an_unprintable_board(tmp_path, capsys):
    solution = tmp_path / "classic.py"
    solution.write_text("# a filled-in program, hours of work\n")
    assert main(["starter", "classic", "-o", str(solution)]) == 2
    assert "--force" in one_error(capsys) and "hours of work" in solution.read_text()
    assert main(["starter", "classic", "-o", str(solution), "--force"]) == 0
    assert "NotImplementedError" in solution.read_text()
    board = tmp_path / "b95.json"
    board.write_text('{"goal": 95, "jumps": []}')
    for verb in ("starter", "solve", "handout"):
        assert main([verb, "classic", "--board", str(board)]) == 2, verb
        assert "not a multiple of 10" in one_error(capsys), verb
