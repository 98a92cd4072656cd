"""A run is contained: time, output and memory are limited, the process group dies with it,
and nothing of the grader's environment leaks in."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import autograder._run
from autograder import grade_submission, load_assignment
from autograder._assignments import Limits
from autograder._run import clean_environment, run_limited
from tests.grading import public_board

CLASSIC_PUBLIC = public_board("classic")
# The programs run under these end by themselves or at a cap: the wall clock is only a
# backstop, long enough that no busy machine reaches it.
LIMITS = Limits(timeout=30.0, cpu=2.0, memory_mb=512, output_kb=64)
# A wall clock far beyond a CPU limit of a second, for the tests where the CPU limit must end
# the run: a program that spins gets a second of CPU long before, however busy the machine.
PATIENT = 60.0


def run(tmp_path: Path, source: str, limits: Limits = LIMITS):
    program = tmp_path / "program.py"
    program.write_text(source)
    return run_limited([sys.executable, "-E", "-s", str(program)], tmp_path,
                       clean_environment(tmp_path), limits)  # fmt: skip


def alive(pid: int) -> bool:
    """Running, as opposed to gone or a zombie waiting to be reaped by whoever adopted it."""
    for _ in range(20):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return False
        if state in ("Z", "X"):
            return False
        time.sleep(0.05)
    return True


def test_output_and_exit_status_come_back(tmp_path):
    result = run(
        tmp_path, "import sys\nprint('hello')\nprint('oops', file=sys.stderr)\nsys.exit(3)"
    )
    assert (result.status, result.returncode) == ("exited", 3)
    assert result.stdout == b"hello\n" and result.stderr_tail == b"oops\n"


def test_endless_loop_is_stopped_at_the_wall_clock_limit(tmp_path):
    result = run(tmp_path, "while True:\n    pass\n", Limits(timeout=1.0, cpu=5.0))
    # "timeout" is the wall clock's verdict (the CPU limit of 5 s would say "cpu-limit").
    assert result.status == "timeout"
    assert result.seconds >= 1.0


def test_timeout_kills_children_too(tmp_path):
    pid_file = tmp_path / "child.pid"
    source = (
        "import os, time\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    time.sleep(60)\n"
        f"open({str(pid_file)!r}, 'w').write(str(pid))\n"
        "time.sleep(60)\n"
    )
    # The program must have forked before its limit: on a machine too busy for that, it
    # is given more time until it has (its pid file says so).
    for seconds in (1.0, 4.0, 16.0, 64.0):
        result = run(tmp_path, source, Limits(timeout=seconds, cpu=10.0))
        if pid_file.exists():
            break
    assert result.status == "timeout"
    child = int(pid_file.read_text())
    assert not alive(child)


def test_child_left_running_after_exit_is_killed(tmp_path):
    pid_file = tmp_path / "child.pid"
    source = (
        "import os, time\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.close(1); os.close(2)\n"
        "    time.sleep(60)\n"
        f"open({str(pid_file)!r}, 'w').write(str(pid))\n"
        "print('done')\n"
    )
    result = run(tmp_path, source)
    assert (result.status, result.stdout) == ("exited", b"done\n")
    assert not alive(int(pid_file.read_text()))


def test_output_flood_is_cut_at_the_cap(tmp_path):
    result = run(tmp_path, "import sys\nwhile True:\n    sys.stdout.write('x' * 4096)\n")
    assert result.status == "output-limit"
    assert len(result.stdout) == 64 * 1024  # the cap's verdict, not the clock's ("timeout")


def test_memory_bomb_fails_inside_the_limit(tmp_path):
    result = run(tmp_path, "block = bytearray(2 * 1024 ** 3)\n")
    assert result.status == "exited" and result.returncode != 0
    assert b"MemoryError" in result.stderr_tail


def test_cpu_limit_ends_a_busy_program(tmp_path):
    result = run(tmp_path, "while True:\n    pass\n", Limits(timeout=PATIENT, cpu=1.0))
    # "cpu-limit", not "timeout": the CPU limit ended it, long before the wall clock's.
    assert result.status == "cpu-limit" and result.signal_name in ("SIGXCPU", "SIGKILL")
    # The CPU time read back (wait4) and the clock the kernel enforces the limit by are
    # accounted apart, and on a busy machine the first reads several percent under the
    # second; half the limit is far from either.
    assert result.cpu_seconds > 0.5


def test_a_program_that_ignores_sigxcpu_is_still_stopped_by_its_cpu_time(tmp_path):
    source = "import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True:\n    pass\n"
    result = run(tmp_path, source, Limits(timeout=PATIENT, cpu=1.0))
    # SIGKILL before the wall clock's limit can only be the hard CPU limit, a second after
    # the SIGXCPU the program ignored. (Its CPU time as read back reads a few percent under
    # the enforced 2 s on a busy machine, so it is compared with the soft limit it outlived,
    # not with the hard one.)
    assert result.status == "cpu-limit" and result.signal_name == "SIGKILL"
    assert result.cpu_seconds > 1.0


def watched(tmp_path: Path, source: str, limits: Limits, monkeypatch) -> tuple[object, list]:
    """``source`` run with a folder measure that always finds the folder past its bound, but
    is taken only once the program has ended (the measures while it runs are put off)."""
    monkeypatch.setattr(autograder._run, "WATCH_SECONDS", 3600.0)
    measures: list[float] = []

    def over() -> bool:
        measures.append(time.monotonic())
        return True

    program = tmp_path / "program.py"
    program.write_text(source)
    result = run_limited([sys.executable, "-E", "-s", str(program)], tmp_path,
                         clean_environment(tmp_path), limits, watch=over)  # fmt: skip
    return result, measures


def test_a_folder_past_its_bound_when_the_program_ends_stops_it(tmp_path, monkeypatch):
    result, measures = watched(tmp_path, "print('done')\n", LIMITS, monkeypatch)
    assert len(measures) == 1
    assert result.status == "folder-limit" and result.stdout == b"done\n"


def test_running_out_of_cpu_time_stays_a_timeout_whatever_the_folder_holds(tmp_path, monkeypatch):
    # The CPU limit is read from how the run ended, before its folder's last measure: a
    # program that spins to its CPU limit with a full folder ran out of time, and is
    # reported so, not as a crash.
    result, _ = watched(tmp_path, "while True:\n    pass\n", Limits(timeout=PATIENT, cpu=1.0),
                        monkeypatch)  # fmt: skip
    assert result.status == "cpu-limit"


def test_running_out_of_cpu_time_is_a_timeout_in_the_feedback(tmp_path):
    busy = tmp_path / "busy.py"
    busy.write_text("while True:\n    pass\n")
    limits = Limits(timeout=PATIENT, cpu=1.0)
    result = grade_submission(load_assignment("classic"), busy, CLASSIC_PUBLIC[:1],
                              limits=limits, isolation="process", hidden=())  # fmt: skip
    (test,) = result.tests
    assert test.status == "timeout"
    assert test.feedback[0] == "used up its CPU time limit of 1 s for one board"


def test_environment_is_clean(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_SECRET", "hunter2")
    result = run(tmp_path, "import os\nprint(sorted(os.environ))\n")
    assert b"GRADER_SECRET" not in result.stdout
    assert b"HOME" in result.stdout
