"""The filled-in student programs: the starter templates with the ``solve`` block written;
and the sample submissions (right and wrong), which the demo, the conformance checks and
``autograder examples`` render."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from autograder import package_data, render, render_handout, render_program

from ._answer_key import self_check_text
from ._params import params_to_json
from ._problem import make_problem, solve_problem

__all__ = ["examples_dir", "programs_dir", "reference_handout", "reference_program"]


def programs_dir() -> Path:
    return package_data("reference_solutions", "programs")


def examples_dir() -> Path:
    """``<assignment>/``: each assignment's sample submissions (templates that extend the
    starter, plain files, a folder submission); ``roster.csv``: a sample roster."""
    return package_data("reference_solutions", "examples")


def reference_program(
    name: str,
    board: str | Path | Mapping[str, Any] | None = None,
    settings: Sequence[str] = (),
    language: str = "python",
) -> str:
    """The reference program of assignment ``name`` (``programs/<name>.py.j2``, or
    ``<name>.java.j2`` for ``language`` java: the starter with its ``solve`` block written)
    with ``board`` written in."""
    problem = make_problem(name, board, settings)
    suffix = {"python": "py", "java": "java"}[language]
    return render_program(
        problem.assignment,
        problem.board,
        params_to_json(problem.params),
        template=f"{name}.{suffix}.j2",
        search_path=[programs_dir()],
        language=language,
    )


def reference_handout(
    name: str,
    board: str | Path | Mapping[str, Any] | None = None,
    settings: Sequence[str] = (),
    sample_lines: int = 8,
) -> str:
    """The handout of ``name`` for ``board``, with that board's self-check value."""
    problem = make_problem(name, board, settings)
    answer = problem.game.answer(solve_problem(problem))
    self_check = self_check_text(answer)
    # The published figure (with its decimals) belongs to the public board and rules only.
    if board is None and not settings and problem.assignment.self_check is not None:
        self_check = problem.assignment.self_check
    text = render(answer)
    sample = "\n".join(text.splitlines()[:sample_lines])
    return render_handout(
        problem.assignment,
        problem.board,
        params_to_json(problem.params),
        self_check=self_check,
        sample_output=sample,
        prints_actions=answer.actions is not None,
    )
