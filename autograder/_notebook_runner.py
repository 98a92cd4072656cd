"""A notebook's code cells run as one program, in the submission's own process; never
imported by the grader. ``autograder._notebook`` writes this file in the notebook's place, as
``<name>.ipynb``, followed by one line, ``run_cells(globals(), "<name>.ipynb.cells.json")``;
the JSON file holds the cells, already cleaned of magics.

The cells run in order in one namespace, as a notebook runs them top to bottom: each is
compiled under the name ``<cell N>`` (N: its number among the code cells, from 1, in the
notebook's order), so a traceback names the cell and its line. A cell that does not parse
or raises is reported on standard error and the next cells go on; ``SystemExit`` ends the
program with its code. The last bare expression of a cell is shown as a notebook shows it
(its ``repr``, unless it is None); ``display(x)`` prints ``x`` the same way; ``input()``
raises ``EOFError`` at once, without printing its prompt. The exit status
is 1 when the last cell that ran ended in an error (that is where the answer is printed,
as a script's crash), else 0.

Run as a script, the cells see ``__name__ == "__main__"`` and the board file as
``sys.argv[1]``; imported as a module (a trap-lane notebook that only defines
``markovDecision`` goes through the format's runner), the names the cells define become the
module's.
"""

import json
import os
import sys
from typing import Any

_NO_RESULT = object()


def display(*objects: Any, **options: Any) -> None:
    """What ``IPython.display.display`` shows of each object, as plain text."""
    for value in objects:
        if value is not None:
            print(repr(value))


def _no_input(prompt: object = "") -> str:
    """``input()``: nobody answers a graded run (its standard input is closed). The prompt
    is not printed, so that it does not join the next line of the answer."""
    raise EOFError("input(): nobody types an answer when the grader runs the notebook")


def _silenced(source: str, node: Any) -> bool:
    """A last expression followed by ``;`` is not shown (as in a notebook)."""
    line = source.split("\n")[node.end_lineno - 1].encode("utf-8")
    rest = line[node.end_col_offset :].decode("utf-8", errors="replace")
    return rest.lstrip().startswith(";")


def _compiled(number: int, source: str) -> tuple[Any, Any]:
    """The cell's body and its last bare expression (``None`` when there is none)."""
    import ast

    name = f"<cell {number}>"
    tree: Any = compile(source, name, "exec", ast.PyCF_ONLY_AST)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not _silenced(source, tree.body[-1]):
        last = compile(ast.Interactive(body=[tree.body.pop()]), name, "single")
    return compile(tree, name, "exec"), last


def _shown_cells(cells: list[dict[str, Any]]) -> None:
    """Let tracebacks and warnings show the cells' lines, as they show a file's."""
    import linecache

    for cell in cells:
        lines = [line + "\n" for line in cell["source"].split("\n")]
        name = f"<cell {cell['number']}>"
        linecache.cache[name] = (len(cell["source"]), None, lines, name)


def _report(error: BaseException, number: int, own_file: str) -> None:
    """The error a cell ended in, on standard error: the traceback without this runner's
    frames, each cell frame as ``cell N, line L``, then one line saying where it happened."""
    import re
    import traceback

    def pruned(te: traceback.TracebackException, seen: set[int]) -> None:
        if id(te) in seen:
            return
        seen.add(id(te))
        te.stack = traceback.StackSummary.from_list(
            [frame for frame in te.stack if frame.filename != own_file]
        )
        for chained in (te.__cause__, te.__context__):
            if chained is not None:
                pruned(chained, seen)

    te = traceback.TracebackException.from_exception(error)
    pruned(te, set())
    text = "".join(te.format())
    text = re.sub(
        r'^( *)File "<cell (\d+)>", line (\d+)(?:, in (.*))?$',
        lambda m: (
            f"{m[1]}cell {m[2]}, line {m[3]}"
            + (f", in {m[4]}" if m[4] and m[4] != "<module>" else "")
        ),
        text,
        flags=re.M,
    )
    where: tuple[str, Any] | None = None
    if isinstance(error, SyntaxError) and str(error.filename).startswith("<cell "):
        where = (str(error.filename)[6:-1], error.lineno)
    for frame in reversed(te.stack):
        if where is None and frame.filename.startswith("<cell "):
            where = (frame.filename[6:-1], frame.lineno)
    said = "".join(te.format_exception_only()).strip().splitlines()[-1]
    if where is None:
        summary = f"in cell {number}: {said}"
    elif where[0] == str(number):
        summary = f"in cell {number}, line {where[1]}: {said}"
    else:
        summary = f"in cell {where[0]}, line {where[1]} (run from cell {number}): {said}"
    if isinstance(error, SyntaxError):
        summary += " (the cell was not run)"
    sys.stderr.write(text + summary + "\n")
    sys.stderr.flush()


def _run_cell(cell: dict[str, Any], namespace: dict[str, Any]) -> None:
    body, last = _compiled(cell["number"], cell["source"])
    if not cell.get("capture"):
        exec(body, namespace)
        if last is not None:
            exec(last, namespace)
        return
    import io

    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()  # %%capture: the cell's output is not shown
    try:
        exec(body, namespace)
        if last is not None:
            exec(last, namespace)
    finally:
        sys.stdout, sys.stderr = saved


def run_cells(module: dict[str, Any], cells_file: str) -> None:
    """Run the cells listed in ``cells_file`` (next to this program) for the module whose
    globals are ``module``."""
    own_file = module["__file__"]
    with open(os.path.join(os.path.dirname(os.path.abspath(own_file)), cells_file),
              encoding="utf-8") as file:  # fmt: skip
        cells = json.load(file)["cells"]
    # The cells' own module, as a notebook's namespace is: functions and classes defined in
    # a cell can be pickled (multiprocessing) as they are in Jupyter.
    as_script = module["__name__"] == "__main__"
    own = type(sys)(module["__name__"])
    namespace = own.__dict__
    namespace["display"] = display
    namespace["input"] = _no_input
    if as_script:
        sys.modules["__main__"] = own
    failed_last = False
    shown = False
    for cell in cells:
        if cell.get("dropped"):
            sys.stderr.write(f"cell {cell['number']}: not run: {cell['dropped']}\n")
            continue
        if not cell["source"].strip():
            continue
        try:
            _run_cell(cell, namespace)
        except SystemExit:
            raise
        except (Exception, KeyboardInterrupt) as error:
            if not shown:
                _shown_cells(cells)
                shown = True
            sys.stdout.flush()
            _report(error, cell["number"], own_file)
            failed_last = True
        else:
            failed_last = False
    sys.stdout.flush()
    if not as_script:
        module.update({k: v for k, v in namespace.items() if not k.startswith("__")})
    if failed_last:
        raise SystemExit(1)
