"""The project's import graph, read from the source (not by importing it), and its drawing.

``python tools/import_graph.py`` prints the drawing; ``--write`` puts it into
docs/architecture.md between its markers. tests/autograder/test_boundaries.py checks the
rules the drawing shows (which layer may import which, no cycle) and that the document is
up to date.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("autograder", "reference_solutions")
DOCUMENT = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- import drawing: begin -->", "<!-- import drawing: end -->"

# The three layers, top first: a module may import its own layer and the ones below.
CLI, SOLVER, ENGINE = "the command line", "the answer keys", "the engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    """Each module's source; a compiled module's is its stub (``_kernel.pyi`` beside
    ``_kernel.c``), which imports nothing of the project."""
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                files[module_name(path)] = path
        for path in sorted((ROOT / package).rglob("*.pyi")):
            files.setdefault(module_name(path), path)
    return files


def layer(module: str) -> str:
    if module == "autograder.__main__" or module.split(".")[:2] == ["autograder", "cli"]:
        return CLI
    return SOLVER if module.startswith("reference_solutions") else ENGINE


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, in function bodies too, but not under ``if TYPE_CHECKING``
    (those are read by the type checker only)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def imports_of(module: str, path: Path, known: set[str]) -> dict[str, set[str]]:
    """``{imported module: names taken from it}`` for the project modules ``module`` uses
    (a whole-module import takes the name ``"*"``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, set[str]] = {}
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    found.setdefault(alias.name, set()).add("*")
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in known:
                found.setdefault(sub, set()).add("*")
            elif base in known:
                found.setdefault(base, set()).add(alias.name)
    return found


def graph() -> dict[str, dict[str, set[str]]]:
    """Each project module and the project modules it imports (with the names taken)."""
    files = source_files()
    known = set(files)
    return {m: imports_of(m, p, known) for m, p in files.items()}


def cycles(edges: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), and self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in edges.get(v, {}):
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def levels(edges: dict[str, dict[str, set[str]]], modules: list[str]) -> dict[str, int]:
    """Each module's height: 0 when it imports none of ``modules``, else one more than the
    highest it imports (the graph has no cycle)."""
    height: dict[str, int] = {}

    def of(m: str) -> int:
        if m not in height:
            below = [of(d) for d in edges[m] if d in modules and d != m]
            height[m] = 1 + max(below, default=-1)
        return height[m]

    for m in modules:
        of(m)
    return height


def drawing() -> str:
    """The layers, top first, each with its modules by height inside the layer, and what
    each layer imports from the layers below."""
    edges = graph()
    lines = []
    for name in (CLI, SOLVER, ENGINE):
        modules = sorted(m for m in edges if layer(m) == name)
        below = sorted({layer(d) for m in modules for d in edges[m]} - {name})
        uses = f"  (imports {', '.join(below)})" if below else ""
        lines.append(f"{name}: {len(modules)} modules{uses}")
        height = levels(edges, modules)
        for level in range(max(height.values()), -1, -1):
            row = sorted(m for m in modules if height[m] == level)
            lines += _wrapped(f"  {level:>2} | ", row)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _wrapped(head: str, names: list[str], width: int = 96) -> list[str]:
    out, line = [], head
    for name in names:
        if len(line) + len(name) + 1 > width and line.strip(" |0123456789"):
            out.append(line.rstrip())
            line = " " * (len(head) - 2) + "| "
        line += name + " "
    out.append(line.rstrip())
    return out


def document_drawing() -> str:
    """The drawing as docs/architecture.md holds it now."""
    text = DOCUMENT.read_text(encoding="utf-8")
    block = text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n")
    return block.removeprefix("```text\n").removesuffix("\n```") + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/architecture.md")
    args = parser.parse_args()
    text = drawing()
    if not args.write:
        sys.stdout.write(text)
        return
    document = DOCUMENT.read_text(encoding="utf-8")
    head, rest = document.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    DOCUMENT.write_text(f"{head}{BEGIN}\n```text\n{text}```\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
