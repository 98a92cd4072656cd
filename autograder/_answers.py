"""What the engine needs from the grading side, as a protocol: an answer source.

The engine runs, reads and marks programs; it never computes an answer. Whoever grades
passes in an object with these methods (``reference_solutions.ReferenceAnswers`` is the
project's own), so the engine stands without any solver: a student's copy, or a test,
grades against precomputed cases and needs no answer source at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ._assignments import Assignment
from ._cases import Expected, TestCase

__all__ = ["AnswerSource", "Variant", "with_own_board"]


@dataclass(frozen=True)
class Variant:
    """What one student's bundle holds that depends on their board."""

    board: dict[str, Any]
    expected: Expected
    self_check: str
    starter: str
    handout: str


@runtime_checkable
class AnswerSource(Protocol):
    """The grading side, as the engine sees it."""

    def cases(self, assignment: Assignment, *, hidden: bool = True) -> Sequence[TestCase]:
        """The assignment's test cases: the public board first (visible, carrying the
        self-check), then, with ``hidden``, the edge and hidden boards."""
        ...

    def own_board_case(self, assignment: Assignment, board: Mapping[str, Any]) -> TestCase:
        """The visible test on a student's own board (``board``: its file data), worth the
        public board's points and carrying that board's self-check."""
        ...

    def variant(self, assignment: Assignment, secret: str, student: str) -> Variant:
        """Student ``student``'s board, drawn from ``secret``, and their bundle's material."""
        ...

    def secret_paths(self) -> Sequence[Path]:
        """Where the answer material lies, so that no submission is let read it."""
        ...


def with_own_board(own: TestCase, cases: Sequence[TestCase]) -> list[TestCase]:
    """``cases`` with a student's own board (``own``) in the public board's place."""
    return [own, *(c for c in cases if c.name != "public")]
