"""The race (docs/rules.md, "race"): the general model's game of two players, its solvers,
its print format and the boundary that keeps it in its own files.

Expected numbers come from the plain implementation (tests/independent_race.py, itself
checked against hand-solved boards and the published 0.5078), from the published figures,
or from simulation.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder import JumpBoard, OutputError, output_format, render
from reference_solutions import make_problem
from reference_solutions._params import overshoot as read_overshoot
from reference_solutions._simulate import simulate
from reference_solutions._solver import policy_iteration, value_iteration
from reference_solutions.rules import race
from tests.independent_race import race_length, race_win_table, single_player_values
from tests.strategies import jump_boards

STANDARD = JumpBoard(
    100,
    ((1, 38), (4, 14), (9, 31), (16, 6), (21, 42), (28, 84), (36, 44), (48, 26), (49, 11),
     (51, 67), (56, 53), (62, 19), (64, 60), (71, 91), (80, 100), (87, 24), (93, 73),
     (95, 75), (98, 78)),
)  # fmt: skip
Z_999 = 3.2905  # the 99.9% two-sided normal quantile
MOVES = ["classic", "boosted", "aimed"]
MODES = ["win", "against-turns"]


def _params(moves: str, mode: str, faces: int = 6, overshoot: str = "stay") -> race.Params:
    return race.Params(moves=moves, mode=mode, faces=faces, overshoot=read_overshoot(overshoot))


def _table(board: JumpBoard, params: race.Params, method: str = "policy") -> np.ndarray:
    game = race.build(board, params)
    solve = policy_iteration if method == "policy" else value_iteration
    return game.table(solve(game.model))


@pytest.mark.parametrize("moves", MOVES)
@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=jump_boards(min_goal=6, max_goal=24, tens=False), faces=st.integers(1, 4),
       overshoot=st.sampled_from(["stay", "win", "bounce"]))  # fmt: skip
def test_both_solvers_agree_with_the_plain_implementation(moves, mode, data, faces, overshoot):
    board = JumpBoard(data["goal"], tuple(map(tuple, data["jumps"])))
    params = _params(moves, mode, faces, overshoot)
    plain = np.array(
        race_win_table(data["goal"], data["jumps"], moves, mode, faces, overshoot=overshoot)
    )
    exact = _table(board, params, "policy")
    swept = _table(board, params, "value")
    assert np.abs(exact - plain).max() < 1e-9
    assert np.abs(swept - exact).max() < 1e-9


def test_the_published_self_check_with_classic_moves():
    W = _table(STANDARD, _params("classic", "win"))
    chance, _length = race_length(100, [list(j) for j in STANDARD.jumps])
    assert round(W[0, 0], 4) == 0.5078  # published
    assert abs(W[0, 0] - chance) < 1e-10


def test_the_public_board_matches_the_plain_implementation():
    plain = race_win_table(100, [list(j) for j in STANDARD.jumps], "boosted", "win")
    W = _table(STANDARD, _params("boosted", "win"))
    assert np.abs(W - np.array(plain)).max() < 1e-9
    assert make_problem("race").assignment.self_check == f"{W[0, 0]:.4f}"


@pytest.mark.parametrize("moves", ["boosted", "aimed"])
def test_simulated_races_lie_in_the_interval_of_the_first_players_chance(moves):
    game = race.build(STANDARD, _params(moves, "win"))
    solution = policy_iteration(game.model)
    games = 20_000
    played = simulate(game.model, solution.policy, games, seed=41)
    assert played.unfinished == 0
    won = float(np.mean(played.score))  # 1 where A won, 0 where B did
    p = solution.start_value
    assert abs(won - p) <= Z_999 * math.sqrt(p * (1 - p) / games)


def test_races_last_as_long_as_published():
    game = race.build(STANDARD, _params("classic", "win"))
    played = simulate(game.model, policy_iteration(game.model).policy, 20_000, seed=7)
    _, length = race_length(100, [list(j) for j in STANDARD.jumps])
    assert abs(length - 52.5188) < 5e-4  # published
    spread = float(np.std(played.length))
    assert abs(float(np.mean(played.length)) - length) <= Z_999 * spread / math.sqrt(20_000)


def test_playing_to_win_is_never_worse_than_minimising_turns():
    """Against an opponent who minimises its turns, the player who maximises its chance
    does at least as well as one who also minimises turns, from every pair of squares,
    and strictly better somewhere on the standard board with boosted moves."""
    params = _params("boosted", "against-turns")
    to_win = _table(STANDARD, params)
    fewest = race.build(STANDARD, params, race.RuleChanges(fewest_turns=True))
    turns = fewest.table(policy_iteration(fewest.model))
    assert np.all(to_win >= turns - 1e-9)  # (the two solves round apart by 1e-12)
    assert (to_win - turns).max() > 0.005
    # ...while with classic moves there is no choice, so no difference at all.
    classic = _params("classic", "against-turns")
    same = race.build(STANDARD, classic, race.RuleChanges(fewest_turns=True))
    assert np.allclose(_table(STANDARD, classic), same.table(policy_iteration(same.model)))


def test_the_game_model_refuses_costs_and_a_third_aim():
    from reference_solutions._model import build_model

    common = dict(
        n_states=2, pair_state=[0], pair_action=[0], outcome_pair=[0], outcome_state=[1],
        outcome_prob=[1.0], terminal_value=[0.0, 1.0], action_names=("go",),
        controller=np.array([0, 1]),
    )  # fmt: skip
    with pytest.raises(ValueError, match="no costs"):
        build_model(outcome_cost=1.0, maximizes=(True, False), **common)
    with pytest.raises(ValueError, match="two players"):
        build_model(outcome_cost=0.0, maximizes=(True, False, True), **common)


def test_the_format_reads_back_what_it_prints_and_names_a_broken_row():
    problem = make_problem("race", {"goal": 10, "jumps": [[3, 7], [8, 2]]})
    solution = policy_iteration(problem.game.model)
    answer = problem.game.answer(solution)
    text = render(answer)
    fmt = output_format("race")
    printed = fmt.parse(text, answer)
    assert not printed.warnings
    W = problem.game.table(solution)
    assert printed.numbers["start"] == round(W[0, 0], 4)
    assert all(
        abs(printed.numbers[f"{a},{b}"] - W[a, b]) <= 5e-5 for a in range(10) for b in range(10)
    )
    lines = text.splitlines()
    short = "\n".join([*lines[:5], lines[5].rsplit(" ", 1)[0], *lines[6:]])
    with pytest.raises(OutputError, match="square 3 has 9 numbers, not 10"):
        fmt.parse(short, answer)
    with pytest.raises(OutputError, match="no row for square 9"):
        fmt.parse("\n".join(lines[:-1]), answer)


def test_no_module_outside_the_race_s_own_files_names_it():
    root = Path(__file__).resolve().parents[2]
    own = {
        "autograder/_formats/_race.py",
        "autograder/starter_code/race.py.j2",
        "autograder/starter_code/race.java.j2",
        "reference_solutions/rules/race.py",
        "reference_solutions/programs/race.py.j2",
        "reference_solutions/programs/race.java.j2",
    }
    naming = []
    for package in ("autograder", "reference_solutions"):
        for path in (root / package).rglob("*"):
            relative = path.relative_to(root).as_posix()
            if (
                not path.is_file()
                or path.suffix not in {".py", ".j2", ".toml", ".c"}
                or relative in own
                or "/race/" in relative
            ):
                continue
            text = path.read_text(encoding="utf-8")
            # ("race" as a word; the efron handout's dice "race a board")
            if re.search(r"\brace\b", text.replace("dice race a board", ""), re.IGNORECASE):
                naming.append(relative)
    assert naming == []


def test_where_playing_to_win_chooses_otherwise_than_minimising_turns():
    """``solve --json``'s list, against the plain implementation: after the spin ``s`` on
    ``a`` (the other on ``b``), the turn-minimiser's move is listed exactly when it gives a
    lower chance to win than the other move (near-ties aside)."""
    from tests.independent import goes_to, land

    jumps = [list(j) for j in STANDARD.jumps]
    W = race_win_table(100, jumps, "boosted", "win")
    V = single_player_values(100, jumps, "boosted")
    table = goes_to(100, jumps)

    def chance(b: int, square: int) -> float:  # the mover's, having reached square
        return 1.0 if square == 100 else 1.0 - W[b][square]

    game = race.build(STANDARD, _params("boosted", "win"))
    differs = game.policy_json(policy_iteration(game.model))["differs_from_fewest_turns"]
    listed = {tuple(row) for row in differs}
    assert listed
    for a in range(100):
        for s in range(1, 7):
            short, long = land(100, table, "stay", a, s), land(100, table, "stay", a, s + 1)
            fewest = short if V[short] <= V[long] + 1e-9 * max(1.0, V[long]) else long
            for b in range(100):
                gap = max(chance(b, short), chance(b, long)) - chance(b, fewest)
                if gap > 1e-7:
                    assert (a, b, s) in listed
                elif gap < 1e-11:
                    assert (a, b, s) not in listed
