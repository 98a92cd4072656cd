"""Every side-by-side benchmark in one go (docs/benchmarks.md).

Run from the repository root:
    pip install -e '.[bench]'
    OPENBLAS_NUM_THREADS=1 python benchmarks/run_all.py [--quick] [--all]

Runs, one after another, each as its own process with OPENBLAS_NUM_THREADS=1:
bench_compare.py (the solver against a plain loop and pymdptoolbox), bench_scale.py (the
solver on boards of up to a million squares, the CLI against a straightforward script),
bench_throughput.py (the grader against bare runs) and bench_class.py (a class of 300,
variants for 500).
``--quick`` passes ``--quick`` to each: a smoke test of about a minute. ``--all`` then
runs the older single-topic benchmarks too, with their defaults (no quick mode; about an
hour more). Each script's output is printed as it comes; the exit status is 1 if any
script failed (a value that disagrees, a check that failed).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIDE_BY_SIDE = ("bench_compare.py", "bench_scale.py", "bench_throughput.py", "bench_class.py")
OLDER = ("bench_solve.py", "bench_grade.py", "bench_catalogue.py", "bench_reports.py",
         "bench_variants.py", "bench_notebook.py", "bench_java.py",
         "bench_remove_tree.py", "bench_diagnosis_time.py", "bench_race.py")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="each script's quick mode")
    parser.add_argument("--all", action="store_true", help="the older benchmarks too")
    args = parser.parse_args()
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    scripts = [(s, ["--quick"] if args.quick else []) for s in SIDE_BY_SIDE]
    scripts += [(s, []) for s in OLDER] if args.all else []
    failed = []
    for script, extra in scripts:
        print(f"\n===== {script} {' '.join(extra)}".rstrip(), flush=True)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, str(HERE / script), *extra], env=env, check=False)
        print(f"===== {script}: exit {done.returncode}, {time.perf_counter() - start:.0f} s",
              flush=True)  # fmt: skip
        if done.returncode != 0:
            failed.append(script)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
