"""What a print format is, and the registry the formats are found in by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .._answer import Answer, Entry
from .._registry import Registry
from .._texts import printed_nothing, self_check_line
from ._reading import Printed

__all__ = ["ModuleEntry", "OutputFormat", "format_names", "output_format", "register_format"]


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

    def self_check_text(self, answer: Answer) -> str:
        """The self-check as a handout quotes it: the number it is read from, rounded."""
        return f"{answer.start_value:.{self.self_check_places}f}"

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
