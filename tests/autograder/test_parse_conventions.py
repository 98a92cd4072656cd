"""The reading conventions of docs/contracts.md and shared/spec/CONTRACTS.md ("Output
formats"): token tables found by their headings in any order, the trap lane's first entry
named as the program prints it, unreadable lines shown with the shape they should have, any
number form ``float`` reads, and blank lines inside the answer warned about once per block.

The texts parsed here are written by hand from the format rules (``"%3d: %5.2f "`` cells in
rows of 10, the top row first, alternating direction; ``"%2d %8.4f %s"`` trap-lane rows), and
the numbers expected are what ``float`` reads from the tokens written.
"""

from __future__ import annotations

import itertools
import re

import pytest

from autograder import Answer, Expected, render
from autograder._formats import output_format
from autograder._parse import OutputError, parse_output
from autograder._score import mark

GOAL = 20
VALUE_ROW = "'  1: 39.60   2: 39.79 ...'"
TRAP_ROW_5 = "' 5   6.6674 3' (square, expected cost, die)"


def snake_rows(goal: int) -> list[list[int]]:
    """Squares as a board prints them: rows of 10, the top row first; the row holding
    1..10 reads left to right, the next one right to left, and so on."""
    rows = []
    for r in range(goal // 10):
        squares = list(range(10 * r + 1, 10 * r + 11))
        rows.append(squares if r % 2 == 0 else squares[::-1])
    return rows[::-1]


def grid(goal: int, token) -> list[str]:
    """The grid lines, each cell ``"%3d: %5s "`` around ``token(square)``."""
    return ["".join("%3d: %5s " % (s, token(s)) for s in row) for row in snake_rows(goal)]


# --- answers with easy numbers -------------------------------------------------------------


def token_value(tokens: int, square: int) -> float:
    return 0.0 if square == GOAL else 30 * tokens + square + 0.25  # exact in binary


TOKENS = 2
TOKEN_ANSWER = Answer(
    "token-values",
    21.0,
    tuple(tuple(token_value(k, s) for s in range(GOAL + 1)) for k in range(TOKENS + 1)),
)
TOKEN_EXPECTED = Expected(TOKEN_ANSWER)


def token_block(tokens: int) -> list[str]:
    heading = f"Expected turns remaining by position with {tokens} tokens:"
    return [heading, *grid(GOAL, lambda s: "%5.2f" % token_value(tokens, s))]


def token_text(order) -> str:
    blocks = [line for k in order for line in token_block(k)]
    return "\n".join(["Expected turns per game: 21.00", *blocks]) + "\n"


TOKEN_NUMBERS = {"start": 21.0} | {
    f"{s}@{k}": token_value(k, s) for k in range(TOKENS + 1) for s in range(1, GOAL + 1)
}


def values_expected(goal: int = GOAL) -> Expected:
    values = tuple(float(goal - s) for s in range(goal + 1))  # V[s] = goal - s
    return Expected(Answer("values", float(goal), values))


def values_text(goal: int = GOAL) -> list[str]:
    return [
        f"Expected turns per game: {goal:.2f}",
        "Expected turns remaining by position:",
        *grid(goal, lambda s: "%5.2f" % (goal - s)),
    ]


def trap_expected() -> Expected:
    values = tuple(15.0 - s for s in range(1, 15))  # square s: 15 - s
    dice = ("3",) * 14
    return Expected(Answer("trap-lane", 14.0, values, dice), (frozenset({"3"}),) * 14)


def trap_lines() -> list[str]:
    rows = ["%2d %8.4f %s" % (s, 15.0 - s, "3") for s in range(1, 15)]
    return ["Expected cost from square 1: 14.00", "square expected dice", *rows]


def actions_expected(names: tuple[str, ...]) -> Expected:
    values = tuple(float(GOAL - s) for s in range(GOAL + 1))
    actions = (*(names[s % len(names)] for s in range(GOAL)), "-")
    accepted = tuple(frozenset({a}) for a in actions)
    return Expected(Answer("values-actions", float(GOAL), values, actions), accepted)


def actions_lines(expected: Expected) -> list[str]:
    actions = expected.answer.actions
    assert actions is not None
    return [
        *values_text(),
        "Optimal action by position:",
        *grid(GOAL, lambda s: actions[s]),
    ]


def error(text: str, expected: Expected, quote: bool = True) -> OutputError:
    with pytest.raises(OutputError) as err:
        parse_output(text, expected, quote=quote)
    assert "\n" not in str(err.value)  # one line of feedback
    return err.value


# --- 1. token tables are found by their headings -------------------------------------------


def test_render_prints_the_token_tables_most_tokens_first():
    assert render(TOKEN_ANSWER) == token_text([2, 1, 0])


@pytest.mark.parametrize("order", list(itertools.permutations(range(TOKENS + 1))))
def test_token_tables_in_any_order_read_the_same(order):
    printed = parse_output(token_text(order), TOKEN_EXPECTED)
    assert printed.numbers == TOKEN_NUMBERS
    assert printed.warnings == ()
    result = mark(printed, TOKEN_EXPECTED, 0.0)
    assert (result.right, result.total) == (1 + 3 * (GOAL - 1), 1 + 3 * (GOAL - 1))


def test_a_token_table_printed_twice_is_an_error_naming_both_headings():
    # start (1), table 1 (2-4), table 2 (5-7), table 0 (8-10), table 2 again (11-13)
    err = error(token_text([1, 2, 0, 2]), TOKEN_EXPECTED)
    assert str(err) == (
        "line 11: 'Expected turns remaining by position with 2 tokens:' is printed again "
        "(first on line 5)"
    )


def test_a_missing_token_table_is_an_error_naming_its_heading():
    err = error(token_text([0, 2]), TOKEN_EXPECTED)
    assert str(err) == (
        "no line 'Expected turns remaining by position with 1 tokens:' in the output"
    )


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("Expected turns per game: 21.00", "expected turns per game = 21.0", 1),
        ("with 1 tokens:", "with 1 token:", None),
        ("Expected turns remaining by position with 2 tokens:",
         "Expected Turns Remaining By Position With 2 Tokens", 2),
    ],
    ids=["lower-case-equals", "singular", "title-case"],
)  # fmt: skip
def test_a_heading_that_comes_close_is_pointed_to(old, new, line):
    text = token_text([2, 1, 0])
    assert old in text
    err = error(text.replace(old, new, 1), TOKEN_EXPECTED)
    near = line or next(i for i, t in enumerate(text.splitlines(), 1) if old in t)
    assert err.line == near
    assert err.message.endswith(
        "in the output; this one comes close, but must read exactly so (capitals, the colon)"
    )
    # A heading with other numbers is no near miss (another table's).
    far = error(text.replace("with 1 tokens:", "with 3 tokens:"), TOKEN_EXPECTED)
    assert far.line is None and "comes close" not in far.message


def test_a_token_table_before_the_first_line_is_an_error():
    lines = token_text([2, 0]).splitlines()
    text = "\n".join(token_block(1) + lines) + "\n"
    err = error(text, TOKEN_EXPECTED)
    assert str(err) == (
        "line 1: 'Expected turns remaining by position with 1 tokens:' comes before the "
        "lines it should follow"
    )


def test_a_cut_token_table_is_still_an_error_in_any_order():
    lines = token_text([0, 2, 1]).splitlines()
    del lines[3]  # the row 1..10 of the 0-token table (line 2: its heading, 3: row 20..11)
    err = error("\n".join(lines), TOKEN_EXPECTED)
    assert err.line == 4
    assert "squares 1, 2, 3, 4, 5, 6, 7, 8 ..." in err.message
    assert "expected turns remaining by position with 0 tokens" in err.message


def test_the_action_table_still_follows_the_value_table():
    expected = actions_expected(("1", "2", "3"))
    lines = actions_lines(expected)
    swapped = lines[:1] + lines[4:] + lines[1:4]  # the action table, then the values
    err = error("\n".join(swapped), expected)
    assert (
        str(err) == "line 2: 'Optimal action by position:' comes before the lines it should follow"
    )


# --- 2. the trap lane's first entry is named as printed ------------------------------------


def test_the_trap_lane_first_entry_is_the_expected_cost_from_square_1():
    expected = trap_expected()
    entries = output_format("trap-lane").entries(expected.answer, expected.accepted, 0.01)
    assert (entries[0].key, entries[0].label) == ("start", "expected cost from square 1")
    lines = trap_lines()
    lines[0] = "Expected cost from square 1: 13.00"
    result = mark(parse_output("\n".join(lines), expected), expected, 0.01)
    assert result.listing() == ["expected cost from square 1: printed 13.00, expected 14.00"]


# --- 3. an unreadable line is shown with the shape it should have --------------------------


def test_a_word_for_a_grid_value_shows_the_row_shape():
    lines = values_text()
    lines[3] = lines[3].replace("  3: 17.00 ", "  3:   abc ")  # the row 1..10, line 4
    text = "\n".join(lines)
    shape = f"a row of the table reads like {VALUE_ROW}"
    assert str(error(text, values_expected())) == (
        f"line 4: 'abc' is not a number (square 3); {shape}"
    )
    hidden = str(error(text, values_expected(), quote=False))
    assert hidden == f"line 4: a word is not a number (square 3); {shape}"


def test_a_word_for_the_first_value_shows_the_line_shape():
    lines = values_text()
    lines[0] = "Expected turns per game: abc"
    assert str(error("\n".join(lines), values_expected())) == (
        "line 1: 'abc' is not a number (expected turns per game); "
        "the line reads like 'Expected turns per game: 39.60'"
    )


def test_a_word_in_a_token_table_shows_the_row_shape():
    lines = token_text([2, 1, 0]).splitlines()
    lines[6] = lines[6].replace(" 37.25", "  x.yz")  # the 1-token table, square 7: line 7
    assert str(error("\n".join(lines), TOKEN_EXPECTED)) == (
        f"line 7: 'x.yz' is not a number (square 7); a row of the table reads like {VALUE_ROW}"
    )


def test_a_grid_line_that_is_not_a_row_is_named_with_the_row_shape():
    lines = values_text()
    lines[3] = "  1 19.00   2 18.00"  # no colons
    text = "\n".join(lines)
    what = "expected turns remaining by position"
    assert str(error(text, values_expected())) == (
        f"line 4: '  1 19.00   2 18.00' is not a row of the table ({what}); "
        f"a row reads like {VALUE_ROW}"
    )
    hidden = str(error(text, values_expected(), quote=False))
    assert hidden == (
        f"line 4: the line is not a row of the table ({what}); a row reads like {VALUE_ROW}"
    )
    assert "19.00" not in hidden


def test_a_table_that_is_missing_shows_the_row_shape():
    lines = values_text()
    text = "\n".join([*lines[:2], "Done."])
    assert str(error(text, values_expected())) == (
        "line 3: the table after line 2 is missing (expected turns remaining by position); "
        f"a row reads like {VALUE_ROW}"
    )


@pytest.mark.parametrize(
    ("names", "row"),
    [
        (("1", "2", "3"), "'  1:     3   2:     5 ...'"),
        (("Blue", "Red"), "'  1:  Blue   2:   Red ...'"),
    ],
)
def test_an_action_grid_cut_short_shows_its_own_row_shape(names, row):
    expected = actions_expected(names)
    lines = actions_lines(expected)
    text = "\n".join([*lines[:-1], "bye"])  # the row 1..10 of the actions is gone
    err = error(text, expected)
    assert err.line == 7
    assert err.message.endswith(f"(optimal action by position); a row reads like {row}")


def test_a_trap_row_that_does_not_read_shows_the_row_shape():
    lines = trap_lines()
    lines[6] = " 5  x.y"  # square 5's row, line 7
    text = "\n".join(lines)
    assert str(error(text, trap_expected())) == (
        f"line 7: ' 5  x.y' is not a row of the table; a row reads like {TRAP_ROW_5}"
    )
    hidden = str(error(text, trap_expected(), quote=False))
    assert hidden == f"line 7: the line is not a row of the table; a row reads like {TRAP_ROW_5}"


def test_a_word_for_a_trap_value_shows_the_row_shape():
    lines = trap_lines()
    lines[6] = " 5   abc 3"
    text = "\n".join(lines)
    assert str(error(text, trap_expected())) == (
        f"line 7: 'abc' is not a number (square 5); a row of the table reads like {TRAP_ROW_5}"
    )
    hidden = str(error(text, trap_expected(), quote=False))
    assert "abc" not in hidden and hidden.endswith(TRAP_ROW_5)


def test_a_word_for_the_trap_first_value_shows_the_line_shape():
    lines = trap_lines()
    lines[0] = "Expected cost from square 1: abc"
    assert str(error("\n".join(lines), trap_expected())) == (
        "line 1: 'abc' is not a number (expected cost from square 1); "
        "the line reads like 'Expected cost from square 1: 6.67'"
    )


def test_chatter_inside_the_trap_table_names_the_rows_missing_and_the_shape():
    lines = trap_lines()
    lines.insert(6, "computing...")  # before square 5's row
    assert str(error("\n".join(lines), trap_expected())) == (
        "line 2: the table after line 2 has no row for squares 5, 6, 7, 8, 9, 10, 11, 12, "
        f"13, 14; a row reads like {TRAP_ROW_5}"
    )


# --- 4. any number form float reads --------------------------------------------------------

# Each the same number as Python's float reads it.
FORMS_39_6 = ("39.6", "3.96e1", "+39.60", "3.960E+01", "39.600000", "396e-1")


def test_number_forms_read_as_float_reads_them():
    # Every value square of a 20-square board is 39.6 (the goal 0), printed in turn in each
    # form; the first line too.
    values = (39.6,) * GOAL + (0.0,)
    expected = Expected(Answer("values", 39.6, values))
    forms = itertools.cycle(FORMS_39_6)
    lines = [
        "Expected turns per game: 3.960E+01",
        "Expected turns remaining by position:",
        *grid(GOAL, lambda s: "0.00" if s == GOAL else next(forms)),
    ]
    printed = parse_output("\n".join(lines), expected)
    assert printed.numbers == {"start": 39.6} | {str(s): 39.6 for s in range(1, GOAL)} | {
        str(GOAL): 0.0
    }
    assert mark(printed, expected, 0.0).right == GOAL  # the start and squares 1..19


@pytest.mark.parametrize("forms", [("39.598365", "3.9598365e1"), ("+39.60", "3.960E+01")])
def test_number_forms_in_token_tables(forms):
    tokens = itertools.cycle(forms)
    text_lines = ["Expected turns per game: " + forms[1]]
    for k in (2, 1, 0):
        text_lines.append(f"Expected turns remaining by position with {k} tokens:")
        text_lines += grid(GOAL, lambda s: next(tokens))
    printed = parse_output("\n".join(text_lines), TOKEN_EXPECTED)
    value = float(forms[0])
    assert float(forms[1]) == value  # the two forms are one number
    assert set(printed.numbers.values()) == {value}
    assert printed.numbers.keys() == TOKEN_NUMBERS.keys()


def test_number_forms_in_the_trap_lane():
    expected = Expected(
        Answer("trap-lane", 6.67, (6.6674,) * 14, ("2",) * 14), (frozenset({"2"}),) * 14
    )
    forms = itertools.cycle(("6.6674", "6.6674e0", "+6.6674", "6.6674E+00", "66.674e-1"))
    lines = ["Expected cost from square 1: +6.670E+00", "square expected dice"]
    lines += ["%2d %8s %s" % (s, next(forms), "2") for s in range(1, 15)]
    printed = parse_output("\n".join(lines), expected)
    assert printed.numbers == {"start": 6.67} | {str(s): 6.6674 for s in range(1, 15)}
    assert printed.warnings == ()
    assert mark(printed, expected, 0.0).right == 29


# An aim or a die's code is a number too: printed from an array of floats ("2.0") or in
# another form float reads, it is that action; text that is no whole number stays as printed.
AIM_FORMS = {"2.0": "2", "02": "2", "+2": "2", "2e0": "2", "2.00": "2"}
NOT_AN_AIM = ("2.5", "two", "nan", "inf", "-")


@pytest.mark.parametrize(("form", "aim"), AIM_FORMS.items())
def test_an_aim_is_read_as_a_number(form, aim):
    expected = actions_expected(("1", "2", "3"))
    actions = expected.answer.actions
    assert actions is not None
    lines = [*values_text(), "Optimal action by position:"]
    lines += grid(GOAL, lambda s: form if actions[s] == aim else actions[s])
    printed = parse_output("\n".join(lines), expected)
    assert {printed.actions[f"{s}:action"] for s in range(1, GOAL) if actions[s] == aim} == {aim}
    assert mark(printed, expected, 0.0).right == mark(parse_output(
        "\n".join(actions_lines(expected)), expected), expected, 0.0).right  # fmt: skip


@pytest.mark.parametrize("form", NOT_AN_AIM)
def test_text_that_is_no_whole_number_is_kept_as_printed(form):
    expected = actions_expected(("1", "2", "3"))
    lines = [*values_text(), "Optimal action by position:", *grid(GOAL, lambda s: form)]
    printed = parse_output("\n".join(lines), expected)
    assert printed.actions["1:action"] == form
    assert mark(printed, expected, 0.0).wrong  # and it is no aim


def test_a_die_named_by_a_word_is_not_read_as_a_number():
    """Efron's dice have names: "2.0" there is text, not the second die."""
    expected = actions_expected(("Blue", "Black"))
    lines = [*values_text(), "Optimal action by position:", *grid(GOAL, lambda s: "2.0")]
    assert parse_output("\n".join(lines), expected).actions["1:action"] == "2.0"


@pytest.mark.parametrize("form", ["3.0", "3.", "03", "3e0"])
def test_a_trap_lane_die_is_read_as_a_number(form):
    lines = trap_lines()
    lines[2:] = ["%2d %8.4f %s" % (s, 15.0 - s, form) for s in range(1, 15)]
    printed = parse_output("\n".join(lines), trap_expected())
    assert set(printed.actions.values()) == {"3"}
    assert mark(printed, trap_expected(), 0.0).right == 29


# --- 5. blank lines: one warning per block; none for the reference format ------------------


def one_each(actions: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    return tuple(frozenset({a}) for a in actions)


def reference_answers() -> list[Expected]:
    goal = 100
    values = (*(round(50 - s / 2.5, 4) for s in range(goal)), 0.0)
    aims = (*(str(1 + s % 6) for s in range(goal)), "-")
    dice = (*(("Blue", "Black", "Red", "Green")[s % 4] for s in range(goal)), "-")
    tables = tuple((*(v - k for v in values[:-1]), 0.0) for k in range(4))
    trap = tuple(15.0 - s / 3 for s in range(1, 15))
    return [
        Expected(Answer("values", values[0], values)),
        Expected(Answer("values", -values[0], values, None, "discounted")),
        Expected(Answer("values-actions", values[0], values, aims), one_each(aims)),
        Expected(Answer("values-actions", values[0], values, dice), one_each(dice)),
        Expected(Answer("token-values", tables[3][0], tables)),
        Expected(
            Answer("trap-lane", trap[0], trap, ("1", "2", "3") * 4 + ("1", "2")),
            (frozenset({"1", "2", "3"}),) * 14,
        ),
    ]


@pytest.mark.parametrize("expected", reference_answers(), ids=lambda e: e.answer.output)
def test_the_reference_format_gets_no_warning(expected):
    text = render(expected.answer)
    if expected.answer.output != "trap-lane":
        assert text.splitlines()[2].endswith(" ")  # "%5.2f " cells: every row ends with one
    printed = parse_output(text, expected)
    assert printed.warnings == ()
    # Trailing spaces, and blank lines after the answer, are not worth a warning either.
    spaced = "\n".join(line + "  \t" for line in text.splitlines()) + "\n\n\n"
    assert parse_output(spaced, expected).warnings == ()


def test_a_blank_line_inside_a_grid_is_one_warning():
    lines = values_text()
    lines.insert(3, "")  # between the rows 20..11 and 1..10
    printed = parse_output("\n".join(lines), values_expected())
    assert printed.numbers["1"] == 19.0
    assert printed.warnings == (
        "1 blank line inside the answer (line 4, in the table after line 2)",
    )


def test_blank_lines_in_one_grid_are_one_warning_naming_the_first():
    lines = values_text()
    lines[3:3] = ["", "   ", "\t"]  # between the rows, spaces only count as blank
    lines.insert(2, "")  # between the heading and the first row
    printed = parse_output("\n".join(lines), values_expected())
    assert printed.warnings == (
        "4 blank lines inside the answer (line 3, in the table after line 2)",
    )


def test_blank_lines_in_two_token_tables_are_two_warnings():
    lines = token_text([2, 1, 0]).splitlines()
    lines.insert(9, "")  # the 0-token table, between its rows (heading on line 8)
    lines.insert(3, "")  # the 2-token table, between its rows (heading on line 2)
    printed = parse_output("\n".join(lines), TOKEN_EXPECTED)
    assert printed.numbers == TOKEN_NUMBERS
    assert printed.warnings == (
        "1 blank line inside the answer (line 4, in the table after line 2)",
        "1 blank line inside the answer (line 11, in the table after line 9)",
    )


def test_a_blank_line_between_the_blocks_is_one_warning():
    lines = values_text()
    lines.insert(1, "")
    printed = parse_output("\n".join(lines), values_expected())
    assert printed.warnings == ("1 blank line inside the answer (line 2, outside the tables)",)


def test_a_blank_line_inside_the_trap_table_is_one_warning():
    lines = trap_lines()
    lines.insert(5, "")  # between squares 3 and 4
    lines.insert(12, "")  # between squares 9 and 10
    printed = parse_output("\n".join(lines), trap_expected())
    assert printed.numbers["4"] == 11.0 and printed.numbers["14"] == 1.0
    assert printed.warnings == (
        "2 blank lines inside the answer (line 6, in the table after line 2)",
    )


def test_blank_lines_around_the_answer_are_not_warned_about():
    text = "\n\n" + "\n".join(trap_lines()) + "\n\n\n"
    assert parse_output(text, trap_expected()).warnings == ()


def test_cells_without_a_space_between_them_are_named_as_run_together():
    """Cells written ``"%3d:%7.3f"`` read on boards of up to 100 squares, where the square
    number's padding keeps them apart; from 101 on, a value meets the next square's number."""
    from autograder._texts import hidden_unreadable

    goal = 120
    values = (*(float(goal - s) for s in range(goal)), 0.0)
    expected = Expected(Answer("values", values[0], values))
    lines = ["Expected turns per game: 120.00", "Expected turns remaining by position:"]
    lines += ["".join("%3d:%7.3f" % (s, values[s]) for s in row) for row in snake_rows(goal)]
    err = error("\n".join(lines), expected)
    assert str(err) == (
        "line 3: two entries run together (expected turns remaining by position): end each "
        f"value with a space, as a row does: {VALUE_ROW}"
    )
    hidden = hidden_unreadable(str(err).partition(": ")[2])
    assert hidden.endswith(
        "two entries of a table run together: end each value with a space, as the handout's rows do"
    )
    assert not re.search(r"\d", hidden)  # nothing of the board's size
    # On 100 squares the same cells read (the top row starts with square 100).
    lines = ["Expected turns per game: 100.00", "Expected turns remaining by position:"]
    hundred = (*(float(100 - s) for s in range(100)), 0.0)
    lines += ["".join("%3d:%7.3f" % (s, hundred[s]) for s in row) for row in snake_rows(100)]
    printed = parse_output("\n".join(lines), Expected(Answer("values", 100.0, hundred)))
    assert printed.numbers["99"] == 1.0


def test_a_module_s_dice_as_floats_print_as_the_dice_they_are(tmp_path):
    """The trap lane's runner prints what markovDecision returns: 3.0 is die 3, while 2.7
    is no die (not die 2, as int() would make it)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    import autograder

    runner = Path(autograder.__file__).parent / "_trap_runner.py"
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"layout": [0] * 15, "circle": False}))
    module = tmp_path / "dice.py"
    module.write_text("def markovDecision(layout, circle):\n"
                      "    return [[1.0] * 14, [3.0] * 13 + [2.7]]\n")  # fmt: skip
    done = subprocess.run([sys.executable, str(runner), str(module), str(board)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    rows = done.stdout.splitlines()[2:]
    assert [row.split()[2] for row in rows] == ["3"] * 13 + ["2.7"]
