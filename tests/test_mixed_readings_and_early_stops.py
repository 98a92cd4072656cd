"""A jump square's value is accepted under any reading square by square, a wrong program is
told no convention it only meets by chance, and a value iteration stopped early is named
whichever way its loop sweeps.

Every number expected here comes from small value iterations written in this file from the
rules (docs/rules.md), not from the project's solver.
"""

from __future__ import annotations

import re

import pytest

from autograder import Answer, grade_output, load_assignment, policy_judge, render
from autograder._batch import grade_folder
from reference_solutions import ReferenceAnswers, reference_program
from tests.grading import answer_cases

ANSWERS = ReferenceAnswers()
NOISE = (0.25, 0.5, 0.25)
EFRON_DICE = ((3,) * 6, (4, 4, 4, 4, 0, 0), (6, 6, 2, 2, 2, 2), (5, 5, 5, 1, 1, 1))


def goes_to(board: dict) -> list[int]:
    table = list(range(board["goal"] + 1))
    for a, b in board["jumps"]:
        table[a] = b
    return table


def mover(board: dict, overshoot: str = "stay", *, zero_jumps=False, stay_jumps=False):
    """``next(i, m)``: the overshoot rule, then the jump of the square the move ends on; a
    piece left where it stood takes the jump only as ``zero_jumps`` (a move of 0) and
    ``stay_jumps`` (any other move) say: neither under the rules, reading (a)."""
    goal, table = board["goal"], goes_to(board)

    def next_square(i: int, m: int) -> int:
        t = i + m
        if t > goal:
            t = {"stay": i, "win": goal, "bounce": 2 * goal - t}[overshoot]
        if t != i:
            return table[t]
        return table[t] if (zero_jumps if m == 0 else stay_jumps) else t

    return next_square


def choices(game: str, board: dict, next_square) -> list[list[list[tuple[float, int]]]]:
    """Per square, per action, the (probability, next square) of each outcome."""
    goal = board["goal"]
    out = []
    for i in range(goal):
        if game == "classic":
            actions = [[(1 / 6, next_square(i, s)) for s in range(1, 7)]]
        elif game == "aimed":
            actions = [
                [(p, next_square(i, k - 1 + j)) for j, p in enumerate(NOISE)] for k in range(1, 7)
            ]
        else:  # efron: a die that cannot move the piece is no choice
            actions = [[(1 / 6, next_square(i, f)) for f in die] for die in EFRON_DICE]
            actions = [a for a in actions if any(t != i for _, t in a)]
        out.append(actions)
    return out


def q(V: list[float], action) -> float:
    return 1 + sum(p * V[t] for p, t in action)


def solved(game: str, board: dict, next_square) -> tuple[list[float], list[int]]:
    """Values and a best action per square, by sweeping in place until nothing moves."""
    table = choices(game, board, next_square)
    V = [0.0] * (board["goal"] + 1)
    for _ in range(100_000):
        change = 0.0
        for i in range(board["goal"] - 1, -1, -1):
            new = min(q(V, a) for a in table[i])
            change, V[i] = max(change, abs(new - V[i])), new
        if change < 1e-13:
            best = [min(range(len(t)), key=lambda k, t=t: q(V, t[k])) for t in table]
            return V, best
    raise AssertionError("the sweeps did not settle")


def swept(game: str, board: dict, sweeps: int, order: str) -> list[list[float]]:
    """Values after ``sweeps`` sweeps of value iteration from 0: ``"last"`` computes every
    square from the last sweep's values; ``"up"`` and ``"down"`` update a list in place,
    square 0 first or square N - 1 first. One table per token count (one table but in
    token-boosted)."""
    goal = board["goal"]
    if game in ("boosted", "token-boosted"):
        return _boost_swept(game, board, sweeps, order)
    table = choices(game, board, mover(board, "win" if game == "efron" else "stay"))
    V = [0.0] * (goal + 1)
    squares = range(goal) if order != "down" else range(goal - 1, -1, -1)
    for _ in range(sweeps):
        old = list(V) if order == "last" else V
        for i in squares:
            V[i] = min(q(old, a) for a in table[i])
    return [V]


def _boost_swept(game: str, board: dict, sweeps: int, order: str) -> list[list[float]]:
    """boosted: ``V[i] = 1 + mean over spins s of min(V[next(i, s)], V[next(i, s + 1)])``;
    token-boosted (3 tokens, the tables one after the other in each sweep): the boost
    spends a token."""
    goal, nxt = board["goal"], mover(board)
    layers = 4 if game == "token-boosted" else 1
    V = [[0.0] * (goal + 1) for _ in range(layers)]
    squares = range(goal) if order != "down" else range(goal - 1, -1, -1)
    for _ in range(sweeps):
        old = [list(row) for row in V] if order == "last" else V
        for k in range(layers):
            for i in squares:
                total = 0.0
                for s in range(1, 7):
                    plain = old[k][nxt(i, s)]
                    if game == "boosted":
                        plain = min(plain, old[k][nxt(i, s + 1)])
                    elif k:
                        plain = min(plain, old[k - 1][nxt(i, s + 1)])
                    total += plain
                V[k][i] = 1 + total / 6
    return V


def printed(case, values, actions=None) -> str:
    """What a program printing ``values`` (one list, or one per token count) and
    ``actions`` (or the key's own) shows."""
    answer = case.expected.answer
    if answer.output == "token-values":
        return render(Answer(answer.output, values[-1][0], tuple(map(tuple, values))))
    if isinstance(values[0], list):
        (values,) = values
    shown = answer.actions if actions is None else (*actions, "-")
    return render(Answer(answer.output, values[0], tuple(values), shown, answer.objective))


def grade(name: str, case, text: str):
    assignment = load_assignment(name)
    return grade_output(case, text, assignment, policy=policy_judge(ANSWERS, assignment))


def convention_lines(result) -> list[str]:
    return [line for line in result.feedback if line.startswith("convention:")]


# --- readings square by square -------------------------------------------------------------


def test_the_courses_own_next_in_aimed_scores_full_marks_on_every_board():
    # `next = p if p + s > N else goes_to[p + s]`: a move of 0 takes the jump, an overshoot
    # that stays does not; the aims are the best under those values.
    for case in answer_cases("aimed"):
        natural = mover(case.board, zero_jumps=True)
        values, best = solved("aimed", case.board, natural)
        result = grade("aimed", case, printed(case, values, [str(k + 1) for k in best]))
        assert result.status == "passed" and result.score == case.points, (
            case.name,
            result.feedback[:4],
        )
    public = answer_cases("aimed")[0]
    values, best = solved("aimed", public.board, mover(public.board, zero_jumps=True))
    rules, _ = solved("aimed", public.board, mover(public.board))
    # The public board is one where that program differs from the rules on jump squares.
    assert any(abs(a - b) > 0.01 for a, b in zip(values, rules, strict=True))
    said = convention_lines(
        grade("aimed", public, printed(public, values, [str(k + 1) for k in best]))
    )
    assert said and said[0].endswith("accepted.")


def test_the_courses_own_next_in_aimed_passes_every_board_through_grade(tmp_path):
    # The reference program with its landing written as the course writes it.
    program = reference_program("aimed")
    ruled = "return target if target == square else goes_to[target]"
    assert ruled in program
    natural = "return square if square + move > goal else goes_to[square + move]"
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "natural.py").write_text(program.replace(ruled, natural))
    cases = list(answer_cases("aimed"))
    batch = grade_folder("aimed", folder, tmp_path / "out", answers=ANSWERS, cases=cases)
    (result,) = batch.results
    assert [t.status for t in result.tests] == ["passed"] * len(cases), [
        (t.name, t.feedback[:3]) for t in result.tests if t.status != "passed"
    ]
    assert result.score == result.max_score


def test_a_mix_of_readings_on_a_classic_board_is_right_square_by_square():
    case = answer_cases("classic")[0]
    board = case.board
    right, _ = solved("classic", board, mover(board))
    in_place, _ = solved("classic", board, mover(board, stay_jumps=True))  # reading (b)
    starts = [a for a, _ in board["jumps"]]
    mixed = list(right)
    for n, j in enumerate(starts):  # (a), (b) and (c) in turn
        mixed[j] = (right[j], in_place[j], right[goes_to(board)[j]])[n % 3]
    result = grade("classic", case, printed(case, mixed))
    assert result.status == "passed" and result.score == case.points, result.feedback[:4]
    (line,) = convention_lines(result)
    assert line.startswith("convention: the accepted readings mixed square by square (mostly: ")


def test_a_program_following_the_destination_reading_throughout_is_told_so():
    for case in answer_cases("classic"):
        board = case.board
        right, _ = solved("classic", board, mover(board))
        destination = [right[t] for t in goes_to(board)]
        result = grade("classic", case, printed(case, destination))
        assert result.status == "passed", (case.name, result.feedback[:4])
        if any(abs(right[a] - right[b]) > 0.01 for a, b in board["jumps"]):
            assert result.convention == "jump-destination"
            assert convention_lines(result) == [
                "convention: a jump square shows the value of the jump's destination "
                "(reading (c)); accepted."
            ]


def test_the_destination_reading_with_one_mistake_has_the_mistake_named():
    case = answer_cases("classic")[0]
    board = case.board
    wins, _ = solved("classic", board, mover(board, "win"))
    destination = [wins[t] for t in goes_to(board)]
    result = grade("classic", case, printed(case, destination))
    assert result.mistakes == ("overshoot-wins",)


# --- no convention where a wrong program meets a reading by chance ------------------------


def listed(result) -> dict[int, tuple[float, float]]:
    """The listing's ``square N: printed P, expected E`` lines, by square."""
    found = {}
    for line in result.feedback:
        m = re.fullmatch(r"square (\d+): printed (\S+), expected (\S+)", line)
        if m:
            found[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    return found


@pytest.mark.parametrize("program", ["bounce", "zeros"])
def test_a_wrong_program_gets_no_convention_and_the_rules_values(program):
    case = answer_cases("classic")[0]
    board = case.board
    right, _ = solved("classic", board, mover(board))
    if program == "bounce":
        values, _ = solved("classic", board, mover(board, "bounce"))
    else:
        values = [0.0] * (board["goal"] + 1)
    assignment = load_assignment("classic")
    result = grade_output(case, printed(case, values), assignment, shown=None)
    assert convention_lines(result) == [] and result.convention == ""
    shown = listed(result)
    assert len(shown) == result.total - result.right - 1  # (the start is listed by its name)
    for square, (_, expected) in shown.items():
        assert expected == pytest.approx(right[square], abs=0.005), square
    if program == "bounce":
        assert result.mistakes == ("overshoot-bounces",)


# --- stopped early, whichever way the loop sweeps -----------------------------------------

KIND = {
    "last": "each from the last sweep's values",
    "up": "updating the values in place, from the lowest square up",
    "down": "updating the values in place, from the highest square down",
}


def counts(result) -> dict[str, int]:
    """The sweeps the feedback says the values look like, by kind of sweep (where the key
    has no course in place, as in token-boosted, the one it tells needs no words)."""
    line = next(x for x in result.feedback if x.startswith("stopped iterating"))
    found = {}
    for told in re.findall(r"about (\d+) sweeps? from 0(.*?), (?:where|enough)", line):
        done, kinds = int(told[0]), told[1]
        for kind, words in KIND.items():
            if words in kinds or (kind == "last" and not kinds):
                found[kind] = done
    return found


@pytest.mark.parametrize(
    ("order", "sweeps"), [("up", 5), ("up", 20), ("up", 60), ("down", 3), ("down", 10),
                          ("down", 20), ("last", 25)],
)  # fmt: skip
def test_classic_stopped_early_is_named_with_its_sweeps(order, sweeps):
    case = answer_cases("classic")[0]
    right, _ = solved("classic", case.board, mover(case.board))
    values = swept("classic", case.board, sweeps, order)
    assert values[0][0] < right[0] - 0.1  # (stopped well before the values settle)
    result = grade("classic", case, printed(case, values))
    assert result.mistakes == ("stopped-early",), result.feedback[:4]
    said = counts(result)
    assert abs(said[order] - sweeps) <= 2, result.feedback


@pytest.mark.parametrize(
    ("game", "order", "sweeps"),
    [("boosted", "last", 8), ("boosted", "up", 8), ("boosted", "down", 3),
     ("token-boosted", "last", 20), ("aimed", "last", 4), ("aimed", "up", 4),
     ("aimed", "down", 2), ("efron", "last", 4), ("efron", "up", 4), ("efron", "down", 3)],
)  # fmt: skip
def test_other_games_stopped_early_are_named(game, order, sweeps):
    case = answer_cases(game)[0]
    values = swept(game, case.board, sweeps, order)
    result = grade(game, case, printed(case, values))
    assert result.mistakes == ("stopped-early",), result.feedback[:4]
    assert abs(counts(result)[order] - sweeps) <= 2, result.feedback


@pytest.mark.parametrize("order", ["up", "down"])
def test_the_answer_key_keeps_the_start_value_of_each_in_place_sweep(order):
    for case in answer_cases("classic"):
        right, _ = solved("classic", case.board, mover(case.board))
        course = case.expected.sweeps_up if order == "up" else case.expected.sweeps_down
        tolerance = load_assignment("classic").value_tolerance
        assert abs(course[-1] - right[0]) <= tolerance < abs(course[-2] - right[0])
        for k in (1, 2, len(course) // 2, len(course)):
            assert course[k - 1] == pytest.approx(swept("classic", case.board, k, order)[0][0])
    # token-boosted fills its tables one after the other: no course in place is kept.
    assert not any(c.expected.sweeps_up for c in answer_cases("token-boosted"))


def test_a_hidden_board_names_an_in_place_stop_without_its_sweeps():
    case = next(c for c in answer_cases("classic") if not c.visible)
    values = swept("classic", case.board, 10, "up")
    result = grade("classic", case, printed(case, values))
    assert result.mistakes == ("stopped-early",)
    assert not any(re.search(r"about \d+ sweep", line) for line in result.feedback)
    assert any(re.search(r"about 10 sweeps from 0, .*from the lowest square up", line)
               for line in result.staff)  # fmt: skip


def test_a_board_whose_values_never_settle_in_reach_keeps_no_course(tmp_path):
    # 49 chutes and no ladder: a classic game takes about 4e7 turns, so value iteration
    # from 0 is nowhere near after 20,000 sweeps. A course cut short would tell a program
    # "they settle after about 20000" where they do not: the key keeps none.
    from autograder.cli import main
    from reference_solutions import expected_answer, make_problem, solve_problem

    board = tmp_path / "chutes.json"
    assert main(["board", "new", "--seed", "5", "--chutes", "49", "--ladders", "0",
                 "-o", str(board)]) == 0  # fmt: skip
    problem = make_problem("classic", str(board))
    expected = expected_answer(problem, solve_problem(problem))
    assert expected.answer.start_value > 1e7
    assert expected.sweeps == () and expected.sweeps_up == () and expected.sweeps_down == ()
