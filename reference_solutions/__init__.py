"""Instructor-only: the game models, the generic solver and the answer keys.

Each assignment's rules module (``reference_solutions.rules.<name>``) turns a board and its
parameters into an explicit :class:`Model`; :func:`policy_iteration` and
:func:`value_iteration` solve any model.
"""

from ._answer_key import answer_key, expected_answer, hidden_boards
from ._model import Model, build_model
from ._params import Overshoot, params_to_json
from ._params import describe as describe_params
from ._problem import Game, Problem, make_problem, parse_settings, solution_json, solve_problem
from ._programs import programs_dir, reference_handout, reference_program
from ._simulate import Simulation, simulate
from ._solver import (
    NotConverged,
    Solution,
    evaluate_policy,
    goal_distance,
    policy_iteration,
    proper_policy,
    q_values,
    solve,
    value_iteration,
)
from ._variants import (
    Variant,
    classic_turns,
    new_jump_board,
    new_trap_board,
    own_board_cases,
    student_variant,
    variant_board,
    variant_case,
    variant_material,
    variant_seed,
)

__all__ = [
    "Game",
    "Model",
    "NotConverged",
    "Overshoot",
    "Problem",
    "Simulation",
    "Solution",
    "Variant",
    "answer_key",
    "build_model",
    "classic_turns",
    "describe_params",
    "evaluate_policy",
    "expected_answer",
    "goal_distance",
    "hidden_boards",
    "make_problem",
    "new_jump_board",
    "new_trap_board",
    "own_board_cases",
    "params_to_json",
    "parse_settings",
    "policy_iteration",
    "programs_dir",
    "proper_policy",
    "q_values",
    "reference_handout",
    "reference_program",
    "simulate",
    "solution_json",
    "solve",
    "solve_problem",
    "student_variant",
    "value_iteration",
    "variant_board",
    "variant_case",
    "variant_material",
    "variant_seed",
]
