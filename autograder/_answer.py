"""An assignment's answer as plain data: what a program prints, before it is text, and the
entries of it that are graded. Standard library only: a student bundle carries this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Answer", "Entry", "Objective"]

Objective = Literal["turns", "discounted"]


@dataclass(frozen=True)
class Answer:
    """The numbers a correct program prints for one board, in the print format ``output``
    (a name in the format registry, ``autograder._formats``).

    ``values`` is ``V[0..N]`` for jump boards, a tuple of those per token count (index =
    tokens left) for ``token-values``, and ``Expec`` for squares 1..14 on the trap lane.
    ``actions`` is what the action grid shows: an entry per square ``0..N`` (``"-"`` on the
    goal) for ``values-actions``, the die code per square 1..14 on the trap lane, else
    ``None``.
    """

    output: str
    start_value: float
    values: tuple[Any, ...]
    actions: tuple[str, ...] | None = None
    objective: Objective = "turns"


@dataclass(frozen=True)
class Entry:
    """One graded number or action of a printed answer.

    ``key`` is how the parser files what it read (``"start"``, ``"3"`` for square 3,
    ``"3@2"`` for square 3 with 2 tokens left, ``"3:action"``); ``accepted`` lists the
    actions within the policy tolerance of the best (action entries only).
    """

    key: str
    label: str
    value: float | None = None
    accepted: frozenset[str] | None = None
    tolerance: float = 0.0

    @property
    def is_action(self) -> bool:
        return self.accepted is not None

    def accepts(self, other: Entry) -> bool:
        """Whether printing ``other``'s value (or one of its actions) earns this entry: how
        two answers to one board (the right one, a reading's, a mistake's) are told apart."""
        if self.accepted is not None:
            return bool((other.accepted or frozenset()) & self.accepted)
        if self.value is None or other.value is None:
            return True
        return abs(other.value - self.value) <= self.tolerance
