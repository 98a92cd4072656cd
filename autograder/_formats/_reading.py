"""Reading a program's output line by line: what every print format's parser shares.

Numbers are parsed, not compared as text (any form Python's ``float`` reads: ``39.6``,
``+39.60``, ``3.96e1``). Blank lines inside the answer (one warning per table, one for
those between the tables), CRLF line ends and lines around the block are tolerated and
reported as warnings; trailing spaces are tolerated silently (every grid row ends with one).
A block that is incomplete, repeated or unparsable raises :class:`OutputError` naming the
line, and a line that cannot be read is shown with the shape it should have
(docs/contracts.md, "Output formats").
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

__all__ = [
    "OutputError",
    "Printed",
    "Reader",
    "not_a_row",
    "numbered_action",
    "read_number",
    "read_square",
]

_ENTRY = re.compile(r"(\d+)\s*:\s*(\S+)")
# An entry's value takes the whole non-space run and never gives part of it back: with a
# plain ``\S+`` a run like "1:11:11:1..." splits into entries in exponentially many ways, so
# a line as short as "1:1" * 25 + " x" (77 characters) after a table header hung the grader.
# ``(?=(\S+))\1`` is the atomic form that also compiles on Python 3.10, where the students'
# copy of this module (check.py) may run; Python 3.11's possessive ``\S++`` does not.
# ``_ENTRY.finditer`` reads a value as the whole run anyway; the only lines no longer taken
# for grid lines are ones it would have read only in part (e.g. "1:23 : 4").
_GRID_LINE = re.compile(r"\s*(?:\d+\s*:\s*(?=(\S+))\1\s*)+")
# A line that stops a table before it is complete and starts with a digit was meant as one of
# its rows: it is named as such, with the shape a row has.
_ROW_LIKE = re.compile(r"\s*\d")
# Two entries with no space between them ("39.600101: 39.600", from cells that end without
# one): a value run that reaches the next square's colon. Boards of up to 99 squares hide
# it where a 3-digit square number fills the cell's width.
_RUN_TOGETHER = re.compile(r":\s*[^\s:]+:")


def _letters(text: str) -> str:
    """``text`` lower-case, its words and numbers one space apart, nothing else."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


class OutputError(ValueError):
    """The output does not hold the block the assignment prints. ``line`` is 1-based."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Printed:
    """What was read: entries by key (see ``Entry``), and warnings for the student."""

    numbers: dict[str, float]
    actions: dict[str, str]
    warnings: tuple[str, ...]


def read_number(token: str, line: int, what: str, quote: bool = True, shape: str = "") -> float:
    """``float(token)``, or an :class:`OutputError` naming ``line`` and ``what`` was read.
    ``shape`` (e.g. "a row of the table reads like '...'") says what the line should look
    like; it is the grader's own text, so it is shown even when ``quote`` is false."""
    try:
        return float(token)
    except ValueError:
        shown = f"{token[:40]!r}" if quote else "a word"
        tail = f"; {shape}" if shape else ""
        raise OutputError(line, f"{shown} is not a number ({what}){tail}") from None


def numbered_action(token: str) -> str:
    """An action printed as a number (an aim, a die's code) as the rules name it: numbers
    are read, not compared as text, so ``2.0`` or ``02`` (from an array of floats, say) is
    the aim ``2``. Any other text is left as printed, to be judged as it is."""
    try:
        number = float(token)
    except ValueError:
        return token
    return str(int(number)) if number.is_integer() else token


def not_a_row(text: str, line: int, what: str, shape: str, quote: bool = True) -> OutputError:
    """The error for ``text`` (line ``line``, 1-based), which should have been a row of a
    table: ``shape`` is what a row reads like."""
    shown = f"{text[:60]!r}" if quote else "the line"
    said = f" ({what})" if what else ""
    return OutputError(line, f"{shown} is not a row of the table{said}; a row reads like {shape}")


def read_square(digits: str, line: int, not_on: str) -> int:
    """The square number ``digits`` (a run of ``\\d``), or an :class:`OutputError`."""
    # int() refuses more than 4300 digits (Python's int_max_str_digits) with a bare
    # ValueError, so a line "111...1: 0.00" of 5000 digits crashed the parser instead of being
    # reported. No square needs ten digits; leading zeros are still read as before.
    if len(digits.lstrip("0")) > 9:
        raise OutputError(line, f"a square number of {len(digits)} digits is not {not_on}")
    return int(digits)


class Reader:
    """The output's lines, which of them the answer used, and warnings on the rest."""

    def __init__(self, text: str, quote: bool = True) -> None:
        self.quote = quote
        self.lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
        self.used: set[int] = set()
        self.warnings: list[str] = []
        # Blank lines inside a table, already warned about with their table.
        self.blank: set[int] = set()
        if "\r\n" in text:
            self.warnings.append("the output has Windows (CRLF) line ends")

    def header(self, pattern: str, shown: str, after: int) -> tuple[int, re.Match[str]]:
        """The one line matching ``pattern`` at or after index ``after``."""
        regex = re.compile(pattern)
        hits = [(i, m) for i in range(len(self.lines)) if (m := regex.fullmatch(self.lines[i]))]
        if len(hits) > 1:
            first, second = hits[0][0] + 1, hits[1][0] + 1
            raise OutputError(second, f"'{shown}' is printed again (first on line {first})")
        if not hits:
            near = self._near(shown)
            if near is not None:
                said = "this one comes close, but must read exactly so (capitals, the colon)"
                raise OutputError(near + 1, f"no line '{shown}' in the output; {said}")
            raise OutputError(None, f"no line '{shown}' in the output")
        index, match = hits[0]
        if index < after:
            raise OutputError(index + 1, f"'{shown}' comes before the lines it should follow")
        self.used.add(index)
        return index, match

    def _near(self, shown: str) -> int | None:
        """The first line not yet read that reads as heading ``shown`` but for capitals,
        spaces, punctuation and a letter or two (``expected turns per game = 39.6``, ``... with
        1 token:``), with the same numbers; ``None`` if there is none."""
        wanted = _letters(shown.replace("...", ""))
        digits = re.findall(r"\d+", wanted)
        for index, line in enumerate(self.lines):
            if index in self.used or not wanted:
                continue
            start = _letters(line)[: len(wanted) + 2]
            # (the ratio's bound from the lengths alone: a million short lines of chatter
            # cost a second, not four)
            if 2 * min(len(start), len(wanted)) < 0.9 * (len(start) + len(wanted)):
                continue
            if (re.findall(r"\d+", start[: len(wanted)]) == digits
                    and difflib.SequenceMatcher(None, start, wanted).ratio() >= 0.9):  # fmt: skip
                return index
        return None

    def grid(
        self, head: int, squares: range, what: str, order: list[int], shape: str = ""
    ) -> tuple[dict[int, tuple[str, int]], int]:
        """The ``square: entry`` lines after line ``head``: every square exactly once.
        ``order`` is the board order the squares are printed in (a warning otherwise);
        ``shape`` is what a row reads like (an example, quoted), for the errors."""
        found: dict[int, tuple[str, int]] = {}
        i = head + 1
        seen: list[int] = []
        blank: int | None = None  # the first blank line since the heading or the last row
        inside: list[int] = []  # blank lines followed by a row of this table
        while i < len(self.lines):
            line = self.lines[i]
            if not line.strip():  # blank lines inside the block are tolerated (a warning)
                blank = i if blank is None else blank
                i += 1
                continue
            if not _GRID_LINE.fullmatch(line):
                break
            if blank is not None:
                inside += range(blank, i)
                blank = None
            self.used.add(i)
            for m in _ENTRY.finditer(line):
                square = read_square(m.group(1), i + 1, f"on this board ({what})")
                if square == 0 and 0 not in squares:
                    # The start, printed in the table as well as on the first line: a
                    # reading of the format, not a mistake, and its value is graded there.
                    start = f"{what}: square 0 is in no table (the first line is its value)"
                    if start not in self.warnings:
                        self.warnings.append(start)
                    continue
                if square not in squares:
                    raise OutputError(i + 1, f"square {square} is not on this board ({what})")
                if square in found:
                    raise OutputError(
                        i + 1,
                        f"square {square} appears twice ({what}, first on line {found[square][1]})",
                    )
                found[square] = (m.group(2), i + 1)
                seen.append(square)
            i += 1
        missing = [s for s in squares if s not in found]
        if missing:
            if shape and i < len(self.lines) and _ROW_LIKE.match(self.lines[i]):
                if _RUN_TOGETHER.search(self.lines[i]):
                    raise OutputError(
                        i + 1,
                        f"two entries run together ({what}): end each value with a space, "
                        f"as a row does: {shape}",
                    )
                raise not_a_row(self.lines[i], i + 1, what, shape, self.quote)
            hint = f"; a row reads like {shape}" if shape else ""
            shown = ", ".join(map(str, missing[:8])) + (" ..." if len(missing) > 8 else "")
            where = f"the table after line {head + 1}"
            if not found:
                raise OutputError(head + 2, f"{where} is missing ({what}){hint}")
            raise OutputError(
                i + 1 if i < len(self.lines) else i,
                f"{where} has no entry for "
                f"square{'s' if len(missing) > 1 else ''} {shown} ({what}){hint}",
            )
        self.blank_lines(inside, head)
        if seen != order:
            self.warnings.append(f"{what}: squares are not printed in board order")
        return found, i

    def blank_lines(self, lines: list[int], head: int) -> None:
        """One warning for the blank ``lines`` (0-based) inside the table after ``head``."""
        if lines:
            self.blank.update(lines)
            self.warnings.append(
                f"{_blank(len(lines))} inside the answer "
                f"(line {lines[0] + 1}, in the table after line {head + 1})"
            )

    def finish(self) -> tuple[str, ...]:
        first, last = min(self.used), max(self.used)
        before = [i for i in range(first) if self.lines[i].strip()]
        after = [i for i in range(last + 1, len(self.lines)) if self.lines[i].strip()]
        inside = [i for i in range(first, last) if i not in self.used and self.lines[i].strip()]
        for lines, where in ((before, "before"), (inside, "inside"), (after, "after")):
            if lines:
                text = f": {self.lines[lines[0]][:60]!r}" if self.quote else ""
                self.warnings.append(
                    f"ignored {len(lines)} line{'s' if len(lines) > 1 else ''} {where} the "
                    f"answer (line {lines[0] + 1}{text})"
                )
        blank = [i for i in range(first, last) if not self.lines[i].strip() and i not in self.blank]
        if blank:
            self.warnings.append(
                f"{_blank(len(blank))} inside the answer (line {blank[0] + 1}, outside the tables)"
            )
        return tuple(self.warnings)


def _blank(count: int) -> str:
    return f"{count} blank line{'s' if count > 1 else ''}"
