"""The programs the grading benchmarks grade: an assignment's bundled examples, rendered
for its public board, and its filled-in starter (the starter with the reference solving
part written in, as a student who solved it hands in)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from autograder import load_assignment, render_examples
from reference_solutions import examples_dir, reference_program


@dataclass(frozen=True)
class Examples:
    correct: tuple[Path, ...]  # several styles, a folder submission among them
    wrong: tuple[Path, ...]  # the typical mistakes, and the one that crashes
    endless: tuple[Path, ...]  # never ends


def examples(name: str, into: Path) -> Examples:
    """Render ``name``'s examples into ``into`` (Python ones; a folder counts as one)."""
    made = render_examples(load_assignment(name), into, examples_dir())
    filled = into / "filled_in_starter.py"
    filled.write_text(reference_program(name), encoding="utf-8")
    made.append(filled)
    # (named by what they do: wrong_* and the one that crashes lose marks, endless never
    # ends, and every other one is right, a folder or the trap lane's bare module among them)
    endless = [p for p in made if p.stem == "endless"]
    wrong = [p for p in made if p.stem.startswith("wrong_") or p.stem == "crashes"]
    correct = [p for p in made if p not in wrong and p not in endless]
    return Examples(tuple(correct), tuple(wrong), tuple(endless))


def copy_as(source: Path, folder: Path, student: str) -> Path:
    """``source`` handed in by ``student`` into ``folder`` (a file keeps its suffix)."""
    target = folder / (student if source.is_dir() else student + source.suffix)
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copyfile(source, target)
    return target
