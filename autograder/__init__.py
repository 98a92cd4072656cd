"""The engine: boards, assignments, print formats and the command line.

This package holds no solver, so it may ship to students; expected answers come from
``reference_solutions`` on the grading side.
"""

from ._answer import Answer
from ._assignments import Assignment, Limits, TestPlan, assignment_names, load_assignment
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
from ._cases import Entry, Expected, TestCase
from ._check import check_submission
from ._engine import SubmissionResult, TestResult, find_program, grade_submission
from ._errors import BoardError, GoalUnreachable, UsageError
from ._formats import board_rows, render
from ._grade import Batch, grade_folder, read_results
from ._handouts import render_handout
from ._parse import OutputError, Printed, parse_output
from ._programs import render_program
from ._submissions import Submission, find_submissions

__all__ = [
    "STANDARD_JUMPS",
    "Answer",
    "Assignment",
    "Batch",
    "Board",
    "BoardError",
    "Entry",
    "Expected",
    "GoalUnreachable",
    "JumpBoard",
    "Limits",
    "LoadedBoard",
    "OutputError",
    "Printed",
    "Submission",
    "SubmissionResult",
    "TestCase",
    "TestPlan",
    "TestResult",
    "TrapLayout",
    "UsageError",
    "assignment_names",
    "board_rows",
    "check_submission",
    "find_program",
    "find_submissions",
    "grade_folder",
    "grade_submission",
    "load_assignment",
    "load_board",
    "parse_board",
    "parse_output",
    "read_results",
    "render",
    "render_handout",
    "render_program",
    "standard_board",
]
