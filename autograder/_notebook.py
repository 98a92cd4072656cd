"""Notebooks (``.ipynb``, nbformat 4, as Jupyter and Colab save them) as submissions, run
without a Jupyter kernel: the code cells become one Python program.

Once per submission, :class:`NotebookLanguage` reads the notebook's JSON, takes its code
cells in order and stages a folder (a copy of the submission's folder, or the notebook
alone) where the notebook's place is taken by the grader's cell runner
(``_notebook_runner.py``), a Python program still named ``<name>.ipynb`` (the program of a
submission keeps its kind's suffix), beside ``<name>.ipynb.cells.json``, the cells it runs.
Cells are numbered among the code cells, from 1, in the notebook's order (markdown cells and
execution counts do not count), and feedback names them so (``in cell 3, line 2:
ZeroDivisionError: ...``).

What is not Python in a cell:

* a line magic or shell escape (a line starting with ``%`` or ``!`` where a statement
  starts) becomes ``pass  # %...``: the line count stays, and a block it was alone in too;
* a cell magic (``%%name`` on the first line) keeps its body where the body is plain Python
  (:data:`KEPT_CELL_MAGICS`: ``%%time``, ``%%timeit``, ``%%capture`` ..., run once; the output
  of a ``%%capture`` cell is not shown); any other (``%%bash``, ``%%html``, ``%%writefile``
  ...) is not run, and the run says so on standard error, naming the cell.

The contract is a script's: the board file is ``sys.argv[1]``. A trap-lane notebook that only
defines ``markovDecision`` (decided from its cells, as for a module) goes through the format's
runner, which imports the staged program as a module (a copy named ``<name>.ipynb.py``).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
import tempfile
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ._cases import TestCase
from ._languages import (
    HERE,
    BuildContext,
    Language,
    Prepared,
    SubmissionError,
    copy_submission,
    is_module_only,
    register_language,
)

__all__ = [
    "KEPT_CELL_MAGICS",
    "Cell",
    "NotebookLanguage",
    "notebook_cells",
    "read_notebook",
]

# Cell magics whose body is plain Python run in the notebook's namespace: their body is
# kept (run once). Every other cell magic is dropped.
KEPT_CELL_MAGICS = frozenset({"capture", "prun", "time", "timeit"})
RUNNER = "_notebook_runner.py"
# What the staged program's cells file and its importable copy add to its name; neither is
# seen in feedback (tracebacks name cells).
CELLS_SUFFIX = ".cells.json"
MODULE_SUFFIX = ".py"
# Folders a folder submission's copy leaves out (as the runs' copies do).


@dataclass(frozen=True)
class Cell:
    """One code cell: ``number`` among the code cells (from 1), its Python ``source``
    (magics made comments), ``dropped`` why it is not run (``""``: it is), ``capture``
    whether its output is hidden (``%%capture``)."""

    number: int
    source: str
    dropped: str = ""
    capture: bool = False

    def to_json(self) -> dict[str, object]:
        return {"number": self.number, "source": self.source, "dropped": self.dropped,
                "capture": self.capture}  # fmt: skip


def read_notebook(path: Path) -> list[dict[str, object]]:
    """The cells of the nbformat 4 notebook at ``path``; a file that is not one raises
    :class:`SubmissionError` with a one-line reason naming it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError:
        raise SubmissionError(f"{path.name}: not a notebook (not UTF-8 text)") from None
    except json.JSONDecodeError as err:
        raise SubmissionError(
            f"{path.name}: not a notebook (malformed JSON: {err.msg} at line {err.lineno})"
        ) from None
    except OSError as err:
        raise SubmissionError(f"{path.name}: cannot be read ({err.strerror})") from None
    except RecursionError:  # (a notebook is a few levels deep; this one, thousands)
        raise SubmissionError(f"{path.name}: not a notebook (JSON nested too deeply)") from None
    if not isinstance(data, dict) or "nbformat" not in data:
        raise SubmissionError(f"{path.name}: not a Jupyter notebook (no nbformat)")
    if data["nbformat"] != 4:
        raise SubmissionError(
            f"{path.name}: a notebook in nbformat {data['nbformat']!r}; only nbformat 4 (as "
            "Jupyter and Colab save notebooks today) is graded"
        )
    cells = data.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise SubmissionError(f"{path.name}: malformed notebook (its cells are not a list)")
    return cells


def _source(cell: dict[str, object], number: int, name: str) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        source = "".join(source)
    if not isinstance(source, str):
        raise SubmissionError(f"{name}: malformed notebook (code cell {number} has no source)")
    return source.replace("\r\n", "\n").replace("\r", "\n")


def _python(source: str) -> str:
    """``source`` with each line magic and shell escape made a ``pass`` with the magic as
    its comment, at its own indentation: a line starting with ``%`` or ``!`` where a
    statement starts (not inside brackets, a string or after a backslash, where a ``%`` is
    Python's own operator).

    One pass of the tokenizer, fed a line at a time: when it asks for a line, the tokens of
    the lines before it say whether a statement starts there (the last ended a statement,
    or a line outside brackets, on the line just before: a line the tokenizer read without a
    token is inside a string). Asking again from the start for every magic made a notebook
    of 3,000 ``%x`` lines take 27 s of the grader's time."""
    lines = source.split("\n")
    depth = 0  # brackets open
    kind, row = tokenize.NEWLINE, 0  # the last token's type and the row (1-based) it ends on
    given = 0  # the lines handed to the tokenizer so far

    def readline() -> str:
        nonlocal given
        if given == len(lines):
            return ""
        i, given = given, given + 1
        starts = row == i and (kind == tokenize.NEWLINE or (kind == tokenize.NL and depth == 0))
        stripped = lines[i].lstrip()
        if starts and stripped.startswith(("%", "!")):
            lines[i] = f"{lines[i][: len(lines[i]) - len(stripped)]}pass  # {stripped}"
        return lines[i] + "\n"

    while given < len(lines):
        base = given  # the lines before those this tokenizer reads (its row 1)
        try:
            for token in tokenize.generate_tokens(readline):
                if token.type == tokenize.OP and token.string in "([{":
                    depth += 1
                elif token.type == tokenize.OP and token.string in ")]}":
                    depth = max(0, depth - 1)
                if token.type not in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                    kind, row = token.type, base + token.end[0]
            break
        except tokenize.TokenError:
            break  # the end inside a multi-line statement or string: no line is left
        except SyntaxError:
            # An inconsistent dedent: the next line starts a statement, read afresh.
            depth, kind, row = 0, tokenize.NEWLINE, given
    return "\n".join(lines)


def _cell(source: str, number: int) -> Cell:
    lines = source.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        magic = lines[first].strip()
        name = magic[2:].split(maxsplit=1)[0] if magic[2:].strip() else ""
        if name not in KEPT_CELL_MAGICS:
            kept = ", ".join(f"%%{m}" for m in sorted(KEPT_CELL_MAGICS))
            why = f"%%{name} cell (only these cell magics run their body as Python: {kept})"
            return Cell(number, "", dropped=why)
        lines[first] = f"# {magic}"
        return Cell(number, _python("\n".join(lines)), capture=name == "capture")
    return Cell(number, _python(source))


def notebook_cells(path: Path) -> list[Cell]:
    """The code cells of the notebook at ``path``, ready to run; a notebook without code
    raises :class:`SubmissionError`."""
    cells: list[Cell] = []
    for cell in read_notebook(path):
        if cell.get("cell_type") == "code":
            number = len(cells) + 1
            cells.append(_cell(_source(cell, number, path.name), number))
    if not any(c.source.strip() for c in cells):
        raise SubmissionError(f"{path.name}: the notebook has no code cells with code in them")
    return cells


def _cells_file(program: Path) -> Path:
    """The cells of the staged program ``<name>.ipynb``: ``<name>.ipynb.cells.json``."""
    return program.with_name(program.name + CELLS_SUFFIX)


def _module_only(program: Path, function: str) -> bool:
    """Whether the notebook staged as ``program`` only defines ``function``, judged from
    its cells as a Python module is judged from its source."""
    cells = json.loads(_cells_file(program).read_text(encoding="utf-8"))["cells"]
    return is_module_only("\n".join(c["source"] for c in cells if not c["dropped"]), function)


class NotebookLanguage(Language):
    name = "notebook"
    suffixes = (".ipynb",)

    @contextlib.contextmanager
    def prepared(self, submission: Path, program: Path, build: BuildContext) -> Iterator[Prepared]:
        cells = notebook_cells(program)
        with tempfile.TemporaryDirectory(prefix="autograder-notebook-") as temp:
            staged = Path(temp) / "submission"
            staged.mkdir()
            notebook = copy_submission(submission, program, staged)
            generated = notebook  # the notebook's copy is not needed: its cells are
            cells_file = _cells_file(generated)
            cells_file.write_text(
                json.dumps({"notebook": program.name, "cells": [c.to_json() for c in cells]}),
                encoding="utf-8",
            )
            runner = (HERE / RUNNER).read_text(encoding="utf-8")
            generated.write_text(
                f"{runner}\n\nrun_cells(globals(), {cells_file.name!r})\n", encoding="utf-8"
            )
            dropped = [f"cell {c.number} ({c.dropped.split()[0]})" for c in cells if c.dropped]
            note = f"notebook {program.name}: {len(cells)} code cells run as one program"
            if dropped:
                note += "; not run: " + ", ".join(dropped)
            yield Prepared(staged, generated, note)

    def command(self, program: Path, board: Path, work: Path, case: TestCase) -> list[str]:
        # The interpreter flags of a Python program (``_languages.python_command``).
        python = [sys.executable, "-E", "-s"]
        entry = case.expected.format.module_entry
        if entry is not None and _module_only(program, entry.function):
            runner = work / "grader_runner.py"
            runner.write_bytes((HERE / entry.runner).read_bytes())
            module = program.with_name(program.name + MODULE_SUFFIX)  # importable by name
            shutil.copyfile(program, module)
            return [*python, str(runner), str(module), str(board)]
        return [*python, str(program), str(board)]


register_language(NotebookLanguage())
