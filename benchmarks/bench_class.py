"""A whole class: 300 submissions of one assignment graded end to end, and variants for
500 students.

Run from the repository root:
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_class.py [--quick] [--students 300]
        [--jobs 2] [--runs 1] [--roster 500] [--variant-runs 3]

1. The class: ``--students`` submissions of the assignment (classic by default), a
   realistic mix in a seeded random order: 70% correct, cycling through its correct
   examples (several styles, a folder submission among them) and its filled-in starter;
   2% endless (the example that never ends); the rest wrong, cycling through the wrong
   examples (the typical mistakes, and the one that crashes). Graded with
   ``autograder grade A DIR -j JOBS --out OUT`` as a separate process, reports included
   (pages, gradebooks, feedback, histogram, similarity): wall time from start to exit.
   Then the same class without its endless programs, in the same way, to show what they
   cost: each endless program runs into the timeout on two boards (the grader then skips
   its other boards), which holds one worker for two timeouts.
2. Variants: ``autograder variants A --roster R --out DIR`` for ``--roster`` students, as
   a separate process, median of ``--variant-runs`` runs; each run's output is checked
   (a bundle, a zip and a manifest entry per student). benchmarks/bench_variants.py splits
   the same work into its phases.

Every graded batch is checked: the correct programs score full marks, the wrong ones
less, the endless ones time out (exit status 1 if not). Figures depend on the machine:
quote them with it.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from _load import load_line
from _machine import machine  # benchmarks/_machine.py, beside this script
from _submissions import copy_as, examples
from bench_variants import incomplete, write_roster

from autograder import load_assignment

CORRECT, ENDLESS = 0.70, 0.02


def make_class(name: str, students: int, into: Path, seed: int = 0) -> dict[str, str]:
    """The class's folder ``into/submissions``; returns each student's kind."""
    kinds = examples(name, into / "examples")
    n_correct = round(CORRECT * students)
    n_endless = max(1, round(ENDLESS * students))
    plan = [kinds.correct[k % len(kinds.correct)] for k in range(n_correct)]
    plan += [kinds.endless[k % len(kinds.endless)] for k in range(n_endless)]
    plan += [kinds.wrong[k % len(kinds.wrong)] for k in range(students - len(plan))]
    random.Random(seed).shuffle(plan)
    folder = into / "submissions"
    folder.mkdir()
    kind_of = {}
    for k, source in enumerate(plan):
        student = f"student{k:03d}"
        copy_as(source, folder, student)
        kind_of[student] = ("correct" if source in kinds.correct
                            else "endless" if source in kinds.endless else "wrong")  # fmt: skip
    return kind_of


def grade(name: str, folder: Path, out: Path, jobs: int, timeout: float | None) -> float:
    command = [sys.executable, "-m", "autograder", "grade", name, str(folder), "-j", str(jobs),
               "--out", str(out)] + (["--timeout", f"{timeout:g}"] if timeout else [])  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def check(out: Path, kind_of: dict[str, str]) -> tuple[list[str], Counter]:
    """What is wrong with a graded batch (nothing, if empty), and its test statuses."""
    problems = []
    statuses: Counter = Counter()
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    if len(results) != len(kind_of):
        problems.append(f"{len(results)} results for {len(kind_of)} submissions")
    for result in results:
        kind = kind_of[result["student"]]
        full = result["score"] == result["max_score"]
        statuses.update(t["status"] for t in result["tests"])
        statuses.update({f"isolation {result.get('isolation') or 'none'}": 1})
        timed_out = any(t["status"] == "timeout" for t in result["tests"])
        if (kind == "correct") != full or (kind == "endless") != timed_out:
            problems.append(f"{result['student']} ({kind}): {result['score']}/"
                            f"{result['max_score']}, {result['status']}")  # fmt: skip
    for wanted in ("grades.csv", "index.html", "results.jsonl"):
        if not (out / wanted).is_file():
            problems.append(f"no {wanted}")
    pages = len(list((out / "feedback").glob("*.html")))
    if pages < len(kind_of):
        problems.append(f"{pages} feedback pages for {len(kind_of)} submissions")
    return problems, statuses


def variants(name: str, students: int, runs: int, tmp: Path) -> tuple[list[float], list[str]]:
    roster = tmp / "roster.csv"
    write_roster(roster, students)
    times, problems = [], []
    for k in range(runs):
        out = tmp / f"variants-{k}"
        command = [sys.executable, "-m", "autograder", "variants", name, "--roster", str(roster),
                   "--out", str(out), "--secret", "bench-class-secret"]  # fmt: skip
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
        if problem := incomplete(out, students):
            problems.append(f"variants run {k + 1}: {problem}")
        shutil.rmtree(out)
    return times, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="30 submissions with a 2 s timeout, variants for 20: under a "
                             "minute")  # fmt: skip
    parser.add_argument("--assignment", default="classic")
    parser.add_argument("--students", type=int, help="submissions (default 300; quick 30)")
    parser.add_argument("--jobs", type=int, default=2, help="grade -j")
    parser.add_argument("--runs", type=int, default=1, help="gradings of each folder")
    parser.add_argument("--timeout", type=float,
                        help="grade --timeout (default: the assignment's; quick 2)")  # fmt: skip
    parser.add_argument("--roster", type=int, help="students of the variants (default 500)")
    parser.add_argument("--variant-runs", type=int, default=3)
    args = parser.parse_args()
    name = args.assignment
    students = args.students or (30 if args.quick else 300)
    roster = args.roster or (20 if args.quick else 500)
    timeout = args.timeout or (2.0 if args.quick else None)
    limits = load_assignment(name).limits
    per_board = timeout or limits.timeout
    print(f"machine: {machine()}")
    print(load_line("at the start"))

    failures: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-class-"))
    try:
        kind_of = make_class(name, students, tmp)
        counts = Counter(kind_of.values())
        without = tmp / "without-endless"
        without.mkdir()
        for path in (tmp / "submissions").iterdir():
            if kind_of[path.name.removesuffix(".py")] != "endless":
                (shutil.copytree if path.is_dir() else shutil.copyfile)(path, without / path.name)
        rest = {s: k for s, k in kind_of.items() if k != "endless"}
        print(f"{name}: {students} submissions: {counts['correct']} correct, "
              f"{counts['wrong']} wrong, {counts['endless']} endless; timeout {per_board:g} s "
              f"per board; grade -j {args.jobs}; {args.runs} run(s) each\n")  # fmt: skip
        times: dict[str, list[float]] = {"class": [], "without": []}
        for k in range(args.runs):
            order = [("class", tmp / "submissions", kind_of), ("without", without, rest)]
            for label, folder, kinds in order if k % 2 == 0 else order[::-1]:
                out = tmp / f"out-{label}-{k}"
                times[label].append(grade(name, folder, out, args.jobs, timeout))
                problems, statuses = check(out, kinds)
                failures += [f"{label}: {p}" for p in problems]
                if label == "class" and k == 0:
                    pages = len(list((out / "feedback").glob("*.html")))
                    files = sorted(p.name for p in out.iterdir())
                    levels = {s: n for s, n in statuses.items() if s.startswith("isolation")}
                    tests = ", ".join(f"{n} {s}" for s, n in statuses.most_common()
                                      if s not in levels)  # fmt: skip
                    print(f"  board runs: {tests}")
                    by_level = ", ".join(f"{n} {s}" for s, n in levels.items())
                    print(f"  submissions by level: {by_level}")
                    print(f"  written: {', '.join(files)} ({pages} pages in feedback/)")
                shutil.rmtree(out)
        whole, bare = statistics.median(times["class"]), statistics.median(times["without"])
        n_end = counts["endless"]
        print()
        for label, seconds, n in ((f"the class ({students})", whole, students),
                                  (f"without its {n_end} endless ({students - n_end})", bare,
                                   students - n_end)):  # fmt: skip
            print(f"  {label:<28} {seconds:7.1f} s wall, {n / seconds:5.2f} submissions/s")
        held = n_end * 2 * per_board
        print(f"  the endless ones add {whole - bare:.1f} s ({whole / bare - 1:.0%}); each holds "
              f"a worker for two timeouts: {n_end} x 2 x {per_board:g} s = {held:g} s of worker "
              f"time, {held / args.jobs:g} s over {args.jobs} workers")  # fmt: skip

        seconds, problems = variants(name, roster, args.variant_runs, tmp)
        failures += problems
        med = statistics.median(seconds)
        print(f"\n  autograder variants {name}, {roster} students: {med:.1f} s wall (median of "
              f"{len(seconds)}: {', '.join(f'{s:.1f}' for s in seconds)}), "
              f"{1000 * med / roster:.0f} ms per student")  # fmt: skip
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(load_line("at the end"))
    for failure in failures:
        print(f"CHECK FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
