"""Student programs rendered from the Jinja2 templates in ``starter_code/``.

A starter program and the filled-in reference program of an assignment come from the same
template: the reference template only overrides the ``solve`` block, so the board, the file
reading and the print format cannot drift apart.
"""

from __future__ import annotations

import pprint
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ._assignments import Assignment
from ._boards import Board, JumpBoard

__all__ = ["check_command", "program_name", "render_program", "starter_code_dir"]


def starter_code_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "starter_code"


def program_name(assignment: Assignment) -> str:
    """The file name a student's program goes by, e.g. ``token_boosted.py``."""
    return assignment.name.replace("-", "_") + ".py"


def check_command(assignment: Assignment, variant: bool = False) -> str:
    """What a student types to check their program: the bundle's own script on a variant."""
    if variant:
        return "python3 check.py"
    return f"autograder check {assignment.name} {program_name(assignment)}"


@lru_cache(maxsize=8)
def _environment(extra: tuple[Path, ...]) -> jinja2.Environment:
    # Cached, so its compiled templates are too: rendering a starter per student for a
    # roster of hundreds would otherwise recompile the same templates each time.
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader([str(p) for p in extra])]
    loaders.append(jinja2.PrefixLoader({"starter": jinja2.FileSystemLoader(starter_code_dir())}))
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # the output is Python source, not HTML
    )
    env.filters["python"] = _python_literal
    env.filters["jumps_literal"] = _jumps_literal
    return env


def _python_literal(value: Any) -> str:
    return pprint.pformat(value, width=92, compact=True, sort_dicts=False)


def _jumps_literal(board: JumpBoard) -> str:
    """``{1: 38, 4: 14, ...}`` wrapped to fit the program's line length."""
    items = [f"{a}: {b}" for a, b in board.jumps]
    lines, line = [], ""
    for item in items:
        if line and len(line) + len(item) + 2 > 88:
            lines.append(line + ",")
            line = ""
        line = f"{line}, {item}" if line else item
    if not lines:
        return "{" + line + "}"
    return "{\n    " + "\n    ".join([*lines, line]) + ",\n}"


def render_program(
    assignment: Assignment,
    board: Board,
    params: Mapping[str, Any],
    *,
    template: str | None = None,
    search_path: Sequence[Path] = (),
    variant: bool = False,
) -> str:
    """The program for ``board``: the starter by default, or ``template`` found first on
    ``search_path`` (``reference_solutions`` passes its own folder of filled-in templates).
    A ``variant`` program goes into a student's bundle and tells them to run ``check.py``."""
    env = _environment(tuple(search_path))
    name = template or f"starter/{assignment.name}.py.j2"
    return env.get_template(name).render(
        assignment=assignment,
        board=board,
        params=dict(params),
        program=program_name(assignment),
        check_command=check_command(assignment, variant),
    )
