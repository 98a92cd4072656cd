"""What a student is given, rendered from Jinja2 templates: the starter program
(``starter_code/<name>.py.j2``) and the handout (``assignments/<name>/handout.md.j2``).

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

from ._assignments import Assignment, assignments_dir
from ._boards import Board, JumpBoard

__all__ = [
    "HANDOUT_TEMPLATE",
    "check_command",
    "program_name",
    "render_handout",
    "render_program",
    "starter_code_dir",
]

HANDOUT_TEMPLATE = "handout.md.j2"


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


@lru_cache(maxsize=16)
def _environment(search_path: tuple[Path, ...]) -> jinja2.Environment:
    """One environment per search path, cached, so its compiled templates are too:
    rendering a starter and a handout per student for a roster of hundreds would otherwise
    compile the same templates each time. The starter templates are always reachable as
    ``starter/<name>.py.j2`` (examples and reference programs extend them)."""
    loader = jinja2.ChoiceLoader(
        [
            jinja2.FileSystemLoader([str(p) for p in search_path]),
            jinja2.PrefixLoader({"starter": jinja2.FileSystemLoader(starter_code_dir())}),
        ]
    )
    env = jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # Python source and Markdown, not HTML
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


def render_handout(
    assignment: Assignment,
    board: Board,
    params: Mapping[str, Any],
    *,
    self_check: str,
    sample_output: str,
    prints_actions: bool = False,
    variant: bool = False,
) -> str:
    """The handout for ``board``: ``self_check`` is the first number a correct program
    prints there, ``sample_output`` the start of that program's output, ``prints_actions``
    whether it prints an action per square too. ``variant`` marks a student's own board,
    checked with the bundle's ``check.py``. Shared parts (how a handout ends: running,
    checking, grading) live next to the assignment folders."""
    env = _environment((assignment.folder, assignments_dir()))
    return env.get_template(HANDOUT_TEMPLATE).render(
        assignment=assignment,
        board=board,
        params=dict(params),
        program=program_name(assignment),
        self_check=self_check,
        sample_output=sample_output.rstrip("\n"),
        prints_actions=prints_actions,
        variant=variant,
        check_command=check_command(assignment, variant),
    )
