"""``autograder board new``: a valid board drawn from a seed, written as a board file."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from reference_solutions import classic_turns, new_jump_board, new_trap_board

from .. import (
    TRAP_KINDS,
    TRAP_LANE_SQUARES,
    BoardError,
    UsageError,
    describe_board,
    grid_goal_problem,
)
from ._options import add_output_options, count, non_negative, refuse_to_replace, write_output

HELP = "make board files"
JUMP_OPTIONS = ("goal", "chutes", "ladders", "min_turns", "max_turns")
TRAP_OPTIONS = (*TRAP_KINDS.values(), "edition", "circle")
INNER_SQUARES = TRAP_LANE_SQUARES - 2  # squares 1 and 15 are never trapped


def add_arguments(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="board_verb", required=True, metavar="COMMAND")
    new = verbs.add_parser(
        "new",
        help="a valid board drawn from a seed (jump board, or --trap-lane)",
        description="Draw a valid board from --seed (the same seed gives the same board) and "
        "write it as a board file. Jump boards by default; --trap-lane for a trap-lane layout.",
    )
    new.add_argument("--seed", type=count(0, None), required=True)
    add_output_options(new)
    jump = new.add_argument_group("jump boards")
    jump.add_argument("--goal", type=count(10, 10_000), help="the last square (default 100)")
    jump.add_argument("--chutes", type=count(0, 10_000), help="default: 10 per 100 squares")
    jump.add_argument("--ladders", type=count(0, 10_000), help="default: 9 per 100 squares")
    jump.add_argument(
        "--min-turns", type=non_negative, help="a classic game (6-face spinner, exact finish) "
        "lasts at least this many turns on average",
    )  # fmt: skip
    jump.add_argument("--max-turns", type=non_negative, help="... and at most this many")
    trap = new.add_argument_group("trap lane")
    trap.add_argument(
        "--trap-lane", action="store_true",
        help="a trap-lane layout (with no count given: one trap of each kind)",
    )  # fmt: skip
    for code, kind in TRAP_KINDS.items():
        trap.add_argument(
            f"--{kind}", type=count(0, INNER_SQUARES), help=f"count of traps {code} ({kind})"
        )
    trap.add_argument("--edition", help="2020, 2021 or 2022 (written into the file)")
    trap.add_argument("--circle", action="store_true", help="15 must be reached exactly")


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def new_board(seed: int, options: Mapping[str, Any], trap_lane: bool = False) -> tuple[str, str]:
    """The board file text for ``seed`` and a line describing the board. ``options`` are
    the command-line options given (``None`` when absent): jump-board options, or with
    ``trap_lane`` (or any trap option) the trap counts, edition and circle."""
    given = {k: v for k, v in options.items() if v is not None and v is not False}
    trap_given = [k for k in TRAP_OPTIONS if k in given]
    jump_given = [k for k in JUMP_OPTIONS if k in given]
    trap_lane = trap_lane or bool(trap_given)
    try:
        if trap_lane:
            if jump_given:
                raise UsageError(
                    "board new", f"{_flag(jump_given[0])} is for jump boards, not the trap lane"
                )
            counts = {k: int(given[k]) for k in TRAP_KINDS.values() if k in given}
            # With no count given, one trap of each kind: an empty lane is the public board.
            counts = counts or dict.fromkeys(TRAP_KINDS.values(), 1)
            edition = given.get("edition")
            try:
                data = new_trap_board(seed, counts, edition, bool(given.get("circle")))
            except BoardError:
                raise
            except UsageError as err:  # only the edition is checked by the rules
                raise UsageError(f"--edition {edition}", err.message) from None
            return json.dumps(data) + "\n", f"trap lane: {describe_board(data, 'trap')}"
        goal = int(given.get("goal", 100))
        problem = grid_goal_problem(goal)
        if problem:
            raise UsageError(f"--goal {goal}", problem)
        board = new_jump_board(
            seed, goal, given.get("chutes"), given.get("ladders"),
            given.get("min_turns"), given.get("max_turns"),
        )  # fmt: skip
    except BoardError as err:
        raise err.located("board new") from None
    data = board.to_json()
    turns = classic_turns(board)
    line = (
        f"{describe_board(data, 'jump')} ({len(board.chutes)} chutes, "
        f"{len(board.ladders)} ladders); a classic game takes {turns:.2f} turns on average"
    )
    return json.dumps(data) + "\n", line


def run(args: argparse.Namespace) -> int:
    options = {k: getattr(args, k) for k in (*JUMP_OPTIONS, *TRAP_OPTIONS)}
    refuse_to_replace(args.output, args.force, "the board")
    text, line = new_board(args.seed, options, args.trap_lane)
    if args.output:
        write_output(text, args.output)
        print(f"wrote {args.output}: {line}", file=sys.stderr)
    else:
        sys.stdout.write(text)
        print(line, file=sys.stderr)
    return 0
