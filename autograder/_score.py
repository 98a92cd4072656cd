"""Comparing what a submission printed with the expected answer, entry by entry.

Standard library only: a student bundle carries this module.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ._cases import Expected
from ._formats import Printed
from ._texts import listing

__all__ = ["Mark", "Wrong", "mark"]


@dataclass(frozen=True)
class Wrong:
    """One entry that is not right: what was printed and what was expected."""

    key: str
    label: str
    printed: str
    expected: str


@dataclass(frozen=True)
class Mark:
    right: int
    total: int
    wrong: tuple[Wrong, ...]

    @property
    def fraction(self) -> float:
        return self.right / self.total if self.total else 0.0

    def listing(self, quote: bool = True) -> list[str]:
        """The wrong entries, printed against expected, as the feedback lists them. With
        ``quote`` false a printed action is shown only when it looks like one."""
        return listing((w.label, _quoted(w.printed, quote), w.expected) for w in self.wrong)


def _quoted(printed: str, quote: bool) -> str:
    return printed if quote or re.fullmatch(r"[A-Za-z0-9]{1,8}", printed) else "something else"


def _shown(value: float, tolerance: float) -> str:
    """As the format prints it: two decimals on jump boards, four on the trap lane."""
    return f"{value:.{2 if tolerance >= 0.005 else 4}f}"


def mark(printed: Printed, expected: Expected, value_tolerance: float) -> Mark:
    """Each value within its tolerance, each action among the accepted ones."""
    right = 0
    wrong: list[Wrong] = []
    entries = expected.entries(value_tolerance)
    for entry in entries:
        if entry.accepted is not None:
            action = printed.actions.get(entry.key, "")
            if action in entry.accepted:
                right += 1
            else:
                best = " or ".join(sorted(entry.accepted)) or "-"
                wrong.append(Wrong(entry.key, entry.label, action, best))
            continue
        assert entry.value is not None
        value = printed.numbers.get(entry.key, math.nan)
        # A NaN or an infinity is never within tolerance: the comparison is False.
        if abs(value - entry.value) <= entry.tolerance:
            right += 1
        else:
            shown = _shown(value, entry.tolerance), _shown(entry.value, entry.tolerance)
            wrong.append(Wrong(entry.key, entry.label, *shown))
    return Mark(right, len(entries), tuple(wrong))
