"""The print formats of CONTRACTS.md ("Output formats"), rendered from an :class:`Answer`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ._answer import Answer
from ._errors import UsageError

__all__ = ["board_rows", "render"]


def board_rows(goal: int) -> list[list[int]]:
    """Squares ``1..goal`` as printed: rows of 10, top row first, alternating direction.

    The row holding 1..10 reads left to right, the next right to left, as on the board.
    """
    if goal < 10 or goal % 10:
        raise UsageError(
            "",
            f"goal {goal} is not a multiple of 10, so the table cannot be printed "
            "(--json works for any goal)",
        )
    rows = []
    for r in range(goal // 10):
        squares = list(range(10 * r + 1, 10 * r + 11))
        rows.append(squares if r % 2 == 0 else squares[::-1])
    return rows[::-1]


def _grid(goal: int, cell: Callable[[int], str]) -> list[str]:
    return ["".join(cell(square) for square in row) for row in board_rows(goal)]


def _value_grid(values: Sequence[float]) -> list[str]:
    return _grid(len(values) - 1, lambda i: "%3d: %5.2f " % (i, values[i]))


def _labels(objective: str) -> tuple[str, str]:
    if objective == "discounted":
        return "Expected discounted reward per game", "Expected discounted reward by position"
    return "Expected turns per game", "Expected turns remaining by position"


def render(answer: Answer) -> str:
    """The exact text a correct submission prints (ending with a newline)."""
    per_game, by_position = _labels(answer.objective)
    lines = [f"{per_game}: {answer.start_value:.2f}"]
    if answer.output == "trap-lane":
        lines = [f"Expected cost from square 1: {answer.start_value:.2f}", "square expected dice"]
        assert answer.actions is not None
        for square, (value, die) in enumerate(zip(answer.values, answer.actions, strict=True), 1):
            lines.append(f"{square:2d} {value:8.4f} {die}")
    elif answer.output == "token-values":
        for tokens in range(len(answer.values) - 1, -1, -1):
            lines.append(f"{by_position} with {tokens} tokens:")
            lines += _value_grid(answer.values[tokens])
    else:
        lines.append(f"{by_position}:")
        lines += _value_grid(answer.values)
        if answer.output == "values-actions":
            actions = answer.actions
            assert actions is not None
            lines.append("Optimal action by position:")
            lines += _grid(len(actions) - 1, lambda i: "%3d: %5s " % (i, actions[i]))
    return "\n".join(lines) + "\n"
