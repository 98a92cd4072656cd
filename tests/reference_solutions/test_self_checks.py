"""The self-check values the rules publish (docs/rules.md), and values derived by hand
from the rules."""

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


def test_a_piece_that_stays_put_takes_no_jump():
    # docs/rules.md, "Jumps": a jump applies where a move ends on another square; a piece
    # that does not move takes none. Square 9 starts a chute to 1 and is valued as if the
    # piece stood there: a 1 wins, the five spins that overshoot leave it on 9 with no chute,
    # so V9 = 1 + 5/6 V9 = 6 (the reading that takes the chute would give 1 + 5/6 V1).
    values, _ = values_of("classic", {"goal": 10, "jumps": [[9, 1]]})
    assert values[9] == pytest.approx(6.0, abs=1e-12)


def test_standard_board_jump_squares_near_the_goal_by_hand():
    # From 99 only a 1 finishes: V99 = 6. From 98 a 1 goes to 99 and a 2 wins; the other
    # four spins overshoot and leave the piece on 98, whose chute to 78 is not taken:
    # V98 = 1 + (V99 + 4 V98) / 6, so V98 = 6. From 95 the six spins reach 96, 97, 98 (then
    # 78), 99, 100 or overshoot; 96's spins reach 97, 98 (78), 99, 100 or overshoot twice,
    # which makes V95 = (6 + V96 + V97 + V78 + V99) / 5 = V96.
    values, _ = values_of("classic", None)
    assert values[99] == pytest.approx(6.0, abs=1e-12)
    assert values[98] == pytest.approx(6.0, abs=1e-12)
    assert values[95] == pytest.approx(values[96], abs=1e-12)
    assert f"{values[98]:.2f}" == "6.00"


def test_aimed_move_of_zero_on_a_jump_square_takes_no_jump():
    # goal 10, chute 9 -> 1, noise (1/4, 1/2, 1/4), exact count. From 9, aim 1 moves 0 (stays
    # on 9, no chute), 1 (wins) or 2 (overshoots, stays on 9): V9 = 1 + V9 / 2 = 2. Aiming
    # higher only overshoots more often.
    values, solution = values_of("aimed", {"goal": 10, "jumps": [[9, 1]]})
    assert values[9] == pytest.approx(2.0, abs=1e-12)
    assert solution.optimal_actions(9) == ["1"]


def test_efron_roll_of_zero_on_a_jump_square_takes_no_jump():
    # goal 10, chute 9 -> 1, overshoot win. From 9 every die but Black always wins; Black's
    # two faces of 0 leave the piece on 9 without the chute: Q = 1 + (1/3) V9 = 4/3.
    values, solution = values_of("efron", {"goal": 10, "jumps": [[9, 1]]})
    assert values[9] == pytest.approx(1.0, abs=1e-12)
    black = [p for p in solution.model.pairs_of(9) if solution.model.action_of_pair[p] == 1]
    assert solution.q_values[black] == pytest.approx([4 / 3], abs=1e-12)


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
