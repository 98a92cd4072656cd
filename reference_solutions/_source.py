"""The project's answer source: the engine's ``AnswerSource`` protocol, answered by the
reference solvers. The command line hands it to the engine."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autograder import (
    Assignment,
    Explanation,
    PolicyCost,
    Printed,
    TestCase,
    Variant,
    package_copies,
)

from ._answer_key import answer_key, own_board_case
from ._explain import explain
from ._policy import policy_cost
from ._variants import student_variant

__all__ = ["ReferenceAnswers"]

HERE = Path(__file__).resolve().parent


class ReferenceAnswers:
    """Answer keys, own-board cases and student variants, all computed by solving."""

    def cases(self, assignment: Assignment, *, hidden: bool = True) -> list[TestCase]:
        return answer_key(assignment.name, hidden=hidden)

    def own_board_case(self, assignment: Assignment, board: Mapping[str, Any]) -> TestCase:
        return own_board_case(assignment.name, board)

    def variant(self, assignment: Assignment, secret: str, student: str) -> Variant:
        return student_variant(assignment.name, secret, student)

    def secret_paths(self) -> list[Path]:
        """This package (the solvers, the rules, the filled-in programs and the examples),
        and every other copy of it on the import path: the one installed in the
        environment whose Python runs the submissions, where this one is a copy on
        ``PYTHONPATH``, as on Gradescope."""
        return list(dict.fromkeys([HERE, *package_copies("reference_solutions")]))

    def policy_cost(
        self, assignment: Assignment, case: TestCase, actions: Mapping[int, str]
    ) -> PolicyCost | None:
        return policy_cost(assignment.name, case, actions)

    def explain(
        self,
        assignment: Assignment,
        case: TestCase,
        printed: Printed,
        notes: dict[str, Any] | None = None,
    ) -> Explanation:
        """What can explain ``printed``, a wrong answer on ``case``'s board: fitted
        parameters, two mistakes at once, a stopped iteration checked entry by entry.
        ``notes``: what the submission's earlier boards found (``Judge.for_submission``)."""
        return explain(assignment.name, case, printed, notes)
