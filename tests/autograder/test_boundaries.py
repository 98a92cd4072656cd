"""Dependencies run one way: the engine (``autograder``) below the answer keys
(``reference_solutions``) below the command line (``autograder.cli``), with no arrow back up
and no cycle, and the engine stands and grades without any solver."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import autograder
from reference_solutions import answer_key, reference_program
from tools import import_graph
from tools.import_graph import CLI, ENGINE, SOLVER, cycles, graph, layer

ROOT = Path(__file__).resolve().parents[2]
EDGES = graph()


def test_the_graph_reads_every_module_and_its_imports():
    # The graph must see what it claims to check: all three layers, function-level imports
    # (the batch imports nothing lazily now, but a regression would be one), and the
    # engine's own edges.
    assert {layer(m) for m in EDGES} == {CLI, SOLVER, ENGINE}
    assert "autograder._lms" in EDGES["autograder._batch"]
    assert "reference_solutions" in EDGES["autograder.cli.check"]
    assert set(EDGES["reference_solutions._source"]) >= {"autograder"}


def test_the_engine_never_imports_the_answer_keys_or_the_command_line():
    wrong = {
        f"{m} imports {d}"
        for m, imported in EDGES.items()
        if layer(m) == ENGINE
        for d in imported
        if layer(d) != ENGINE
    }
    assert not wrong


def test_the_answer_keys_use_only_the_engines_public_api():
    wrong = []
    for module, imported in EDGES.items():
        if layer(module) != SOLVER:
            continue
        for target, names in imported.items():
            if layer(target) == CLI:
                wrong.append(f"{module} imports the command line ({target})")
            elif layer(target) == ENGINE and target != "autograder":
                wrong.append(f"{module} imports the private module {target}")
            elif target == "autograder" and not names <= set(autograder.__all__):
                wrong.append(f"{module} takes {sorted(names - set(autograder.__all__))}")
    assert not wrong


def test_no_module_reaches_a_private_engine_name_by_attribute():
    # ``import autograder`` followed by ``autograder._sandbox.x`` would slip past the graph.
    for path in (ROOT / "reference_solutions").rglob("*.py"):
        assert not re.search(r"\bautograder\._(?!_)", path.read_text()), path


def test_there_is_no_import_cycle():
    assert cycles(EDGES) == []


def test_the_cycle_finder_finds_one():
    # The check above can fail: two modules importing each other, or one itself, are found.
    assert cycles({"a": {"b": {"*"}}, "b": {"a": {"*"}}, "c": {}}) == [["a", "b"]]
    assert cycles({"a": {"a": {"*"}}}) == [["a"]]


def test_the_documented_drawing_is_the_code_as_it_is():
    assert import_graph.document_drawing() == import_graph.drawing(), (
        "docs/architecture.md is out of date: run python tools/import_graph.py --write"
    )


# --- the engine without the solvers ---------------------------------------------------------

# Run in a fresh interpreter where ``reference_solutions`` cannot be imported at all.
BLOCKED = """
import sys
sys.modules["reference_solutions"] = None  # import reference_solutions -> ImportError
"""


def run_without_solvers(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKED + textwrap.dedent(code)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_engine_module_imports_without_the_solvers(tmp_path):
    # (The bundled check.py is a script for a student's bundle, where it finds the grader's
    # parser as the package _check; it is run there, below, not imported here.)
    engine = [m for m in EDGES if layer(m) == ENGINE and m != "autograder._bundle_check"]
    done = run_without_solvers(
        f"""
        import importlib
        for name in {engine!r}:
            importlib.import_module(name)
        try:
            import autograder.cli
        except ImportError as err:
            print("cli needs:", err)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    # The command line is where the solvers come in: without them it cannot start.
    assert "cli needs:" in done.stdout and "reference_solutions" in done.stdout


def test_the_engine_grades_against_precomputed_cases_without_the_solvers(tmp_path):
    """An answer key computed elsewhere, shipped as JSON: the engine grades a folder and a
    single submission with it, through a minimal answer source of the test's own."""
    key = tmp_path / "key.json"
    key.write_text(json.dumps([case.to_json() for case in answer_key("classic")]))
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "right.py").write_text(reference_program("classic"))
    (submissions / "silent.py").write_text("print('nothing to see')\n")
    done = run_without_solvers(
        f"""
        import json
        from pathlib import Path
        from autograder import (
            AnswerSource, TestCase, check_submission, check_text, grade_folder,
            load_assignment,
        )

        cases = [TestCase.from_json(c) for c in json.loads(Path({str(key)!r}).read_text())]

        class Precomputed:
            def cases(self, assignment, *, hidden=True):
                return cases if hidden else cases[:1]
            def own_board_case(self, assignment, board):
                raise LookupError("no own boards in a precomputed key")
            def variant(self, assignment, secret, student):
                raise LookupError("no variants in a precomputed key")
            def secret_paths(self):
                return [Path({str(key)!r})]
            def policy_cost(self, assignment, case, actions):
                return None  # no model in a precomputed key: actions are graded by square

        assert isinstance(Precomputed(), AnswerSource)
        batch = grade_folder("classic", {str(submissions)!r}, "out", answers=Precomputed(),
                             workers=2)
        for r in batch.results:
            print(r.student, r.score, r.max_score, r.status)
        result = check_submission("classic", {str(submissions / "right.py")!r}, Precomputed())
        print(check_text(result).splitlines()[-1])
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    total = sum(c.points for c in answer_key("classic"))
    assert f"right {total} {total} graded" in done.stdout
    assert f"silent 0.0 {total} graded" in done.stdout
    assert "all public tests pass" in done.stdout
    assert (tmp_path / "out" / "grades.csv").is_file()


def test_a_bundled_check_runs_with_nothing_of_the_project_installed(tmp_path):
    from autograder import make_variants
    from reference_solutions import ReferenceAnswers

    roster = tmp_path / "roster.csv"
    roster.write_text("id\nann\n")
    make_variants("classic", roster, tmp_path / "out", ReferenceAnswers(), secret="s3cret-key")
    bundle = tmp_path / "out" / "students" / "ann"
    # -I -S: no site-packages, no project, no PYTHONPATH; the solvers blocked on top.
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", BLOCKED + "import runpy\nrunpy.run_path('check.py', "
         "run_name='__main__')"],
        cwd=bundle, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert "still raises NotImplementedError" in done.stdout
