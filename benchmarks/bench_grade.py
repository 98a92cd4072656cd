"""Grading times. Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_grade.py

1. Grading one correct numpy submission (the classic ``correct_numpy`` example) on all its
   test boards, one board at a time and two at a time.
2. The grader's overhead per run: one board graded through the engine (temporary folder,
   copy, the limits launcher, reading, parsing, marking) against a bare
   ``python3 submission.py board.json`` run side by side, interleaved, at every isolation
   level this machine allows (``process``, ``user`` as root, ``namespace`` with bubblewrap).

Medians over several runs; figures are machine-dependent, quote them with the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autograder import LEVELS, detect_isolation, load_assignment, render_examples
from autograder._errors import UsageError
from autograder._submission import grade_submission, run_case
from reference_solutions import ReferenceAnswers, answer_key


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
    render_examples(assignment, tmp)
    program = tmp / "correct_numpy.py"

    print(f"\ngrading one correct numpy submission on {len(cases)} boards (median of {args.runs}):")
    for workers in (1, 2):
        result = grade_submission(assignment, program, cases, workers=workers, hidden=hidden)
        assert result.score == result.max_score, result
        med, low, high = median_s(
            lambda w=workers: grade_submission(
                assignment, program, cases, workers=w, hidden=hidden
            ),
            args.runs,
        )
        print(f"  {workers} board(s) at a time: {med:.3f} s (min {low:.3f}, max {high:.3f})")

    board = tmp / "board.json"
    board.write_text(json.dumps(cases[0].board))
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    levels = {}
    for level in LEVELS:
        try:
            levels[level] = detect_isolation(level)
        except UsageError as err:
            print(f"\n(level {level} not measured: {err})")
    bare: list[float] = []
    graded: dict[str, list[float]] = {level: [] for level in levels}
    for _ in range(3 * args.runs):
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
