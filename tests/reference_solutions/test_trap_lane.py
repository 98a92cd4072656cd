"""Trap-lane values derived by hand from docs/rules.md, and the edition rules."""

from __future__ import annotations

import pytest

from reference_solutions import make_problem, solve_problem


def square_14(trap: int, **settings):
    layout = [0] * 15
    layout[13] = trap
    problem = make_problem(
        "trap-lane", {"layout": layout}, [f"{k}={v}" for k, v in settings.items()]
    )
    solution = solve_problem(problem)
    return solution.values[13], solution.optimal_actions(13)


def test_no_trap_next_to_the_goal_the_risky_die_moves_most_often():
    # Risky moves with probability 3/4, normal 2/3, security 1/2: risky takes 4/3 turns.
    value, best = square_14(0)
    assert value == pytest.approx(4 / 3, abs=1e-12)
    assert best == ["3"]


def test_circle_needs_an_exact_one_from_14():
    # Only a 1 finishes; security gives it half the time and never overshoots: 2 turns.
    value, best = square_14(0, circle="true")
    assert value == pytest.approx(2.0, abs=1e-12)
    assert best == ["1"]


def test_prison_on_14():
    # Risky: a 0 leaves the piece on the prison, which always goes off (cost 2):
    # V = 1/4 (2 + V) + 3/4 -> V = 5/3. Normal: V = 1/3 (3/2 + V) + 2/3 -> 7/4. Security: 2.
    value, best = square_14(3)
    assert value == pytest.approx(5 / 3, abs=1e-12)
    assert best == ["3"]


def test_bonus_on_14_in_the_2022_edition():
    # Risky: a 0 re-triggers the bonus, so that turn is free: V = 1/4 V + 3/4 -> V = 1.
    value, best = square_14(4, edition="2022")
    assert value == pytest.approx(1.0, abs=1e-12)
    assert best == ["3"]


def test_restart_on_14_makes_the_security_die_best():
    # Security never triggers traps: 2 turns. Normal or risky risk a 0 sending the piece home.
    value, best = square_14(1)
    assert value == pytest.approx(2.0, abs=1e-12)
    assert best == ["1"]


def test_penalty_from_the_fast_lane_goes_back_along_it():
    # Penalty on 14 sends the piece to 11; a penalty on 13 to 3 (back through the junction).
    from reference_solutions.rules.trap_lane import penalty

    assert [penalty(q) for q in (11, 12, 13, 14)] == [1, 2, 3, 11]
    assert [penalty(q) for q in (2, 4, 10)] == [1, 1, 7]


def test_the_2020_edition_has_two_dice():
    problem = make_problem("trap-lane", None, ["edition=2020"])
    assert problem.game.model.action_names == ("1", "2")
    solution = solve_problem(problem)
    assert set(problem.game.policy_json(solution)) <= {1, 2}


def test_board_file_edition_and_circle_are_parameters_and_set_wins(tmp_path):
    board = tmp_path / "lane.json"
    board.write_text('{"layout": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "circle": true}')
    from_file = make_problem("trap-lane", board)
    assert from_file.params.circle is True
    overridden = make_problem("trap-lane", board, ["circle=false"])
    assert overridden.params.circle is False
