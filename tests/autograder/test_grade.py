"""Grading a folder: results written as they finish, reports at the end, and a batch that
survives being killed."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder import find_program, grade_submission, load_assignment
from autograder._batch import RESULTS, grade_folder, read_results
from autograder.cli import main
from reference_solutions import ReferenceAnswers, answer_key, reference_program
from tests.grading import public_board

CASES = public_board("classic")
ANSWERS = ReferenceAnswers()
SLOW = "import time\ntime.sleep(0.1)\n"


def make_folder(tmp_path: Path, students: int) -> Path:
    folder = tmp_path / "submissions"
    folder.mkdir()
    program = reference_program("classic")
    for k in range(students):
        # Each program sleeps a little before each answer (seven boards a submission on the
        # whole answer key), so a batch takes long enough to kill.
        (folder / f"s{k:02d}.py").write_text(SLOW + program)
    return folder


def test_reports_are_written(tmp_path):
    folder = make_folder(tmp_path, 2)
    (folder / "broken.py").write_text("print('Expected turns per game: 1.00')\n")
    (folder / "notes.docx").write_bytes(b"PK\x03\x04")  # a kind of file no program is
    batch = grade_folder(
        "classic", folder, tmp_path / "out", answers=ANSWERS, cases=CASES, workers=2
    )
    by_student = {r.student: r for r in batch.results}
    assert by_student["s00"].score == 25 and by_student["broken"].score == 0
    assert by_student["notes"].status == "error" and "notes.docx" in by_student["notes"].problems[0]
    with open(tmp_path / "out" / "grades.csv") as file:
        rows = list(csv.DictReader(file))
    assert [r["student"] for r in rows] == ["broken", "notes", "s00", "s01"]
    assert rows[2]["public"] == "25.00"
    feedback = (tmp_path / "out" / "feedback" / "broken.txt").read_text()
    assert "output not readable" in feedback
    assert "100%" in (tmp_path / "out" / "histogram.txt").read_text()


def test_a_grader_error_on_one_submission_does_not_stop_the_batch(tmp_path, monkeypatch):
    import autograder._batch as grade

    folder = make_folder(tmp_path, 3)
    real = grade.grade_submission

    def flaky(assignment, path, *args, **kwargs):
        if path.name == "s01.py":
            raise RuntimeError("disk on fire")
        return real(assignment, path, *args, **kwargs)

    monkeypatch.setattr(grade, "grade_submission", flaky)
    batch = grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS, cases=CASES)
    by_student = {r.student: r for r in batch.results}
    assert by_student["s01"].status == "error"
    assert "grader error: RuntimeError: disk on fire" in by_student["s01"].problems
    assert by_student["s00"].score == by_student["s02"].score == 25


def test_torn_last_line_is_dropped_and_graded_again(tmp_path):
    path = tmp_path / RESULTS
    folder = make_folder(tmp_path, 1)
    batch = grade_folder("classic", folder, tmp_path, answers=ANSWERS, cases=CASES)
    line = json.dumps(batch.results[0].to_json())
    path.write_text(line + "\n" + line[: len(line) // 2])
    assert len(read_results(path)) == 1
    assert path.read_text() == line + "\n"


# Four show it (two graded before the kill, two after); eight with -m slow.
@pytest.mark.parametrize("students", [4, pytest.param(8, marks=pytest.mark.slow)])
def test_resume_after_kill_grades_each_submission_exactly_once(tmp_path, students):
    folder = make_folder(tmp_path, students)
    out = tmp_path / "out"
    args = ["grade", "classic", str(folder), "--out", str(out), "-j", "2"]
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    first = subprocess.Popen([sys.executable, "-m", "autograder", *args], env=env,
                             stdout=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    results = out / RESULTS
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if results.exists() and results.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    before = read_results(results)
    assert 2 <= len(before) < students, "the kill came in the middle of the batch"
    # The resume runs in this process: nothing kills it, and the kill was of a real one.
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*args, "--resume"]) == 0
    after = read_results(results)
    graded = [r.student for r in after]
    assert sorted(graded) == [f"s{k:02d}" for k in range(students)], "each graded exactly once"
    assert [r.student for r in after[: len(before)]] == [r.student for r in before]
    assert all(r.score == r.max_score for r in after)
    with open(out / "grades.csv") as file:
        assert len(list(csv.DictReader(file))) == students


def test_folder_submission_program_is_found_by_name(tmp_path):
    assignment = load_assignment("classic")
    folder = tmp_path / "alice"
    (folder / "lib").mkdir(parents=True)
    (folder / "lib" / "helpers.py").write_text("")
    (folder / "classic.py").write_text("")
    assert find_program(folder, assignment) == folder / "classic.py"
    (folder / "classic.py").unlink()
    (folder / "other.py").write_text("")
    try:
        find_program(folder, assignment)
    except Exception as err:
        assert "cannot tell which program to run" in str(err) and "classic.py" in str(err)
    else:
        raise AssertionError("two candidate programs must be an error")


def test_what_a_program_prints_on_a_hidden_board_is_never_quoted_back(tmp_path):
    # A program can echo its board file; quoting its chatter would hand out hidden boards.
    program = reference_program("classic").replace(
        "def main(argv):\n", "def main(argv):\n    print('ECHO', open(argv[1]).read())\n", 1
    )
    assert "ECHO" in program
    (tmp_path / "echo.py").write_text(program)
    result = grade_submission(
        load_assignment("classic"), tmp_path / "echo.py", answer_key("classic"),
        hidden=ANSWERS.secret_paths(),
    )  # fmt: skip
    assert result.score == result.max_score  # the chatter costs nothing
    shown = [t for t in result.tests if t.visible]
    hidden = [t for t in result.tests if not t.visible]
    assert [t.name for t in shown] == ["public", "chute-before-goal"]
    assert all(any("ECHO" in line for line in t.feedback) for t in shown)
    for test in hidden:
        assert not any("ECHO" in line or "jumps" in line for line in test.feedback), test.name
        assert "warning: ignored lines before the answer" in test.feedback


def test_resume_accepts_its_own_answer_key_whatever_the_hash_seed(tmp_path):
    """The answer key's fingerprint must not depend on the interpreter's hash seed: aimed's
    accepted actions are sets, whose order does (a resume in a new process was refused)."""
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "ann.py").write_text(reference_program("aimed"))
    out = tmp_path / "out"

    def grade(seed: str, *more: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONHASHSEED": seed, "OPENBLAS_NUM_THREADS": "1"}
        return subprocess.run(
            [sys.executable, "-m", "autograder", "grade", "aimed", str(folder), "--out",
             str(out), "--isolation", "process", *more],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip

    first = grade("1")
    assert first.returncode == 0, first.stderr
    again = grade("2", "--resume")
    assert again.returncode == 0, again.stderr
    assert "graded 0 submissions (1 already graded before --resume)" in again.stdout


def _two_students(tmp_path: Path, name: str = "subs") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "ann.py").write_text(reference_program("classic"))
    (folder / "bob.py").write_text("print('Expected turns per game: 1.00')\n")
    return folder


def test_resume_under_other_limits_is_refused_and_on_another_folder_reports_that_folder(
    tmp_path,
):
    """A resume with another --timeout would put two time limits in one gradebook; one on
    another folder (moved, or another class's) reports what that folder holds."""
    folder, out = _two_students(tmp_path), tmp_path / "out"
    grade_folder("classic", folder, out, answers=ANSWERS, cases=CASES, isolation="process")
    log = (out / RESULTS).read_bytes()
    limits = load_assignment("classic").limits.with_timeout(3)
    with pytest.raises(Exception, match=r"was graded under other limits \(timeout 10, cpu 10, "):
        grade_folder("classic", folder, out, answers=ANSWERS, cases=CASES, resume=True,
                     isolation="process", limits=limits)  # fmt: skip
    assert (out / RESULTS).read_bytes() == log  # nothing graded, nothing lost
    other = tmp_path / "other"
    other.mkdir()
    (other / "ann.py").write_text((folder / "ann.py").read_text())  # the same file
    (other / "dan.py").write_text(reference_program("classic"))
    again = grade_folder("classic", other, out, answers=ANSWERS, cases=CASES, resume=True,
                         isolation="process")  # fmt: skip
    assert {r.student: r.score for r in again.results} == {"ann": 25, "dan": 25}
    assert again.graded_now == 1  # dan; ann's result was of the same file
    assert f"resumed on {other.resolve()}, where the results were of {folder.resolve()}" in (
        again.notes
    )
    assert any(n.startswith("left out of the reports: the results of 1 submission") for n in
               again.notes)  # fmt: skip


def test_resume_grades_a_replaced_submission_again_and_leaves_out_a_removed_one(tmp_path):
    folder, out = _two_students(tmp_path), tmp_path / "out"
    (folder / "cid.py").write_text(reference_program("classic"))
    first = grade_folder("classic", folder, out, answers=ANSWERS, cases=CASES,
                         isolation="process")  # fmt: skip
    assert {r.student: r.score for r in first.results} == {"ann": 25, "bob": 0, "cid": 25}
    (folder / "bob.py").write_text(reference_program("classic"))  # handed in again
    (folder / "cid.py").unlink()  # withdrawn
    again = grade_folder("classic", folder, out, answers=ANSWERS, cases=CASES, resume=True,
                         isolation="process")  # fmt: skip
    assert {r.student: r.score for r in again.results} == {"ann": 25, "bob": 25}
    assert "graded again: 1 submission changed since its result was logged (bob)" in again.notes
    assert any(n.startswith("left out of the reports: the results of 1 submission no longer "
                            f"in {folder} (cid)") for n in again.notes)  # fmt: skip
    with open(out / "grades.csv") as file:
        assert [(r["student"], r["score"]) for r in csv.DictReader(file)] == [
            ("ann", "25.00"), ("bob", "25.00")]  # fmt: skip
    # The log keeps every line: bob's two results and cid's.
    assert [r.student for r in read_results(out / RESULTS)].count("bob") == 2
    # regrade reports the same students, each once, and a later resume still checks limits.
    from autograder._regrade import regrade_folder

    marked = regrade_folder(out, ANSWERS)
    assert {r.student: r.score for r in marked.results} == {"ann": 25, "bob": 25}
    assert json.loads((out / "batch.json").read_text())["limits"]["timeout"] == 10


def test_an_interrupt_ends_the_runs_under_way_at_once(tmp_path):
    """Ctrl-C on a batch whose programs would run to a time limit of a minute: the grader
    says at once what becomes of them and ends their runs, rather than waiting the minute
    out in silence (their results are not kept: --resume grades them again)."""
    folder = tmp_path / "subs"
    folder.mkdir()
    started = tmp_path / "started"
    for name in ("ann", "bob"):
        (folder / f"{name}.py").write_text(
            f"import pathlib, time\npathlib.Path({str(started)!r}, {name!r}).touch()\n"
            "while True:\n    time.sleep(0.1)\n"
        )
    started.mkdir()
    out = tmp_path / "out"
    args = ["grade", "classic", str(folder), "--out", str(out), "-j", "2", "--timeout", "60",
            "--isolation", "process"]  # fmt: skip
    batch = subprocess.Popen(
        [sys.executable, "-m", "autograder", *args], stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while len(list(started.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(list(started.iterdir())) == 2, "both programs were running"
    interrupted = time.monotonic()
    batch.send_signal(signal.SIGINT)
    _, err = batch.communicate(timeout=120)
    # Half the runs' minute: a grader that waited them out takes all of it.
    assert time.monotonic() - interrupted < 30
    assert batch.returncode == 130
    assert "stopping: the 2 submissions under way will be graded again on --resume" in err
    assert "run the same command with --resume to go on" in err
    assert read_results(out / RESULTS) == []


def test_a_disk_that_fills_up_is_one_line_with_the_way_on(tmp_path, monkeypatch, capsys):
    import errno

    import autograder._batch as batch

    def full(result):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(batch, "_log_line", full)
    folder, out = _two_students(tmp_path), tmp_path / "out"
    status = main(["grade", "classic", str(folder), "--out", str(out), "--isolation", "process"])
    assert status == 2
    assert capsys.readouterr().err.splitlines() == [
        f"autograder: error: {out}: cannot go on writing the results (No space left on device); "
        f"the submissions graded so far are kept in {out}/results.jsonl: once that is mended, "
        "run the same command with --resume"
    ]
    # The runs under way were ended, and the next batch in this process is not.
    from autograder._run import ABANDONED

    assert not ABANDONED.is_set()


def test_what_a_submission_holds_is_hashed_without_following_links_or_devices(tmp_path):
    from autograder._batch import _digest
    from autograder._lms import Submission

    program = tmp_path / "ann.py"
    program.write_text("print(1)\n")
    first = _digest(Submission("ann", program))
    assert len(first) == 16
    program.write_text("print(2)\n")
    assert _digest(Submission("ann", program)) != first
    folder = tmp_path / "bob"
    folder.mkdir()
    (folder / "classic.py").write_text("print(1)\n")
    assert len(_digest(Submission("bob", folder))) == 16
    # A part that is a link to a device, or a pipe no one writes to: not read (it would
    # never end), so nothing is told of it.
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "pipe.py")
    for odd in ("zero.py", "pipe.py"):
        parts = (("classic.py", folder / "classic.py"), (odd, tmp_path / odd))
        assert _digest(Submission("cid", tmp_path / "cid", parts=parts)) == ""
