"""The plain race implementation (tests/independent_race.py) checked on its own.

None of the expected numbers comes from the project: the standard board's are the published
self-check (docs/rules.md, "## race"), the tiny boards' are solved by hand in the comments,
and the rest are properties of the game or a simulation.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from tests.independent import goes_to, land
from tests.independent_race import (
    finish_distribution,
    play_race,
    race_length,
    race_win_table,
    single_player_values,
    turn_minimising_moves,
)

# The standard board, as in autograder/assignments/classic/assignment.toml.
STANDARD_JUMPS = [
    [1, 38], [4, 14], [9, 31], [16, 6], [21, 42], [28, 84], [36, 44], [48, 26], [49, 11],
    [51, 67], [56, 53], [62, 19], [64, 60], [71, 91], [80, 100], [87, 24], [93, 73],
    [95, 75], [98, 78],
]  # fmt: skip

# Small boards with chutes and ladders, for the properties and the simulation.
SMALL_BOARDS = [
    (10, [[3, 8], [7, 2]]),
    (12, [[2, 9], [10, 4], [5, 1]]),
    (9, [[8, 1]]),
]


def assert_table(got, expected, tol=1e-12):
    assert len(got) == len(expected)
    for a, (row, want) in enumerate(zip(got, expected, strict=True)):
        assert len(row) == len(want)
        for b, (x, y) in enumerate(zip(row, want, strict=True)):
            assert x == pytest.approx(float(y), abs=tol), (a, b)


@pytest.fixture(scope="module")
def standard_classic():
    # The one pure-Python solve of the 100-square board here (about 2 s).
    return race_win_table(100, STANDARD_JUMPS, moves="classic", mode="win")


# --- the published self-check ------------------------------------------------------------


def test_race_length_on_the_standard_board_is_the_published_one():
    win, length = race_length(100, STANDARD_JUMPS, faces=6, overshoot="stay")
    assert win == pytest.approx(0.5078, abs=5e-5)
    assert length == pytest.approx(52.5188, abs=5e-4)


def test_the_win_table_agrees_with_the_turn_distributions_on_the_standard_board(
    standard_classic,
):
    win, _ = race_length(100, STANDARD_JUMPS)
    assert abs(standard_classic[0][0] - win) < 1e-9
    assert all(0.0 <= w <= 1.0 for row in standard_classic for w in row)


# --- tiny boards solved by hand ----------------------------------------------------------


def test_goal_2_classic_two_faces_stay():
    # From 1: spin 1 wins, spin 2 overshoots and stays on 1. From 0: spin 1 -> 1, spin 2
    # wins. So for a = 0 and a = 1 alike:
    #   W(a, b) = 1/2 * 1 + 1/2 * (1 - W(b, 1)) = 1 - W(b, 1) / 2.
    # With b = 1: W(1, 1) = 1 - W(1, 1) / 2, so W(1, 1) = 2/3, and W(b, 1) = 2/3 for every
    # b, so every W(a, b) = 1 - 1/3 = 2/3 (each turn wins with 1/2: 1/2 / (1 - 1/4)).
    got = race_win_table(2, [], moves="classic", faces=2, overshoot="stay")
    assert_table(got, [[F(2, 3), F(2, 3)], [F(2, 3), F(2, 3)]])


def test_goal_2_classic_two_faces_win():
    # Overshoot wins: from 1 both spins win, W(1, b) = 1. From 0:
    #   W(0, b) = 1/2 * 1 + 1/2 * (1 - W(b, 1)).
    #   W(0, 1) = 1/2 + 1/2 * (1 - W(1, 1)) = 1/2.
    #   W(0, 0) = 1/2 + 1/2 * (1 - W(0, 1)) = 3/4.
    got = race_win_table(2, [], moves="classic", faces=2, overshoot="win")
    assert_table(got, [[F(3, 4), F(1, 2)], [1, 1]])


def test_goal_3_chute_classic_two_faces_stay():
    # Chute 2 -> 1. From 0: spin 1 -> 1, spin 2 -> 2 -> 1, so always 1. From 1: spin 1 ->
    # 2 -> 1, spin 2 wins. From 2 (the chute's own square): spin 1 wins, spin 2 overshoots
    # and stays on 2, taking no chute (docs/rules.md, "Jumps").
    #   W(0, b) = 1 - W(b, 1)
    #   W(1, b) = 1/2 + 1/2 (1 - W(b, 1)) = 1 - W(b, 1) / 2
    #   W(2, b) = 1 - W(b, 2) / 2
    # W(1, 1) = 1 - W(1, 1)/2 = 2/3; W(2, 2) likewise 2/3.
    # W(2, 1) = 1 - W(1, 2)/2 and W(1, 2) = 1 - W(2, 1)/2: both 2/3.
    # W(0, 1) = 1 - W(1, 1) = 1/3; W(0, 2) = 1 - W(2, 1) = 1/3.
    # W(1, 0) = 1 - W(0, 1)/2 = 5/6; W(2, 0) = 1 - W(0, 2)/2 = 5/6.
    # W(0, 0) = 1 - W(0, 1) = 2/3.
    expected = [
        [F(2, 3), F(1, 3), F(1, 3)],
        [F(5, 6), F(2, 3), F(2, 3)],
        [F(5, 6), F(2, 3), F(2, 3)],
    ]
    got = race_win_table(3, [[2, 1]], moves="classic", faces=2, overshoot="stay")
    assert_table(got, expected)
    # No choice: playing against the turn-minimiser is the same game.
    got = race_win_table(3, [[2, 1]], moves="classic", mode="against-turns", faces=2)
    assert_table(got, expected)


# Goal 3, no jumps, boosted, faces 2, stay: spin s in {1, 2}, move s or s + 1.
#   From 2: s = 1: move 1 wins. s = 2: moves 2 and 3 overshoot, stay on 2.
#     W(2, b) = 1/2 + 1/2 (1 - W(b, 2)) = 1 - W(b, 2) / 2.
#   From 1: s = 1: move 2 wins; s = 2: move 2 wins. W(1, b) = 1.
#   From 0: s = 1: move 1 -> 1 or move 2 -> 2; s = 2: move 3 wins.
#     W(0, b) = 1/2 + 1/2 max(1 - W(b, 1), 1 - W(b, 2)).
#   W(2, 2) = 1 - W(2, 2)/2 = 2/3.   W(2, 1) = 1 - W(1, 2)/2 = 1/2.
#   W(0, 1) = 1/2 + 1/2 max(1 - 1, 1 - 1) = 1/2.
#   W(0, 2) = 1/2 + 1/2 max(1 - W(2, 1), 1 - W(2, 2)) = 1/2 + 1/2 max(1/2, 1/3) = 3/4
#     (the shorter move is the better one: from 1 the next turn surely wins; moving to 2,
#     the furthest square, would give only 2/3).
#   W(2, 0) = 1 - W(0, 2)/2 = 5/8.
#   W(0, 0) = 1/2 + 1/2 max(1 - W(0, 1), 1 - W(0, 2)) = 1/2 + 1/2 max(1/2, 1/4) = 3/4.
BOOSTED_3 = [
    [F(3, 4), F(1, 2), F(3, 4)],
    [1, 1, 1],
    [F(5, 8), F(1, 2), F(2, 3)],
]


def test_goal_3_boosted_one_or_two_faces_win():
    got = race_win_table(3, [], moves="boosted", mode="win", faces=2, overshoot="stay")
    assert_table(got, BOOSTED_3)


def test_goal_3_boosted_against_the_turn_minimiser():
    # The one-player game: V(1) = 1 (move 2 wins after either spin); V(2) = 1 + V(2)/2, so
    # 2; V(0) = 1 + 1/2 min(V(1), V(2)) + 1/2 min(V(2), 0) = 3/2. The turn-minimiser, on
    #   0: s = 1 -> square 1 (V 1 < 2), s = 2 -> move 3, wins: 1/2 to 1, 1/2 wins;
    #   1: wins;   2: s = 1 wins, s = 2 stays (a tie, both moves stay): 1/2 wins, 1/2 on 2.
    # U(a', b), the maximiser on a' and the other on b to move:
    #   U(a', 0) = W(a', 1)/2, U(a', 1) = 0, U(a', 2) = W(a', 2)/2, and U(3, b) = 1.
    # W(a, b) = 1/faces * sum over s of max over the two moves of U(a', b):
    #   W(1, b) = 1. W(2, b) = 1/2 + 1/2 U(2, b):
    #     W(2, 1) = 1/2, W(2, 2) = 1/2 + W(2, 2)/4 = 2/3, W(2, 0) = 1/2 + W(2, 1)/4 = 5/8.
    #   W(0, b) = 1/2 + 1/2 max(U(1, b), U(2, b)):
    #     W(0, 0) = 1/2 + 1/2 max(1/2, 1/4) = 3/4, W(0, 1) = 1/2,
    #     W(0, 2) = 1/2 + 1/2 max(1/2, 1/3) = 3/4.
    # The same table as in mode win: here the turn-minimiser also plays to win.
    assert single_player_values(3, [], "boosted", faces=2) == pytest.approx([1.5, 1, 2, 0])
    got = race_win_table(3, [], moves="boosted", mode="against-turns", faces=2)
    assert_table(got, BOOSTED_3)


def test_goal_2_aimed_two_aims():
    # Aims 1, 2 with noise (1/4, 1/2, 1/4), stay.
    #   From 1: aim 1 moves 0 (stays), 1 (wins), 2 (stays): wins with 1/2; aim 2 moves 1
    #   (wins), 2, 3 (stay): wins with 1/4. With x = W(b, 1):
    #     aim 1: 1/2 + 1/2 (1 - x) = 1 - x/2 >= aim 2: 1/4 + 3/4 (1 - x) = 1 - 3x/4.
    #     W(1, b) = 1 - W(b, 1) / 2.
    #   From 0: aim 1 moves 0 (stays), 1 -> 1, 2 wins; aim 2 moves 1 -> 1, 2 wins, 3 stays.
    #     aim 1: 1 - W(b, 0)/4 - W(b, 1)/2 <= aim 2: 1 - W(b, 0)/4 - W(b, 1)/4.
    #     W(0, b) = 1 - (W(b, 0) + W(b, 1)) / 4.
    #   W(1, 1) = 1 - W(1, 1)/2 = 2/3.
    #   p = W(0, 1) = 1 - (W(1, 0) + 2/3)/4 and q = W(1, 0) = 1 - p/2
    #     give p = 5/6 - (1 - p/2)/4, 7p/8 = 7/12, p = 2/3, q = 2/3.
    #   W(0, 0) = 1 - (W(0, 0) + 2/3)/4, 5 W(0, 0)/4 = 5/6, W(0, 0) = 2/3.
    # (Either square wins with 1/2 per turn under best play: 1/2 / (1 - 1/4) = 2/3. The
    # worse aim on each square would give less.)
    got = race_win_table(2, [], moves="aimed", faces=2, noise=(0.25, 0.5, 0.25))
    assert_table(got, [[F(2, 3), F(2, 3)], [F(2, 3), F(2, 3)]])
    worse_on_1 = 1 - 3 * F(2, 3) / 4  # aim 2 on square 1 against W(1, 1) = 2/3
    assert got[1][1] - float(worse_on_1) > 0.1
    # The one-player game takes V(0) = V(1) = 2 turns: aim 2 on 0, aim 1 on 1.
    assert single_player_values(2, [], "aimed", faces=2) == pytest.approx([2, 2, 0])


def test_the_turn_minimiser_breaks_ties_toward_the_shorter_move():
    # Goal 3, boosted, one face: the spin is always 1. V(1) = V(2) = 1 and, from 0, moving
    # 1 (to square 1) or 2 (to square 2) costs the same: the tie goes to move 1.
    assert single_player_values(3, [], "boosted", faces=1) == pytest.approx([2, 1, 1, 0])
    moves = turn_minimising_moves(3, [], "boosted", faces=1)
    assert moves[0] == [(1.0, 1)]
    assert moves[1] == [(1.0, 3)]  # move 2 wins
    assert moves[2] == [(1.0, 3)]


# --- properties --------------------------------------------------------------------------


@pytest.mark.parametrize(("goal", "jumps"), SMALL_BOARDS)
@pytest.mark.parametrize("overshoot", ["stay", "win", "bounce"])
def test_classic_table_is_the_race_of_two_turn_distributions(goal, jumps, overshoot):
    # With no choice, W(a, b) = P(T_a <= T_b) for independent finishing turns from a and b.
    f = [finish_distribution(goal, jumps, 3, overshoot, start=i) for i in range(goal)]
    W = race_win_table(goal, jumps, moves="classic", faces=3, overshoot=overshoot)
    for a in range(goal):
        for b in range(goal):
            left, chance = 1.0, 0.0
            fb = f[b] + [0.0] * len(f[a])
            for t in range(1, len(f[a])):
                chance += f[a][t] * left  # left = P(T_b >= t)
                left -= fb[t]
            assert W[a][b] == pytest.approx(chance, abs=1e-10)
            assert 0.0 <= W[a][b] <= 1.0


@pytest.mark.parametrize(("goal", "jumps"), SMALL_BOARDS)
@pytest.mark.parametrize("moves", ["classic", "boosted", "aimed"])
def test_playing_the_turn_minimiser_is_no_worse_than_playing_a_best_opponent(goal, jumps, moves):
    win = race_win_table(goal, jumps, moves=moves, mode="win", faces=3)
    against = race_win_table(goal, jumps, moves=moves, mode="against-turns", faces=3)
    for a in range(goal):
        for b in range(goal):
            assert 0.0 <= win[a][b] <= 1.0
            assert 0.0 <= against[a][b] <= 1.0
            assert against[a][b] >= win[a][b] - 1e-10
            if moves == "classic":
                assert against[a][b] == pytest.approx(win[a][b], abs=1e-10)


def best_policy(goal, jumps, moves, faces, overshoot, W):
    """The maximiser's choice read off a table of mode win: ``1 - W(b, a')``, 1 on the goal."""
    table = goes_to(goal, jumps)

    def worth(a, b, move):
        reached = land(goal, table, overshoot, a, move)
        return 1.0 if reached == goal else 1 - W[b][reached]

    def policy(a, b, spin):
        if moves == "boosted":
            return max((spin, spin + 1), key=lambda m: worth(a, b, m))
        noise = (0.25, 0.5, 0.25)
        return max(
            range(1, faces + 1),
            key=lambda k: sum(p * worth(a, b, k - 1 + j) for j, p in enumerate(noise)),
        )

    return policy


@pytest.mark.parametrize("moves", ["boosted", "aimed"])
def test_simulated_races_win_as_often_as_the_table_says(moves):
    goal, jumps = SMALL_BOARDS[0]
    faces = 3
    W = race_win_table(goal, jumps, moves=moves, faces=faces)
    best = best_policy(goal, jumps, moves, faces, "stay", W)
    rng = random.Random(2026)
    games = 6000
    wins = sum(
        play_race(goal, jumps, best, best, moves, rng, faces=faces) == 0 for _ in range(games)
    )
    sigma = (W[0][0] * (1 - W[0][0]) / games) ** 0.5
    assert abs(wins / games - W[0][0]) < 4 * sigma
