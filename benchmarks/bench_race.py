"""The race's solve times, in-process (docs/benchmarks.md, "The race").

Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_race.py [--goals 100,200] [--repeats 5]

For each way of moving (classic, boosted, aimed), both players playing to win: building the
game's model, solving it exactly (strategy iteration) and by value iteration to 1e-9, on the
standard board and on larger random board-like boards; medians over ``--repeats`` runs. A
size whose build alone would pass ``--most-states`` is reported as skipped with its size,
not run (a 1,000-square race has 2 million states, 14 million with boosted moves' choice
states). Figures depend on the machine: quote them with the line printed first.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from _boards import random_board  # benchmarks/_boards.py, beside this script
from _machine import machine

from autograder import JumpBoard, standard_board
from reference_solutions import policy_iteration, value_iteration
from reference_solutions.rules import race

MOVES = ("classic", "boosted", "aimed")


def median_s(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def states(goal: int, moves: str) -> int:
    per_pair = 2 * (1 + (6 if moves == "boosted" else 0))
    return goal * goal * per_pair + 2


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--goals", default="100,200", help="board sizes, comma separated")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--most-states", type=int, default=2_000_000)
    args = parser.parse_args()
    print(machine())
    print(f"medians of {args.repeats} runs; times in ms\n")
    print(f"  {'board':<16} {'moves':<8} {'states':>10} {'build':>9} {'exact':>9} {'sweeps':>9}"
          f"  W(0, 0)")  # fmt: skip
    for goal in (int(g) for g in args.goals.split(",")):
        board: JumpBoard = standard_board() if goal == 100 else random_board(goal, seed=goal)
        name = "standard" if goal == 100 else f"{goal} squares"
        for moves in MOVES:
            size = states(goal, moves)
            if size > args.most_states:
                print(f"  {name:<16} {moves:<8} {size:>10}   skipped (over --most-states)")
                continue
            params = race.Params(moves=moves)  # type: ignore[arg-type]
            game = race.build(board, params)
            build = median_s(lambda b=board, p=params: race.build(b, p), args.repeats)
            exact = median_s(lambda m=game.model: policy_iteration(m), args.repeats)
            swept = median_s(lambda m=game.model: value_iteration(m), max(1, args.repeats // 2))
            value = policy_iteration(game.model).start_value
            print(f"  {name:<16} {moves:<8} {game.model.n_states:>10} {1000 * build:9.1f} "
                  f"{1000 * exact:9.1f} {1000 * swept:9.1f}  {value:.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
