"""Sample submissions (a folder of ``<assignment>/`` folders, which the grading side
keeps: ``reference_solutions.examples_dir()``), made into runnable programs.

A ``.py.j2`` file is a template that extends the assignment's starter (a student's program
is the starter with the solving part written); it is rendered with the public board. Other
files are copied as they are; a folder is one student's folder submission.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ._assignments import Assignment
from ._templates import render_program

__all__ = ["render_examples"]


def render_examples(assignment: Assignment, into: Path, examples: Path) -> list[Path]:
    """Write the assignment's examples (``examples/<name>/``) into ``into``; return the
    submissions made."""
    source = examples / assignment.name
    board = assignment.public_board()
    made = []
    for entry in sorted(source.iterdir()) if source.is_dir() else []:
        if entry.name.startswith((".", "_")):
            continue
        for path in sorted(entry.rglob("*")) if entry.is_dir() else [entry]:
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            target = into / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.name.endswith(".j2"):
                template = path.relative_to(source.parent).as_posix()
                text = render_program(
                    assignment, board, assignment.params, template=template,
                    search_path=[examples],
                )  # fmt: skip
                target.with_name(path.name[:-3]).write_text(text, encoding="utf-8")
            else:
                shutil.copyfile(path, target)
        made.append(into / (entry.name[:-3] if entry.name.endswith(".j2") else entry.name))
    return made
