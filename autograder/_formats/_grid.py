"""The jump boards' print formats: the board drawn as rows of 10 squares.

``values`` (classic, boosted) prints one value table; ``token-values`` one table per token
count, most tokens first, each read by its heading; ``values-actions`` (aimed, efron) the
value table and then the same grid with the action chosen on each square.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from .._answer import Answer, Entry, Objective
from .._errors import UsageError
from ._reading import Printed, Reader, numbered_action, read_number
from ._registry import OutputFormat, register_format

__all__ = ["ROW", "GridFormat", "board_rows", "grid_goal_problem", "labels"]

ROW = 10  # squares per printed row


def grid_goal_problem(goal: int) -> str:
    """Why a board of ``goal`` squares cannot be printed as rows of 10, or ``""``."""
    if goal < ROW or goal % ROW:
        return f"goal {goal} is not a multiple of {ROW}, so the table cannot be printed"
    return ""


def board_rows(goal: int) -> list[list[int]]:
    """Squares ``1..goal`` as printed: rows of 10, top row first, alternating direction.

    The row holding 1..10 reads left to right, the next right to left, as on the board.
    """
    problem = grid_goal_problem(goal)
    if problem:
        raise UsageError("", f"{problem} (--json works for any goal)")
    rows = []
    for r in range(goal // ROW):
        squares = list(range(ROW * r + 1, ROW * r + ROW + 1))
        rows.append(squares if r % 2 == 0 else squares[::-1])
    return rows[::-1]


def labels(objective: Objective) -> tuple[str, str]:
    """The first line's label and the value table's heading."""
    if objective == "discounted":
        return "Expected discounted reward per game", "Expected discounted reward by position"
    return "Expected turns per game", "Expected turns remaining by position"


_ACTIONS = "Optimal action by position:"
_NUMBER = r"\s*(\S+)\s*"
# What a row of a table looks like, for the errors (an example, never the expected answer:
# the same text on every board, so it is shown even where printed text is not quoted).
_VALUE_ROW = "'  1: 39.60   2: 39.79 ...'"
_VALUE_SHAPE = f"a row of the table reads like {_VALUE_ROW}"


def _numbered(actions: Sequence[str] | None) -> bool:
    """Whether the actions are numbers (aims) rather than names (dice); the goal's is ``-``."""
    return actions is not None and len(actions) > 0 and all(a.isdigit() for a in actions[:-1])


def _action_row(actions: Sequence[str] | None) -> str:
    """A row of the action grid: aims (digits) or dice (names), as the assignment prints."""
    if _numbered(actions):
        return "'  1:     3   2:     5 ...'"
    return "'  1:  Blue   2:   Red ...'"


class GridFormat(OutputFormat):
    """A first line with the start value, then value tables (one per token count when
    ``layered``), then the action grid when ``prints_actions``."""

    family = "jump"

    def __init__(self, name: str, *, layered: bool = False, prints_actions: bool = False):
        self.name = name
        self.layered = layered
        self.prints_actions = prints_actions

    def layers(self, answer: Answer) -> list[Sequence[float]]:
        """The value lists, by tokens left (just one unless ``layered``)."""
        return list(answer.values) if self.layered else [answer.values]

    def table_of(self, key: str) -> str | None:
        """Token tables: ``square@tokens``."""
        return key.partition("@")[2] or None if self.layered else None

    def table_words(self, table: str) -> str:
        """``table`` (one token count, or several joined) with the word that agrees."""
        return f"{table} token" + ("" if table == "1" else "s")

    def table_caption(self, table: int) -> str | None:
        if not self.layered:
            return None
        return f"with {table} token{'s' if table != 1 else ''} left"

    def goal_values(self, answer: Answer) -> list[float]:
        return [float(layer[-1]) for layer in self.layers(answer)]

    def goal(self, answer: Answer) -> int:
        return len(self.layers(answer)[0]) - 1

    def _heading(self, by_position: str, tokens: int | None) -> str:
        return by_position + ("" if tokens is None else f" with {tokens} tokens")

    def _tables(self, answer: Answer) -> list[tuple[int | None, Sequence[float]]]:
        """``(tokens, values)`` in print order: most tokens first."""
        layers = self.layers(answer)
        if not self.layered:
            return [(None, layers[0])]
        return [(k, layers[k]) for k in range(len(layers) - 1, -1, -1)]

    def render(self, answer: Answer) -> str:
        per_game, by_position = labels(answer.objective)
        lines = [f"{per_game}: {answer.start_value:.2f}"]
        for tokens, values in self._tables(answer):
            lines.append(f"{self._heading(by_position, tokens)}:")
            lines += _grid(len(values) - 1, _value_cell(values))
        if self.prints_actions:
            actions = answer.actions
            assert actions is not None
            lines.append(_ACTIONS)
            lines += _grid(len(actions) - 1, lambda i: "%3d: %5s " % (i, actions[i]))
        return "\n".join(lines) + "\n"

    def parse(self, text: str, answer: Answer, *, quote: bool = True) -> Printed:
        reader = Reader(text, quote)
        goal = self.goal(answer)
        squares = range(1, goal + 1)
        order = [s for row in board_rows(goal) for s in row]
        per_game, by_position = labels(answer.objective)
        line, m = reader.header(r"\s*" + per_game + ":" + _NUMBER, per_game + ": ...", 0)
        first_shape = f"the line reads like '{per_game}: 39.60'"
        numbers = {
            "start": read_number(m.group(1), line + 1, per_game.lower(), reader.quote, first_shape)
        }
        actions: dict[str, str] = {}
        # Each value table is found by its heading, anywhere after the first line: the
        # tables may come in any order. They are then read in the order they are printed.
        heads = []
        for tokens, _ in self._tables(answer):
            title = self._heading(by_position, tokens)
            head, _ = reader.header(r"\s*" + title + r":\s*", title + ":", line)
            heads.append((head, tokens, title))
        end = line + 1
        for head, tokens, title in sorted(heads, key=lambda h: h[0]):
            grid, at = reader.grid(head, squares, title.lower(), order, _VALUE_ROW)
            end = max(end, at)
            suffix = "" if tokens is None else f"@{tokens}"
            for square, (token, at_line) in grid.items():
                numbers[f"{square}{suffix}"] = read_number(
                    token, at_line, f"square {square}", reader.quote, _VALUE_SHAPE
                )
        if self.prints_actions:
            head, _ = reader.header(r"\s*" + _ACTIONS + r"\s*", _ACTIONS, end)
            shape = _action_row(answer.actions)
            grid, _ = reader.grid(head, squares, "optimal action by position", order, shape)
            read = numbered_action if _numbered(answer.actions) else str
            actions.update({f"{s}:action": read(token) for s, (token, _) in grid.items()})
        return Printed(numbers, actions, reader.finish())

    def entries(
        self,
        answer: Answer,
        accepted: Sequence[frozenset[str]] | None,
        value_tolerance: float,
    ) -> list[Entry]:
        """The first value, every square's value and, where printed, every square's
        action. The goal's own entries (``0.00``, ``-``) are the same in every program, so
        they are not graded."""
        start_tol, tol = self.tolerances(value_tolerance)
        per_game = "expected turns per game" if answer.objective == "turns" else "value per game"
        out = [Entry("start", per_game, answer.start_value, tolerance=start_tol)]
        goal = self.goal(answer)
        # (Positional arguments: a frozen dataclass takes keywords at half the speed, and the
        # catalogue lists some 9,000 entries for each token-boosted student.)
        for tokens, values in self._tables(answer):
            out += [
                Entry(key, label, float(values[s]), None, tol)
                for s, key, label in _square_names(goal, tokens)
            ]
        if self.prints_actions:
            assert accepted is not None
            out += [
                Entry(f"{s}:action", f"action on square {s}", None, accepted[s])
                for s in range(1, goal)
            ]
        return out


@functools.lru_cache(maxsize=64)
def _square_names(goal: int, tokens: int | None) -> tuple[tuple[int, str, str], ...]:
    """``(square, key, label)`` of squares ``1..goal - 1`` in the table for ``tokens``: the
    same for every answer to one board, and the catalogue lists some twenty answers per
    board (a variant's whole key in 0.47 ms, of which these names took half)."""
    # (a printed heading keeps "with 1 tokens", the contract's words; feedback not)
    plural = "" if tokens == 1 else "s"
    suffix, said = ("", "") if tokens is None else (f"@{tokens}", f" with {tokens} token{plural}")
    return tuple((s, f"{s}{suffix}", f"square {s}{said}") for s in range(1, goal))


def _value_cell(values: Sequence[float]) -> Callable[[int], str]:
    return lambda i: "%3d: %5.2f " % (i, values[i])


def _grid(goal: int, cell: Callable[[int], str]) -> list[str]:
    return ["".join(cell(square) for square in row) for row in board_rows(goal)]


register_format(GridFormat("values"))
register_format(GridFormat("token-values", layered=True))
register_format(GridFormat("values-actions", prints_actions=True))
