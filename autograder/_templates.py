"""What a student is given, rendered from Jinja2 templates: the starter program
(``autograder/starter_code/<name>.py.j2``) and the handout (``<name>/handout.md.j2`` in the
assignment's folder; shared parts ``_*.md.j2`` beside the assignments).

A starter program and the filled-in reference program of an assignment come from the same
template: the reference template only overrides the ``solve`` block, so the board, the file
reading and the print format cannot drift apart.
"""

from __future__ import annotations

import ast
import json
import pprint
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ._assignments import Assignment, assignment_folders, course_assignments_dir
from ._boards import Board, JumpBoard
from ._errors import UsageError
from ._resources import package_data

__all__ = [
    "HANDOUT_TEMPLATE",
    "check_command",
    "has_java_starter",
    "java_program_name",
    "program_name",
    "program_notebook",
    "render_handout",
    "render_program",
    "starter_code_dir",
]

HANDOUT_TEMPLATE = "handout.md.j2"


def starter_code_dir() -> Path:
    return package_data("autograder", "starter_code")


def starter_code_dirs() -> tuple[Path, ...]:
    """Where starter templates are looked for, first found wins: ``starter_code/`` beside
    a course's own assignments (``$AUTOGRADER_ASSIGNMENTS``), then the package's."""
    course = course_assignments_dir()
    own = course / "starter_code" if course is not None else None
    return (own, starter_code_dir()) if own is not None and own.is_dir() else (starter_code_dir(),)


def program_name(assignment: Assignment) -> str:
    """The file name a student's program goes by, e.g. ``token_boosted.py``."""
    return assignment.name.replace("-", "_") + ".py"


def java_program_name(assignment: Assignment) -> str:
    """The file name of a Java program, named like its class: ``TokenBoosted.java``."""
    return assignment.name.title().replace("-", "") + ".java"


def has_java_starter(assignment: Assignment) -> bool:
    return any((d / f"{assignment.name}.java.j2").is_file() for d in starter_code_dirs())


def check_command(assignment: Assignment, variant: bool = False) -> str:
    """What a student types to check their program: the bundle's own script on a variant."""
    if variant:
        return "python3 check.py"
    return f"autograder check {assignment.name} {program_name(assignment)}"


def _environment(search_path: tuple[Path, ...]) -> jinja2.Environment:
    return _environment_for(search_path, starter_code_dirs())


@lru_cache(maxsize=16)
def _environment_for(
    search_path: tuple[Path, ...], starters: tuple[Path, ...]
) -> jinja2.Environment:
    """One environment per search path, cached, so its compiled templates are too:
    rendering a starter and a handout per student for a roster of hundreds would otherwise
    compile the same templates each time. The starter templates are always reachable as
    ``starter/<name>.py.j2`` (examples and reference programs extend them)."""
    loader = jinja2.ChoiceLoader(
        [
            jinja2.FileSystemLoader([str(p) for p in search_path]),
            jinja2.PrefixLoader({"starter": jinja2.FileSystemLoader([str(p) for p in starters])}),
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
    language: str = "python",
) -> str:
    """The program for ``board``: the starter by default, or ``template`` found first on
    ``search_path`` (``reference_solutions`` passes its own folder of filled-in templates).
    A ``variant`` program goes into a student's bundle and tells them to run ``check.py``.
    ``language="java"``: the Java starter (``starter_code/<name>.java.j2``)."""
    env = _environment(tuple(search_path))
    java = language == "java"
    name = template or f"starter/{assignment.name}.{'java' if java else 'py'}.j2"
    program = java_program_name(assignment) if java else program_name(assignment)
    checking = check_command(assignment, variant)
    if java and not variant:
        checking = f"autograder check {assignment.name} {program}"
    try:
        found = env.get_template(name)
    except jinja2.TemplateNotFound:
        # (an assignment a course added, without its own starter or filled-in program)
        where = name.removeprefix("starter/")
        if where != name:
            places = "in starter_code/ beside the course's assignments, nor the package's"
        else:
            places = "in " + (", ".join(str(p) for p in search_path) or "the template folders")
        raise UsageError(assignment.name, f"has no template {where} ({places})") from None
    return found.render(
        assignment=assignment,
        board=board,
        params=dict(params),
        program=program,
        check_command=checking,
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
    env = _environment((assignment.folder, *assignment_folders()))
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


# The line a starter program's "YOUR PART" starts and ends on.
_YOUR_PART = "-- YOUR PART"
_END_OF_YOUR_PART = "-- END OF YOUR PART"
_RUN_AS_SCRIPT = 'if __name__ == "__main__":\n    main(sys.argv)\n'
_RUN_IN_NOTEBOOK = """\
# Run by the grader, this notebook is handed the board file as sys.argv[1]. In Jupyter or
# Colab, where sys.argv holds the kernel's own arguments, the board written in above is solved.
if __name__ == "__main__":
    main(sys.argv if len(sys.argv) > 1 and sys.argv[1].endswith(".json") else sys.argv[:1])
"""


def _notebook_cell(kind: str, number: int, text: str) -> dict[str, Any]:
    lines = text.strip("\n").splitlines(keepends=True)
    cell: dict[str, Any] = {"cell_type": kind, "id": f"cell-{number}", "metadata": {},
                            "source": lines}  # fmt: skip
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def program_notebook(assignment: Assignment, program: str) -> str:
    """``program`` (a starter or a filled-in program, rendered) as a notebook in nbformat 4:
    a markdown cell of instructions, then code cells for the board and its reading, the
    solving part ("YOUR PART"), the printing, and the run, which reads the board file named
    by ``sys.argv[1]`` as the program does. Raises ``ValueError`` for a program without the
    starter's "YOUR PART" lines."""
    tree = ast.parse(program)
    docstring = ast.get_docstring(tree) or assignment.title
    first = tree.body[0]
    lines = program.splitlines(keepends=True)
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        lines = lines[first.end_lineno or 0 :]
    starts = [i for i, line in enumerate(lines) if line.rstrip().endswith(_YOUR_PART)]
    ends = [i for i, line in enumerate(lines) if line.rstrip().endswith(_END_OF_YOUR_PART)]
    starts = [i for i in starts if i not in ends]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError("the program has no YOUR PART ... END OF YOUR PART lines")
    start, end = starts[0], ends[0] + 1
    rest = "".join(lines[end:])
    if _RUN_AS_SCRIPT not in rest:
        raise ValueError("the program does not end by calling main(sys.argv)")
    printing, _, after = rest.partition(_RUN_AS_SCRIPT)
    title, _, _ = docstring.partition("\n")
    stem = Path(program_name(assignment)).stem
    instructions = f"""\
# {title.rstrip(".")}

Everything is written for you except the function in the second code cell, under
"YOUR PART": the other cells read the board and print the table the autograder reads.

Run the cells from top to bottom: the last one solves the board written in the first
cell. The grader runs this notebook's code cells in order as one program, handing it
a board file as `sys.argv[1]`; magics (`%...`) and shell lines (`!...`) are skipped.
Check your work with `autograder check {assignment.name} {stem}.ipynb`, and hand in the
notebook (`.ipynb`).
"""
    cells = [
        _notebook_cell("markdown", 0, instructions),
        _notebook_cell("code", 1, "".join(lines[:start])),
        _notebook_cell("code", 2, "".join(lines[start:end])),
        _notebook_cell("code", 3, printing),
        _notebook_cell("code", 4, _RUN_IN_NOTEBOOK + after),
    ]
    notebook = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "cells": cells,
    }
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
