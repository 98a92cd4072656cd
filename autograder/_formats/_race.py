"""The race's print format: the first player's chance to win, then the table ``W``: a row
per square of the player to move, the other player's squares across (docs/rules.md,
"race")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .._answer import Answer, Entry
from ._reading import OutputError, Printed, Reader, read_number, read_square
from ._registry import OutputFormat, register_format

__all__ = ["RaceFormat"]

_HEADER = "Chance the first player wins"
_TABLE = "Chance the player to move wins (row: its square; column: the other player's):"
_ROW = re.compile(r"\s*(\d+)\s*:(.*)")
_SHAPE = "'  0: 0.5300 0.5123 ...' (the square of the player to move, then a chance per square)"


class RaceFormat(OutputFormat):
    name = "race"
    family = "jump"
    self_check_places = 4
    start_places = 4

    def place(self, key: str) -> None:
        """A pair of squares is drawn on no square of the board (see the pages' map of
        the pairs instead)."""
        return None

    def pair(self, key: str) -> tuple[int, int] | None:
        """``"a,b"``: the mover on ``a`` (a row of the printed table), the other on ``b``."""
        mover, comma, other = key.partition(",")
        if not comma or not mover.isdigit() or not other.isdigit():
            return None
        return int(mover), int(other)

    def render(self, answer: Answer) -> str:
        lines = [f"{_HEADER}: {answer.start_value:.4f}", _TABLE]
        for a, row in enumerate(answer.values):
            lines.append(f"{a:3d}: " + " ".join(f"{w:.4f}" for w in row))
        return "\n".join(lines) + "\n"

    def self_check_text(self, answer: Answer) -> str:
        return f"{answer.start_value:.4f}"

    def parse(self, text: str, answer: Answer, *, quote: bool = True) -> Printed:
        reader = Reader(text, quote)
        n = len(answer.values)
        line, m = reader.header(rf"\s*{_HEADER}:\s*(\S+)\s*", f"{_HEADER}: ...", 0)
        first_shape = f"the line reads like '{_HEADER}: 0.5300'"
        numbers = {
            "start": read_number(m.group(1), line + 1, _HEADER.lower(), reader.quote, first_shape)
        }
        head, _ = reader.header(r"\s*" + re.escape(_TABLE) + r"\s*", _TABLE, line)
        rows: dict[int, int] = {}
        i = head + 1
        while i < len(reader.lines) and len(rows) < n:
            text_line = reader.lines[i]
            i += 1
            if not text_line.strip():
                continue
            cells = _ROW.fullmatch(text_line)
            if not cells:
                i -= 1
                break
            reader.used.add(i - 1)
            a = read_square(cells.group(1), i, f"a square of this board (0..{n - 1})")
            if not 0 <= a < n:
                raise OutputError(i, f"square {a} is not a square to move from (0..{n - 1})")
            if a in rows:
                first = rows[a]
                raise OutputError(i, f"the row of square {a} appears twice (first on line {first})")
            rows[a] = i
            tokens = cells.group(2).split()
            if len(tokens) != n:
                raise OutputError(
                    i, f"the row of square {a} has {len(tokens)} numbers, not {n} "
                    f"(one per square 0..{n - 1} of the other player); a row reads like {_SHAPE}",
                )  # fmt: skip
            for b, token in enumerate(tokens):
                numbers[f"{a},{b}"] = read_number(
                    token, i, f"the mover on {a}, the other on {b}", reader.quote,
                    f"a row reads like {_SHAPE}",
                )  # fmt: skip
        missing = [a for a in range(n) if a not in rows]
        if missing:
            shown = ", ".join(map(str, missing[:8])) + (" ..." if len(missing) > 8 else "")
            raise OutputError(
                head + 1,
                f"the table after line {head + 1} has no row for square"
                f"{'s' if len(missing) > 1 else ''} {shown}; a row reads like {_SHAPE}",
            )
        if sorted(rows, key=rows.__getitem__) != list(range(n)):
            reader.warnings.append("the table's rows are not printed in order of squares")
        return Printed(numbers, {}, reader.finish())

    def entries(
        self,
        answer: Answer,
        accepted: Sequence[frozenset[str]] | None,
        value_tolerance: float,
    ) -> list[Entry]:
        """The first player's chance, then every entry of ``W``."""
        _, tol = self.tolerances(value_tolerance)
        start_tol = max(value_tolerance, 0.00005) + 1e-9  # (printed with four decimals)
        out = [Entry("start", "the first player's chance to win", answer.start_value,
                     tolerance=start_tol)]  # fmt: skip
        for a, row in enumerate(answer.values):
            out += [
                Entry(f"{a},{b}", f"the mover on {a}, the other on {b}", float(w), None, tol)
                for b, w in enumerate(row)
            ]
        return out


register_format(RaceFormat())
