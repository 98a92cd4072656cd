"""Solve times, in-process. Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_solve.py

Reports medians over several repeats of many runs each. Figures are machine-dependent;
quote them with the machine they came from.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
from _boards import random_board  # benchmarks/_boards.py, beside this script

from autograder import standard_board
from reference_solutions import _linear, make_problem, policy_iteration, value_iteration
from reference_solutions import _solver as solver
from reference_solutions.rules import classic


def median_ms(fn, runs: int, repeats: int) -> float:
    fn()  # warm caches and imports
    per_run = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(runs):
            fn()
        per_run.append((time.perf_counter() - start) / runs)
    return 1000 * statistics.median(per_run)


def row(label: str, ms: float, note: str = "") -> None:
    print(f"  {label:<40} {ms:8.3f} ms {note}")


def classic_build_and_solve():
    game = classic.build(standard_board(), classic.Params())
    return policy_iteration(game.model)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--large", type=int, default=1_000_000, help="squares of a big board")
    args = parser.parse_args()
    runs, repeats = args.runs, args.repeats
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"OPENBLAS_NUM_THREADS={threads}"
    )
    print(f"median of {repeats} repeats x {runs} runs\n")

    board = standard_board()
    model = classic.build(board, classic.Params()).model
    print("classic, standard board, to 1e-9:")
    row("build model + policy iteration (exact)", median_ms(classic_build_and_solve, runs, repeats))
    row("policy iteration alone", median_ms(lambda: policy_iteration(model), runs, repeats))
    vi_runs = max(1, runs // 20)
    row(
        "value iteration, error bound 1e-9",
        median_ms(lambda: value_iteration(model), vi_runs, repeats),
    )

    # The linear solve behind every policy evaluation: dense LU against SuperLU at 101 states.
    policy = np.arange(model.n_states)
    policy[model.terminal] = -1
    limit = _linear.DENSE_LIMIT
    dense = median_ms(lambda: solver.evaluate_policy(model, policy), runs, repeats)
    _linear.DENSE_LIMIT = 0
    sparse = median_ms(lambda: solver.evaluate_policy(model, policy), runs, repeats)
    _linear.DENSE_LIMIT = limit
    row("one policy evaluation, dense LU", dense)
    row("one policy evaluation, sparse SuperLU", sparse, f"(dense is {sparse / dense:.1f}x faster)")

    print("\nevery assignment, public board, build + policy iteration:")
    for name in ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane"):
        ms = median_ms(
            lambda n=name: policy_iteration(make_problem(n).game.model), max(1, runs // 10), repeats
        )
        print(f"  {name:<14} {ms:8.3f} ms")

    if args.large:
        goal = args.large
        # Jumps as long as on a printed board (up to 60 squares), one square in ten. Jumps
        # across the whole board defeat the sparse LU's ordering (see the README).
        big = random_board(goal)
        start = time.perf_counter()
        game = classic.build(big, classic.Params())
        built = time.perf_counter()
        solution = policy_iteration(game.model)
        done = time.perf_counter()
        jumps = len(big.jumps)
        print(f"\nclassic, {goal:,} squares, {jumps:,} jumps of up to 60 squares (one run):")
        print(
            f"  build {1000 * (built - start):.0f} ms, solve {1000 * (done - built):.0f} ms, "
            f"V[0] = {solution.start_value:.2f}"
        )


if __name__ == "__main__":
    main()
