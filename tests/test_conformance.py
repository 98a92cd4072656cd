"""What every assignment must satisfy. A new ``assignments/<name>/`` is covered the day it
is added: the parametrisation reads the folder list."""

from __future__ import annotations

import numpy as np
import pytest

from autograder import assignment_names, load_assignment, render
from reference_solutions import (
    make_problem,
    policy_iteration,
    simulate,
    solution_json,
    value_iteration,
)

NAMES = assignment_names()


def test_all_six_assignments_are_configured():
    assert set(NAMES) >= {"classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane"}


@pytest.fixture(scope="module", params=NAMES)
def solved(request):
    problem = make_problem(request.param)
    return problem, policy_iteration(problem.game.model)


def test_two_solvers_agree(solved):
    problem, exact = solved
    swept = value_iteration(problem.game.model, tolerance=1e-10)
    assert np.max(np.abs(exact.values - swept.values)) <= 1e-9


def test_simulation_agrees(solved):
    problem, solution = solved
    result = simulate(problem.game.model, solution.policy, games=20_000, seed=11)
    assert result.unfinished == 0
    half = 3.2905 * result.std / np.sqrt(result.games)  # 99.9% interval
    assert abs(result.mean - solution.start_value) <= half


WITH_SELF_CHECK = [n for n in NAMES if load_assignment(n).self_check is not None]


def test_published_self_checks_are_configured():
    # RULES.md publishes self-checks for these; aimed and efron have none.
    assert set(WITH_SELF_CHECK) >= {"classic", "boosted", "token-boosted", "trap-lane"}


@pytest.mark.parametrize("name", WITH_SELF_CHECK)
def test_self_check_holds(name):
    problem = make_problem(name)
    solution = policy_iteration(problem.game.model)
    assert problem.assignment.self_check_holds(solution.start_value)


def test_answer_renders_and_leads_with_the_start_value(solved):
    problem, solution = solved
    text = render(problem.game.answer(solution))
    first = text.splitlines()[0]
    assert first.endswith(f": {solution.start_value:.2f}")


def test_json_has_the_contract_fields(solved):
    problem, solution = solved
    data = solution_json(problem, solution)
    assert data["assignment"] == problem.assignment.name
    assert data["start_value"] == solution.start_value
    assert {"params", "values", "policy"} <= set(data)


def test_every_optimal_action_is_within_tolerance_of_the_best(solved):
    problem, solution = solved
    model = problem.game.model
    sign = -1.0 if model.maximize else 1.0
    best = np.full(model.n_states, np.inf)
    np.minimum.at(best, model.state_of_pair, sign * solution.q_values)
    gap = sign * solution.q_values - best[model.state_of_pair]
    assert np.all(
        gap[solution.optimal]
        <= 1e-9 * np.maximum(1, np.abs(best[model.state_of_pair][solution.optimal]))
    )
    assert np.all(solution.optimal[solution.policy[solution.policy >= 0]])
