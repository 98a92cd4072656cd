"""``autograder board new`` (autograder/cli/board.py and the draws in
reference_solutions/_draws.py): a valid board drawn from a seed.

Validity is checked here against docs/rules.md "Jump boards" by hand, and a classic game's
length against the independent solver of tests/independent.py, not the project's own.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder._boards import parse_board
from autograder._errors import UsageError
from autograder.cli.board import new_board
from reference_solutions import classic_turns, new_jump_board, new_trap_board, random_jump_board
from reference_solutions._draws import StableDraws
from tests.autograder.test_cli import run, run_here
from tests.independent import jump_values

TRAP_CODES = {"restart": 1, "penalty": 2, "prison": 3, "special": 4}
JUMP_KEYS = ("goal", "chutes", "ladders", "min_turns", "max_turns")
TRAP_KEYS = ("restart", "penalty", "prison", "special", "edition", "circle")


def options(**given_options):
    """The options dict the command line passes: every option, None when absent."""
    opts = dict.fromkeys((*JUMP_KEYS, *TRAP_KEYS))
    opts["circle"] = False
    opts.update(given_options)
    return opts


def rule_breaks(data) -> list[str]:
    """Every rule of docs/rules.md "Jump boards" that ``data`` (board file data) breaks."""
    goal, jumps = data["goal"], [tuple(j) for j in data["jumps"]]
    broken = []
    starts = [a for a, _ in jumps]
    for start, end in jumps:
        if start in (0, goal):
            broken.append(f"{start}->{end} starts on 0 or the goal")
        if not 0 < start < goal:
            broken.append(f"{start}->{end} starts off the board")
        if not 1 <= end <= goal:
            broken.append(f"{start}->{end} ends outside 1..goal")
        if start == end:
            broken.append(f"{start}->{end} goes nowhere")
        if end in starts:
            broken.append(f"{start}->{end} ends on the start of another jump")
    for square, count in Counter(starts).items():
        if count > 1:
            broken.append(f"{count} jumps from square {square}")
    return broken


def check_jump_board(data, goal, chutes, ladders):
    assert set(data) <= {"goal", "jumps", "name"}
    assert data["goal"] == goal
    assert all(isinstance(x, int) for jump in data["jumps"] for x in jump)
    assert rule_breaks(data) == []
    assert sum(1 for a, b in data["jumps"] if b < a) == chutes
    assert sum(1 for a, b in data["jumps"] if b > a) == ladders
    parse_board(data, "jump", "generated")  # the project's own validation agrees


def independent_turns(data) -> float:
    """A classic game's expected length: 6 faces, overshoot 'stay'."""
    return jump_values("classic", data["goal"], data["jumps"], faces=6, overshoot="stay")[0][0]


def finishable(data) -> bool:
    """Whether the goal can be reached from every square a classic game can reach."""
    goal = data["goal"]
    goes = list(range(goal + 1))
    for start, end in data["jumps"]:
        goes[start] = end

    def moves(i):
        return {goes[i + s] if i + s <= goal else goes[i] for s in range(1, 7)}

    can = {goal}
    changed = True
    while changed:
        changed = False
        for i in range(goal):
            if i not in can and moves(i) & can:
                can.add(i)
                changed = True
    seen, todo = {0}, [0]
    while todo:
        for j in moves(todo.pop()):
            if j != goal and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen <= can


def turns_in_line(line: str) -> float:
    match = re.search(r"a classic game takes (\d+\.\d\d) turns on average", line)
    assert match, line
    return float(match.group(1))


# --- jump boards --------------------------------------------------------------------------


@st.composite
def counts(draw, max_goal: int = 100, crowded: bool = True):
    """A goal and chute/ladder counts that fit on it: up to the most the generator places,
    or (not ``crowded``) about as many as printed boards have, so games stay short."""
    goal = 10 * draw(st.integers(1, max_goal // 10))
    room = (goal - 1) // 2
    most = room if crowded else min(room, goal // 8 + 1)
    chutes = draw(st.integers(0, most))
    ladders = draw(st.integers(0, min(most, room - chutes)))
    return goal, chutes, ladders


seeds = st.integers(0, 2**40)


@settings(max_examples=150)
@given(seed=seeds, request=counts())
def test_generated_jump_boards_are_valid_with_the_asked_counts(seed, request):
    goal, chutes, ladders = request
    board = new_jump_board(seed, goal, chutes, ladders)
    check_jump_board(board.to_json(), goal, chutes, ladders)
    assert new_jump_board(seed, goal, chutes, ladders) == board


@settings(max_examples=40)
@given(
    seed=seeds,
    request=counts(crowded=False),
    mode=st.sampled_from(["window", "min", "max"]),
    below=st.floats(0.02, 0.15),
    above=st.floats(0.02, 0.15),
)
def test_a_band_bounds_the_classic_game_length(seed, request, mode, below, above):
    goal, chutes, ladders = request
    # A band around the length of another board of the same kind, so one board meets it.
    other = new_jump_board(seed + 1, goal, chutes, ladders, max_turns=1e9)
    centre = classic_turns(other)
    low = centre * (1 - below) if mode != "max" else None
    high = centre * (1 + above) if mode != "min" else None
    opts = options(goal=goal, chutes=chutes, ladders=ladders, min_turns=low, max_turns=high)
    text, line = new_board(seed, opts)
    assert text.endswith("\n")
    data = json.loads(text)
    check_jump_board(data, goal, chutes, ladders)
    turns = independent_turns(data)
    assert (low or 0.0) - 1e-9 <= turns <= (float("inf") if high is None else high) + 1e-9
    assert turns_in_line(line) == pytest.approx(turns, abs=0.0051)
    assert new_board(seed, opts) == (text, line)


@settings(max_examples=15)
@given(seed=seeds, goal=st.sampled_from([20, 50, 100]))
def test_new_board_without_a_band_describes_the_board(seed, goal):
    text, line = new_board(seed, options(goal=goal))
    data = json.loads(text)
    chutes, ladders = max(1, round(goal * 0.10)), max(1, round(goal * 0.09))
    check_jump_board(data, goal, chutes, ladders)
    assert line.startswith(f"{goal} squares, {chutes + ladders} jumps ({chutes} chutes, ")
    assert turns_in_line(line) == pytest.approx(independent_turns(data), abs=0.0051)


def test_default_board_has_100_squares_10_chutes_9_ladders():
    data = json.loads(new_board(5, options())[0])
    check_jump_board(data, 100, 10, 9)


def test_same_seed_same_board_different_seeds_different_boards():
    boards = [json.dumps(new_jump_board(seed).to_json()) for seed in range(40)]
    assert len(set(boards)) == len(boards)
    assert [json.dumps(new_jump_board(seed).to_json()) for seed in range(40)] == boards
    assert new_board(3, options())[0] == new_board(3, options())[0] != new_board(4, options())[0]
    small = options(goal=30, chutes=2, ladders=2, min_turns=8.0, max_turns=12.0)
    assert new_board(11, small) == new_board(11, small) != new_board(12, small)


# Seeds whose first board cannot be finished (chutes trap the piece), so a second is drawn.
@pytest.mark.parametrize(("seed", "goal", "chutes", "ladders"), [(255, 20, 7, 2), (13, 20, 9, 0)])
def test_a_board_without_a_band_can_be_finished(seed, goal, chutes, ladders):
    first = random_jump_board(StableDraws(f"board/{seed}"), goal, chutes, ladders)
    assert not finishable(first.to_json())
    opts = options(goal=goal, chutes=chutes, ladders=ladders)
    text, line = new_board(seed, opts)
    data = json.loads(text)
    check_jump_board(data, goal, chutes, ladders)
    assert finishable(data)
    assert turns_in_line(line) == pytest.approx(independent_turns(data), abs=0.0051)


@pytest.mark.parametrize(
    ("opts", "needle"),
    [
        (options(goal=15), "--goal 15: goal 15 is not a multiple of 10"),
        (options(goal=20, chutes=5, ladders=5), "10 jumps do not fit on a board of 20"),
        (options(min_turns=50.0, max_turns=40.0), "larger than --max-turns"),
        (options(chutes=-1), "must be >= 0"),
        (options(goal=30, restart=1), "--goal is for jump boards"),
    ],
)
def test_bad_jump_options_raise_usage_error(opts, needle):
    with pytest.raises(UsageError) as caught:
        new_board(1, opts)
    assert needle in str(caught.value)
    assert caught.value.where


def test_a_band_no_board_meets_is_reported(monkeypatch):
    import reference_solutions._draws as variants

    monkeypatch.setattr(variants, "MAX_DRAWS", 15)  # the real count takes a while to run out
    with pytest.raises(UsageError, match="whose classic game lasts at least 500 turns"):
        new_board(1, options(min_turns=500.0))
    with pytest.raises(UsageError, match="lasts 1 to 2 turns"):
        new_board(1, options(goal=30, min_turns=1.0, max_turns=2.0))


# --- trap lane ----------------------------------------------------------------------------


@st.composite
def trap_requests(draw):
    budget = 13
    wanted: dict[str, int | None] = {}
    for kind in draw(st.permutations(list(TRAP_CODES))):
        count = draw(st.none() | st.integers(0, budget))
        wanted[kind] = count
        budget -= count or 0
    edition = draw(st.sampled_from([None, "2020", "2021", "2022"]))
    return wanted, edition, draw(st.booleans())


@settings(max_examples=100)
@given(seed=seeds, request=trap_requests())
def test_trap_boards_have_the_asked_traps_on_squares_2_to_14(seed, request):
    wanted, edition, circle = request
    counts_given = {k: v for k, v in wanted.items() if v is not None}
    data = new_trap_board(seed, counts_given, edition, circle)
    layout = data["layout"]
    assert len(layout) == 15 and all(isinstance(x, int) for x in layout)
    assert layout[0] == layout[14] == 0
    assert set(layout) <= {0, 1, 2, 3, 4}
    found = Counter(layout)
    for kind, code in TRAP_CODES.items():
        assert found[code] == (wanted[kind] or 0), kind
    assert data["circle"] is circle
    if edition is None:
        assert "edition" not in data
    else:
        assert data["edition"] == edition
    loaded = parse_board(data, "trap", "generated")
    assert list(loaded.board.layout) == layout
    # The same seed gives the same layout; new_board writes the same data.
    assert new_trap_board(seed, counts_given, edition, circle) == data
    text, line = new_board(seed, options(**wanted, edition=edition, circle=circle), True)
    # The command line asked for no count draws one trap of each kind (an empty lane
    # would be the public board).
    drawn = counts_given or dict.fromkeys(TRAP_CODES, 1)
    assert json.loads(text) == new_trap_board(seed, drawn, edition, circle)
    assert line.startswith(f"trap lane: {sum(drawn.values())} traps, ")


def test_a_trap_option_alone_means_the_trap_lane():
    data = json.loads(new_board(2, options(prison=4))[0])
    assert Counter(data["layout"])[3] == 4 and data["circle"] is False
    data = json.loads(new_board(2, options(circle=True))[0])
    assert data["circle"] is True and len(data["layout"]) == 15


def test_different_seeds_place_traps_differently():
    wanted = {"restart": 3, "special": 3}
    layouts = {tuple(new_trap_board(seed, wanted)["layout"]) for seed in range(20)}
    assert len(layouts) > 15


@pytest.mark.parametrize(
    ("counts_given", "edition", "needle"),
    [
        ({"restart": 7, "penalty": 7}, None, "14 traps do not fit on the 13 squares"),
        ({"special": 13, "prison": 1}, None, "14 traps"),
        ({"restart": -1}, None, "must be >= 0"),
        ({"teleport": 1}, None, "unknown trap kind 'teleport'"),
        ({}, "1999", "1999"),
    ],
)
def test_bad_trap_options_raise_usage_error(counts_given, edition, needle):
    with pytest.raises(UsageError) as caught:
        new_trap_board(1, counts_given, edition)
    assert needle in str(caught.value)


def test_jump_options_are_refused_on_the_trap_lane():
    for key, value in (("chutes", 2), ("goal", 50), ("min_turns", 10.0), ("ladders", 0)):
        with pytest.raises(UsageError) as caught:
            new_board(1, options(**{key: value}), True)
        assert f"--{key.replace('_', '-')} is for jump boards" in str(caught.value)


# --- the command line ---------------------------------------------------------------------


# Each test below runs ``board new`` once as a user does (a process of its own), the other
# commands in this process (``run_here``).


def test_cli_writes_a_board_that_solve_accepts(tmp_path, capsys):
    args = ("board", "new", "--seed", "7", "--goal", "30", "--chutes", "3", "--ladders", "2")
    result = run(*args)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    check_jump_board(data, 30, 3, 2)
    assert len(result.stderr.splitlines()) == 1
    turns = independent_turns(data)
    assert turns_in_line(result.stderr) == pytest.approx(turns, abs=0.0051)
    # The same as in-process, and the same on every run.
    assert result.stdout == new_board(7, options(goal=30, chutes=3, ladders=2))[0]

    out = tmp_path / "board.json"
    written = run_here(capsys, *args, "-o", str(out))
    assert written.returncode == 0, written.stderr
    assert written.stdout == ""
    assert written.stderr.startswith(f"wrote {out}: ")
    assert len(written.stderr.splitlines()) == 1
    assert out.read_text(encoding="utf-8") == result.stdout

    solved = run_here(capsys, "solve", "classic", "--board", str(out))
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.splitlines()[0] == f"Expected turns per game: {turns:.2f}"


def test_cli_band_and_trap_lane(tmp_path, capsys):
    band = run_here(
        capsys, "board", "new", "--seed", "2", "--goal", "50", "--min-turns", "20",
        "--max-turns", "24",
    )  # fmt: skip
    assert band.returncode == 0, band.stderr
    data = json.loads(band.stdout)
    check_jump_board(data, 50, 5, 4)
    assert 20 <= independent_turns(data) <= 24

    out = tmp_path / "trap.json"
    options_given = "--restart 2 --penalty 1 --prison 1 --special 3 --edition 2022 --circle"
    trap = run("board", "new", "--seed", "3", "--trap-lane", *options_given.split(), "-o", str(out))
    assert trap.returncode == 0, trap.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["circle"] is True and data["edition"] == "2022"
    found = Counter(data["layout"])
    assert (found[1], found[2], found[3], found[4]) == (2, 1, 1, 3)
    solved = run_here(capsys, "solve", "trap-lane", "--board", str(out), "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["params"]["edition"] == "2022"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--goal", "15"], "--goal 15: goal 15 is not a multiple of 10"),
        (["--goal", "20", "--chutes", "5", "--ladders", "5"], "do not fit on a board of 20"),
        (["--min-turns", "50", "--max-turns", "40"], "larger than --max-turns 40"),
        (
            ["--goal", "10", "--chutes", "0", "--ladders", "0", "--min-turns", "500"],
            "whose classic game lasts at least 500 turns",
        ),
        (["--trap-lane", "--chutes", "2"], "--chutes is for jump boards"),
        (["--restart", "1", "--goal", "50"], "--goal is for jump boards"),
        (["--trap-lane", "--restart", "7", "--penalty", "7"], "14 traps do not fit"),
        (["--trap-lane", "--edition", "1999"], "1999"),
    ],
)
def test_cli_errors_exit_2_with_one_line(tmp_path, capsys, args, needle):
    out = tmp_path / "board.json"
    # (in this process: the two tests above run the command as a user does)
    result = run_here(capsys, "board", "new", "--seed", "1", *args, "-o", str(out))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("autograder: error: ")
    assert needle in lines[0]
    assert not out.exists()
