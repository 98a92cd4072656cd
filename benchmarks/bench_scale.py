"""The solver at scale, side by side. Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_scale.py

1. Build + solve (policy iteration, exact policy evaluations) on random jump boards of
   10^4..10^6 squares: board-like jumps (up to 60 squares, one square in ten) and jumps
   anywhere; classic, boosted, token-boosted (10 tokens), aimed. Each configuration runs in
   a fresh process of its own, so its peak memory (max RSS) is its own; medians of the
   wall times over ``--runs``.
2. Jumps anywhere (100,000 squares, 10,000 jumps): the project's solve against one plain
   ``spsolve`` (SuperLU's default ordering) of the same chain, in the same process.
3. ``autograder solve classic --board big.json --json`` against a straightforward script
   (``benchmarks/straightforward_classic.py``: a numpy-vectorised build, one ``spsolve``,
   the values as JSON), whole commands interleaved, with the values compared.
4. The standard board in-process: build + solve, medians over many runs.

``--quick`` runs small sizes only (a smoke test). Figures are machine-dependent; quote them
with the machine line this prints.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _boards import random_board, random_jumps
from _machine import machine

HERE = Path(__file__).resolve().parent


def _one(kind: str, goal: int, family: str) -> dict:
    """Build and solve one configuration in this process (run in a child)."""
    from reference_solutions import policy_iteration
    from reference_solutions.rules import aimed, boosted, classic, token_boosted

    board = random_board(goal, family, None if family == "like" else 10_000)
    start = time.perf_counter()
    if kind == "classic":
        game = classic.build(board, classic.Params())
    elif kind == "boosted":
        game = boosted.build(board, boosted.Params())
    elif kind == "token-boosted":
        game = token_boosted.build(board, token_boosted.Params(tokens=10))
    else:
        game = aimed.build(board, aimed.Params())
    built = time.perf_counter()
    solution = policy_iteration(game.model)
    done = time.perf_counter()
    return {
        "build": built - start,
        "solve": done - built,
        "iterations": solution.iterations,
        "start_value": solution.start_value,
        "residual": solution.residual,
        "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _in_child(kind: str, goal: int, family: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(goal), family],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def scale(sizes: list[tuple[str, int, str]], runs: int) -> None:
    print("build + solve, one fresh process per run (median wall s; peak RSS of the runs):")
    print(f"  {'game':<14} {'squares':>9} {'jumps':<8} {'build':>7} {'solve':>7} {'total':>7}"
          f" {'iter':>4} {'MiB':>6}  V[0]")  # fmt: skip
    for kind, goal, family in sizes:
        results = [_in_child(kind, goal, family) for _ in range(runs)]
        build = statistics.median(r["build"] for r in results)
        solve = statistics.median(r["solve"] for r in results)
        total = statistics.median(r["build"] + r["solve"] for r in results)
        rss = max(r["max_rss_mib"] for r in results)
        first = results[0]
        print(f"  {kind:<14} {goal:>9,} {family:<8} {build:7.2f} {solve:7.2f} {total:7.2f}"
              f" {first['iterations']:>4} {rss:6.0f}  {first['start_value']:.6f}")  # fmt: skip


def anywhere_against_plain_lu(goal: int, count: int, runs: int) -> None:
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla

    from reference_solutions import policy_iteration
    from reference_solutions.rules import classic

    board = random_board(goal, "anywhere", count)
    model = classic.build(board, classic.Params()).model
    ours, plain = [], []
    values = None
    for _ in range(runs):
        start = time.perf_counter()
        solution = policy_iteration(model)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        P = model.transitions  # classic: pair i is square i's only move
        n = model.n_states
        rows = sp.csr_array((P.data, P.indices, P.indptr), shape=(P.shape[0], n))
        full = sp.vstack([rows, sp.csr_array((1, n))], format="csc")
        A = sp.csc_array(sp.eye_array(n, format="csc") - full)
        b = np.where(model.terminal, 0.0, 1.0)
        values = spla.spsolve(A, b)
        plain.append(time.perf_counter() - start)
    assert values is not None
    diff = float(np.max(np.abs(values - solution.values)) / np.max(values))
    a, b_ = statistics.median(ours), statistics.median(plain)
    print(f"\njumps anywhere, {goal:,} squares, {count:,} jumps (median of {runs}):")
    print(f"  project solve {a:.2f} s, plain spsolve {b_:.2f} s: {b_ / a:.1f}x; "
          f"values agree to {diff:.1e} (relative)")  # fmt: skip


def cli_against_script(goal: int, runs: int) -> None:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        board = Path(tmp) / "big.json"
        board.write_text(json.dumps({"goal": goal, "jumps": random_jumps(goal, goal // 10, 60)}))
        commands = {
            "autograder solve --json": [sys.executable, "-m", "autograder", "solve", "classic",
                                        "--board", str(board), "--json"],
            "straightforward script": [sys.executable, str(HERE / "straightforward_classic.py"),
                                       str(board)],
        }  # fmt: skip
        times: dict[str, list[float]] = {k: [] for k in commands}
        peaks: dict[str, float] = {}
        outputs: dict[str, dict] = {}
        for _ in range(runs):
            for label, argv in commands.items():  # interleaved, side by side
                before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                start = time.perf_counter()
                out = subprocess.run(argv, check=True, capture_output=True, env=env)
                times[label].append(time.perf_counter() - start)
                peaks[label] = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
                outputs[label] = json.loads(out.stdout)
        ours = np.array(outputs["autograder solve --json"]["values"])
        theirs = np.array(outputs["straightforward script"]["values"])
        diff = float(np.max(np.abs(ours - theirs)) / np.max(theirs))
        a = statistics.median(times["autograder solve --json"])
        b = statistics.median(times["straightforward script"])
        print(f"\nclassic, {goal:,} squares, whole commands (median of {runs}, interleaved):")
        for label in commands:
            print(f"  {label:<26} {statistics.median(times[label]):6.2f} s")
        print(f"  the CLI takes {a / b:.2f} of the script's time; values agree to {diff:.1e}")


def standard_board(runs: int) -> None:
    from autograder import standard_board as board
    from reference_solutions import policy_iteration
    from reference_solutions.rules import boosted, classic

    print(f"\nstandard board, in-process build + policy iteration (median of 7 x {runs}):")
    for name, rules in (("classic", classic), ("boosted", boosted)):

        def one(rules=rules) -> None:
            policy_iteration(rules.build(board(), rules.Params()).model)

        one()
        per_run = []
        for _ in range(7):
            start = time.perf_counter()
            for _ in range(runs):
                one()
            per_run.append((time.perf_counter() - start) / runs)
        print(f"  {name:<10} {1000 * statistics.median(per_run):.3f} ms")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(_one(sys.argv[2], int(sys.argv[3]), sys.argv[4])))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    args = parser.parse_args()
    print(machine())
    if args.quick:
        sizes = [("classic", 10_000, "like"), ("boosted", 10_000, "like"),
                 ("classic", 20_000, "anywhere")]  # fmt: skip
        scale(sizes, 1)
        anywhere_against_plain_lu(20_000, 2_000, 1)
        cli_against_script(20_000, 1)
        standard_board(20)
        return
    sizes = [
        *((kind, goal, "like") for kind in ("classic", "boosted")
          for goal in (10_000, 100_000, 1_000_000)),
        ("token-boosted", 100_000, "like"),
        ("aimed", 100_000, "like"),
        ("classic", 100_000, "anywhere"),
        ("boosted", 100_000, "anywhere"),
    ]  # fmt: skip
    scale(sizes, args.runs)
    anywhere_against_plain_lu(100_000, 10_000, args.runs)
    cli_against_script(1_000_000, args.runs)
    standard_board(200)


if __name__ == "__main__":
    main()
