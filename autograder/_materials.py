"""``autograder starter`` and ``autograder handout``: what a student is given."""

from __future__ import annotations

from collections.abc import Sequence

from ._assignments import load_assignment
from ._programs import render_program

__all__ = ["material_text"]


def material_text(kind: str, name: str, board: str | None, settings: Sequence[str]) -> str:
    """The starter program or the handout of ``name`` for the public board or ``board``."""
    from reference_solutions import make_problem, params_to_json, reference_handout

    if kind == "handout":
        return reference_handout(name, board, settings)
    problem = make_problem(name, board, settings)
    return render_program(load_assignment(name), problem.board, params_to_json(problem.params))
