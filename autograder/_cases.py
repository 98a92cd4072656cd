"""Test cases and the answers they expect, as plain data.

The expected numbers are computed on the grading side (an answer source, see
``autograder._answers``) or shipped precomputed (a student bundle's ``expected.json``);
nothing here solves a game. Standard library only: a student bundle carries this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ._answer import Answer, Entry
from ._formats import OutputFormat, output_format

__all__ = ["Expected", "TestCase", "Variation", "mistake_words"]


@dataclass(frozen=True)
class Variation:
    """The answer to one board under other rules than the assignment's: a fair reading the
    grader accepts as well (``Expected.readings``), or a named mistake
    (``Expected.mistakes``), whose answer the grader recognises to say what went wrong.

    ``name`` is a short id (``"overshoot-wins"``); ``says`` describes the rules the answer
    follows in plain words ("overshooting the goal wins"); ``reread`` names the rule to read
    again (mistakes only). ``by_square`` (readings only): the reading may be taken square by
    square, mixed with the rules' own and the other such readings (a jump square's value,
    which no other square's depends on); otherwise it is taken for the whole answer or not.
    """

    name: str
    says: str
    answer: Answer
    accepted: tuple[frozenset[str], ...] | None = None
    reread: str = ""
    by_square: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "says": self.says}
        data.update(_answer_json(self.answer, self.accepted))
        if self.reread:
            data["reread"] = self.reread
        if self.by_square:
            data["by_square"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Variation:
        answer, accepted = _answer_from_json(data)
        by_square = data.get("by_square", False)
        if not isinstance(by_square, bool):
            raise TypeError(f"by_square: {by_square!r} is not true or false")
        return cls(str(data["name"]), str(data["says"]), answer, accepted,
                   str(data.get("reread", "")), by_square)  # fmt: skip


@dataclass(frozen=True)
class Expected:
    """A correct answer on one board: the exact numbers, and every acceptable action.

    ``readings`` are the same answer under the other conventions the rules accept (jump
    squares, the circle's overshoot): a program that prints any of them in full is right,
    and one may mix those taken square by square (``Variation.by_square``) with the rules'
    own. ``ungraded`` names entries no game can observe (an action on a jump square), which
    are not graded. ``mistakes`` are the answers of known wrong rules, so feedback can name
    the mistake. ``sweeps[k]`` is the start value after ``k + 1`` value-iteration sweeps from
    0, each computing every square from the last sweep's values, until it is within
    tolerance, so a program that stopped early can be told by how much; ``sweeps_up`` and
    ``sweeps_down`` are the same for sweeps that update the values in place, one square
    after another, up the board or down it (empty where not computed).
    """

    answer: Answer
    accepted: tuple[frozenset[str], ...] | None = None
    readings: tuple[Variation, ...] = ()
    ungraded: frozenset[str] = frozenset()
    mistakes: tuple[Variation, ...] = ()
    sweeps: tuple[float, ...] = ()
    sweeps_up: tuple[float, ...] = ()
    sweeps_down: tuple[float, ...] = ()
    # What is derived once and asked for again: the entries of each answer held here, the
    # reading-dependent keys, where each reading differs, and what each square may show. A
    # batch marks hundreds of programs against one case.
    _memo: dict[tuple[Any, ...], Any] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        output_format(self.answer.output)  # an unknown format is a ValueError here

    @property
    def format(self) -> OutputFormat:
        return output_format(self.answer.output)

    def entries(self, value_tolerance: float) -> list[Entry]:
        """What is graded, in print order (the format says what that is)."""
        return self.entries_of(self.answer, self.accepted, value_tolerance)

    def entries_of(
        self,
        answer: Answer,
        accepted: tuple[frozenset[str], ...] | None,
        value_tolerance: float,
    ) -> list[Entry]:
        """The graded entries of ``answer`` (this answer, a reading's or a mistake's)."""
        key = ("entries", id(answer), id(accepted), value_tolerance)
        cached = self._memo.get(key)
        # The objects themselves are kept and compared: an id is reused once its object is
        # gone, and a copy of this object (pickled, say) carries ids from elsewhere.
        if cached is not None and cached[0] is answer and cached[1] is accepted:
            return cached[2]
        entries = self.format.entries(answer, accepted, value_tolerance)
        listed = [e for e in entries if e.key not in self.ungraded]
        if any(answer is a for a in self._answers()):  # only what lives as long as this
            self._memo[key] = (answer, accepted, listed)
        return listed

    def reading_dependent(self, value_tolerance: float) -> set[str]:
        """The value entries whose right value depends on the reading (a jump square's)."""
        key = ("loose", value_tolerance)
        if key not in self._memo:
            base = {e.key: e for e in self.entries(value_tolerance) if not e.is_action}
            self._memo[key] = {
                e.key
                for r in self.readings
                for e in self.entries_of(r.answer, r.accepted, value_tolerance)
                if e.key in base and not e.is_action and not base[e.key].accepts(e)
            }
        loose: set[str] = self._memo[key]
        return loose

    def differing(self, reading: Variation, value_tolerance: float) -> list[tuple[Entry, Entry]]:
        """Where ``reading`` and the rules' own answer differ: each entry of the rules' answer
        with the reading's entry for the same key (values apart by more than the tolerance,
        or other actions accepted)."""
        key = ("differing", id(reading), value_tolerance)
        cached = self._memo.get(key)
        if cached is not None and cached[0] is reading:
            return cached[1]
        base = {e.key: e for e in self.entries(value_tolerance)}
        pairs = [
            (base[e.key], e)
            for e in self.entries_of(reading.answer, reading.accepted, value_tolerance)
            if e.key in base
            and (base[e.key].accepted != e.accepted if e.is_action else not base[e.key].accepts(e))
        ]
        if any(reading is r for r in self.readings):
            self._memo[key] = (reading, pairs)
        return pairs

    def by_square(
        self, value_tolerance: float
    ) -> dict[str, tuple[tuple[Variation | None, Entry], ...]]:
        """The values a square may show where a reading taken square by square differs from
        the rules' own: per key, the rules' entry (reading ``None``), then each such
        reading's, with the reading."""
        key = ("by-square", value_tolerance)
        if key not in self._memo:
            found: dict[str, list[tuple[Variation | None, Entry]]] = {}
            for r in self.readings:
                if not r.by_square:
                    continue
                for mine, theirs in self.differing(r, value_tolerance):
                    if not mine.is_action:
                        found.setdefault(mine.key, [(None, mine)]).append((r, theirs))
            self._memo[key] = {k: tuple(v) for k, v in found.items()}
        values: dict[str, tuple[tuple[Variation | None, Entry], ...]] = self._memo[key]
        return values

    def _answers(self) -> list[Answer]:
        return [self.answer, *(v.answer for v in self.readings + self.mistakes)]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (what a student bundle's ``expected.json`` holds)."""
        data = _answer_json(self.answer, self.accepted)
        if self.readings:
            data["readings"] = [r.to_json() for r in self.readings]
        if self.ungraded:
            data["ungraded"] = sorted(self.ungraded)
        if self.mistakes:
            data["mistakes"] = [m.to_json() for m in self.mistakes]
        for name in ("sweeps", "sweeps_up", "sweeps_down"):
            if getattr(self, name):
                data[name] = list(getattr(self, name))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Expected:
        """The inverse of :meth:`to_json`; a malformed file raises ``ValueError``."""
        try:
            answer, accepted = _answer_from_json(data)
            return cls(
                answer,
                accepted,
                readings=tuple(Variation.from_json(r) for r in data.get("readings", ())),
                ungraded=frozenset(str(k) for k in data.get("ungraded", ())),
                mistakes=tuple(Variation.from_json(m) for m in data.get("mistakes", ())),
                sweeps=tuple(float(v) for v in data.get("sweeps", ())),
                sweeps_up=tuple(float(v) for v in data.get("sweeps_up", ())),
                sweeps_down=tuple(float(v) for v in data.get("sweeps_down", ())),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not an expected answer ({err.__class__.__name__}: {err})") from None


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


def _answer_json(answer: Answer, accepted: tuple[frozenset[str], ...] | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "output": answer.output,
        "objective": answer.objective,
        "start_value": answer.start_value,
        "values": _lists(answer.values),
        "actions": None if answer.actions is None else list(answer.actions),
    }
    if accepted is not None:
        data["accepted"] = [sorted(names) for names in accepted]
    return data


def _answer_from_json(
    data: dict[str, Any],
) -> tuple[Answer, tuple[frozenset[str], ...] | None]:
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
    return answer, accepted


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


def mistake_words(cases: Sequence[TestCase]) -> dict[str, str]:
    """The plain words of every named mistake of ``cases`` (``Expected.mistakes``; the
    first case's words win), for the reports. (The reports know the generic diagnoses.)"""
    words: dict[str, str] = {}
    for case in cases:
        for mistake in case.expected.mistakes:
            words.setdefault(mistake.name, mistake.says)
    return words
