"""Grading times. Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_grade.py

1. Grading one correct numpy submission (the classic ``correct_numpy`` example) on all its
   test boards, one board at a time and two at a time, at every isolation level this
   machine allows; where the warm path applies (as root: ``namespace``, ``user``, and
   ``process`` with control groups) both through the submission's warm server
   (``autograder/_warm_sandbox.py``, the default; in a sandbox of its own at
   ``namespace``) and with a run (a sandbox) per board (``$AUTOGRADER_WARM=off``, as
   before it). The configurations take turns, so that a
   machine that gets busier in the middle slows them alike.
2. The grader's overhead per run: one board graded through the engine alone (``run_case``
   without a warm sandbox: temporary folder, copy, the limits launcher, reading, parsing,
   marking) against a bare ``python3 submission.py board.json`` run side by side,
   interleaved, at every isolation level this machine allows (``process``, ``user`` as root,
   ``namespace`` with bubblewrap).

The ``user`` level needs an interpreter a lent uid may start: run the script with one that
lies outside ``/root`` (for example a virtual environment made from the system's Python in
``/opt``, with the project installed), or that level is left out, saying why.

Medians over several runs; figures are machine-dependent, quote them with the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autograder import LEVELS, detect_isolation, load_assignment, render_examples
from autograder._errors import UsageError
from autograder._languages import language_for
from autograder._submission import grade_submission, run_case
from autograder._warm_sandbox import ENV as WARM_ENV
from autograder._warm_sandbox import warm_path
from reference_solutions import ReferenceAnswers, answer_key, examples_dir


def median_s(fn, runs: int) -> tuple[float, float, float]:
    fn()  # warm the page cache and imports
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")

    assignment = load_assignment("classic")
    cases = answer_key("classic")
    # What a real grader hides from the program: the answer material (as the command line does).
    hidden = ReferenceAnswers().secret_paths()
    tmp = Path(tempfile.mkdtemp(prefix="bench-grade-"))
    try:
        measure(tmp, assignment, cases, hidden, args.runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def measure(tmp: Path, assignment, cases, hidden, runs: int) -> None:
    """Both measurements, on the examples written into ``tmp``."""
    render_examples(assignment, tmp, examples_dir())
    program = tmp / "correct_numpy.py"

    python = language_for(program)
    assert python is not None
    levels = {}
    for level in LEVELS:
        try:
            levels[level] = detect_isolation(level)
        except UsageError as err:
            print(f"\n(level {level} not measured: {err})")
    configurations = []  # (label, isolation, warm path on, workers)
    for workers in (1, 2):
        for level, isolation in levels.items():
            configurations.append((level, isolation, False, workers))
            if warm_path(python, isolation):
                configurations.append((level, isolation, True, workers))

    def grade(isolation, warm: bool, workers: int) -> None:
        os.environ[WARM_ENV] = "on" if warm else "off"
        result = grade_submission(assignment, program, cases, workers=workers, hidden=hidden,
                                  isolation=isolation)  # fmt: skip
        assert result.score == result.max_score, result

    times: dict[tuple, list[float]] = {c: [] for c in configurations}
    for configuration in configurations:
        grade(*configuration[1:])  # warm the page cache and imports
    for _ in range(runs):
        for configuration in configurations:
            start = time.perf_counter()
            grade(*configuration[1:])
            times[configuration].append(time.perf_counter() - start)
    os.environ.pop(WARM_ENV, None)
    print(f"\ngrading one correct numpy submission on {len(cases)} boards "
          f"(median of {runs}, taking turns):")  # fmt: skip
    for configuration, measured in times.items():
        level, _, warm, workers = configuration
        how = ("warm sandbox" if level == "namespace" else "warm server") if warm else (
            "sandbox per board" if level == "namespace" else "a run per board")  # fmt: skip
        med = statistics.median(measured)
        print(f"  {level:<9} {how:<17} {workers} board(s) at a time: {med:.3f} s "
              f"(min {min(measured):.3f}, max {max(measured):.3f})")  # fmt: skip

    board = tmp / "board.json"
    board.write_text(json.dumps(cases[0].board))
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    bare: list[float] = []
    graded: dict[str, list[float]] = {level: [] for level in levels}
    for _ in range(3 * runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, str(program), str(board)], check=True, env=env,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        bare.append(time.perf_counter() - start)
        for level, isolation in levels.items():
            start = time.perf_counter()
            result = run_case(program, program, cases[0], assignment, assignment.limits,
                              isolation=isolation, hidden=hidden)  # fmt: skip
            graded[level].append(time.perf_counter() - start)
            assert result.status == "passed", result
    b = statistics.median(bare)
    print(f"\none board, median of {len(bare)} interleaved runs:")
    print(f"  bare python3 submission.py board.json: {1000 * b:7.1f} ms")
    for level, times in graded.items():
        g = statistics.median(times)
        print(f"  through the grader at level {level + ':':<10} {1000 * g:7.1f} ms"
              f"  overhead {1000 * (g - b):+6.1f} ms ({g / b:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
