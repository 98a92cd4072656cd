"""What the feedback says to programs of the second diagnosis set (benchmarks/diagnosis/second),
graded for real, as a TA's batch grades them: each was written from the rules with one
mistake (or two) in words, and the feedback must name that mistake, with the number where the
mistake is a number, and never one it did not make.

The scores follow docs/rules.md ("Partial credit"): on a board that prints values and a
policy, the values earn half and the policy the other half; a policy that can never finish
earns nothing of its half.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

import pytest

from autograder import (
    SubmissionResult,
    grade_output,
    grade_submission,
    load_assignment,
    policy_judge,
    render,
)
from reference_solutions import ReferenceAnswers
from tests import independent
from tests.test_diagnosis_set import generate

ANSWERS = ReferenceAnswers()


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("second")
    generate.write(out)
    return out


@pytest.fixture(scope="module")
def graded(written):
    @cache
    def grade(program_id: str) -> SubmissionResult:
        name, slug = program_id.split("/")
        assignment = load_assignment(name)
        return grade_submission(
            assignment, written / name / f"{slug}.py", ANSWERS.cases(assignment),
            hidden=ANSWERS.secret_paths(), policy=policy_judge(ANSWERS, assignment),
        )  # fmt: skip

    return grade


def lost(result: SubmissionResult):
    return [t for t in result.tests if t.score < t.max_score]


def test_a_discount_of_another_value_is_named_with_that_value(graded):
    result = graded("classic/discount-095")
    assert lost(result) and all(t.mistakes == ("discounted",) for t in lost(result))
    for test in lost(result):
        assert any("discounted by 0.95:" in line for line in test.feedback), test.feedback


def test_a_converged_answer_under_another_trigger_chance_is_not_told_it_stopped_early(graded):
    result = graded("trap-lane/normal-die-never-triggers")
    assert lost(result)
    for test in lost(result):
        assert test.mistakes == ("normal-never-triggers",)
        text = " ".join(test.feedback).lower()
        assert "stopped" not in text and "iterate until" not in text, test.feedback


def test_the_same_output_on_every_board_is_named_hard_coded(graded):
    result = graded("classic/hardcoded-public-answer")
    public, *others = result.tests
    assert public.status == "passed" and "hard-coded" not in public.mistakes
    assert others and all(t.mistakes == ("hard-coded",) for t in others)
    assert all(any("same output on every board" in f for f in t.feedback) for t in others)


def test_values_rounded_before_printing_are_named_as_such_not_as_the_print_format(graded):
    result = graded("boosted/rounded-one-decimal")
    for test in lost(result):
        assert test.mistakes == ("rounded-before-printing",)
        said = " ".join(test.feedback)
        assert "rounded to 1 decimal before it is printed" in said
        assert "print 2 decimals" not in said


def test_tables_filled_one_after_another_with_a_fixed_number_of_sweeps_stopped_early(graded):
    result = graded("token-boosted/fixed-20-sweeps")
    assert lost(result) and all(t.mistakes == ("stopped-early",) for t in lost(result))


def test_two_mistakes_at_once_are_named_together(graded):
    # Boost moves averaged instead of chosen, and a discount of 0.95: neither alone
    # explains a board; together they explain every one.
    result = graded("boosted/averaged-and-discount-095")
    assert lost(result) and all(t.mistakes == ("boost-averaged+discounted",)
                                for t in lost(result))  # fmt: skip
    said = " ".join(result.tests[0].feedback)
    assert "averaged" in said and "discounted by 0.95" in said


def test_a_pair_is_named_where_it_shows_and_its_part_where_only_that_shows(graded):
    # Jumps shifted by one square and a discount of 0.97: on the board without jumps only
    # the discount can show, and is named alone.
    result = graded("classic/discount-097-and-jumps-shifted")
    by_board = {t.name: t.mistakes for t in result.tests}
    assert by_board["public"] == ("jumps-shifted-back+discounted",)
    assert by_board["no-jumps"] == ("discounted",)
    allowed = {(), ("discounted",), ("jumps-shifted-back+discounted",)}
    assert set(by_board.values()) <= allowed


def test_right_values_with_the_worst_actions_earn_exactly_the_values_half(graded):
    # The worst aim on every square: every value right, a policy that cannot finish.
    result = graded("aimed/worst-aim-printed")
    for test in result.tests:
        assert test.mistakes == ("worst-action",)
        assert test.score == pytest.approx(test.max_score / 2)


def test_a_mistyped_die_face_with_the_right_actions_keeps_over_half(graded):
    result = graded("efron/red-die-666222")
    assert {m for t in lost(result) for m in t.mistakes} == {"die-face"}
    assert result.score > result.max_score / 2


def test_a_policy_that_never_finishes_earns_at_most_the_values_half():
    # Right values (the answer key's own), and aim 6 on every square: from the squares
    # just below the goal every move overshoots and stays, so the game never ends.
    assignment = load_assignment("aimed")
    case = ANSWERS.cases(assignment)[0]
    answer = case.expected.answer
    stuck = tuple("6" if a != "-" else a for a in answer.actions)
    text = render(dataclasses.replace(answer, actions=stuck))
    result = grade_output(case, text, assignment, policy=policy_judge(ANSWERS, assignment))
    assert result.score == pytest.approx(case.points / 2)
    assert any("never reaches the goal" in line for line in result.feedback)


def test_where_the_error_starts_is_a_wrong_square_whose_moves_all_lead_to_right_ones():
    # A student's own board with one ladder, left out (no catalogued mistake: other
    # ladders would be kept); the values from the independent implementation on the board
    # without it. Every square that can reach the ladder's foot is wrong; the one nearest
    # the goal is where the error starts.
    assignment = load_assignment("classic")
    goal, jumps = 30, [(3, 20), (10, 27), (25, 12)]
    case = ANSWERS.own_board_case(assignment, {"goal": goal, "jumps": [list(j) for j in jumps]})
    overshoot = "stay"
    right = independent.jump_values("classic", goal, jumps, overshoot=overshoot)[0]
    slip = independent.jump_values("classic", goal, jumps[1:], overshoot=overshoot)[0]
    answer = case.expected.answer
    assert right[0] == pytest.approx(answer.start_value)  # the same rules as the key's
    text = render(dataclasses.replace(answer, start_value=slip[0], values=tuple(slip)))
    result = grade_output(case, text, assignment, policy=policy_judge(ANSWERS, assignment))
    assert result.mistakes == ()
    lines = [f for f in result.feedback if f.startswith("where the error starts:")]
    assert len(lines) == 1, result.feedback
    found = re.search(r"square (\d+) is wrong", lines[0])
    assert found is not None
    square = int(found.group(1))
    assert abs(slip[square] - right[square]) > 0.01
    table = independent.goes_to(goal, jumps)
    for move in range(1, 7):
        lands = independent.land(goal, table, overshoot, square, move)
        assert lands == goal or abs(slip[lands] - right[lands]) <= 0.01, (square, lands)
