"""Test cases and the answers they expect, as plain data.

The expected numbers are computed on the grading side (``reference_solutions``) or shipped
precomputed; nothing here solves a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._answer import Answer

__all__ = ["Entry", "Expected", "TestCase"]


@dataclass(frozen=True)
class Entry:
    """One graded number or action of a printed answer.

    ``key`` is how the parser files what it read (``"start"``, ``"3"`` for square 3,
    ``"3@2"`` for square 3 with 2 tokens left); ``accepted`` lists the actions within the
    policy tolerance of the best (action entries only).
    """

    key: str
    label: str
    value: float | None = None
    accepted: frozenset[str] | None = None
    tolerance: float = 0.0

    @property
    def is_action(self) -> bool:
        return self.accepted is not None


@dataclass(frozen=True)
class Expected:
    """A correct answer on one board: the exact numbers, and every acceptable action."""

    answer: Answer
    accepted: tuple[frozenset[str], ...] | None = None

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
        except (KeyError, TypeError) as err:
            raise ValueError(f"not an expected answer ({err.__class__.__name__}: {err})") from None
        return cls(answer, accepted)

    @property
    def goal(self) -> int:
        """The goal square of a jump board (the trap lane has 15)."""
        values = self.answer.values
        if self.answer.output == "token-values":
            return len(values[0]) - 1
        return 15 if self.answer.output == "trap-lane" else len(values) - 1

    @property
    def layers(self) -> int:
        return len(self.answer.values) if self.answer.output == "token-values" else 1

    def entries(self, value_tolerance: float) -> list[Entry]:
        """What is graded, in print order. The header value is printed with two decimals,
        so it is held to at least the half-unit of that rounding."""
        a = self.answer
        start_tol = max(value_tolerance, 0.005) + 1e-9
        tol = value_tolerance + 1e-9
        per_game = "expected turns per game" if a.objective == "turns" else "value per game"
        out = [Entry("start", per_game, a.start_value, tolerance=start_tol)]
        if a.output == "trap-lane":
            out += [
                Entry(str(s), f"square {s}", float(v), tolerance=tol)
                for s, v in enumerate(a.values, 1)
            ]
            assert self.accepted is not None
            out += [
                Entry(f"{s}:die", f"die on square {s}", accepted=acc)
                for s, acc in enumerate(self.accepted, 1)
            ]
            return out
        goal = self.goal
        if a.output == "token-values":
            for tokens in range(self.layers - 1, -1, -1):
                out += [
                    Entry(f"{s}@{tokens}", f"square {s} with {tokens} tokens", v, tolerance=tol)
                    for s, v in enumerate(a.values[tokens][1:goal], 1)
                ]
            return out
        # The goal's own entries (0.00 and "-") are the same in every program: not graded.
        out += [
            Entry(str(s), f"square {s}", float(v), tolerance=tol)
            for s, v in enumerate(a.values[1:goal], 1)
        ]
        if a.output == "values-actions":
            assert self.accepted is not None
            out += [
                Entry(f"{s}:action", f"action on square {s}", accepted=self.accepted[s])
                for s in range(1, goal)
            ]
        return out


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
