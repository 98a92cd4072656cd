"""Variant-making times. Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_variants.py

Times ``make_variants`` (what ``autograder variants`` runs) on a synthetic roster of N
students, each run into a fresh output folder, and checks every run made N bundles, N zips
and a manifest of N students (exit status 1 if not). The split into phases is estimated, in
the same process, by timing ``variant_board`` (the draw alone) and ``student_variant``
(the draw, then solving and rendering, as ``make_variants`` calls it) on a sample of
students; the rest (writing folders, zips and the manifest) is the remainder. User and
system CPU seconds are shown beside wall time: writing some 6,000 files a run, the system
(kernel) time can swing by seconds between runs on a shared virtual machine; ``--dir
/dev/shm`` takes the disk out of the figures.

Target: 500 students in under 20 s on the 2-core machine. Medians over several runs; figures
are machine-dependent, quote them with the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from autograder._bundles import MANIFEST, STUDENTS, make_variants
from reference_solutions import ReferenceAnswers, student_variant, variant_board

ASSIGNMENTS = ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane")
SECRET = "bench-variants-secret"
ANSWERS = ReferenceAnswers()
TARGET_S, TARGET_N = 20.0, 500


def write_roster(path: Path, n: int) -> list[str]:
    ids = [f"s{i:04d}" for i in range(1, n + 1)]
    rows = ["id,name,email"] + [f"{s},Student {s[1:]},{s}@example.edu" for s in ids]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return ids


def incomplete(out: Path, n: int) -> str:
    """What is missing from a run's output, or "" if it is whole."""
    folders = [p for p in (out / STUDENTS).iterdir() if p.is_dir() and not p.name.startswith(".")]
    zips = list((out / STUDENTS).glob("*.zip"))
    listed = len(json.loads((out / MANIFEST).read_text(encoding="utf-8"))["students"])
    if len(folders) == len(zips) == listed == n:
        return ""
    return f"{len(folders)} bundles, {len(zips)} zips, {listed} in the manifest (want {n})"


def phase_ms(name: str, ids: list[str], sample: int) -> tuple[float, float]:
    """Median ms per student of drawing the board, and of solving + rendering it."""
    board_ms, material_ms = [], []
    for sid in ids[:: max(1, len(ids) // sample)][:sample]:
        start = time.perf_counter()
        variant_board(name, SECRET, sid)
        drawn = time.perf_counter()
        student_variant(name, SECRET, sid)
        whole = time.perf_counter() - drawn
        board_ms.append(1000 * (drawn - start))
        material_ms.append(1000 * (whole - (drawn - start)))
    return statistics.median(board_ms), statistics.median(material_ms)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=TARGET_N)
    parser.add_argument("--assignment", default="classic", choices=(*ASSIGNMENTS, "all"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sample", type=int, default=25, help="students timed per phase")
    parser.add_argument("--dir", help="where to make the temporary folder (default: system temp)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1,
        help="processes solving boards, as `autograder variants -j` (default: one per core)",
    )  # fmt: skip
    args = parser.parse_args()
    n = args.students
    names = ASSIGNMENTS if args.assignment == "all" else (args.assignment,)
    target = TARGET_S * n / TARGET_N
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    tmp = Path(tempfile.mkdtemp(prefix="bench-variants-", dir=args.dir))
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    print(f"OPENBLAS_NUM_THREADS={threads}, output in {tmp}")
    print(f"{n} students, {args.runs} run(s) each; target under {target:.1f} s "
          f"({TARGET_S:.0f} s per {TARGET_N} students)\n")  # fmt: skip
    print(f"  {'assignment':<14} {'median s':>8} {'min s':>7} {'ms/stu':>7} {'user s':>6} "
          f"{'sys s':>6} {'board':>6} {'solve+render':>12} {'files+zip':>9}  target")  # fmt: skip

    failures = []
    try:
        ids = write_roster(tmp / "roster.csv", n)
        write_roster(tmp / "warm.csv", 2)
        for name in names:
            make_variants(name, tmp / "warm.csv", tmp / f"warm-{name}", ANSWERS, secret=SECRET)
            times, user, system = [], [], []
            for run in range(args.runs):
                out = tmp / f"{name}-{run}"
                cpu, start = os.times(), time.perf_counter()
                make_variants(name, tmp / "roster.csv", out, ANSWERS, secret=SECRET,
                              workers=args.workers)  # fmt: skip
                times.append(time.perf_counter() - start)
                user.append(os.times().user - cpu.user)
                system.append(os.times().system - cpu.system)
                if problem := incomplete(out, n):
                    failures.append(f"{name} run {run + 1}: {problem}")
                shutil.rmtree(out)
            med = statistics.median(times)
            board, material = (n * ms / 1000 for ms in phase_ms(name, ids, args.sample))
            low = min(times)
            shares = [x / low for x in (board, material, low - board - material)]
            print(
                f"  {name:<14} {med:8.2f} {low:7.2f} {1000 * med / n:7.1f} "
                f"{statistics.median(user):6.2f} {statistics.median(system):6.2f} "
                f"{shares[0]:6.0%} {shares[1]:12.0%} {shares[2]:9.0%}  "
                f"{'met' if med < target else 'NOT met'}"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\nms/stu and target: on the median run; user/sys: median CPU seconds per run.")
    print(f"shares of the fastest run: board, solve+render from {args.sample} sampled students;")
    print("files+zip is the rest (bundle folders, zips, manifest).")
    for failure in failures:
        print(f"INCOMPLETE: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
