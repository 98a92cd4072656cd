"""What the diagnosis costs: grading time per submission in this tree against an earlier
commit (the one before the fitted diagnosis, by default), side by side.

Run from the repository root:
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_diagnosis_time.py [--baseline REV]
        [--assignments A ...] [--students 40] [--runs 3] [--jobs 2]

The earlier commit is checked out into a temporary worktree and its kernel built in place;
both trees then grade the same folders with ``python -m autograder grade A DIR -j JOBS
--out OUT`` as a separate process (``PYTHONPATH`` pointing at the tree), reports included,
taking turns (A B, then B A, ...), ``--runs`` times each; the figure is the median wall
time. Per assignment, two folders:

- **the class**: ``--students`` submissions in a seeded random order, 70% correct (its
  bundled correct examples and its filled-in starter, in turn) and the rest wrong, taking
  turns between its bundled wrong examples (the typical mistakes, and the one that crashes)
  and the second diagnosis set's (``benchmarks/diagnosis/second``: parameters with other
  values, structural slips, two mistakes at once, output that does not come from solving).
  No endless program: its timeouts cost the same in both trees and would only add noise.
- **the hard ones**: the second set's wrong programs of the assignment alone, the case the
  fitted diagnosis works hardest on (most of them are not in the catalogue).

Every graded folder is checked in both trees: the correct programs score full marks, the
wrong ones less (exit status 1 if not). Figures depend on the machine: quote them with it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _load import load_line
from _machine import machine  # benchmarks/_machine.py, beside this script
from _submissions import copy_as, examples

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "diagnosis" / "second"))
from generate import programs, write  # noqa: E402  (the second set's generator)

ASSIGNMENTS = ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane")
CORRECT = 0.70


def baseline_tree(rev: str, into: Path) -> Path:
    """A worktree of ``rev`` with its kernel built in place."""
    tree = into / "baseline"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree),
                    rev], check=True)  # fmt: skip
    # (built apart from the worktree's pyproject.toml, which setuptools would read too, as
    # the images do; then put beside the worktree's package, where it is imported from)
    kernel = into / "kernel" / "reference_solutions"
    kernel.mkdir(parents=True)
    for part in ("_kernel.c", "_build.py"):
        shutil.copyfile(tree / "reference_solutions" / part, kernel / part)
    subprocess.run([sys.executable, str(kernel / "_build.py")], check=True, capture_output=True)
    built = list(kernel.glob("_kernel.*.so"))
    if not built:
        raise SystemExit(f"{rev}: its kernel did not build")
    shutil.copyfile(built[0], tree / "reference_solutions" / built[0].name)
    # (this tree's editable install must not lend it a module)
    where = subprocess.run(
        [sys.executable, "-c", "import autograder, reference_solutions._kernel as k; "
         "print(autograder.__file__); print(k.__file__)"],
        env={**os.environ, "PYTHONPATH": str(tree)}, cwd=into, check=True, capture_output=True,
        text=True,
    ).stdout.split()  # fmt: skip
    if not all(Path(w).is_relative_to(tree) for w in where):
        raise SystemExit(f"{rev}: imported from outside its worktree: {where}")
    return tree


def make_folders(name: str, students: int, second: Path, into: Path) -> dict[str, dict[str, bool]]:
    """The class and the hard ones of ``name`` under ``into``; per folder, per student,
    whether the program is correct."""
    kinds = examples(name, into / "examples")
    hard = [second / name / f"{p.slug}.py" for p in programs()
            if p.assignment == name and p.klass != "correct"]  # fmt: skip
    n_correct = round(CORRECT * students)
    plan = [(kinds.correct[k % len(kinds.correct)], True) for k in range(n_correct)]
    for k in range(students - n_correct):
        turn = kinds.wrong if k % 2 == 0 else hard
        plan.append((turn[(k // 2) % len(turn)], False))
    random.Random(0).shuffle(plan)
    folders: dict[str, dict[str, bool]] = {"class": {}, "hard": {}}
    for label, sources in (("class", plan), ("hard", [(p, False) for p in hard])):
        folder = into / label
        folder.mkdir()
        for k, (source, correct) in enumerate(sources):
            student = f"student{k:03d}"
            copy_as(source, folder, student)
            folders[label][student] = correct
    return folders


def grade(tree: Path, name: str, folder: Path, out: Path, jobs: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "autograder", "grade", name, str(folder), "-j", str(jobs),
               "--out", str(out)]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=out.parent)
    return time.perf_counter() - start


def check(out: Path, correct: dict[str, bool]) -> list[str]:
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    problems = [] if len(results) == len(correct) else [f"{len(results)} results"]
    for result in results:
        full = result["score"] == result["max_score"]
        if full != correct[result["student"]]:
            problems.append(f"{result['student']}: {result['score']}/{result['max_score']}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="79fc62b", help="the earlier commit")
    parser.add_argument("--now", type=Path, default=ROOT,
                        help="the tree to measure (default: this one, as it is)")  # fmt: skip
    parser.add_argument("--assignments", nargs="*", default=list(ASSIGNMENTS))
    parser.add_argument("--students", type=int, default=40, help="the class's size")
    parser.add_argument("--runs", type=int, default=3, help="gradings of each folder per tree")
    parser.add_argument("--jobs", type=int, default=2, help="grade -j")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(load_line("at the start"))
    failures: list[str] = []
    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-diagnosis-"))
    try:
        base = baseline_tree(args.baseline, tmp)
        trees = {"baseline": base, "now": args.now.resolve()}
        second = tmp / "second"
        write(second)
        for name in args.assignments:
            folders = make_folders(name, args.students, second, tmp / name)
            for label, correct in folders.items():
                times: dict[str, list[float]] = {"baseline": [], "now": []}
                for k in range(args.runs):
                    order = ["baseline", "now"] if k % 2 == 0 else ["now", "baseline"]
                    for which in order:
                        out = tmp / name / f"out-{label}-{which}-{k}"
                        times[which].append(grade(trees[which], name, tmp / name / label, out,
                                                  args.jobs))  # fmt: skip
                        failures += [f"{name} {label} {which}: {p}" for p in check(out, correct)]
                        shutil.rmtree(out)
                then, now = (statistics.median(times[w]) for w in ("baseline", "now"))
                n = len(correct)
                rows.append((name, label, n, then, now))
                print(f"{name:14} {label:6} {n:3} submissions: baseline {then:6.1f} s "
                      f"({1000 * then / n:5.0f} ms each), now {now:6.1f} s "
                      f"({1000 * now / n:5.0f} ms each), ratio {now / then:4.2f}   runs: "
                      f"{' '.join(f'{t:.1f}' for t in times['baseline'])} | "
                      f"{' '.join(f'{t:.1f}' for t in times['now'])}", flush=True)  # fmt: skip
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                        str(tmp / "baseline")], capture_output=True)  # fmt: skip
        shutil.rmtree(tmp, ignore_errors=True)
    for label in ("class", "hard"):
        mine = [r for r in rows if r[1] == label]
        if mine:
            then = sum(r[3] for r in mine)
            now = sum(r[4] for r in mine)
            print(f"all {label}: {sum(r[2] for r in mine)} submissions, baseline {then:.1f} s, "
                  f"now {now:.1f} s, ratio {now / then:.2f}")  # fmt: skip
    print(load_line("at the end"))
    for failure in failures:
        print(f"CHECK FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
