"""The parser reads the formats of docs/contracts.md leniently where they allow it and names the
line of anything incomplete, repeated or unparsable."""

from __future__ import annotations

import pytest

from autograder import Answer, Expected, render
from autograder._parse import OutputError, parse_output
from autograder._score import mark


def jump_expected(goal: int = 20, output: str = "values") -> Expected:
    # Any numbers do: these tests are about reading, and V[i] = i / 10 is easy to spot.
    values = tuple(i / 10 for i in range(goal + 1))
    actions = None
    accepted = None
    if output == "values-actions":
        actions = tuple(["3"] * goal + ["-"])
        accepted = tuple([frozenset({"3"})] * goal + [frozenset({"-"})])
    return Expected(Answer(output, values[0], values, actions), accepted)


def test_exact_output_reads_back_every_entry():
    expected = jump_expected()
    printed = parse_output(render(expected.answer), expected)
    assert printed.numbers["start"] == 0.0
    assert printed.numbers["17"] == pytest.approx(1.7)
    assert printed.warnings == ()
    assert mark(printed, expected, 0.01).right == 20  # start + squares 1..19


def test_crlf_blank_lines_and_chatter_are_warnings_not_errors():
    expected = jump_expected()
    lines = render(expected.answer).splitlines()
    text = "Solving the board...\r\n" + "\r\n\r\n".join(line + "   " for line in lines) + "\r\nbye"
    printed = parse_output(text, expected)
    assert printed.numbers["20"] == pytest.approx(2.0)
    joined = " ".join(printed.warnings)
    assert "CRLF" in joined
    assert "before the answer" in joined and "after the answer" in joined


def test_missing_square_names_the_line_and_square():
    expected = jump_expected()
    lines = render(expected.answer).splitlines()
    lines[2] = lines[2].replace(" 11:  1.10 ", "")
    with pytest.raises(OutputError, match="square 11"):
        parse_output("\n".join(lines), expected)


def test_repeated_block_is_an_error_naming_both_lines():
    expected = jump_expected()
    text = render(expected.answer)
    with pytest.raises(OutputError) as err:
        parse_output(text + text, expected)
    assert err.value.line == 5 and "first on line 1" in err.value.message


def test_unparsable_number_names_its_line():
    expected = jump_expected()
    lines = render(expected.answer).splitlines()
    lines[2] = lines[2].replace("1.50", "1.5x")
    with pytest.raises(OutputError) as err:
        parse_output("\n".join(lines), expected)
    assert err.value.line == 3 and "'1.5x'" in err.value.message


def test_rows_out_of_board_order_read_with_a_warning():
    expected = jump_expected()
    lines = render(expected.answer).splitlines()
    lines[2], lines[3] = lines[3], lines[2]
    printed = parse_output("\n".join(lines), expected)
    assert printed.numbers["15"] == pytest.approx(1.5)
    assert any("board order" in w for w in printed.warnings)


def test_square_off_the_board_is_an_error():
    expected = jump_expected()
    text = render(expected.answer).replace(" 20:", " 21:")
    with pytest.raises(OutputError, match="square 21 is not on this board"):
        parse_output(text, expected)


def test_the_start_printed_in_the_table_too_is_a_warning_not_an_error():
    # Square 0 is in no table (its value is the first line), yet "squares 0 to N" leads
    # a student to print it there: the rest is read as usual, and a value there is no
    # second chance to be wrong.
    expected = jump_expected()
    lines = render(expected.answer).splitlines()
    lines.insert(len(lines), "  0: 99.99 ")
    printed = parse_output("\n".join(lines), expected)
    assert mark(printed, expected, 0.01).right == 20
    assert any("square 0 is in no table" in w for w in printed.warnings)
    text = render(expected.answer).replace(" 20:", " 21:")  # any other square stays an error
    with pytest.raises(OutputError, match="square 21 is not on this board"):
        parse_output(text, expected)


def test_nothing_printed_is_an_error():
    with pytest.raises(OutputError, match="no line 'Expected turns per game"):
        parse_output("", jump_expected())


def test_actions_grid_is_read_and_marked():
    expected = jump_expected(output="values-actions")
    text = render(expected.answer).replace("  7:     3", "  7:     5")
    printed = parse_output(text, expected)
    result = mark(printed, expected, 0.01)
    assert [w.label for w in result.wrong] == ["action on square 7"]


def test_nan_and_infinity_parse_but_never_count():
    expected = jump_expected()
    text = render(expected.answer).replace("  1.20", "   nan").replace("  1.30", "   inf")
    result = mark(parse_output(text, expected), expected, 0.01)
    assert {w.label for w in result.wrong} == {"square 12", "square 13"}


def test_token_tables_must_all_be_there():
    tables = tuple(tuple(float(i + k) for i in range(11)) for k in range(3))
    expected = Expected(Answer("token-values", tables[2][0], tables))
    text = render(expected.answer)
    assert parse_output(text, expected).numbers["4@1"] == 5.0
    cut = text[: text.index("with 0 tokens")]
    with pytest.raises(OutputError, match="with 0 tokens"):
        parse_output(cut, expected)


def trap_expected() -> Expected:
    values = tuple(float(15 - s) for s in range(1, 15))
    dice = tuple("1" for _ in values)
    return Expected(
        Answer("trap-lane", values[0], values, dice), tuple(frozenset("1") for _ in dice)
    )


def test_trap_lane_rows_read_and_incomplete_table_named():
    expected = trap_expected()
    text = render(expected.answer)
    printed = parse_output(text, expected)
    assert printed.numbers["14"] == 1.0 and printed.actions["14:die"] == "1"
    cut = "\n".join(text.splitlines()[:-2])
    with pytest.raises(OutputError, match="squares 13, 14"):
        parse_output(cut, expected)
