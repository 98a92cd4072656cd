"""The self-check values RULES.md publishes, and values derived by hand from the rules."""

from __future__ import annotations

import pytest

from reference_solutions import make_problem, solve_problem


def start_value(name, board=None, **settings):
    problem = make_problem(name, board, [f"{k}={v}" for k, v in settings.items()])
    return solve_problem(problem).start_value


@pytest.mark.parametrize(
    ("name", "settings", "published"),
    [
        ("classic", {}, 39.60),
        ("boosted", {}, 14.50),
        ("token-boosted", {"tokens": 3}, 18.25),
    ],
)
def test_standard_board_self_checks(name, settings, published):
    assert round(start_value(name, **settings), 2) == published


@pytest.mark.parametrize(("circle", "published"), [(False, 6.6674), (True, 7.2566)])
def test_empty_trap_lane_self_checks(circle, published):
    value = start_value("trap-lane", circle=str(circle).lower(), edition="2021")
    assert round(value, 4) == published


def values_of(name, board, **settings):
    problem = make_problem(name, board, [f"{k}={v}" for k, v in settings.items()])
    solution = solve_problem(problem)
    return problem.game.values_json(solution), solution


EMPTY_10 = {"goal": 10, "jumps": []}


def test_classic_within_reach_of_an_exact_finish_is_faces_turns():
    # With exact finish and no jumps, any square from which the goal is 1..6 away is worth
    # 6 turns: each spin wins with probability 1/6 or moves to another such square.
    values, _ = values_of("classic", EMPTY_10)
    assert values[4:10] == pytest.approx([6.0] * 6, abs=1e-12)
    assert values[3] == pytest.approx(7.0, abs=1e-12)  # one spin, then 6 from anywhere


@pytest.mark.parametrize(
    ("overshoot", "expected"),
    [
        # goal 2, spinner 1..2. win: V1 = 1, V0 = 1 + V1/2.
        ("win", [1.5, 1.0, 0.0]),
        # stay: V1 = 1 + V1/2 -> 2; V0 = 1 + V1/2 = 2.
        ("stay", [2.0, 2.0, 0.0]),
        # bounce: from 1 a 2 walks to 3 and back to 1: same as stay here.
        ("bounce", [2.0, 2.0, 0.0]),
        # land:0: V1 = 1 + V0/2, V0 = 1 + V1/2 -> both 2.
        ("land:0", [2.0, 2.0, 0.0]),
    ],
)
def test_two_square_board_by_hand(overshoot, expected):
    values, _ = values_of("classic", {"goal": 2, "jumps": []}, faces=2, overshoot=overshoot)
    assert values == pytest.approx(expected, abs=1e-12)


def test_bounce_differs_from_stay_when_the_walk_back_lands_elsewhere():
    # goal 3, spinner 1..3.  From 2: 1 wins, 2 walks to 4 and back to 2, 3 back to 1:
    #   V2 = 1 + (V2 + V1) / 3.   From 1: 1 -> 2, 2 wins, 3 walks back to 2: V1 = 1 + 2 V2 / 3.
    # So V2 = 4/3 + 5 V2 / 9, V2 = 3, V1 = 3; from 0: V0 = 1 + (V1 + V2 + 0) / 3 = 3.
    values, _ = values_of("classic", {"goal": 3, "jumps": []}, faces=3, overshoot="bounce")
    assert values == pytest.approx([3.0, 3.0, 3.0, 0.0], abs=1e-12)


def test_a_jump_applies_after_the_overshoot_rule_even_when_the_piece_stays():
    # RULES.md: "After the move (and overshoot rule) the jump of the square reached
    # applies." Square 9 starts a chute to 1; valued as if the piece stood there, a spin
    # that overshoots leaves it on 9, whose chute then applies.
    values, _ = values_of("classic", {"goal": 10, "jumps": [[9, 1]]})
    assert values[9] == pytest.approx(1 + 5 / 6 * values[1], abs=1e-9)


def test_boosted_next_to_the_goal_by_hand():
    # From 9 only an unboosted 1 finishes: 6 turns. From 8 a 1 boosted or a 2 finishes.
    values, _ = values_of("boosted", EMPTY_10)
    assert values[9] == pytest.approx(6.0, abs=1e-12)
    assert values[8] == pytest.approx(3.0, abs=1e-12)


def test_aimed_one_square_board_by_hand():
    # goal 1: aim 1 moves 0, 1 or 2 (2 overshoots and stays): wins with probability 1/2.
    values, solution = values_of("aimed", {"goal": 1, "jumps": []})
    assert values[0] == pytest.approx(2.0, abs=1e-12)
    assert solution.optimal_actions(0) == ["1"]


def test_aimed_discounted_next_to_the_goal_by_hand():
    # V99 = 0.9 * (0.5 * 100 + 0.5 * V99): aim 1 wins half the time, else stays.
    problem = make_problem("aimed", None, ["objective=discounted"])
    values = problem.game.values_json(solve_problem(problem))
    assert values[100] == 100.0
    assert values[99] == pytest.approx(45 / 0.55, abs=1e-9)


def test_efron_three_square_board_by_hand():
    # goal 3, overshoot win: Blue always finishes from 0. From 2 Blue, Red and Green always
    # finish; Black (two faces of 0) stays put a third of the time, so its Q-value there is
    # 1 + (1/3) * V(2) = 4/3.
    values, solution = values_of("efron", {"goal": 3, "jumps": []})
    assert values[0] == pytest.approx(1.0)
    assert values[2] == pytest.approx(1.0)
    assert solution.optimal_actions(2) == ["Blue", "Red", "Green"]
    black = [p for p in solution.model.pairs_of(2) if solution.model.action_of_pair[p] == 1]
    assert solution.q_values[black] == pytest.approx([4 / 3], abs=1e-12)


def test_efron_die_that_cannot_move_is_not_a_choice():
    # With overshoot stay, from 8 of a 10-square board Blue (3s) and Black (4s or 0s)
    # can never move the piece: only Red and Green are legal there.
    problem = make_problem("efron", EMPTY_10, ["overshoot=stay"])
    solution = solve_problem(problem)
    model = problem.game.model
    legal = {model.action_names[model.action_of_pair[p]] for p in model.pairs_of(8)}
    assert legal == {"Red", "Green"}
    assert solution.action(8) in {"Red", "Green"}
