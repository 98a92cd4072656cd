"""``autograder analyze``: the value and policy maps, computed against simulated from every
square, and named strategies against the optimal one (reference_solutions._analysis).

Expected numbers come from the rules worked by hand, from a plain second implementation
(tests/independent.py and the sweeps below) or from the simulations, which play the games
outcome by outcome and share nothing with the linear solves but the model.
"""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
import scipy.stats

from autograder import STANDARD_JUMPS, UsageError, output_format
from autograder.cli import main
from reference_solutions import (
    analysis_problem,
    analysis_text,
    analyze,
    make_problem,
    read_policy,
    simulate,
    simulate_from,
    solve_problem,
)
from reference_solutions._analysis import Z_TEST
from tests import independent

GAMES = 3000  # per simulation: 300,000 games over a 100-square board, about a second

CASES = {
    "classic": ("classic", []),
    "boosted": ("boosted", []),
    "token-boosted": ("token-boosted", []),
    "aimed": ("aimed", []),
    "aimed-discounted": ("aimed", ["objective=discounted"]),
    "efron": ("efron", []),
    "trap-lane": ("trap-lane", []),
    "trap-lane-trapped": ("trap-lane", ["circle=true"]),
}
_TRAPPED = {"layout": [0, 0, 3, 0, 2, 0, 1, 0, 4, 0, 0, 3, 2, 0, 0]}


def solved(name, board=None, settings=()):
    problem = make_problem(name, board, settings)
    return problem, solve_problem(problem)


@pytest.fixture(scope="module")
def analyses():
    cache = {}

    def get(case):
        if case not in cache:
            name, settings = CASES[case]
            board = _TRAPPED if case == "trap-lane-trapped" else None
            problem, solution = solved(name, board, settings)
            cache[case] = analyze(problem, solution, games=GAMES, seed=1)
        return cache[case]

    return get


# --- exact against simulated ------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
def test_each_strategy_agrees_with_its_own_simulation(analyses, case):
    # One 99.9% interval per strategy, about 40 in all: with fixed seeds the outcome is the
    # same on every run; a miss by chance would have odds of about 4% over the whole table.
    analysis = analyses(case)
    for result in analysis.strategies:
        simulated = result.simulated
        reached = simulated.length.size  # the games that reached the goal have a length
        # The share of games that reached the goal is a binomial draw around `finishes`.
        p = result.finishes
        spread = Z_TEST * math.sqrt(p * (1 - p) / GAMES) + 1e-12
        assert abs(reached / GAMES - p) <= spread, result.name
        if result.exact is None:
            assert p < 1 and simulated.unfinished > 0, result.name
            continue
        low, high = simulated.interval(Z_TEST)
        assert low - 1e-9 <= result.exact <= high + 1e-9, (result.name, result.exact, low, high)
        assert result.inside()


@pytest.mark.parametrize("case", CASES)
def test_the_optimal_strategy_is_never_worse_from_any_square(analyses, case):
    analysis = analyses(case)
    best, *others = analysis.strategies
    assert best.name in ("optimal", "forced")
    assert best.exact == pytest.approx(analysis.solution.start_value, abs=1e-9)
    assert np.allclose(best.values, analysis.solution.values, atol=1e-9)
    sign = -1.0 if analysis.maximize else 1.0
    for result in others:
        # Turns: the optimum costs no more anywhere; discounted: it earns no less.
        assert np.all(sign * best.values <= sign * result.values + 1e-9), result.name
        if result.exact is not None:
            assert sign * best.exact <= sign * result.exact + 1e-9, result.name
    if not analysis.choice:
        assert others == [] and "no choice" in analysis_text(analysis)
    else:
        assert others, "a game with a choice names strategies to compare"


@pytest.mark.parametrize("case", CASES)
def test_computed_agrees_with_simulated_from_every_square(analyses, case):
    analysis = analyses(case)
    checks = analysis.squares
    problem = analysis.problem
    if problem.assignment.name == "trap-lane":
        assert [c.square for c in checks] == list(range(1, 15))
    else:
        goal = problem.board.goal
        assert [c.square for c in checks] == list(range(goal))
    # About 100 intervals at 99.9% each: by chance 0.1 squares fall outside on average, and
    # 3 or more only with odds of 1.6e-4. So at most 2 may, and none may miss the interval
    # Bonferroni's correction gives (family-wise 0.1% over all the squares: z = 4.42 for 100).
    outside = [c.square for c in checks if not c.inside()]
    assert len(outside) <= 2, outside
    z_family = float(scipy.stats.norm.isf(0.0005 / len(checks)))
    assert all(c.inside(z_family) for c in checks), [c.square for c in checks]
    for c in checks:
        assert c.computed == analysis.solution.values[c.state]
        assert c.simulated.games == GAMES and c.simulated.unfinished == 0


def test_token_boosted_checks_the_squares_of_the_start_layer(analyses):
    analysis = analyses("token-boosted")
    tokens = analysis.problem.params.tokens
    assert analysis.layout.start_layer == tokens
    assert all(c.label.endswith(f"with {tokens} tokens") for c in analysis.squares)
    # One map per token count, index = tokens left; with none left the game is classic.
    assert len(analysis.value_map) == len(analysis.policy_map) == tokens + 1
    _, classic = solved("classic")
    assert analysis.value_map[0][0] == pytest.approx(classic.start_value, abs=1e-9)
    assert set(analysis.policy_map[0].values()) == {"never", "-"}
    assert analysis.value_map[tokens][0] == pytest.approx(18.25, abs=0.005)  # the self-check


# --- the maps ---------------------------------------------------------------------------------


def test_maps_are_keyed_by_board_square_with_the_goal():
    problem, solution = solved("aimed")
    analysis = analyze(problem, solution, games=200, seed=0)
    (values,), (actions,) = analysis.value_map, analysis.policy_map
    assert sorted(values) == sorted(actions) == list(range(101))
    assert values[100] == 0.0 and actions[100] == "-"
    assert values[0] == pytest.approx(10.64, abs=0.005)
    assert all(actions[i] == f"aim {solution.action(i)}" for i in range(100))
    assert analysis.layout.notes[1] == "ladder to 38" and analysis.layout.notes[98] == "chute to 78"


def test_boosted_policy_map_names_the_boosted_spins():
    problem, solution = solved("boosted")
    analysis = analyze(problem, solution, games=100, seed=0)
    (actions,) = analysis.policy_map
    choices = problem.game.spin_choices(solution)  # the move after each spin 1..6
    for square in range(100):
        boosted = [s for s, move in enumerate(choices[square], start=1) if move == s + 1]
        expected = {0: "never", 6: "always"}.get(len(boosted))
        expected = expected or "boost on " + ",".join(map(str, boosted))
        assert actions[square] == expected


def test_trap_lane_maps_run_from_square_1_to_15():
    problem, solution = solved("trap-lane", _TRAPPED)
    analysis = analyze(problem, solution, games=100, seed=0)
    (values,), (actions,) = analysis.value_map, analysis.policy_map
    assert sorted(values) == list(range(1, 16)) and values[15] == 0.0 and actions[15] == "-"
    names = {"1": "security", "2": "normal", "3": "risky"}
    assert all(actions[q] == names[solution.action(q - 1)] for q in range(1, 15))
    traps = {3: "prison", 5: "penalty", 7: "restart", 9: "gamble", 12: "prison", 13: "penalty"}
    assert analysis.layout.notes == traps


# --- closed forms -------------------------------------------------------------------------------


def test_classic_within_a_spin_of_the_goal_needs_faces_turns():
    # With an exact count (`stay`) and no jumps, from N - k (k <= faces) spins 1..k-1 move
    # closer, k wins and the rest stay: V = 1 + ((k - 1) V' + (faces - k) V) / faces, which
    # V = V' = faces solves (k = 1: a geometric wait for one face in `faces`).
    faces = 4
    problem, solution = solved("classic", {"goal": 20, "jumps": []}, [f"faces={faces}"])
    analysis = analyze(problem, solution, games=4000, seed=3)
    (values,) = analysis.value_map
    for square in range(20 - faces, 20):
        assert values[square] == pytest.approx(faces, abs=1e-9)
    last = analysis.squares[-1]
    assert last.square == 19 and last.inside()
    assert last.simulated.mean == pytest.approx(faces, abs=0.25)


def test_trap_lane_always_security_by_hand():
    # Security moves one square with probability 1/2: two turns per square. From 14, one
    # square: 2. From 3, the slow lane is 8 squares (4..10, then 15), the fast lane 5
    # (11..14, then 15), half and half: 6.5 squares, 13 turns. From 1: 2 squares to 3 more.
    problem, solution = solved("trap-lane", None, ["circle=false"])
    analysis = analyze(problem, solution, games=4000, seed=2)
    security = next(r for r in analysis.strategies if r.name == "always security")
    by_hand = {14: 2.0, 11: 8.0, 4: 14.0, 3: 13.0, 1: 17.0}
    for square, turns in by_hand.items():
        assert security.values[square - 1] == pytest.approx(turns, abs=1e-9)
    assert security.exact == pytest.approx(17.0, abs=1e-9)
    assert security.inside()


def test_efron_blue_alone_is_one_path():
    # Blue always moves 3, and with no jumps and `win` every square moves: 0, 3, 6, 9, 12 is
    # four turns, every game alike (the simulation has no spread at all).
    problem, solution = solved("efron", {"goal": 12, "jumps": []})
    analysis = analyze(problem, solution, games=500, seed=0)
    blue = next(r for r in analysis.strategies if r.name == "always Blue")
    assert [blue.values[i] for i in range(12)] == [math.ceil((12 - i) / 3) for i in range(12)]
    assert blue.simulated.std == 0.0 and blue.simulated.mean == 4.0 and blue.inside()
    assert "every square" in blue.says and "not allowed" not in blue.says


@pytest.mark.parametrize(("objective", "expected"), [("turns", 4.0), ("discounted", 100 * 0.9**4)])
def test_aimed_best_single_aim_without_noise(objective, expected):
    # No noise, `win`, no jumps: aim k moves k each turn. Aim 6 takes 0 -> 6 -> 12 -> 18 ->
    # 24, four turns, and no move is longer; aim 5 needs five.
    settings = ["noise=0,1,0", "overshoot=win", f"objective={objective}"]
    problem, solution = solved("aimed", {"goal": 24, "jumps": []}, settings)
    analysis = analyze(problem, solution, games=500, seed=0)
    best, single, _ = analysis.strategies
    assert single.name == "always aim 6" and "aim 6 on every square" in single.says
    assert single.exact == pytest.approx(expected, abs=1e-9)
    assert best.exact == pytest.approx(expected, abs=1e-9)  # nothing beats it here


def test_boosted_never_boosting_is_the_classic_game():
    _, classic = solved("classic")
    for name in ("boosted", "token-boosted"):
        problem, solution = solved(name)
        analysis = analyze(problem, solution, games=300, seed=0)
        never = next(r for r in analysis.strategies if r.name == "never boost")
        assert never.exact == pytest.approx(classic.start_value, abs=1e-9)


def test_boosted_always_boost_never_finishes_from_99_under_an_exact_count():
    # From 99 only a move of 1 wins; a boosted move is 2 or more and overshoots (`stay`).
    problem, solution = solved("boosted")
    analysis = analyze(problem, solution, games=1000, seed=0)
    always = next(r for r in analysis.strategies if r.name == "always boost")
    assert always.exact is None and 0 < always.finishes < 1
    assert always.values[99] == math.inf
    assert always.simulated.stranded > 0 and always.simulated.unfinished > 0
    assert "never finishes" in analysis_text(analysis)


def _sweep(goal, update):
    values = [0.0] * (goal + 1)
    for _ in range(200_000):
        change = 0.0
        for i in range(goal - 1, -1, -1):
            new = update(values, i)
            change = max(change, abs(new - values[i]))
            values[i] = new
        if change < 1e-13:
            return values
    raise AssertionError("the sweeps did not settle")


def test_efron_random_die_against_a_plain_sweep():
    # A die drawn uniformly among those allowed (some face moves the piece): each turn's
    # rows are the average of the allowed dice's.
    table = independent.goes_to(100, STANDARD_JUMPS)
    dice = list(independent.EFRON.values())

    def nxt(i, face):
        return independent.land(100, table, "win", i, face)

    def update(v, i):
        allowed = [d for d in dice if any(nxt(i, f) != i for f in d)]
        return 1 + sum(sum(v[nxt(i, f)] for f in d) / len(d) for d in allowed) / len(allowed)

    expected = _sweep(100, update)
    problem, solution = solved("efron")
    analysis = analyze(problem, solution, games=300, seed=0)
    random_die = next(r for r in analysis.strategies if r.name == "random die")
    assert np.allclose(random_die.values[:101], expected, atol=1e-8)


# --- policies from files ----------------------------------------------------------------------


def _printed(problem, solution, action, path):
    """A program's output for the board whose every action is ``action``."""
    answer = problem.game.answer(solution)
    acts = tuple("-" if a == "-" else action for a in answer.actions)
    path.write_text(output_format(answer.output).render(dataclasses.replace(answer, actions=acts)))
    return path


def test_a_printed_trap_lane_policy_is_evaluated(tmp_path):
    problem, solution = solved("trap-lane")
    path = _printed(problem, solution, "1", tmp_path / "out.txt")
    actions = read_policy(problem, solution, path)
    assert actions == {q: "1" for q in range(1, 15)}
    analysis = analyze(problem, solution, games=2000, seed=4, policies={str(path): actions})
    printed = analysis.strategies[-1]
    assert printed.name == "out.txt" and str(path) in printed.says
    assert printed.exact == pytest.approx(17.0, abs=1e-9)  # always security, by hand above
    assert printed.inside()
    (said,) = analysis.square_actions(printed)
    assert said == {**{q: "security" for q in range(1, 15)}, 15: "-"}
    random_die = next(r for r in analysis.strategies if r.name == "random die")
    assert analysis.square_actions(random_die) is None


def test_a_printed_aimed_policy_leaves_square_0_and_the_jump_squares_open(tmp_path):
    # Aim 2 printed on every square; square 0 (not printed) and the jump squares (not
    # graded) take the best aim given the rest. Pieces never rest on a jump square, so only
    # square 0's choice matters: V(0) = min over aims of 1 + E_k(0), where aim 1 can stay.
    problem, solution = solved("aimed")
    path = _printed(problem, solution, "2", tmp_path / "aim2.txt")
    actions = read_policy(problem, solution, path)
    jumps = {a for a, _ in STANDARD_JUMPS}
    assert set(actions) == set(range(1, 100)) - jumps
    table = independent.goes_to(100, STANDARD_JUMPS)
    noise = (0.25, 0.5, 0.25)

    def mean_after(v, i, aim):
        moves = (aim - 1, aim, aim + 1)
        ends = [independent.land(100, table, "stay", i, m) for m in moves]
        return sum(p * v[end] for p, end in zip(noise, ends, strict=True))

    aim2 = _sweep(100, lambda v, i: 1 + mean_after(v, i, 2))
    start = min(1 + mean_after(aim2, 0, aim) for aim in range(2, 7))
    stay = (1 + noise[1] * aim2[table[1]] + noise[2] * aim2[table[2]]) / (1 - noise[0])
    expected = min(start, stay)
    analysis = analyze(problem, solution, games=300, seed=0, policies={str(path): actions})
    printed = analysis.strategies[-1]
    assert printed.exact == pytest.approx(expected, abs=1e-8)
    assert "squares 0-1, 4, 9" in printed.says


def test_a_json_policy_is_evaluated(tmp_path):
    # Red on every square: against a plain sweep of Red alone (Red moves everywhere).
    path = tmp_path / "red.json"
    path.write_text(json.dumps({str(i): "Red" for i in range(100)}))
    problem, solution = solved("efron")
    actions = read_policy(problem, solution, path)
    table = independent.goes_to(100, STANDARD_JUMPS)
    red = independent.EFRON["Red"]
    expected = _sweep(
        100,
        lambda v, i: 1 + sum(v[independent.land(100, table, "win", i, f)] for f in red) / 6,
    )
    analysis = analyze(problem, solution, games=300, seed=0, policies={str(path): actions})
    printed = analysis.strategies[-1]
    assert np.allclose(printed.values[:101], expected, atol=1e-8)
    assert "says nothing" not in printed.says  # every square given
    always_red = next(r for r in analysis.strategies if r.name == "always Red")
    assert printed.exact == pytest.approx(always_red.exact, abs=1e-9)


def test_a_policy_that_loops_is_reported_and_stops(tmp_path):
    # Blue (always 3) everywhere it may go on the standard board: 53 + 3 is the chute back to
    # 53, so Blue is not allowed on 53 and every path of threes comes back to 53, whatever
    # die is taken there. The game never ends; its simulation stops at once.
    path = tmp_path / "blue.json"
    path.write_text(json.dumps({str(i): "Blue" for i in range(100) if i != 53}))
    problem, solution = solved("efron")
    actions = read_policy(problem, solution, path)
    analysis = analyze(problem, solution, games=500, seed=0, policies={str(path): actions})
    printed = analysis.strategies[-1]
    assert printed.exact is None and printed.finishes == 0.0
    assert printed.simulated.unfinished == 500 == printed.simulated.stranded
    assert "square 53" in printed.says
    text = analysis_text(analysis)
    assert "never finishes" in text and "it never reaches the goal from the start" in text


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("trap-lane", '{"1": ', "not valid JSON (line 1"),
        ("trap-lane", "[1, 2]", "a JSON policy is an object"),
        ("trap-lane", '{"1": "7"}', "'7' is not a choice on square 1 (the choices: 1, 2, 3)"),
        ("trap-lane", '{"15": "1"}', "square 15 is not one where an action is chosen (1..14)"),
        ("trap-lane", '{"x": "1"}', "'x' is not a square number"),
        ("trap-lane", "Hello\n", "neither a JSON policy nor what a trap-lane program prints"),
        ("efron", '{"53": "Blue"}', "'Blue' is not a choice on square 53"),
        ("classic", '{"1": "spin"}', "classic prints no action per square, so it takes no"),
        ("boosted", '{"1": "2"}', "boosted prints no action per square"),
    ],
)
def test_a_bad_policy_file_is_one_line_naming_it(tmp_path, capsys, name, content, needle):
    path = tmp_path / "policy.json"
    path.write_text(content)
    problem, solution = solved(name)
    with pytest.raises(UsageError) as caught:
        actions = read_policy(problem, solution, path)
        analyze(problem, solution, games=10, seed=0, policies={str(path): actions})
    assert caught.value.where == str(path) and needle in caught.value.message
    # The command line prints it as one line and exits 2.
    assert main(["analyze", name, "--games", "10", "--policy", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and str(path) in err and needle in err


def test_a_missing_policy_file_is_named():
    problem, solution = solved("aimed")
    with pytest.raises(UsageError, match="no such policy file"):
        read_policy(problem, solution, "/nonexistent/policy.txt")


# --- simulation from given squares ---------------------------------------------------------


def test_simulating_from_given_states_keeps_simulate_as_it_was():
    problem, solution = solved("trap-lane", _TRAPPED)
    model = problem.game.model
    one = simulate(model, solution.policy, 500, 9)
    (again,) = simulate_from(model, solution.policy, [model.start], 500, 9)
    assert np.array_equal(one.score, again.score) and np.array_equal(one.length, again.length)
    # Several starts are played together, each start's games apart.
    starts = [0, 5, 13]
    runs = simulate_from(model, solution.policy, starts, 700, 9)
    assert [r.games for r in runs] == [700, 700, 700]
    assert runs[2].mean < runs[0].mean  # square 14 is nearer the goal than square 1
    moved = simulate(model, solution.policy, 700, 9, start=13)
    assert moved.games == 700 and moved.unfinished == 0


# --- the command line ---------------------------------------------------------------------------


def test_analyze_classic_prints_the_sections(capsys):
    assert main(["analyze", "classic"]) == 0
    out = capsys.readouterr().out
    for needle in (
        "classic on ",
        "expected turns to the goal (lower is better); 10000 games per simulation, seed 0",
        "1. The optimal solution: value and action on every square",
        "2. Computed against simulated, from every square a game can stand on",
        "99.9% interval",
        "3. The optimal strategy against others, from the start",
        "gives the player no choice",
        "Game lengths (turns), forced:",
    ):
        assert needle in out
    assert "     98   6.0000  spin    chute to 78" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  ") and "[" in line]
    assert len(rows) == 100 + 1  # every square 0..99, and the forced strategy


def test_analyze_trap_lane_is_seeded(capsys):
    args = ["analyze", "trap-lane", "--games", "2000", "--seed", "5"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    assert main([*args[:-1], "6"]) == 0
    assert capsys.readouterr().out != first
    for needle in ("always security", "always normal", "always risky", "random die", "17.0000"):
        assert needle in first
    # With no board given: the analysis layout, with traps (the public layout has none).
    assert first.startswith("trap-lane on the analysis layout (restart on 5 and 14, ")


def test_the_trap_lane_is_analysed_on_a_layout_with_traps_where_the_strategies_differ():
    """The public layout has no trap: there the risky die is best on every square and
    "always risky" is the optimal strategy itself. The analysis plays a layout with traps,
    where the optimal policy uses more than one die and beats every named strategy."""
    public = make_problem("trap-lane")
    assert not any(public.board.layout)
    problem = analysis_problem("trap-lane")
    layout = problem.board.layout
    assert {1, 2, 3, 4} <= set(layout), "each kind of trap"
    assert layout[0] == layout[-1] == 0  # squares 1 and 15 are never trapped
    assert "analysis layout" in problem.board_words
    solution = solve_problem(problem)
    analysis = analyze(problem, solution, games=500, seed=0)
    (dice,) = analysis.policy_map
    assert len({dice[q] for q in range(1, 15)}) >= 2, dice
    best, *others = analysis.strategies
    for other in others:
        # Worse by a margin no rounding hides: every named strategy loses turns.
        assert other.exact is not None and other.exact > best.exact + 0.5, other.name
    # On the public layout the same comparison shows nothing: always risky is optimal.
    plain = analyze(public, solve_problem(public), games=200, seed=0)
    risky = next(r for r in plain.strategies if r.name == "always risky")
    assert risky.exact == pytest.approx(plain.strategies[0].exact, abs=1e-9)


def test_a_board_given_or_a_public_layout_with_traps_is_analysed_as_it_is(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"layout": [0] * 15}))
    given = analysis_problem("trap-lane", empty)
    assert not any(given.board.layout) and given.board_words == str(empty)
    # The settings apply to the analysis layout too.
    circled = analysis_problem("trap-lane", None, ["circle=true"])
    assert circled.params.circle and any(circled.board.layout)
    # A public layout that has traps already (a course's own) is kept.
    from reference_solutions.rules import trap_lane

    trapped = make_problem("trap-lane", _TRAPPED)
    assert trap_lane.ANALYSIS.board is not None and trap_lane.ANALYSIS.board(trapped) is None
    # Other assignments: the public board, as make_problem gives it.
    classic = analysis_problem("classic")
    assert classic.board_words == "the public board"


def test_analyze_aimed_under_both_objectives(capsys):
    for settings, needle in (([], "expected turns"), (["--set", "objective=discounted"], "reward")):
        assert main(["analyze", "aimed", "--games", "500", *settings]) == 0
        out = capsys.readouterr().out
        assert needle in out and "always aim" in out and "random aim" in out


@pytest.mark.parametrize(("objective", "listed"), [("turns", False), ("discounted", True)])
def test_the_page_lists_only_the_settings_in_effect(tmp_path, objective, listed):
    """aimed's discount and reward count only under the discounted objective."""
    page = tmp_path / "aimed.html"
    argv = ["analyze", "aimed", "--games", "50", "--set", f"objective={objective}"]
    assert main([*argv, "--html", str(page)]) == 0
    text = page.read_text()
    assert f"objective = {objective}" in text and "faces = 6" in text
    assert ("discount = 0.9" in text) is listed and ("reward = 100.0" in text) is listed
