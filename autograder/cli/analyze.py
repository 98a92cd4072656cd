"""``autograder analyze``: the optimal solution's maps, checked against simulation from every
square, and set against simpler strategies."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from reference_solutions import (
    Z_TEST,
    Analysis,
    analysis_problem,
    analysis_text,
    analyze,
    params_in_effect,
    read_policy,
    solve_problem,
)

from .. import (
    AnalysisPage,
    BoardMap,
    PairMap,
    SquareRow,
    StrategyRow,
    UsageError,
    analysis_html,
    write_atomic,
)
from ._options import add_board_options, count

HELP = "the optimal solution against simulation from every square and against other strategies"
# Every square plays this many games too: a 100-square board at the limit is 10^8 games.
MAX_GAMES = 1_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    add_board_options(parser)
    parser.add_argument(
        "--games",
        type=count(1, MAX_GAMES),
        default=10_000,
        help="games per simulation (from each square, and per strategy); default 10000",
    )
    parser.add_argument("--seed", type=count(0, None), default=0, help="default 0")
    parser.add_argument(
        "--policy",
        dest="policies",
        action="append",
        default=[],
        metavar="FILE",
        help="a policy to set against the optimal one (repeatable): what a program prints "
        'for the assignment, or JSON {"<square>": "<action>"}; aimed, efron and trap-lane',
    )
    parser.add_argument(
        "--html", metavar="FILE", help="also write the analysis as a page, with its pictures"
    )


def analysis_of(
    name: str,
    board: str | None = None,
    settings: Sequence[str] = (),
    games: int = 10_000,
    seed: int = 0,
    policies: Sequence[str] = (),
) -> Analysis:
    # (with no board given, the rules may name one that shows more than the public board)
    problem = analysis_problem(name, board, settings)
    solution = solve_problem(problem)
    read = {path: read_policy(problem, solution, path) for path in policies}
    return analyze(problem, solution, games=games, seed=seed, policies=read)


def _layer_caption(analysis: Analysis, k: int, what: str) -> str:
    names = analysis.layout.layer_names
    return what if len(names) <= 1 else f"{what}, {names[k]}"


def analysis_page(analysis: Analysis) -> AnalysisPage:
    """What the page shows, from the analysis: the engine only draws it."""
    problem = analysis.problem
    unit, valued = analysis.measure.value, analysis.measure.phrase
    z = Z_TEST
    squares = []
    for check in analysis.squares:
        low, high = check.interval(z)
        sim = check.simulated
        squares.append(SquareRow(check.label, check.computed, sim.mean, low, high, sim.games))
    strategies = []
    for result in analysis.strategies:
        low, high = result.simulated.interval(z)
        sim = result.simulated
        played = sim.games + sim.unfinished
        strategies.append(StrategyRow(result.name, result.says, result.exact, sim.mean, low,
                                      high, played, sim.unfinished,
                                      sim.length.tolist()))  # fmt: skip
    value_maps = [
        BoardMap(_layer_caption(analysis, k, f"value map: {valued} from each square"),
                 values=layer)
        for k, layer in enumerate(analysis.value_map)
    ]  # fmt: skip
    policy_maps = []
    if analysis.choice:
        policy_maps = [
            BoardMap(_layer_caption(analysis, k, "policy map: the best action on each square"),
                     labels=layer)
            for k, layer in enumerate(analysis.policy_map)
        ]  # fmt: skip
    start = analysis.strategies[0]
    params = params_in_effect(problem.params)
    settings = ", ".join(f"{k} = {v}" for k, v in sorted(params.items())) or "no parameters"
    lines = [
        f"{problem.assignment.title}, on {problem.board_words}; {settings}.",
        f"optimal {valued} from the start: {analysis.solution.start_value:.4f}; "
        f"{analysis.games} games per simulation, seed {analysis.seed}.",
    ]
    if not analysis.choice:
        lines.append(f"The player has no choice: {start.name} is the only strategy.")
    return AnalysisPage(
        title=f"{problem.assignment.name}: the optimal solution and other strategies",
        board=problem.board_file(),
        lines=lines,
        value_maps=value_maps,
        policy_maps=policy_maps,
        squares=squares,
        strategies=strategies,
        unit=unit,
        confidence="99.9%",
        pair_maps=_pair_maps(analysis),
    )


def _pair_maps(analysis: Analysis) -> list[PairMap]:
    if analysis.pair_map is None:
        return []
    caption, table = analysis.pair_map
    mover, other = "the square of the player to move", "the other player's square"
    return [PairMap(f"pair map: {caption}", table.tolist(), mover, other)]


def run(args: argparse.Namespace) -> int:
    analysis = analysis_of(
        args.assignment, args.board, args.settings, args.games, args.seed, args.policies
    )
    sys.stdout.write(analysis_text(analysis))
    if args.html:
        page = Path(args.html)
        text = analysis_html(analysis_page(analysis), analysis.problem.assignment)
        try:
            write_atomic(page, text)
        except OSError as err:
            raise UsageError(str(page), f"cannot write the page: {err.strerror or err}") from None
        print(f"page written to {page}")
    return 0
