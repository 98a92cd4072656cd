"""What a print format is, and the registry the formats are found in by name."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from .._answer import Answer, Entry
from .._registry import Registry
from .._texts import printed_nothing, self_check_line
from ._reading import Printed

__all__ = [
    "ModuleEntry",
    "OutputFormat",
    "Place",
    "entry_pair",
    "entry_place",
    "format_names",
    "output_format",
    "register_format",
    "table_caption",
]

# A square's entries: "12" (its value), "12@2" (its value in table 2), "12:action".
_SQUARE_KEY = re.compile(r"(\d+)(?:@(\d+))?(?::(\w+))?")


class Place(NamedTuple):
    """Where a page draws an entry: on ``square``, in the picture of ``table`` (``None``
    where the answer has one), as a value or as an action."""

    square: int
    table: int | None
    is_action: bool


@dataclass(frozen=True)
class ModuleEntry:
    """A submission may be a module that only defines ``function``: the grader then runs
    ``runner`` (a script next to the engine's modules) in the submission's own process,
    which imports the module, calls the function and prints the format."""

    function: str
    runner: str
    call: str  # how the runner calls it, as a student reads it: "markovDecision(layout, circle)"


class OutputFormat:
    """One printed answer shape (docs/contracts.md, "Output formats").

    A format renders an :class:`Answer` as the text a correct program prints, reads such
    text back into a :class:`Printed`, lists the entries of an answer that are graded, and
    says which printed number the self-check is read from. ``family`` is the kind of board
    whose answers it prints (``autograder._boards``).
    """

    name: str
    family: str
    # The entry the self-check is read from, and the decimals a handout quotes it with.
    self_check_key: ClassVar[str] = "start"
    self_check_places: ClassVar[int] = 2
    # The decimals of the start value on the first line.
    start_places: ClassVar[int] = 2
    module_entry: ClassVar[ModuleEntry | None] = None

    @property
    def printed_nothing(self) -> str:
        """What a program that printed nothing is told (the module entry's call named)."""
        return printed_nothing(self.module_entry.call if self.module_entry else None)

    def render(self, answer: Answer) -> str:
        """The exact text a correct program prints (ending with a newline)."""
        raise NotImplementedError

    def parse(self, text: str, answer: Answer, *, quote: bool = True) -> Printed:
        """Read ``text`` as the answer to the board ``answer`` is for (its size, its
        objective, its token count). With ``quote`` false, no warning or error repeats
        what the program printed."""
        raise NotImplementedError

    def entries(
        self,
        answer: Answer,
        accepted: Sequence[frozenset[str]] | None,
        value_tolerance: float,
    ) -> list[Entry]:
        """What is graded, in print order; ``accepted`` holds the acceptable actions of
        each printed action entry, where the format prints actions."""
        raise NotImplementedError

    @staticmethod
    def tolerances(value_tolerance: float) -> tuple[float, float]:
        """``(first value's, each square's)`` tolerance: the first value is printed with
        two decimals, so it is held to at least the half-unit of that rounding. (A hair
        more, so that a printed value exactly at the edge is not lost to binary rounding.)"""
        return max(value_tolerance, 0.005) + 1e-9, value_tolerance + 1e-9

    def goal_values(self, answer: Answer) -> list[float]:
        """The values printed for the goal itself (0, or the reward), where the format
        prints any: a conformance check holds them to their exact value."""
        return []

    def self_check_text(self, answer: Answer) -> str:
        """The self-check as a handout quotes it: the number it is read from, rounded."""
        return f"{answer.start_value:.{self.self_check_places}f}"

    def place(self, key: str) -> Place | None:
        """Where the entry ``key`` is drawn on a picture of the board, or ``None`` where it
        is no square's (the start; an entry of a pair of squares). The grader carries keys
        without reading them: the format that makes them says where they belong."""
        match = _SQUARE_KEY.fullmatch(key)
        if match is None:
            return None
        table = match.group(2)
        return Place(int(match.group(1)), None if table is None else int(table),
                     bool(match.group(3)))  # fmt: skip

    def pair(self, key: str) -> tuple[int, int] | None:
        """The pair of squares ``(row, column)`` an entry is drawn at on a map of pairs (a
        game of two pieces' chance for the mover on one square, the other on another), or
        ``None``."""
        return None

    def table_of(self, key: str) -> str | None:
        """The table an entry belongs to, where the answer prints several (``None``)."""
        return None

    def table_words(self, table: str) -> str:
        """A table as the feedback names it ("2 tokens")."""
        return f"table {table}"

    def table_caption(self, table: int) -> str | None:
        """A table's picture as a page captions it, where this format prints tables."""
        return None

    def self_check_line(self, check: str, numbers: Mapping[str, float]) -> str:
        """Whether what was printed holds the self-check ``check``."""
        return self_check_line(check, numbers.get(self.self_check_key))


_FORMATS: Registry[OutputFormat] = Registry("output format")


def register_format(fmt: OutputFormat) -> OutputFormat:
    """Make ``fmt`` known under ``fmt.name`` (an answer names its format by it)."""
    return _FORMATS.register(fmt)


def output_format(name: str) -> OutputFormat:
    """The format registered as ``name``; ``ValueError`` for an unknown one."""
    return _FORMATS.get(name)


def format_names() -> list[str]:
    return _FORMATS.names()


def entry_place(key: str) -> Place | None:
    """Where a page draws the entry ``key``: as the first format that places it says
    (square keys read the same in every format that has them)."""
    for name in _FORMATS.names():
        place = _FORMATS.get(name).place(key)
        if place is not None:
            return place
    return None


def entry_pair(key: str) -> tuple[int, int] | None:
    """Where a page draws the entry ``key`` on a map of pairs of squares, if anywhere."""
    for name in _FORMATS.names():
        pair = _FORMATS.get(name).pair(key)
        if pair is not None:
            return pair
    return None


def table_caption(table: int) -> str:
    """A table's caption, from the format that prints tables."""
    for name in _FORMATS.names():
        caption = _FORMATS.get(name).table_caption(table)
        if caption is not None:
            return caption
    return f"table {table}"
