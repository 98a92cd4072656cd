"""``autograder board new``: a valid board drawn from a seed, written as a board file."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._boards import describe_board
from ._errors import BoardError, UsageError

__all__ = ["new_board"]

JUMP_OPTIONS = ("goal", "chutes", "ladders", "min_turns", "max_turns")
TRAP_OPTIONS = ("restart", "penalty", "prison", "special", "edition", "circle")


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def new_board(seed: int, options: Mapping[str, Any], trap_lane: bool = False) -> tuple[str, str]:
    """The board file text for ``seed`` and a line describing the board. ``options`` are
    the command-line options given (``None`` when absent): jump-board options, or with
    ``trap_lane`` (or any trap option) the trap counts, edition and circle."""
    from reference_solutions import classic_turns, new_jump_board, new_trap_board

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
            counts = {k: int(given[k]) for k in ("restart", "penalty", "prison", "special")
                      if k in given}  # fmt: skip
            # With no count given, one trap of each kind: an empty lane is the public board.
            counts = counts or {"restart": 1, "penalty": 1, "prison": 1, "special": 1}
            edition = given.get("edition")
            try:
                data = new_trap_board(seed, counts, edition, bool(given.get("circle")))
            except BoardError:
                raise
            except UsageError as err:  # only the edition is checked by the rules
                raise UsageError(f"--edition {edition}", err.message) from None
            return json.dumps(data) + "\n", f"trap lane: {describe_board(data)}"
        goal = int(given.get("goal", 100))
        if goal < 10 or goal % 10:
            raise UsageError(
                f"--goal {goal}", "expected a multiple of 10 (the tables print rows of 10)"
            )
        board = new_jump_board(
            seed, goal, given.get("chutes"), given.get("ladders"),
            given.get("min_turns"), given.get("max_turns"),
        )  # fmt: skip
    except BoardError as err:
        raise err.located("board new") from None
    data = board.to_json()
    turns = classic_turns(board)
    line = (
        f"{describe_board(data)} ({len(board.chutes)} chutes, {len(board.ladders)} ladders); "
        f"a classic game takes {turns:.2f} turns on average"
    )
    return json.dumps(data) + "\n", line
