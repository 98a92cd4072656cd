from __future__ import annotations

import pytest

from autograder import Answer, UsageError, board_rows, render


def test_rows_snake_like_the_physical_board():
    rows = board_rows(100)
    assert len(rows) == 10
    assert rows[0] == list(range(100, 90, -1))  # top row reads 100 down to 91
    assert rows[1] == list(range(81, 91))
    assert rows[-1] == list(range(1, 11))  # bottom row reads left to right
    assert sorted(square for row in rows for square in row) == list(range(1, 101))


@pytest.mark.parametrize("goal", [45, 5, 101])
def test_goal_must_be_a_multiple_of_ten_to_print(goal):
    with pytest.raises(UsageError, match="multiple of 10"):
        board_rows(goal)


def test_value_table_format():
    values = tuple(float(i) for i in range(20, -1, -1))  # V[0] = 20 ... V[20] = 0
    text = render(Answer("values", 20.0, values))
    lines = text.splitlines()
    assert lines[0] == "Expected turns per game: 20.00"
    assert lines[1] == "Expected turns remaining by position:"
    assert lines[2].startswith(" 20:  0.00  19:  1.00 ")
    assert lines[3].startswith("  1: 19.00   2: 18.00 ")
    assert lines[2].count(":") == 10 and len(lines) == 4


def test_token_tables_most_tokens_first():
    table = tuple(0.0 for _ in range(11))
    text = render(Answer("token-values", 3.0, (table, table, table)))
    headers = [line for line in text.splitlines() if "tokens" in line]
    assert headers == [
        "Expected turns remaining by position with 2 tokens:",
        "Expected turns remaining by position with 1 tokens:",
        "Expected turns remaining by position with 0 tokens:",
    ]


def test_action_grid_shows_the_goal_as_dash():
    values = tuple([1.0] * 10 + [0.0])
    actions = tuple(["Blue"] * 10 + ["-"])
    lines = render(Answer("values-actions", 1.0, values, actions)).splitlines()
    assert lines[3] == "Optimal action by position:"
    assert lines[4].startswith("  1:  Blue   2:  Blue ")  # one row: 1..10, left to right
    assert lines[4].endswith(" 10:     - ")


def test_trap_lane_format():
    text = render(Answer("trap-lane", 6.66741, (6.66741,) * 14, ("3",) * 14))
    lines = text.splitlines()
    assert lines[:3] == [
        "Expected cost from square 1: 6.67",
        "square expected dice",
        " 1   6.6674 3",
    ]
    assert lines[-1] == "14   6.6674 3"


def test_feedback_names_a_square_with_one_token_in_the_singular():
    from autograder._formats import output_format

    tables = tuple(tuple(float(t + s) for s in range(11)) for t in range(3))
    answer = Answer("token-values", 12.0, tables)
    labels = {e.key: e.label for e in output_format("token-values").entries(answer, None, 0.01)}
    assert labels["4@0"] == "square 4 with 0 tokens"
    assert labels["4@1"] == "square 4 with 1 token"
    assert labels["4@2"] == "square 4 with 2 tokens"
    # The heading a program prints keeps the contract's words.
    assert "Expected turns remaining by position with 1 tokens:" in render(answer)
