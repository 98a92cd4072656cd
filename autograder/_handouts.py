"""Handouts: Markdown rendered from ``assignments/<name>/handout.md.j2``."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ._assignments import Assignment, assignments_dir
from ._boards import Board
from ._programs import check_command, program_name

__all__ = ["HANDOUT_TEMPLATE", "render_handout"]

HANDOUT_TEMPLATE = "handout.md.j2"


@lru_cache(maxsize=16)
def _environment(folder: Path, shared: Path) -> jinja2.Environment:
    return jinja2.Environment(
        # Shared parts (how a handout ends: running, checking, grading) live next to the
        # assignment folders.
        loader=jinja2.FileSystemLoader([str(folder), str(shared)]),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # Markdown, not HTML
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
    checked with the bundle's ``check.py``."""
    env = _environment(assignment.folder, assignments_dir())
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
