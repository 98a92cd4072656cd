"""The command line as a user runs it: a separate process, its output and exit code. Where
a test runs a command several times over (every assignment, every bad input, a seed twice),
it calls the same ``main`` in this process (``run_here``): a process each would start Python
and its imports again for each row, and each verb these cover is run as a user runs it by
another test."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autograder import assignment_names
from autograder.cli import main
from reference_solutions import answer_key


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autograder", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_here(capsys, *args: str) -> subprocess.CompletedProcess:
    """``autograder ARGS`` in this process: ``main``, which ``python -m autograder`` exits
    with, and what it wrote."""
    capsys.readouterr()  # (anything written before)
    try:
        code = main(list(args))
    except SystemExit as stop:  # argparse's own errors
        code = stop.code if isinstance(stop.code, int) else 1
    written = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, written.out, written.err)


def test_solve_classic_prints_the_table_with_the_self_check_first():
    result = run("solve", "classic")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Expected turns per game: 39.60"
    assert lines[1] == "Expected turns remaining by position:"
    assert len(lines) == 12


@pytest.mark.parametrize("name", assignment_names())
def test_every_assignment_solves_with_json(name, capsys):
    result = run_here(capsys, "solve", name, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"assignment", "params", "start_value", "values", "policy"} <= set(data)
    assert data["assignment"] == name
    if name == "trap-lane":
        assert len(data["values"]) == len(data["policy"]) == 14
    elif name == "token-boosted":
        assert len(data["values"]) == data["params"]["tokens"] + 1
        assert data["values"][-1][0] == data["start_value"]
    elif name == "race":  # W[a][b] for every pair of squares 0..99
        assert len(data["values"]) == 100 and {len(row) for row in data["values"]} == {100}
        assert data["values"][0][0] == data["start_value"]
    else:
        assert len(data["values"]) == 101 and data["values"][0] == data["start_value"]
    if name == "classic":
        assert data["policy"] is None


def test_list_shows_every_assignment_and_its_defaults():
    result = run("list")
    assert result.returncode == 0
    for name in assignment_names():
        assert name in result.stdout
    assert "tokens           = 3" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "classic", "--set", "faces=0"], "--set faces=0: faces must be in 1..10000"),
        (["solve", "classic", "--set", "wings=2"], "unknown parameter 'wings'"),
        (["solve", "nothing"], "unknown assignment 'nothing'"),
        (["solve", "aimed", "--set", "noise=0.5,0.5,0.5"], "sum to 1"),
        (["solve", "classic", "--board", "BOARD"], "BOARD: jump 5->10 ends where another"),
        (["simulate", "classic", "--board", "BOARD"], "chains are not allowed"),
        (["simulate", "classic", "--seed", "-1"], "--seed: expected an integer >= 0"),
        (["simulate", "classic", "--games", "0"], "--games: expected an integer in 1.."),
        (["simulate", "classic", "--games", "10000000000"], "--games: expected an integer in"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, needle):
    board = tmp_path / "chain.json"
    board.write_text('{"goal": 100, "jumps": [[5, 10], [10, 20]]}')
    args = [str(board) if a == "BOARD" else a for a in args]
    needle = needle.replace("BOARD", str(board))
    result = run_here(capsys, *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    *before, message = result.stderr.strip().splitlines()
    assert needle in message
    # Only argparse's usage lines may come before the error line.
    assert all(line.startswith(("usage:", " ")) for line in before)


def test_goal_not_a_multiple_of_ten_prints_only_as_json(tmp_path, capsys):
    board = tmp_path / "b45.json"
    board.write_text('{"goal": 45, "jumps": [[3, 30]]}')
    text = run_here(capsys, "solve", "classic", "--board", str(board))
    assert text.returncode == 2 and "multiple of 10" in text.stderr and str(board) in text.stderr
    as_json = run_here(capsys, "solve", "classic", "--board", str(board), "--json")
    assert as_json.returncode == 0 and len(json.loads(as_json.stdout)["values"]) == 46


def test_hopeless_board_is_reported_quickly(tmp_path):
    board = tmp_path / "trap.json"
    board.write_text('{"goal": 20, "jumps": [[19, 2]]}')
    result = run("solve", "classic", "--board", str(board), "--set", "faces=1", timeout=20)
    assert result.returncode == 2
    assert "no policy can reach the goal" in result.stderr and str(board) in result.stderr


def test_simulate_is_seeded_and_prints_its_summary(capsys):
    first = run("simulate", "classic", "--games", "3000", "--seed", "7")
    again = run_here(capsys, "simulate", "classic", "--games", "3000", "--seed", "7")
    other = run_here(capsys, "simulate", "classic", "--games", "3000", "--seed", "8")
    assert first.returncode == 0 and first.stdout == again.stdout != other.stdout
    text = first.stdout
    for needle in (
        "3000 games",
        "mean turns",
        "standard deviation",
        "95% confidence interval",
        "computed expected turns: 39.5984",
        "game lengths",
    ):
        assert needle in text
    bars = [line for line in text.splitlines() if "|" in line]
    assert sum(int(line.split()[-1]) for line in bars) == 3000


def test_simulate_gives_no_interval_when_games_are_left_out(tmp_path, monkeypatch, capsys):
    import functools

    import autograder.cli.simulate as verb
    from reference_solutions import simulate

    # 49 chutes and no ladder: a game takes about 4e7 turns, so within 200 moves almost
    # none ends, and those that do are the shortest there are.
    board = tmp_path / "chutes.json"
    assert main(["board", "new", "--seed", "5", "--chutes", "49", "--ladders", "0",
                 "-o", str(board)]) == 0  # fmt: skip
    monkeypatch.setattr(verb, "simulate", functools.partial(simulate, max_steps=200))
    text = verb.simulate_text("classic", str(board), games=50, seed=3)
    assert "games did not finish and are left out" in text
    assert "95% confidence interval: none, as the games left out are the longest" in text
    assert "confidence interval for the mean" not in text and "[" not in text
    one = verb.simulate_text("classic", games=1)
    assert "1 games under" in one and "none from one game" in one and "[" not in one


def test_solve_with_value_iteration_matches(capsys):
    pi = json.loads(run_here(capsys, "solve", "boosted", "--json").stdout)
    vi = json.loads(
        run_here(capsys, "solve", "boosted", "--json", "--method", "value_iteration").stdout
    )
    assert vi["solver"]["method"] == "value_iteration"
    assert max(abs(a - b) for a, b in zip(pi["values"], vi["values"], strict=True)) < 1e-8


# On the boards `check` shows; on every board with -m slow (and in CI's `autograder demo`).
@pytest.mark.parametrize("every_board", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_demo_grades_the_examples_of_one_assignment(demo, every_board):
    text, ok, _ = demo("classic", every_board)  # (graded once a session: tests/conftest.py)
    assert ok
    rows = {line.split()[0]: line.split()[1] for line in text.splitlines()[2:] if line.strip()}
    full = sum(case.points for case in answer_key("classic", hidden=every_board))
    # The public board and the edge board shown (public_edge_boards), or every board.
    assert full == (100 if every_board else 25 + 10)
    assert rows["correct_loops"] == rows["team_folder"] == f"{full:.2f}"
    assert rows["crashes"] == rows["endless"] == "0.00"


def write(path, text):
    path.write_text(text)
    return str(path)


# ``check`` and ``grade`` each run once as a user runs them (a process of their own: the
# first command of each test below); what follows them runs here (``run_here``).


def test_check_exit_code_follows_the_public_tests(tmp_path, capsys):
    from reference_solutions import reference_program

    good = write(tmp_path / "good.py", reference_program("classic"))
    result = run("check", "classic", good)
    assert result.returncode == 0, result.stdout
    assert "self-check holds: printed 39.60" in result.stdout
    starter = run_here(capsys, "starter", "classic", "-o", str(tmp_path / "classic.py"))
    assert starter.returncode == 0
    result = run_here(capsys, "check", "classic", str(tmp_path / "classic.py"))
    assert result.returncode == 1
    assert "NotImplementedError" in result.stdout


@pytest.mark.parametrize("name", ["aimed", "efron"])
def test_check_holds_a_program_to_the_self_check_its_handout_quotes(name, tmp_path, capsys):
    # No published self-check: the handout quotes the reference's first line, and check
    # says whether a program prints it, as it does where one is published.
    import re

    from reference_solutions import reference_program

    handout = run_here(capsys, "handout", name).stdout
    quoted = re.search(r"`Expected turns per game: (\d+\.\d\d)`", handout)
    assert quoted is not None, handout
    good = write(tmp_path / "good.py", reference_program(name))
    result = run_here(capsys, "check", name, good)
    assert result.returncode == 0, result.stdout
    assert f"self-check holds: printed {quoted.group(1)}, expected {quoted.group(1)}" in (
        result.stdout
    )


def test_check_and_grade_name_a_missing_path(tmp_path, capsys):
    result = run_here(capsys, "check", "classic", str(tmp_path / "nope.py"))
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"autograder: error: {tmp_path / 'nope.py'}: no such file or folder"
    )
    result = run_here(
        capsys, "grade", "classic", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")
    )
    assert result.returncode == 2 and "no such folder of submissions" in result.stderr


def test_grade_refuses_to_overwrite_results_without_resume(tmp_path, capsys):
    folder = tmp_path / "subs"
    folder.mkdir()
    write(folder / "alice.py", "print('hello')\n")
    out = str(tmp_path / "out")
    first = run("grade", "classic", str(folder), "--out", out)
    assert first.returncode == 0, first.stderr
    assert "1 submissions: 1 graded" in first.stdout
    again = run_here(capsys, "grade", "classic", str(folder), "--out", out)
    assert again.returncode == 2 and "pass --resume" in again.stderr
    resumed = run_here(capsys, "grade", "classic", str(folder), "--out", out, "--resume")
    assert resumed.returncode == 0 and "graded 0 submissions (1 already graded" in resumed.stdout


@pytest.mark.parametrize("name", assignment_names())
def test_starter_and_handout_commands_render(name, tmp_path, capsys):
    starter = run_here(capsys, "starter", name)
    assert starter.returncode == 0 and "NotImplementedError" in starter.stdout
    compile(starter.stdout, "starter.py", "exec")
    handout = run_here(capsys, "handout", name)
    assert handout.returncode == 0 and handout.stdout.startswith("# ")


def test_conformance_reports_each_check_and_exits_0_when_all_pass(capsys):
    result = run_here(
        capsys, "conformance", "classic", "--check", "solvers-agree", "--check", "self-check"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "classic: 2 of 2 checks pass",
        "  ok   solvers-agree",
        "  ok   self-check",
    ]


def test_conformance_of_an_unknown_assignment_is_one_line_and_exit_2():
    result = run("conformance", "classic", "nosuch")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("autograder: error: unknown assignment 'nosuch'")
    assert result.stderr.count("\n") == 1
