"""Test cases and the answers they expect, as plain data.

The expected numbers are computed on the grading side (an answer source, see
``autograder._answers``) or shipped precomputed (a student bundle's ``expected.json``);
nothing here solves a game. Standard library only: a student bundle carries this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._answer import Answer, Entry
from ._formats import OutputFormat, output_format

__all__ = ["Expected", "TestCase"]


@dataclass(frozen=True)
class Expected:
    """A correct answer on one board: the exact numbers, and every acceptable action."""

    answer: Answer
    accepted: tuple[frozenset[str], ...] | None = None

    def __post_init__(self) -> None:
        output_format(self.answer.output)  # an unknown format is a ValueError here

    @property
    def format(self) -> OutputFormat:
        return output_format(self.answer.output)

    def entries(self, value_tolerance: float) -> list[Entry]:
        """What is graded, in print order (the format says what that is)."""
        return self.format.entries(self.answer, self.accepted, value_tolerance)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (what a student bundle's ``expected.json`` holds)."""
        a = self.answer
        data: dict[str, Any] = {
            "output": a.output,
            "objective": a.objective,
            "start_value": a.start_value,
            "values": _lists(a.values),
            "actions": None if a.actions is None else list(a.actions),
        }
        if self.accepted is not None:
            data["accepted"] = [sorted(names) for names in self.accepted]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Expected:
        """The inverse of :meth:`to_json`; a malformed file raises ``ValueError``."""
        try:
            answer = Answer(
                output=data["output"],
                start_value=float(data["start_value"]),
                values=_tuples(data["values"]),
                actions=None if data.get("actions") is None else tuple(data["actions"]),
                objective=data.get("objective", "turns"),
            )
            accepted = data.get("accepted")
            if accepted is not None:
                accepted = tuple(frozenset(str(n) for n in names) for names in accepted)
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not an expected answer ({err.__class__.__name__}: {err})") from None
        return cls(answer, accepted)


@dataclass(frozen=True)
class TestCase:
    """One board a submission runs on. ``board`` is the board file's data, as written."""

    name: str
    title: str
    board: dict[str, Any] = field(hash=False)
    points: float
    visible: bool
    expected: Expected
    self_check: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: an answer key computed once can be shipped and read back."""
        return {
            "name": self.name,
            "title": self.title,
            "board": self.board,
            "points": self.points,
            "visible": self.visible,
            "expected": self.expected.to_json(),
            "self_check": self.self_check,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TestCase:
        """The inverse of :meth:`to_json`; malformed data raises ``ValueError``."""
        try:
            return cls(
                name=str(data["name"]),
                title=str(data["title"]),
                board=dict(data["board"]),
                points=float(data["points"]),
                visible=bool(data["visible"]),
                expected=Expected.from_json(data["expected"]),
                self_check=None if data.get("self_check") is None else str(data["self_check"]),
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"not a test case ({err.__class__.__name__}: {err})") from None


def _lists(values: Any) -> Any:
    if isinstance(values, tuple | list):
        return [_lists(v) for v in values]
    return float(values)


def _tuples(values: Any) -> Any:
    if isinstance(values, list):
        return tuple(_tuples(v) for v in values)
    if isinstance(values, bool) or not isinstance(values, int | float):
        raise TypeError(f"{values!r} is not a number")
    return float(values)
