"""Comparing what a submission printed with the expected answer, entry by entry.

Standard library only: a student bundle carries this module.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ._answer import Entry
from ._cases import Expected
from ._formats import Printed
from ._texts import SHOWN_WRONG, listing

__all__ = ["Mark", "Wrong", "mark", "mark_entries"]


@dataclass(frozen=True)
class Wrong:
    """One entry that is not right: what was printed and what was expected. ``error`` is
    how far the printed value is from the expected one (``inf`` for an unreadable value,
    ``nan`` for an action), ``truth`` the expected value (``None`` for an action)."""

    key: str
    label: str
    printed: str
    expected: str
    error: float = math.nan
    truth: float | None = None


@dataclass(frozen=True)
class Mark:
    right: int
    total: int
    wrong: tuple[Wrong, ...]

    @property
    def fraction(self) -> float:
        return self.right / self.total if self.total else 0.0

    def informative(self, nearest_goal: float = 0.0) -> list[Wrong]:
        """The wrong entries, most informative first: the value nearest the goal (where an
        error starts, as values are computed backwards from the goal), then the largest
        errors, then the actions. ``nearest_goal`` is the goal's own value (0 turns, or the
        reward of a discounted game)."""
        values = [w for w in self.wrong if w.truth is not None]
        actions = [w for w in self.wrong if w.truth is None]
        if not values:
            return actions
        start = min(values, key=lambda w: abs((w.truth or 0.0) - nearest_goal))
        rest = sorted((w for w in values if w is not start), key=lambda w: -_size(w.error))
        return [start, *rest, *actions]

    def listing(
        self, quote: bool = True, shown: int | None = SHOWN_WRONG, nearest_goal: float = 0.0
    ) -> list[str]:
        """The wrong entries, printed against expected, most informative first, as the
        feedback lists them (``shown`` of them, then a count; ``None``: all). With ``quote``
        false a printed action is shown only when it looks like one."""
        wrong = self.informative(nearest_goal)
        rows = ((w.label, _quoted(w.printed, quote), w.expected) for w in wrong)
        return listing(rows, len(wrong) if shown is None else shown)


def _size(error: float) -> float:
    return math.inf if math.isnan(error) else error


def _quoted(printed: str, quote: bool) -> str:
    return printed if quote or re.fullmatch(r"[A-Za-z0-9]{1,8}", printed) else "something else"


def _shown(value: float, tolerance: float) -> str:
    """As the format prints it: two decimals on jump boards, four on the trap lane."""
    return f"{value:.{2 if tolerance >= 0.005 else 4}f}"


def mark(printed: Printed, expected: Expected, value_tolerance: float) -> Mark:
    """Each value within its tolerance, each action among the accepted ones."""
    return mark_entries(printed, expected.entries(value_tolerance))


def mark_entries(printed: Printed, entries: Sequence[Entry]) -> Mark:
    """``printed`` against ``entries`` (an answer's, a reading's or a mistake's)."""
    right = 0
    wrong: list[Wrong] = []
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
            error = abs(value - entry.value)
            error = math.inf if math.isnan(error) else error
            wrong.append(Wrong(entry.key, entry.label, *shown, error=error, truth=entry.value))
    return Mark(right, len(entries), tuple(wrong))
