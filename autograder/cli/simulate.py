"""``autograder simulate``: Monte Carlo games under the optimal policy."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from reference_solutions import histogram_lines, make_problem, simulate, solve_problem

from ._options import add_board_options, count

HELP = "Monte Carlo games under the optimal policy"
MAX_GAMES = 10_000_000  # all games advance together: memory grows with the count


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    add_board_options(parser)
    parser.add_argument("--games", type=count(1, MAX_GAMES), default=10_000, help="default 10000")
    parser.add_argument("--seed", type=count(0, None), default=0, help="default 0")


def simulate_text(
    name: str,
    board: str | None = None,
    settings: Sequence[str] = (),
    games: int = 10_000,
    seed: int = 0,
) -> str:
    problem = make_problem(name, board, settings)
    solution = solve_problem(problem)
    model = problem.game.model
    result = simulate(model, solution.policy, games, seed)
    what = "discounted reward" if model.maximize else "turns"
    low, high = result.interval()
    played = result.games + result.unfinished
    lines = [
        f"{name} on {problem.board_words}: {played} games under the optimal policy, seed {seed}"
    ]
    if result.unfinished:
        # The games left out are the longest ones, so the rest are no sample of all games:
        # an interval from them would be narrow and wrong.
        lines += [
            f"warning: {result.unfinished} of {played} games did not finish and are left out",
            f"mean {what} of the {result.games} that finished: {result.mean:.4f} (below the "
            "mean of all games)"
            if result.games
            else f"mean {what}: none (no game finished)",
            "95% confidence interval: none, as the games left out are the longest",
        ]
    elif result.games < 2:
        lines += [f"{what}: {result.mean:.4f}", "95% confidence interval: none from one game"]
    else:
        lines += [
            f"mean {what}: {result.mean:.4f}   standard deviation: {result.std:.4f}",
            f"95% confidence interval for the mean: [{low:.4f}, {high:.4f}]",
        ]
    lines.append(f"computed expected {what}: {solution.start_value:.4f}")
    lines.append("game lengths (turns):")
    lines += histogram_lines(result.length)
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(
        simulate_text(args.assignment, args.board, args.settings, args.games, args.seed)
    )
    return 0
