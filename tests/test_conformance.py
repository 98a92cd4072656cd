"""What every assignment must satisfy. A new ``assignments/<name>/`` is covered the day it
is added: the parametrisation reads the folder list."""

from __future__ import annotations

import json
from pathlib import Path

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


# --- the grading loop: programs, examples, handouts ---------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_reference_program_scores_full_marks_on_every_board(name, graded):
    result = graded(name).results["reference"]
    assert result.status == "graded"
    assert [t.status for t in result.tests] == ["passed"] * len(result.tests)
    assert result.score == result.max_score == load_assignment(name).tests.total_points


@pytest.mark.parametrize("name", NAMES)
def test_starter_scores_zero_with_a_clear_reason(name, graded):
    result = graded(name).results["starter"]
    assert result.status == "graded" and result.score == 0
    for test in result.tests:
        assert test.status == "crashed"
        assert test.feedback[0] == "the solving function still raises NotImplementedError"


@pytest.mark.parametrize("name", NAMES)
def test_correct_examples_score_full_marks(name, graded):
    results = graded(name).results
    correct = [s for s in results if s.startswith("correct_") or s == "module_only"]
    assert len(correct) >= 2, "each assignment shows more than one correct style"
    for student in correct:
        assert results[student].score == results[student].max_score, student


@pytest.mark.parametrize("name", NAMES)
def test_wrong_endless_and_crashing_examples_lose_points(name, graded):
    results = graded(name).results
    wrong = [s for s in results if s.startswith("wrong_")]
    assert wrong, "each assignment has at least one typical wrong submission"
    for student in wrong:
        assert results[student].score < results[student].max_score, student
    endless, crashes = results["endless"], results["crashes"]
    assert endless.score == 0 and crashes.score == 0
    assert {t.status for t in endless.tests} == {"timeout", "not-run"}
    assert {t.status for t in crashes.tests} == {"crashed"}


@pytest.mark.parametrize("name", NAMES)
def test_public_board_is_visible_and_hidden_boards_are_hidden(name, graded):
    cases = graded(name).cases
    assert [c.visible for c in cases] == [True] + [False] * (len(cases) - 1)
    assert cases[0].self_check == load_assignment(name).self_check
    assert len({repr(c.board) for c in cases}) == len(cases), "every board is different"


@pytest.mark.parametrize("name", NAMES)
def test_handout_renders_with_the_self_check_and_sample_output(name):
    from reference_solutions import reference_handout, solve_problem

    text = reference_handout(name)
    problem = make_problem(name)
    start = solve_problem(problem).start_value
    check = problem.assignment.self_check or f"{start:.2f}"
    assert check in text
    assert render(problem.game.answer(solve_problem(problem))).splitlines()[0] in text
    assert "{{" not in text and "{%" not in text


@pytest.mark.parametrize("name", NAMES)
def test_terminal_values_are_exact_so_the_goal_never_prints_minus_zero(name, graded):
    import math

    for case in graded(name).cases:
        model_values = case.expected.answer.values
        layers = model_values if isinstance(model_values[0], tuple) else (model_values,)
        for layer in layers:
            if case.expected.answer.output != "trap-lane":
                assert math.copysign(1.0, layer[-1]) > 0 and abs(layer[-1]) in (0.0, 100.0)
        assert "-0.00" not in render(case.expected.answer)


@pytest.mark.parametrize("name", NAMES)
def test_variants_check_and_grade_each_student_on_their_own_board(name, tmp_path):
    """Three students: their solved starters pass the bundled check and score full marks on
    their own boards; the untouched starter fails the check with a clear reason."""
    import subprocess
    import sys

    from autograder._grade import grade_folder
    from autograder._manifest import load_manifest
    from autograder._variants import make_variants
    from reference_solutions import answer_key, reference_program
    from tests.grading import fill_in

    roster = tmp_path / "roster.csv"
    roster.write_text("id,email\nann,ann@x.org\nbo,bo@x.org\ncy,cy@x.org\n")
    report = make_variants(name, roster, tmp_path / "out", secret="conformance-secret")
    assert report.problems == () and len(report.manifest.students) == 3
    assert len({json.dumps(s.board, sort_keys=True) for s in report.manifest.students}) == 3
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    reference = reference_program(name)
    for k, student in enumerate(report.manifest.students):
        bundle = tmp_path / "out" / "students" / student.id
        program = bundle / json.loads((bundle / "expected.json").read_text())["program"]
        handout = (bundle / "handout.md").read_text()
        assert student.self_check in handout and "python3 check.py" in handout

        def check(bundle: Path = bundle) -> subprocess.CompletedProcess:
            return subprocess.run(
                [sys.executable, "-I", "-S", "check.py"],
                cwd=bundle, capture_output=True, text=True, timeout=120,
            )  # fmt: skip

        if k == 0:
            untouched = check()
            assert untouched.returncode == 1
            assert "still raises NotImplementedError" in untouched.stdout
        program.write_text(fill_in(program.read_text(), reference))
        solved = check()
        assert solved.returncode == 0, solved.stdout
        assert f"self-check holds: printed {student.self_check}" in solved.stdout
        (submissions / f"{student.id}.py").write_text(program.read_text())
    batch = grade_folder(
        name, submissions, tmp_path / "results", workers=2,
        cases=answer_key(name, hidden=False),
        manifest=load_manifest(tmp_path / "out" / "manifest.json", name),
    )  # fmt: skip
    assert {r.student: r.score for r in batch.results} == {
        s.id: load_assignment(name).tests.public_points for s in report.manifest.students
    }
