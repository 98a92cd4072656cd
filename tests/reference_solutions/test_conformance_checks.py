"""The conformance checks can fail, and say why: each is shown a broken assignment."""

from __future__ import annotations

import dataclasses

import pytest

from autograder import UsageError
from reference_solutions import Conformance, check_assignment, make_problem


def test_a_wrong_published_self_check_fails_that_check_alone(copied_assignments):
    config = copied_assignments / "classic" / "assignment.toml"
    config.write_text(config.read_text().replace('self_check = "39.60"', 'self_check = "39.61"'))
    report = check_assignment("classic", ["self-check", "solvers-agree", "configuration"])
    outcome = {o.check: o for o in report.outcomes}
    assert not report.ok
    assert not outcome["self-check"].passed
    assert "39.61" in outcome["self-check"].why and "39.59" in outcome["self-check"].why
    assert outcome["solvers-agree"].passed and outcome["configuration"].passed
    assert "FAIL self-check" in report.text()


def test_a_configuration_of_the_wrong_family_is_refused_naming_its_file(copied_assignments):
    # Its [variants] section is a jump board's: the trap family does not know its keys.
    config = copied_assignments / "classic" / "assignment.toml"
    config.write_text(config.read_text().replace('family = "jump"', 'family = "trap"', 1))
    with pytest.raises(UsageError) as caught:
        check_assignment("classic", ["configuration"])
    assert str(config) in str(caught.value) and "[variants]" in str(caught.value)


def test_rules_of_another_family_fail_the_configuration_check(copied_assignments):
    config = copied_assignments / "classic" / "assignment.toml"
    # With no section that only jump boards have, the rules' format finds the family out.
    text = config.read_text().replace('family = "jump"', 'family = "trap"', 1)
    text = "\n".join(line for line in text.split("[variants]")[0].splitlines()
                     if not line.startswith(("edge_boards", "public_edge_boards")))  # fmt: skip
    config.write_text(text)
    report = check_assignment("classic", ["configuration"])
    (outcome,) = report.outcomes
    assert not outcome.passed
    assert "family = 'trap', but the rules 'classic' print 'values'" in outcome.why


def with_result(conformance: Conformance, student: str, **changes) -> Conformance:
    """``conformance`` whose graded examples hold ``student``'s result changed so."""
    graded = conformance.graded
    results = dict(graded.results)
    results[student] = dataclasses.replace(results[student], **changes)
    conformance.__dict__["graded"] = dataclasses.replace(graded, results=results)
    return conformance


def test_a_wrong_example_with_full_marks_fails_the_examples_check(conformance, tmp_path):
    checked = Conformance("classic", tmp_path)
    checked.__dict__["graded"] = conformance("classic").graded  # graded once per session
    full = checked.graded.results["wrong_overshoot_wins"].max_score
    report = with_result(checked, "wrong_overshoot_wins", score=full).run(["examples"])
    assert not report.ok and "wrong_overshoot_wins scores full marks" in report.text()


def test_a_reference_program_below_full_marks_fails(conformance, tmp_path):
    checked = Conformance("classic", tmp_path)
    checked.__dict__["graded"] = conformance("classic").graded
    report = with_result(checked, "reference", score=99.0).run(["reference-full-marks"])
    assert not report.ok and "scores 99.0" in report.text()


def test_a_starter_that_scores_fails(conformance, tmp_path):
    checked = Conformance("classic", tmp_path)
    checked.__dict__["graded"] = conformance("classic").graded
    report = with_result(checked, "starter", score=5.0).run(["starter-scores-zero"])
    assert not report.ok and "5.0 points" in report.text()


def test_rules_that_print_for_another_family_are_refused_naming_the_file(copied_assignments):
    # boosted's rules print the jump boards' grid: as a trap-lane assignment (with a valid
    # layout for its board) it is refused before anything is solved, in one line.
    config = copied_assignments / "boosted" / "assignment.toml"
    text = config.read_text().replace('family = "jump"', 'family = "trap"', 1)
    text = text.split("[board]")[0] + "[board]\nlayout = " + str([0] * 15) + "\n"
    config.write_text(text)
    with pytest.raises(UsageError) as caught:
        make_problem("boosted")
    message = str(caught.value)
    assert message.startswith(f"{config}: family = 'trap', but the rules 'boosted' print")
    assert "'values', a format of 'jump' boards" in message and "\n" not in message
