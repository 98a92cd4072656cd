"""The engine: boards, assignments, print formats and the command line.

This package holds no solver, so it may ship to students; expected answers come from
``reference_solutions`` on the grading side.
"""

from ._answer import Answer
from ._assignments import Assignment, assignment_names, load_assignment
from ._boards import (
    STANDARD_JUMPS,
    Board,
    JumpBoard,
    LoadedBoard,
    TrapLayout,
    load_board,
    parse_board,
    standard_board,
)
from ._errors import BoardError, GoalUnreachable, UsageError
from ._formats import board_rows, render

__all__ = [
    "STANDARD_JUMPS",
    "Answer",
    "Assignment",
    "Board",
    "BoardError",
    "GoalUnreachable",
    "JumpBoard",
    "LoadedBoard",
    "TrapLayout",
    "UsageError",
    "assignment_names",
    "board_rows",
    "load_assignment",
    "load_board",
    "parse_board",
    "render",
    "standard_board",
]
