"""The engine: boards, assignments, print formats and the command line.

This package holds no solver, so it may ship to students; expected answers come from
``reference_solutions`` on the grading side.
"""

from ._answer import Answer
from ._assignments import (
    Assignment,
    Limits,
    TestPlan,
    VariantPlan,
    assignment_names,
    load_assignment,
)
from ._boards import (
    STANDARD_JUMPS,
    Board,
    JumpBoard,
    LoadedBoard,
    TrapLayout,
    describe_board,
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
from ._gradescope import build_gradescope, run_gradescope
from ._handouts import render_handout
from ._manifest import Manifest, StudentBoard, load_manifest, write_manifest
from ._parse import OutputError, Printed, parse_output
from ._programs import render_program
from ._roster import Roster, RosterStudent, read_roster
from ._sandbox import LEVELS, Isolation, detect_isolation
from ._submissions import Submission, find_submissions
from ._variants import VariantsReport, make_variants

__all__ = [
    "LEVELS",
    "STANDARD_JUMPS",
    "Answer",
    "Assignment",
    "Batch",
    "Board",
    "BoardError",
    "Entry",
    "Expected",
    "GoalUnreachable",
    "Isolation",
    "JumpBoard",
    "Limits",
    "LoadedBoard",
    "Manifest",
    "OutputError",
    "Printed",
    "Roster",
    "RosterStudent",
    "StudentBoard",
    "Submission",
    "SubmissionResult",
    "TestCase",
    "TestPlan",
    "TestResult",
    "TrapLayout",
    "UsageError",
    "VariantPlan",
    "VariantsReport",
    "assignment_names",
    "board_rows",
    "build_gradescope",
    "check_submission",
    "describe_board",
    "detect_isolation",
    "find_program",
    "find_submissions",
    "grade_folder",
    "grade_submission",
    "load_assignment",
    "load_board",
    "load_manifest",
    "make_variants",
    "parse_board",
    "parse_output",
    "read_results",
    "read_roster",
    "render",
    "render_handout",
    "render_program",
    "run_gradescope",
    "standard_board",
    "write_manifest",
]
