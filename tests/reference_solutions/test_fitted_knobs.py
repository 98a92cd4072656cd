"""A number of the rules held at another value is found again from the printed answer alone.

On random boards, a program's answer under a changed number (a discount, aimed's noise, a
face of an efron die, the trap lane's trigger chance) is printed as a program prints it
(values rounded to the decimals the format asks for, the best action on each square); the
grading side's explanation must name that number with the decimals it was written with.

For the jump games the printed answer comes from the independent implementation
(tests/independent.py, written from the rules), not from the model builders being tested;
the trap lane has no independent solver, so there the answer of the changed game is the
project's own (what is tested is the fit, which sees only the printed numbers).
"""

from __future__ import annotations

import math
import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from autograder import Printed, load_assignment
from autograder import TestCase as Board
from reference_solutions import ReferenceAnswers
from reference_solutions._catalogue import changed_rules
from reference_solutions._policy import solved_board
from tests import independent
from tests.strategies import jump_boards, trap_boards

ANSWERS = ReferenceAnswers()
FEW = settings(max_examples=25)


def case_on(name: str, board: dict) -> Board:
    return ANSWERS.own_board_case(load_assignment(name), board)


def printed_jump_game(case: Board, values: list[float], actions: dict[int, str]) -> Printed:
    """What a program prints on ``case``'s board with ``values`` (square by square) and
    ``actions`` (square: action): every graded entry, values at 2 decimals."""
    numbers, chosen = {}, {}
    for entry in case.expected.entries(0.01):
        square = entry.key.split(":")[0]
        index = 0 if square == "start" else int(square)
        if entry.is_action:
            chosen[entry.key] = actions[index]
        else:
            numbers[entry.key] = round(values[index], 2)
    return Printed(numbers, chosen, ())


def is_wrong(case: Board, printed: Printed, tolerance: float) -> bool:
    """Whether ``printed`` loses any entry: a changed number that changes nothing printed
    cannot be found from the output."""
    for entry in case.expected.entries(tolerance):
        if entry.is_action:
            if printed.actions.get(entry.key) not in entry.accepted:
                return True
        elif abs(printed.numbers[entry.key] - entry.value) > entry.tolerance:
            return True
    return False


def named(name: str, case: Board, printed: Printed, knob: str) -> list[str]:
    """What the explanation of ``printed`` says of ``knob``'s fitted candidates."""
    found = ANSWERS.explain(load_assignment(name), case, printed)
    return [v.says for v in found.candidates if v.name == knob]


def overshoot_of(name: str, board: dict) -> str:
    problem, _ = solved_board(name, board)
    return str(problem.params.overshoot)


@FEW
@given(jump_boards(min_goal=20, max_goal=40), st.integers(80, 98))
def test_a_discount_is_found_with_its_two_decimals(board, hundredths):
    gamma = hundredths / 100
    case = case_on("classic", board)
    values = independent.jump_values("classic", board["goal"], board["jumps"],
                                     overshoot=overshoot_of("classic", board),
                                     discount=gamma)[0]  # fmt: skip
    printed = printed_jump_game(case, values, {})
    assume(is_wrong(case, printed, 0.01))
    assert f"each later turn is discounted by {gamma:.6g}" in named(
        "classic", case, printed, "discounted"
    )


@FEW
@given(jump_boards(min_goal=20, max_goal=40), jump_boards(min_goal=20, max_goal=40),
       st.integers(80, 98))  # fmt: skip
def test_what_an_earlier_board_found_is_tried_first_and_changes_no_name(one, two, hundredths):
    # A submission's boards share notes (``Judge.for_submission``): the discount fitted on
    # the first is tried on the second before anything is fitted there.
    gamma = hundredths / 100
    boards = []
    for board in (one, two):
        case = case_on("classic", board)
        values = independent.jump_values("classic", board["goal"], board["jumps"],
                                         overshoot=overshoot_of("classic", board),
                                         discount=gamma)[0]  # fmt: skip
        printed = printed_jump_game(case, values, {})
        assume(is_wrong(case, printed, 0.01))
        boards.append((case, printed))
    classic = load_assignment("classic")
    notes: dict = {}
    ANSWERS.explain(classic, *boards[0], notes)
    assert notes["leads"], "nothing noted from the first board"
    followed = ANSWERS.explain(classic, *boards[1], notes)
    fresh = ANSWERS.explain(classic, *boards[1])
    said = f"each later turn is discounted by {gamma:.6g}"
    assert said in [v.says for v in followed.candidates]
    assert {(v.name, v.says) for v in followed.candidates} <= {
        (v.name, v.says) for v in fresh.candidates
    }


def best_aims(values: list[float], board: dict, overshoot: str, noise) -> dict[int, str]:
    table = independent.goes_to(board["goal"], board["jumps"])
    aims = {}
    for square in range(board["goal"]):
        costs = []
        for aim in range(1, 7):
            ends = [independent.land(board["goal"], table, overshoot, square, aim - 1 + j)
                    for j in range(3)]  # fmt: skip
            costs.append(1 + sum(p * values[e] for p, e in zip(noise, ends, strict=True)))
        aims[square] = str(1 + min(range(6), key=lambda a: (costs[a] - min(costs) > 1e-9, a)))
    return aims


@FEW
@given(jump_boards(min_goal=20, max_goal=40), st.integers(5, 45).filter(lambda p: p != 25))
def test_noise_spread_evenly_is_found_with_its_two_decimals(board, hundredths):
    side = hundredths / 100
    noise = (side, 1 - 2 * side, side)
    case = case_on("aimed", board)
    overshoot = overshoot_of("aimed", board)
    values = independent.jump_values("aimed", board["goal"], board["jumps"],
                                     overshoot=overshoot, noise=noise)[0]  # fmt: skip
    printed = printed_jump_game(case, values, best_aims(values, board, overshoot, noise))
    assume(is_wrong(case, printed, 0.01))
    shown = ", ".join(f"{round(w, 2):.6g}" for w in noise)
    assert f"an aim k moves k-1, k or k+1 with probabilities {shown}" in named(
        "aimed", case, printed, "noise"
    )


@FEW
@given(jump_boards(min_goal=20, max_goal=40), st.integers(1, 9), st.integers(1, 9))
def test_noise_spread_unevenly_is_found_with_its_two_decimals(board, low, high):
    assume(low != high)
    noise = (low / 20, 1 - (low + high) / 20, high / 20)
    case = case_on("aimed", board)
    overshoot = overshoot_of("aimed", board)
    values = independent.jump_values(
        "aimed", board["goal"], board["jumps"], overshoot=overshoot, noise=noise
    )[0]
    printed = printed_jump_game(case, values, best_aims(values, board, overshoot, noise))
    assume(is_wrong(case, printed, 0.01))
    shown = ", ".join(f"{round(w, 2):.6g}" for w in noise)
    said = named("aimed", case, printed, "noise")
    assert f"an aim k moves k-1, k or k+1 with probabilities {shown}" in said


@FEW
@given(
    jump_boards(min_goal=20, max_goal=40),
    st.sampled_from(["Blue", "Black", "Red", "Green"]),
    st.integers(0, 5),
    st.integers(0, 8),
)
def test_a_mistyped_face_of_a_die_is_found(board, die, face, value):
    faces = list(independent.EFRON[die])
    assume(faces[face] != value)
    faces[face] = value
    assume(max(faces) > 0)
    dice = {**independent.EFRON, die: tuple(faces)}
    case = case_on("efron", board)
    overshoot = overshoot_of("efron", board)
    values = independent.jump_values("efron", board["goal"], board["jumps"],
                                     overshoot=overshoot, dice=dice)[0]  # fmt: skip
    table = independent.goes_to(board["goal"], board["jumps"])
    actions = {}
    for square in range(board["goal"]):
        costs = {}
        for name, sides in dice.items():
            ends = [independent.land(board["goal"], table, overshoot, square, m) for m in sides]
            if any(e != square for e in ends):
                costs[name] = 1 + sum(values[e] for e in ends) / len(ends)
        actions[square] = min(costs, key=lambda n: (costs[n] - min(costs.values()) > 1e-9, n))
    printed = printed_jump_game(case, values, actions)
    assume(is_wrong(case, printed, 0.01))
    said = named("efron", case, printed, "die-face")
    # Every face that explains the answer is offered (the engine weighs them): the one
    # mistyped must be among them. (A die's equal faces are one face: "6, 6, 3, 2, 2, 2"
    # and "6, 6, 2, 2, 2, 3" are one die.)
    dies = []
    for words in said:
        found = re.fullmatch(r"(\w+)'s faces are ([\d, ]+)", words)
        assert found is not None, words
        dies.append((found.group(1), sorted(map(int, found.group(2).split(", ")))))
    assert (die, sorted(faces)) in dies, said


@FEW
@given(trap_boards, st.integers(1, 19).filter(lambda k: k != 10))
def test_the_normal_dies_trigger_chance_is_found_with_its_two_decimals(board, twentieths):
    chance = twentieths / 20
    assume(any(board["layout"]))
    case = case_on("trap-lane", board)
    problem, solution = solved_board("trap-lane", board)
    outcome = changed_rules(normal_triggers=chance).outcome(problem, solution, case.expected, {})
    assume(outcome is not None)
    answer, accepted = outcome
    tolerance = load_assignment("trap-lane").value_tolerance
    places = max(0, -math.floor(math.log10(tolerance)))
    numbers, actions = {}, {}
    for entry in case.expected.entries_of(answer, accepted, tolerance):
        if entry.is_action:
            actions[entry.key] = min(entry.accepted)
        else:
            numbers[entry.key] = round(entry.value, places)
    printed = Printed(numbers, actions, ())
    assume(is_wrong(case, printed, tolerance))
    wanted = f"a trap goes off after the normal die with probability {chance:.6g}"
    assert wanted in named("trap-lane", case, printed, "normal-triggers")
