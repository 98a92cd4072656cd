"""What the engine needs from the grading side, as a protocol: an answer source.

The engine runs, reads and marks programs; it never computes an answer. Whoever grades
passes in an object with these methods (``reference_solutions.ReferenceAnswers`` is the
project's own), so the engine stands without any solver: a student's copy, or a test,
grades against precomputed cases and needs no answer source at all.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ._assignments import Assignment
from ._cases import Expected, TestCase
from ._diagnose import Explanation
from ._formats import Printed

__all__ = [
    "AnswerSource",
    "Explanation",
    "Judge",
    "PolicyCost",
    "PolicyJudge",
    "Variant",
    "policy_judge",
    "with_own_board",
]


@dataclass(frozen=True)
class PolicyCost:
    """What a printed policy costs, evaluated exactly: the expected turns (or discounted
    reward, when ``maximize``) from the start under it, and under the best policy.
    ``cost`` is ``None`` when the policy never reaches the goal; ``stuck`` then names a
    square it can get caught on. ``problem`` says why no cost could be computed (an action
    that is not one of the game's)."""

    best: float
    cost: float | None
    maximize: bool = False
    stuck: str = ""
    problem: str = ""

    @property
    def gap(self) -> float:
        """How much worse than the best, relative to it (``inf`` if it never finishes)."""
        if self.cost is None:
            return float("inf")
        worse = self.best - self.cost if self.maximize else self.cost - self.best
        return max(0.0, worse) / abs(self.best) if self.best else max(0.0, worse)


# (a test case, the printed action per square) -> what that policy costs
PolicyJudge = Callable[[TestCase, Mapping[int, str]], PolicyCost | None]


class Judge:
    """The grading side's judgement of a printed answer on ``assignment``'s boards: called
    as a :data:`PolicyJudge`, the exact cost of a printed policy; :meth:`explain`, the
    candidate explanations of a wrong answer (where the answer source offers them).

    One submission's boards are judged by one judge of their own (:meth:`for_submission`),
    which keeps the answer source's notes from board to board (what explained an earlier
    board is tried first on the next) and asks for explanations in the order of the
    cases, whichever board's run ends first: the same program gets the same feedback
    however many boards run at once."""

    def __init__(
        self, answers: AnswerSource, assignment: Assignment, order: Sequence[str] = ()
    ) -> None:
        self.answers, self.assignment = answers, assignment
        self.notes: dict[str, Any] = {}
        self._order = list(order)
        self._settled: set[str] = set()
        self._turn = threading.Condition()
        self._explained: list[tuple[Any, Any]] = []

    def for_submission(self, order: Sequence[str] = ()) -> Judge:
        """A judge for one submission whose boards are the cases named in ``order``, in
        that order; each must be :meth:`settle`-d once judged."""
        return Judge(self.answers, self.assignment, order)

    def __call__(self, case: TestCase, actions: Mapping[int, str]) -> PolicyCost | None:
        return self.answers.policy_cost(self.assignment, case, actions)

    def explain(self, case: TestCase, printed: Printed) -> Explanation | None:
        explain = getattr(self.answers, "explain", None)
        if explain is None:
            return None
        if case.name in self._order:
            earlier = set(self._order[: self._order.index(case.name)])
            with self._turn:
                # (every earlier board was started before this one, so none waits on it;
                # the bound only keeps a grader bug from holding a batch)
                self._turn.wait_for(lambda: earlier <= self._settled, timeout=_TURN_WAIT)
        # The very numbers an earlier board was explained for, on a board whose answer
        # differs: the program does not read its board (``same_everywhere`` says so), and
        # no change of the rules explains that.
        seen = (printed.numbers, printed.actions)
        if any(seen == numbers and answer != case.expected.answer
               for numbers, answer in self._explained):  # fmt: skip
            return None
        self._explained.append((seen, case.expected.answer))
        return explain(self.assignment, case, printed, self.notes)

    def settle(self, name: str) -> None:
        """Case ``name`` is judged (or will not be): later boards may be explained."""
        with self._turn:
            self._settled.add(name)
            self._turn.notify_all()


# How long a board's explanation waits for the earlier boards' (seconds): far beyond any
# board's run and judgement.
_TURN_WAIT = 3600.0


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

    def policy_cost(
        self, assignment: Assignment, case: TestCase, actions: Mapping[int, str]
    ) -> PolicyCost | None:
        """What the policy ``actions`` (the action printed on each square) costs on the
        board of ``case``, evaluated exactly; ``None`` where the format prints no policy."""
        ...


def policy_judge(answers: AnswerSource | None, assignment: Assignment) -> Judge | None:
    """``answers``' judgement of ``assignment``'s printed answers: a policy's exact cost, and
    the explanations of a wrong answer (none without a source)."""
    if answers is None:
        return None
    return Judge(answers, assignment)


def with_own_board(own: TestCase, cases: Sequence[TestCase]) -> list[TestCase]:
    """``cases`` with a student's own board (``own``) in the public board's place."""
    return [own, *(c for c in cases if c.name != "public")]
