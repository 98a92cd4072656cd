"""``autograder examples``: a practice folder of an assignment's sample submissions, or the
sample roster, written where a TA asks, never over their own files."""

from __future__ import annotations

import subprocess
import sys

import pytest

from autograder import read_roster
from reference_solutions import examples_dir
from tests.autograder.test_cli import run_here


def _shipped(name: str) -> set[str]:
    """The submissions the package's examples folder holds (templates lose their .j2)."""
    return {p.name.removesuffix(".j2") for p in (examples_dir() / name).iterdir()
            if not p.name.startswith((".", "_"))}  # fmt: skip


def test_a_practice_folder_holds_every_example_ready_to_run(tmp_path, capsys):
    out = tmp_path / "practice"
    done = run_here(capsys, "examples", "classic", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert {p.name for p in out.iterdir()} == _shipped("classic")
    assert f"autograder grade classic {out}" in done.stdout
    # A correct example is a whole program for the public board: its first line is the
    # self-check the handout publishes.
    ran = subprocess.run([sys.executable, str(out / "correct_loops.py")], capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert ran.stdout.splitlines()[0] == "Expected turns per game: 39.60"
    assert (out / "team_folder").is_dir()  # a folder submission stays one


def test_the_default_folder_is_named_after_the_assignment(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_here(capsys, "examples", "trap-lane").returncode == 0
    assert {p.name for p in (tmp_path / "trap-lane-examples").iterdir()} == _shipped("trap-lane")


def test_a_folder_that_holds_something_is_refused_without_force(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "correct_loops.py").write_text("my own work\n")
    done = run_here(capsys, "examples", "classic", "-o", str(out))
    assert done.returncode == 2
    assert done.stderr.strip() == (f"autograder: error: {out}: exists and is not empty; use "
                                   "--force to write the examples into it")  # fmt: skip
    assert (out / "correct_loops.py").read_text() == "my own work\n"
    assert run_here(capsys, "examples", "classic", "-o", str(out), "--force").returncode == 0
    assert (out / "correct_loops.py").read_text() != "my own work\n"
    # An empty folder is no one's work: written without --force.
    (tmp_path / "empty").mkdir()
    assert run_here(capsys, "examples", "classic", "-o", str(tmp_path / "empty")).returncode == 0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["examples"], "name an assignment (autograder list), or give --roster"),
        (["examples", "nope"], "unknown assignment 'nope'"),
        (["examples", "classic", "--roster"], "--roster: takes no assignment"),
    ],
)
def test_bad_requests_are_one_line_and_exit_2(capsys, args, needle):
    done = run_here(capsys, *args)
    assert done.returncode == 2 and needle in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_file_where_the_folder_should_go_is_refused(tmp_path, capsys):
    target = tmp_path / "notes.txt"
    target.write_text("x")
    done = run_here(capsys, "examples", "classic", "-o", str(target))
    assert done.returncode == 2 and "is a file; give a folder" in done.stderr


def test_the_sample_roster_is_one_variants_reads(tmp_path, capsys):
    done = run_here(capsys, "examples", "--roster")
    assert done.returncode == 0
    path = tmp_path / "roster.csv"
    assert run_here(capsys, "examples", "--roster", "-o", str(path)).returncode == 0
    assert path.read_text(encoding="utf-8") == done.stdout
    roster = read_roster(path)
    assert roster.students and not roster.problems
    refused = run_here(capsys, "examples", "--roster", "-o", str(path))
    assert refused.returncode == 2 and "exists; use --force" in refused.stderr
    assert run_here(capsys, "examples", "--roster", "-o", str(path), "--force").returncode == 0
