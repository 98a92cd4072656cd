"""Instructor-only: the game models, the generic solver and the answer keys.

Each assignment's rules module (``reference_solutions.rules.<name>``) turns a board and its
parameters into an explicit :class:`Model`; :func:`policy_iteration` and
:func:`value_iteration` solve any model. :class:`ReferenceAnswers` answers the engine's
``AnswerSource`` protocol from these solutions. This package uses only the engine's public
API (``autograder.__all__``); the engine never imports it.
"""

from ._analysis import (
    Z_TEST,
    Analysis,
    AnalysisRules,
    BoardLayout,
    SquareCheck,
    Strategy,
    StrategyResult,
    analysis_problem,
    analysis_text,
    analyze,
    goal_probability,
    policy_values,
    printed_strategy,
    read_policy,
    square_map,
)
from ._answer_key import answer_key, expected_answer, hidden_boards, own_board_case
from ._conformance import CHECKS, Conformance, ConformanceReport, check_assignment
from ._draws import (
    board_draws,
    classic_turns,
    new_jump_board,
    new_trap_board,
    random_jump_board,
    variant_seed,
)
from ._model import Model, build_model
from ._params import Overshoot, params_in_effect, params_to_json
from ._params import describe as describe_params
from ._problem import Game, Problem, make_problem, parse_settings, solution_json, solve_problem
from ._programs import examples_dir, programs_dir, reference_handout, reference_program
from ._simulate import Simulation, histogram_lines, simulate, simulate_from
from ._solver import (
    NotConverged,
    Solution,
    evaluate_policy,
    goal_distance,
    policy_iteration,
    proper_policy,
    q_values,
    solve,
    solver_kind,
    value_iteration,
)
from ._source import ReferenceAnswers
from ._variants import student_variant, variant_board, variant_material

__all__ = [
    "CHECKS",
    "Z_TEST",
    "Analysis",
    "AnalysisRules",
    "BoardLayout",
    "Conformance",
    "ConformanceReport",
    "Game",
    "Model",
    "NotConverged",
    "Overshoot",
    "Problem",
    "ReferenceAnswers",
    "Simulation",
    "Solution",
    "SquareCheck",
    "Strategy",
    "StrategyResult",
    "analysis_problem",
    "analysis_text",
    "analyze",
    "answer_key",
    "board_draws",
    "build_model",
    "check_assignment",
    "classic_turns",
    "describe_params",
    "evaluate_policy",
    "examples_dir",
    "expected_answer",
    "goal_distance",
    "goal_probability",
    "hidden_boards",
    "histogram_lines",
    "make_problem",
    "new_jump_board",
    "new_trap_board",
    "own_board_case",
    "params_in_effect",
    "params_to_json",
    "parse_settings",
    "policy_iteration",
    "policy_values",
    "printed_strategy",
    "programs_dir",
    "proper_policy",
    "q_values",
    "random_jump_board",
    "read_policy",
    "reference_handout",
    "reference_program",
    "simulate",
    "simulate_from",
    "solution_json",
    "solve",
    "solve_problem",
    "solver_kind",
    "square_map",
    "student_variant",
    "value_iteration",
    "variant_board",
    "variant_material",
    "variant_seed",
]
