"""The engine: assignments, boards, print formats, running and grading submissions, batches,
bundles and the Gradescope export.

The engine holds no solver and never imports one, so it may ship to students: whatever it
needs from the grading side (answer keys, a student's own board, the material to hide from
submissions) comes through an :class:`AnswerSource` that the caller passes in. The names
below are its public API; ``reference_solutions`` uses nothing else, and the command line
(``autograder.cli``) is where the two meet.
"""

from ._analysis_page import (
    AnalysisPage,
    BoardMap,
    PairMap,
    SquareRow,
    StrategyRow,
    analysis_html,
)
from ._answer import Answer, Entry, Objective
from ._answers import (
    AnswerSource,
    Explanation,
    Judge,
    PolicyCost,
    PolicyJudge,
    Variant,
    policy_judge,
    with_own_board,
)
from ._assignments import (
    Assignment,
    Limits,
    PolicyGrading,
    TestPlan,
    assignment_folders,
    assignment_names,
    assignments_dir,
    load_assignment,
    no_assignments,
)
from ._batch import Batch, grade_folder, read_results
from ._boards import (
    MAX_GOAL,
    STANDARD_JUMPS,
    TRAP_KINDS,
    TRAP_LANE_SQUARES,
    Board,
    BoardFamily,
    JumpBoard,
    JumpVariantPlan,
    LoadedBoard,
    TrapLayout,
    TrapVariantPlan,
    VariantPlan,
    board_family,
    describe_board,
    family_names,
    load_board,
    parse_board,
    register_family,
    standard_board,
)
from ._bundles import VariantsReport, make_variants
from ._cases import Expected, TestCase, Variation
from ._check import check_html, check_submission, check_text
from ._demo import demo_text
from ._diagnose import Diagnosis, diagnose, mistake_fit
from ._errors import BoardError, GoalUnreachable, UsageError
from ._examples import render_examples
from ._files import write_atomic
from ._formats import (
    OutputFormat,
    board_rows,
    format_names,
    grid_goal_problem,
    output_format,
    register_format,
    render,
)
from ._gradescope import VISIBILITIES, build_gradescope, run_gradescope
from ._html import batch_html, submission_html, write_html_reports
from ._isolation import detect_isolation
from ._late import LatePolicy, read_times
from ._lms import Submission, find_submissions
from ._manifest import Manifest, StudentBoard, load_manifest, write_manifest
from ._parse import OutputError, Printed, parse_output
from ._prairielearn import (
    HIDDEN_RESULTS,
    PRAIRIELEARN_IMAGE,
    PrairieLearnExport,
    build_prairielearn,
    prairielearn_results,
    run_prairielearn,
)
from ._registry import Registry
from ._regrade import Regrade, graded_course, regrade_folder
from ._resources import package_copies, package_data
from ._results import SubmissionResult, SubmissionStatus, TestResult, TestStatus
from ._roster import Roster, RosterStudent, read_roster
from ._sandbox import LEVELS, Isolation, IsolationLevel
from ._score import Mark, mark
from ._submission import find_program, grade_submission
from ._templates import program_name, render_handout, render_program
from ._verdict import grade_output

__all__ = [
    "HIDDEN_RESULTS",
    "LEVELS",
    "MAX_GOAL",
    "PRAIRIELEARN_IMAGE",
    "STANDARD_JUMPS",
    "TRAP_KINDS",
    "TRAP_LANE_SQUARES",
    "VISIBILITIES",
    "AnalysisPage",
    "Answer",
    "AnswerSource",
    "Assignment",
    "Batch",
    "Board",
    "BoardError",
    "BoardFamily",
    "BoardMap",
    "Diagnosis",
    "Entry",
    "Expected",
    "Explanation",
    "GoalUnreachable",
    "Isolation",
    "IsolationLevel",
    "Judge",
    "JumpBoard",
    "JumpVariantPlan",
    "LatePolicy",
    "Limits",
    "LoadedBoard",
    "Manifest",
    "Mark",
    "Objective",
    "OutputError",
    "OutputFormat",
    "PairMap",
    "PolicyCost",
    "PolicyGrading",
    "PolicyJudge",
    "PrairieLearnExport",
    "Printed",
    "Registry",
    "Regrade",
    "Roster",
    "RosterStudent",
    "SquareRow",
    "StrategyRow",
    "StudentBoard",
    "Submission",
    "SubmissionResult",
    "SubmissionStatus",
    "TestCase",
    "TestPlan",
    "TestResult",
    "TestStatus",
    "TrapLayout",
    "TrapVariantPlan",
    "UsageError",
    "Variant",
    "VariantPlan",
    "VariantsReport",
    "Variation",
    "analysis_html",
    "assignment_folders",
    "assignment_names",
    "assignments_dir",
    "batch_html",
    "board_family",
    "board_rows",
    "build_gradescope",
    "build_prairielearn",
    "check_html",
    "check_submission",
    "check_text",
    "demo_text",
    "describe_board",
    "detect_isolation",
    "diagnose",
    "family_names",
    "find_program",
    "find_submissions",
    "format_names",
    "grade_folder",
    "grade_output",
    "grade_submission",
    "graded_course",
    "grid_goal_problem",
    "load_assignment",
    "load_board",
    "load_manifest",
    "make_variants",
    "mark",
    "mistake_fit",
    "no_assignments",
    "output_format",
    "package_copies",
    "package_data",
    "parse_board",
    "parse_output",
    "policy_judge",
    "prairielearn_results",
    "program_name",
    "read_results",
    "read_roster",
    "read_times",
    "register_family",
    "register_format",
    "regrade_folder",
    "render",
    "render_examples",
    "render_handout",
    "render_program",
    "run_gradescope",
    "run_prairielearn",
    "standard_board",
    "submission_html",
    "with_own_board",
    "write_atomic",
    "write_html_reports",
    "write_manifest",
]
