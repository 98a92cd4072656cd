"""What a new teaching assistant trips on, each said in one line: a setting per --set, a
file where a folder is wanted, an empty folder, a stopped batch, the demo's silence."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

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
    from reference_solutions import examples_dir

    roster = read_roster(examples_dir() / "roster.csv")
    folder = tmp_path / "downloads"
    folder.mkdir()
    for k, student in enumerate(roster.students):
        sortable = "".join(ch for ch in student.name.lower() if ch.isalpha())
        (folder / f"{sortable}_{student.id}_{9000 + k}_classic.py").write_text("print(1)\n")
    found, _ = find_submissions(folder)
    assert sorted(s.student for s in found) == sorted(s.id for s in roster.students)


@pytest.mark.parametrize("argv", [["check", "classic", ""], ["grade", "classic", " "],
                                  ["variants", "classic", "--roster", "", "--out", "x"],
                                  ["solve", "classic", "--board", ""]])  # fmt: skip
def test_an_empty_file_name_is_refused_not_read_as_the_current_folder(argv, tmp_path, capsys,
                                                                       monkeypatch):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "classic.py").write_text("print(1)\n")  # what "." would have found
    assert main_exit(argv) == 2
    assert one_error(capsys).endswith(": an empty name; give a file or a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classic.py"]


def test_starter_keeps_a_file_it_would_replace_and_refuses_an_unprintable_board(tmp_path, capsys):
    solution = tmp_path / "classic.py"
    solution.write_text("# a filled-in program, hours of work\n")
    assert main(["starter", "classic", "-o", str(solution)]) == 2
    assert "--force" in one_error(capsys) and "hours of work" in solution.read_text()
    assert main(["starter", "classic", "-o", str(solution), "--force"]) == 0
    assert "NotImplementedError" in solution.read_text()
    # A handout or a board written over it (-o of the wrong file) is refused the same way.
    solution.write_text("# a filled-in program, hours of work\n")
    for verb in (["handout", "classic"], ["board", "new", "--seed", "1"]):
        assert main([*verb, "-o", str(solution)]) == 2
        said = f"{solution}: exists, and the {verb[0]} would replace it; use --force to replace it"
        assert one_error(capsys) == f"autograder: error: {said}"
        assert "hours of work" in solution.read_text()
    assert main(["handout", "classic", "-o", str(solution), "--force"]) == 0
    assert solution.read_text().startswith("# Chutes and Ladders")
    board = tmp_path / "b95.json"
    board.write_text('{"goal": 95, "jumps": []}')
    for verb in ("starter", "solve", "handout"):
        assert main([verb, "classic", "--board", str(board)]) == 2, verb
        assert "not a multiple of 10" in one_error(capsys), verb


def test_an_output_where_a_folder_or_a_file_stands_is_one_line(tmp_path, capsys):
    folder = tmp_path / "here"
    folder.mkdir()
    a_file = tmp_path / "taken"
    a_file.write_text("x\n")
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "ann.py").write_text("print(1)\n")
    for argv, where in [
        (["handout", "classic", "-o", str(folder)], folder),
        (["starter", "classic", "-o", str(folder), "--force"], folder),
        (["board", "new", "--seed", "1", "-o", str(folder)], folder),
        (["gradescope", "classic", "--out", str(folder)], folder),
        (["grade", "classic", str(submissions), "--out", str(a_file)], a_file),
        (["grade", "classic", str(submissions), "--out", str(a_file / "sub")], a_file / "sub"),
    ]:
        assert main(argv) == 2, argv
        said = capsys.readouterr().err.strip().splitlines()
        assert len(said) == 1 and str(where) in said[0], (argv, said)
    assert a_file.read_text() == "x\n" and list(folder.iterdir()) == []


def test_results_inside_the_submissions_are_never_graded_as_students(tmp_path, capsys):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "ann.py").write_text("print(1)\n")
    assert main(["grade", "classic", str(submissions), "--out", str(submissions)]) == 2
    said = one_error(capsys)
    assert str(submissions) in said and "folder of their own" in said
    assert sorted(p.name for p in submissions.iterdir()) == ["ann.py"]
    # Twice into a folder two levels down: the second run sees ann alone, not the first's
    # reports nor the folder that holds them.
    out = submissions / "graded" / "run"
    for _ in range(2):
        assert main(["grade", "classic", str(submissions), "--out", str(out), "--resume",
                     "--isolation", "process", "--timeout", "5"]) in (0, 1)  # fmt: skip
        rows = (out / "grades.csv").read_text().splitlines()
        assert [r.split(",")[0] for r in rows[1:]] == ["ann"]
    # A second results folder beside the first: neither is taken for a student.
    other = submissions / "graded-again"
    batch = main(["grade", "classic", str(submissions), "--out", str(other),
                  "--isolation", "process", "--timeout", "5"])  # fmt: skip
    assert batch in (0, 1)
    assert "skipped graded: the results of an earlier grade" in capsys.readouterr().out
    rows = (other / "grades.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["ann"]


def test_an_empty_folder_leaves_no_results_folder_behind(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["grade", "classic", str(empty), "--out", str(tmp_path / "out")]) == 2
    assert "holds no submission" in one_error(capsys)
    assert not (tmp_path / "out").exists()


def test_a_setting_that_leaves_the_goal_out_of_reach_is_the_one_blamed(capsys):
    # A spinner of one face cannot pass the standard board's chutes: the public board itself
    # is fine, and the message says which setting made it hopeless.
    assert main(["solve", "classic", "--set", "faces=1"]) == 2
    said = one_error(capsys)
    assert said.startswith("autograder: error: the public board with --set faces=1: ")
    assert "assignment.toml" not in said and "no policy can reach the goal" in said


def test_a_setting_the_rules_would_ignore_is_said_and_how_to_use_it(capsys):
    for argv, needle in [
        (["solve", "aimed", "--set", "discount=0.5"], "add --set objective=discounted"),
        (["solve", "aimed", "--set", "reward=5"], "add --set objective=discounted"),
        (["solve", "trap-lane", "--set", "circle_overshoot=restart"], "add --set circle=true"),
    ]:
        assert main(argv) == 2, argv
        said = one_error(capsys)
        assert said.startswith(f"autograder: error: --set {argv[-1]}: ") and needle in said
    # With what switches it on, in either order, the setting works.
    for argv in (
        ["solve", "aimed", "--set", "discount=0.5", "--set", "objective=discounted"],
        ["solve", "trap-lane", "--set", "circle=true", "--set", "circle_overshoot=restart"],
    ):
        assert main(argv) == 0, argv
    capsys.readouterr()


def test_version_names_the_installed_package_and_its_solver(capsys):
    import tomllib
    from pathlib import Path
    from unittest import mock

    from reference_solutions import _solver

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    version = project["project"]["version"]
    assert main_exit(["--version"]) == 0
    assert capsys.readouterr().out == f"autograder {version}; solver: compiled kernel\n"
    with mock.patch.object(_solver, "_compiled", None):
        assert main_exit(["--version"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"autograder {version}; solver: numpy path only (")
    assert "no C compiler" in said
