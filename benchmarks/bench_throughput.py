"""Grading throughput: submissions per second through the grader, against bare runs of
the same programs on the same boards, at -j 1 and -j 2 and at each isolation level.

Run from the repository root:
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_throughput.py [--quick] [--runs 5]
        [--submissions 12] [--assignment classic]

The folder: ``--submissions`` correct programs of the assignment, cycling through its
correct examples (several styles, a folder submission among them) and its filled-in
starter; the boards: the assignment's answer key (public, edge and hidden boards).

- graded: ``grade_folder`` (what ``autograder grade A DIR -j N --isolation L --out OUT``
  runs), into a fresh folder each time: every program on every board in its own temporary
  folder under the limits launcher (and bubblewrap at ``namespace``), reading, marking,
  then the reports (pages, gradebooks, histogram, similarity). "runs" is the time until the
  last submission's result is logged; "total" includes the reports. At ``namespace`` and
  ``user``, and at ``process`` as root with control groups, the grader runs a submission's
  boards through a warm interpreter of its own (autograder/_warm.py: the libraries the
  program names imported once, then a fork per board; in a sandbox of the submission's own
  at ``namespace``), which a bare run does not have: there the grader can be faster than
  the bare runs. ``namespace-cold``, ``user-cold`` and ``process-cold`` are those levels
  with the warm interpreter turned off (``AUTOGRADER_WARM=off``): a fresh interpreter (and
  sandbox) per board. At ``process-cold`` (as elsewhere at ``process`` where the warm path
  does not apply) a shell joins the run's control groups and waits while the grader sets
  its limits from outside (``prlimit(2)``), then ``exec``s the program; as root the shell
  starts in a fresh IPC namespace (autograder/_sandbox.py, ``direct_launch``,
  ``fresh_ipc``); ``process-launcher`` is ``process-cold`` with the Python launcher instead
  (``AUTOGRADER_DIRECT_LAUNCH=off``, as where ``unshare(2)`` is refused), for reference.
- bare: ``python3 program.py board.json`` for every program and board, standard output
  captured, with N programs at a time (each program's boards one after another, as the
  grader runs them).

Rounds interleave every configuration: in each round, the configurations of one -j run
together, in an order rotating from round to round. A configuration's figure is its
median. Overhead = graded total / bare total - 1, from the medians ("paired": the median
over rounds of each round's own ratio, a check on drift). "cpu" compares the CPU time the
whole machine spent busy per program run (``/proc/stat``) with the bare runs': with both
cores busy, -j 2's overhead is that, plus the time a core waits. Targets: under 10% at
``process``, under 20% at ``namespace``. Every graded submission must score full
marks and every bare run must exit 0, or the comparison is void (exit status 1).
``user`` (no target; measured where a lent uid may start this script's interpreter: one
outside ``/root`` here, see ``bench_grade.py``) is left out, saying why, elsewhere.
Figures depend on the machine: quote them with it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _load import busy_seconds, load_line
from _machine import machine  # benchmarks/_machine.py, beside this script
from _submissions import copy_as, examples

from autograder import LEVELS, detect_isolation, find_program, grade_folder, load_assignment
from autograder._errors import UsageError
from reference_solutions import ReferenceAnswers

TARGETS = {"process": 0.10, "namespace": 0.20}  # the variants: for reference only
WARM_ENV = "AUTOGRADER_WARM"  # "off": no warm interpreter (autograder/_warm_sandbox.py)
DIRECT_ENV = "AUTOGRADER_DIRECT_LAUNCH"  # "off": the Python launcher (autograder/_sandbox.py)
# A level's variants: what each turns off (the launcher runs only where the warm path does not).
VARIANTS = {"-cold": (WARM_ENV,), "-launcher": (WARM_ENV, DIRECT_ENV)}


def bare_runs(programs: list[Path], boards: list[Path], workers: int) -> float:
    """Seconds to run every program on every board, ``workers`` programs at a time."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}

    def one(program: Path) -> None:
        for board in boards:
            done = subprocess.run([sys.executable, str(program), str(board)], env=env,
                                  capture_output=True, cwd=program.parent, check=False)  # fmt: skip
            if done.returncode != 0 or not done.stdout:
                raise RuntimeError(f"bare run of {program} on {board.name} failed: {done}")

    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, programs))
    return time.perf_counter() - start


def graded_run(name: str, folder: Path, out: Path, answers, cases, workers: int,
               how: str) -> tuple[float, float]:  # fmt: skip
    """(seconds until the last result, seconds in all) grading ``folder`` into ``out`` at
    the isolation level ``how`` names (``namespace-cold``, ``process-cold``: without the
    warm interpreter; ``process-launcher``: without it, and with the Python launcher).
    ``out`` is left for the caller to remove."""
    level, switches = how, ()
    for suffix, turned_off in VARIANTS.items():
        if how.endswith(suffix):
            level, switches = how.removesuffix(suffix), turned_off
    last = [0.0]

    def logged(result) -> None:
        if result.score != result.max_score:
            raise RuntimeError(f"{result.student} scored {result.score}/{result.max_score}")
        last[0] = time.perf_counter()

    saved = {switch: os.environ.get(switch) for switch in (WARM_ENV, DIRECT_ENV)}
    for switch in switches:
        os.environ[switch] = "off"
    try:
        start = time.perf_counter()
        grade_folder(name, folder, out, answers=answers, cases=cases, workers=workers,
                     isolation=level, on_result=logged)  # fmt: skip
        total = time.perf_counter() - start
    finally:
        for switch, value in saved.items():
            if value is None:
                os.environ.pop(switch, None)
            else:
                os.environ[switch] = value
    return last[0] - start, total


def paired(graded: list[float], bare: list[float]) -> float:
    """Median over rounds of graded / bare - 1, each round's pair having run back to back."""
    return statistics.median(g / b - 1 for g, b in zip(graded, bare, strict=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="4 submissions, 1 round: a smoke test under a minute")  # fmt: skip
    parser.add_argument("--runs", type=int, help="rounds (default 5; quick 1)")
    parser.add_argument("--submissions", type=int, help="programs graded (default 12; quick 4)")
    parser.add_argument("--assignment", default="classic")
    args = parser.parse_args()
    runs = args.runs or (1 if args.quick else 5)
    count = args.submissions or (4 if args.quick else 12)
    name = args.assignment
    print(f"machine: {machine()}")
    print(load_line("at the start"))

    levels = []
    for level in ("process", "user", "namespace"):
        try:
            levels.append(detect_isolation(level).level)
        except UsageError as err:
            print(f"(level {level} not measured: {err})")
    assert all(level in LEVELS for level in levels)
    levels += ["process-cold", "process-launcher"] if "process" in levels else []
    levels += ["user-cold"] if "user" in levels else []
    levels += ["namespace-cold"] if "namespace" in levels else []
    answers = ReferenceAnswers()
    assignment = load_assignment(name)
    cases = answers.cases(assignment)
    tmp = Path(tempfile.mkdtemp(prefix="bench-throughput-"))
    try:
        styles = examples(name, tmp / "examples").correct
        folder = tmp / "submissions"
        folder.mkdir()
        handed = [copy_as(styles[k % len(styles)], folder, f"student{k:03d}")
                  for k in range(count)]  # fmt: skip
        programs = [find_program(p, assignment) for p in handed]
        boards = []
        for k, case in enumerate(cases):
            boards.append(tmp / "boards" / f"{k}-{case.name}.json")
            boards[-1].parent.mkdir(exist_ok=True)
            boards[-1].write_text(json.dumps(case.board), encoding="utf-8")
        print(f"{name}: {count} correct submissions ({len(styles)} styles: "
              f"{', '.join(p.name for p in styles)}), {len(cases)} boards each, "
              f"{count * len(cases)} program runs per batch; {runs} round(s)\n")  # fmt: skip

        configs = [(j, level) for j in (1, 2) for level in ("bare", *levels)]
        runs_s: dict[tuple[int, str], list[float]] = {c: [] for c in configs}
        total_s: dict[tuple[int, str], list[float]] = {c: [] for c in configs}
        cpu_s: dict[tuple[int, str], list[float]] = {c: [] for c in configs}  # machine-wide
        # warm up: page cache, imports, the sandbox's first start
        bare_runs(programs[:1], boards, 1)
        for level in levels:
            graded_run(name, folder, tmp / "warm", answers, cases, 2, level)
            shutil.rmtree(tmp / "warm")
        kinds = ("bare", *levels)
        for k in range(runs):
            # Each -j's configurations together, in an order rotating from round to round.
            rotated = kinds[k % len(kinds):] + kinds[:k % len(kinds)]  # fmt: skip
            order = [(j, level) for j in ((1, 2) if k % 2 == 0 else (2, 1)) for level in rotated]
            for j, level in order:
                before = busy_seconds()
                if level == "bare":
                    seconds = bare_runs(programs, boards, j)
                    runs_s[j, level].append(seconds)
                    total_s[j, level].append(seconds)
                else:
                    out = tmp / f"out-{k}-{j}-{level}"
                    ran, total = graded_run(name, folder, out, answers, cases, j, level)
                    runs_s[j, level].append(ran)
                    total_s[j, level].append(total)
                cpu_s[j, level].append(busy_seconds() - before)
                if level != "bare":
                    shutil.rmtree(out)  # (not counted: a bare run leaves nothing to remove)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(load_line("at the end") + "\n")
    print(f"  {'-j':>2} {'how':<16} {'runs s':>7} {'total s':>8} {'(min-max)':>11} {'subm./s':>8} "
          f"{'ms/run':>7} {'cpu/run':>7} {'overhead':>9} {'paired':>7} {'cpu':>6}  "
          "target")  # fmt: skip
    missed = []
    runs_per_batch = count * len(cases)
    for j, level in configs:
        cpu = 1000 * statistics.median(cpu_s[j, level]) / runs_per_batch
        ran, total = statistics.median(runs_s[j, level]), statistics.median(total_s[j, level])
        spread = f"{min(total_s[j, level]):.2f}-{max(total_s[j, level]):.2f}"
        row = (f"  {j:>2} {level:<16} {ran:7.2f} {total:8.2f} {spread:>11} {count / total:8.2f} "
               f"{1000 * total * j / runs_per_batch:7.1f} {cpu:7.1f}")  # fmt: skip
        if level == "bare":
            print(row)
            continue
        bare = total_s[j, "bare"]
        over = total / statistics.median(bare) - 1
        verdict = "(reference)"
        if level in TARGETS:
            verdict = f"{'met' if over < TARGETS[level] else 'NOT met'} (< {TARGETS[level]:.0%})"
            if over >= TARGETS[level]:
                missed.append(f"-j {j} {level}")
        more = statistics.median(cpu_s[j, level]) / statistics.median(cpu_s[j, "bare"]) - 1
        print(f"{row} {over:9.1%} {paired(total_s[j, level], bare):7.1%} {more:6.1%}  {verdict}")
    print("\nruns: until the last result is logged; total: with the reports; (min-max) of total."
          "\nms/run: total x workers / program runs; cpu/run: the CPU time the whole machine "
          "spent busy\n(/proc/stat: the grader, its programs, the kernel's work for them) / "
          "program runs.\noverhead: total / bare total - 1, medians; paired: the median over "
          "rounds of each round's own ratio;\ncpu: cpu/run / bare's - 1 (with both cores busy, "
          "-j 2's overhead is about this, plus the time\na core waits: the reports, the last "
          "submission).")  # fmt: skip
    print(f"targets: {'all met' if not missed else 'NOT met at ' + ', '.join(missed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
