"""The trap lane's print format: the cost from square 1, then a row per square 1..14 with
its expected cost (four decimals) and the die to roll there."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .._answer import Answer, Entry
from ._reading import (
    OutputError,
    Printed,
    Reader,
    not_a_row,
    numbered_action,
    read_number,
    read_square,
)
from ._registry import ModuleEntry, OutputFormat, register_format

__all__ = ["TrapLaneFormat"]

SQUARES = 14  # the squares printed: 1..14 (15 is the goal)
_ROW = re.compile(r"\s*(\d+)\s+(\S+)\s+(\S+)\s*")
_HEADER = "Expected cost from square 1"
_COLUMNS = "square expected dice"
# A line that stops the table before square 14 and starts with a digit was meant as a row.
_ROW_LIKE = re.compile(r"\s*\d")


def _row_shape(square: int) -> str:
    """What the row of ``square`` looks like, for the errors (an example value and die, the
    same on every board: never the expected answer)."""
    return f"'{square:2d} {6.6674:8.4f} 3' (square, expected cost, die)"


class TrapLaneFormat(OutputFormat):
    name = "trap-lane"
    family = "trap"
    # The first line has two decimals; the self-check is read from square 1's row, which
    # has four.
    self_check_key = "1"
    self_check_places = 4
    # The course's own submissions define markovDecision(layout, circle) -> [Expec, Dice].
    module_entry = ModuleEntry(
        "markovDecision", "_trap_runner.py", "markovDecision(layout, circle)"
    )

    def render(self, answer: Answer) -> str:
        assert answer.actions is not None
        lines = [f"{_HEADER}: {answer.start_value:.2f}", _COLUMNS]
        for square, (value, die) in enumerate(zip(answer.values, answer.actions, strict=True), 1):
            lines.append(f"{square:2d} {value:8.4f} {die}")
        return "\n".join(lines) + "\n"

    def parse(self, text: str, answer: Answer, *, quote: bool = True) -> Printed:
        reader = Reader(text, quote)
        numbers: dict[str, float] = {}
        actions: dict[str, str] = {}
        line, m = reader.header(rf"\s*{_HEADER}:\s*(\S+)\s*", f"{_HEADER}: ...", 0)
        first_shape = f"the line reads like '{_HEADER}: 6.67'"
        numbers["start"] = read_number(
            m.group(1), line + 1, _HEADER.lower(), reader.quote, first_shape
        )
        head, _ = reader.header(r"(?i)\s*square\s+expected\s+dice\s*", _COLUMNS, line)
        rows: dict[int, int] = {}
        i = head + 1
        blank: int | None = None  # the first blank line since the heading or the last row
        inside: list[int] = []  # blank lines followed by a row
        while i < len(reader.lines) and len(rows) < SQUARES:
            row = reader.lines[i]
            i += 1
            if not row.strip():
                blank = i - 1 if blank is None else blank
                continue
            cells = _ROW.fullmatch(row)
            if not cells:
                i -= 1  # the line that ends the table
                break
            if blank is not None:
                inside += range(blank, i - 1)
                blank = None
            reader.used.add(i - 1)
            square = read_square(cells.group(1), i, f"one of 1..{SQUARES}")
            if not 1 <= square <= SQUARES:
                raise OutputError(i, f"square {square} is not one of 1..{SQUARES}")
            if square in rows:
                first = rows[square]
                raise OutputError(i, f"square {square} appears twice (first on line {first})")
            rows[square] = i
            shape = f"a row of the table reads like {_row_shape(square)}"
            numbers[str(square)] = read_number(
                cells.group(2), i, f"square {square}", reader.quote, shape
            )
            actions[f"{square}:die"] = numbered_action(cells.group(3))
        missing = [s for s in range(1, SQUARES + 1) if s not in rows]
        if missing and i < len(reader.lines) and _ROW_LIKE.match(reader.lines[i]):
            raise not_a_row(reader.lines[i], i + 1, "", _row_shape(missing[0]), reader.quote)
        # A row printed again just after the table is a repeated block, as in the grids;
        # anything else there (a 15th square, chatter) is only an ignored line.
        while i < len(reader.lines) and not reader.lines[i].strip():
            i += 1
        again = _ROW.fullmatch(reader.lines[i]) if i < len(reader.lines) else None
        if again and len(again.group(1)) <= 2 and int(again.group(1)) in rows:
            square = int(again.group(1))
            raise OutputError(
                i + 1, f"square {square} appears twice (first on line {rows[square]})"
            )
        if missing:
            raise OutputError(
                head + 1,
                f"the table after line {head + 1} has no row for "
                f"square{'s' if len(missing) > 1 else ''} "
                f"{', '.join(map(str, missing))}; a row reads like {_row_shape(missing[0])}",
            )
        reader.blank_lines(inside, head)
        return Printed(numbers, actions, reader.finish())

    def entries(
        self,
        answer: Answer,
        accepted: Sequence[frozenset[str]] | None,
        value_tolerance: float,
    ) -> list[Entry]:
        """The first value, then each square's value and die."""
        assert accepted is not None
        start_tol, tol = self.tolerances(value_tolerance)
        out = [Entry("start", _HEADER.lower(), answer.start_value, tolerance=start_tol)]
        out += [
            Entry(str(s), f"square {s}", float(v), tolerance=tol)
            for s, v in enumerate(answer.values, 1)
        ]
        out += [
            Entry(f"{s}:die", f"die on square {s}", accepted=acc)
            for s, acc in enumerate(accepted, 1)
        ]
        return out


register_format(TrapLaneFormat())
