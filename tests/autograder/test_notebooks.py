"""Notebooks (``.ipynb``) as submissions: the code cells run in order as one program, the
feedback names cells, and the starter comes as a notebook too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import grade_submission, load_assignment
from autograder._templates import program_notebook
from autograder._texts import NOT_IMPLEMENTED
from reference_solutions import ReferenceAnswers, reference_program
from tests.grading import isolation_or_skip

ANSWERS = ReferenceAnswers()


def write_notebook(path: Path, *cells: str | tuple[str, str]) -> Path:
    """A notebook as Colab saves one: a code cell per string (its source a list of lines,
    or one string every other cell), a markdown cell per ``("md", text)``."""
    written = []
    for k, cell in enumerate(cells):
        kind, text = ("markdown", cell[1]) if isinstance(cell, tuple) else ("code", cell)
        source: str | list[str] = text.splitlines(keepends=True) if k % 2 else text
        entry = {"cell_type": kind, "metadata": {"id": f"c{k}"}, "source": source}
        if kind == "code":
            entry.update(execution_count=k or None, outputs=[])
        written.append(entry)
    notebook = {
        "nbformat": 4,
        "nbformat_minor": 0,
        "metadata": {"colab": {"provenance": []}, "kernelspec": {"name": "python3"}},
        "cells": written,
    }
    path.write_text(json.dumps(notebook, indent=2), encoding="utf-8")
    return path


def grade(name: str, path: Path, level: str = "process", limits=None):
    assignment = load_assignment(name)
    return grade_submission(assignment, path, ANSWERS.cases(assignment),
                            hidden=ANSWERS.secret_paths(), isolation=level,
                            limits=limits)  # fmt: skip


def reference_cells(name: str) -> list[str]:
    """The reference program's code cells, as ``starter --notebook`` splits the starter."""
    text = program_notebook(load_assignment(name), reference_program(name))
    return ["".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "code"]


def full(result) -> bool:
    return result.status == "graded" and result.score == result.max_score > 0


# --- a Colab-style notebook ----------------------------------------------------------------

CLASSIC_SOLVE = """\
def solve(goal, jumps, faces=6):
    # V = 1 + P V on squares 0..goal-1; a move past the goal stays (no jump).
    P = np.zeros((goal, goal + 1))
    for i in range(goal):
        for s in range(1, faces + 1):
            j = i if i + s > goal else jumps.get(i + s, i + s)
            P[i, j] += 1 / faces
    V = np.linalg.solve(np.eye(goal) - P[:, :goal], np.ones(goal))
    return list(V) + [0.0]
"""

CLASSIC_PRINT = """\
def show(values, heading):
    goal = len(values) - 1
    print(heading + ":")
    for r in reversed(range(goal // 10)):
        row = list(range(10 * r + 1, 10 * r + 11))
        row = row if r % 2 == 0 else row[::-1]
        print("".join("%3d: %5.2f " % (i, values[i]) for i in row))
"""

COLAB = [
    ("md", "# Homework: classic\nRun all the cells."),
    "!pip install numpy\n%matplotlib inline\nimport json, sys\nimport numpy as np\n",
    "display('ready')\nx = 41\nx + 1\n",
    "ratio = 1 / 0  # a cell that raises\n",
    "%%bash\necho this is not Python\n",
    "%%capture\nprint('hidden chatter')\nimport math\n",
    CLASSIC_SOLVE,
    "name = input('your name? ')\n",
    CLASSIC_PRINT,
    "with open(sys.argv[1]) as f:\n    board = json.load(f)\n"
    "if True:\n    %time pass\n"
    "values = solve(board['goal'], {a: b for a, b in board['jumps']})\n"
    "print('Expected turns per game: %.2f' % values[0])\n"
    "show(values, 'Expected turns remaining by position')\n"
    "math.floor(values[0])\n",
]


def test_a_colab_notebook_gets_full_marks_and_names_the_cell_that_raised(tmp_path):
    path = write_notebook(tmp_path / "classic.ipynb", *COLAB)
    result = grade("classic", path)
    assert full(result), result
    staff = "\n".join(result.tests[0].staff)
    assert "in cell 3, line 1: ZeroDivisionError: division by zero" in staff
    assert "cell 4: not run: %%bash cell" in staff
    assert "in cell 7, line 1: EOFError: input(): nobody types" in staff  # no waiting
    assert "3 not run" not in staff and "notebook classic.ipynb: 9 code cells" in staff


def test_a_colab_notebook_at_the_namespace_level(tmp_path):
    level = isolation_or_skip("namespace")
    path = write_notebook(tmp_path / "classic.ipynb", *COLAB)
    result = grade("classic", path, level)
    assert full(result) and result.isolation == "namespace", result


def test_a_crash_in_the_last_cell_names_its_cell_and_line_on_a_visible_board(tmp_path):
    cells = [*COLAB[:-1], "values = [1.0]\nprint(values[3])\n"]
    result = grade("classic", write_notebook(tmp_path / "classic.ipynb", *cells))
    public = result.tests[0]
    assert result.score == 0 and public.status == "crashed"
    assert public.feedback[0] == "exited with status 1 (IndexError)"
    assert public.feedback[-1] == "in cell 9, line 2: IndexError: list index out of range"
    assert "  cell 9, line 2" in public.feedback  # the traceback, as cells, no program lines
    assert not any(".py" in line for line in public.feedback)


# --- efron, with numpy ---------------------------------------------------------------------

EFRON = [
    ("md", "# Efron's dice\nPolicy iteration with numpy."),
    "import json, sys\nimport numpy as np\n"
    "DICE = {'Blue': [3] * 6, 'Black': [4, 4, 4, 4, 0, 0], 'Red': [6, 6, 2, 2, 2, 2],\n"
    "        'Green': [5, 5, 5, 1, 1, 1]}\n",
    """\
def transitions(goal, jumps):
    # One matrix per die: P[d][i, j], the chance to go from i to j (a move past the goal wins).
    P = {}
    for die, faces in DICE.items():
        M = np.zeros((goal, goal + 1))
        for i in range(goal):
            for f in faces:
                t = min(i + f, goal)
                M[i, t if t == i else jumps.get(t, t)] += 1 / len(faces)
        P[die] = M
    return P


def evaluate(P, policy, goal):
    # A linear solve: (I - P_pi) V = 1 on the squares before the goal.
    rows = np.array([P[d][i] for i, d in enumerate(policy)])
    V = np.linalg.solve(np.eye(goal) - rows[:, :goal], np.ones(goal))
    return np.append(V, 0.0)


def optimal(goal, jumps):
    P = transitions(goal, jumps)
    names = list(DICE)
    policy = ['Red'] * goal
    while True:
        V = evaluate(P, policy, goal)
        Q = np.array([1 + P[d] @ V for d in names])  # a row per die
        for k, d in enumerate(names):
            Q[k, np.isclose(np.diag(P[d][:, :goal]), 1.0)] = np.inf  # cannot move: not allowed
        current = np.array([Q[names.index(d), i] for i, d in enumerate(policy)])
        better = Q.min(axis=0) < current - 1e-10
        if not better.any():
            return V, policy
        for i in np.flatnonzero(better):
            policy[i] = names[int(Q[:, i].argmin())]
""",
    """\
with open(sys.argv[1]) as f:
    board = json.load(f)
goal = board['goal']
V, policy = optimal(goal, {a: b for a, b in board['jumps']})
rows = [list(range(10 * r + 1, 10 * r + 11)) for r in range(goal // 10)]
rows = [row if r % 2 == 0 else row[::-1] for r, row in enumerate(rows)][::-1]
print('Expected turns per game: %.2f' % V[0])
print('Expected turns remaining by position:')
for row in rows:
    print(''.join('%3d: %5.2f ' % (i, V[i]) for i in row))
print('Optimal action by position:')
labels = policy + ['-']
for row in rows:
    print(''.join('%3d: %5s ' % (i, labels[i]) for i in row))
""",
]


def test_an_efron_notebook_with_a_linear_solve_per_policy_gets_full_marks(tmp_path):
    result = grade("efron", write_notebook(tmp_path / "efron.ipynb", *EFRON))
    assert full(result), result


# --- time, parse errors --------------------------------------------------------------------


@pytest.mark.slow  # (a notebook runs as the script made of it: scripts' time limits run by default)
def test_a_notebook_that_never_ends_times_out_as_a_script_does(tmp_path):
    assignment = load_assignment("classic")
    cells = [*reference_cells("classic")]
    cells.insert(2, "while True:\n    pass\n")  # code cell 3
    path = write_notebook(tmp_path / "classic.ipynb", *cells)
    result = grade("classic", path, limits=assignment.limits.with_timeout(1))
    statuses = [t.status for t in result.tests]
    assert statuses[:2] == ["timeout", "timeout"]
    assert set(statuses[2:]) == {"not-run"} and len(statuses) > 2
    assert result.score == 0


def test_a_cell_that_does_not_parse_is_named_and_later_cells_run(tmp_path):
    cells = reference_cells("classic")
    cells.insert(1, "def broken(:\n    pass\n")  # code cell 2
    result = grade("classic", write_notebook(tmp_path / "classic.ipynb", *cells))
    assert full(result), result
    staff = "\n".join(result.tests[0].staff)
    assert "in cell 2, line 1: SyntaxError: invalid syntax (the cell was not run)" in staff
    assert "  cell 2, line 1\n    def broken(:\n" in staff


def test_a_solve_cell_that_does_not_parse_is_what_the_crash_feedback_shows(tmp_path):
    cells = reference_cells("classic")
    cells[1] = cells[1].replace("    following = ", "    following == = ", 1)
    result = grade("classic", write_notebook(tmp_path / "classic.ipynb", *cells))
    feedback = result.tests[0].feedback
    assert result.score == 0 and result.tests[0].status == "crashed"
    assert any(line.startswith("in cell 2, line ") and "SyntaxError" in line for line in feedback)
    assert feedback[-1].startswith("in cell 3, line ") and "NameError" in feedback[-1]


# --- the trap lane's module-only notebooks -------------------------------------------------


def test_a_trap_lane_notebook_that_only_defines_markov_decision_goes_through_the_runner(
    tmp_path,
):
    board, solve, _printing, _run = reference_cells("trap-lane")
    assert "__main__" not in board + solve
    cells = [("md", "My markovDecision"), "%load_ext autoreload\n" + board, solve]
    result = grade("trap-lane", write_notebook(tmp_path / "trap_lane.ipynb", *cells))
    assert full(result), result


def test_a_trap_lane_notebook_that_runs_itself_is_run_as_a_script(tmp_path):
    board, solve, printing, run = reference_cells("trap-lane")
    cells = [board, solve, printing, run.replace("main(", "print('# mine')\n    main(", 1)]
    result = grade("trap-lane", write_notebook(tmp_path / "trap_lane.ipynb", *cells))
    assert full(result), result
    assert "'# mine'" in " ".join(result.tests[0].feedback)  # its own print ran: no runner


# --- notebooks that are not ones -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"cells": [', "classic.ipynb: not a notebook (malformed JSON: "),
        ('{"nbformat": 3, "worksheets": []}', "classic.ipynb: a notebook in nbformat 3; "),
        ("[1, 2]", "classic.ipynb: not a Jupyter notebook (no nbformat)"),
        ('{"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "# hi"}]}',
         "classic.ipynb: the notebook has no code cells"),
        ('{"nbformat": 4, "cells": [{"cell_type": "code", "source": "  \\n"}]}',
         "classic.ipynb: the notebook has no code cells"),
        ('{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}]}',
         "classic.ipynb: malformed notebook (code cell 1 has no source)"),
        ('{"nbformat": 4, "cells": ' + "[" * 200_000 + "]" * 200_000 + "}",
         "classic.ipynb: not a notebook (JSON nested too deeply)"),
    ],
    ids=["malformed", "nbformat-3", "no-nbformat", "markdown-only", "blank-code", "no-source",
         "nested-deep"],
)  # fmt: skip
def test_a_file_that_is_no_notebook_is_a_one_line_error_naming_it(tmp_path, text, says):
    path = tmp_path / "classic.ipynb"
    path.write_text(text, encoding="utf-8")
    result = grade("classic", path)
    assert result.status == "error" and result.score == 0
    assert len(result.problems) == 1 and "\n" not in result.problems[0]
    assert result.problems[0].startswith(says), result.problems[0]


# --- the starter as a notebook -------------------------------------------------------------


def test_the_starter_notebook_scores_0_and_the_reference_one_100(tmp_path):
    starter = tmp_path / "starter" / "classic.ipynb"
    starter.parent.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "starter", "classic", "--notebook", "-o",
         str(starter)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    notebook = json.loads(starter.read_text())
    assert notebook["nbformat"] == 4
    kinds = [c["cell_type"] for c in notebook["cells"]]
    assert kinds == ["markdown", "code", "code", "code", "code"]
    result = grade("classic", starter)
    assert result.status == "graded" and result.score == 0
    assert {t.status for t in result.tests} == {"crashed"}
    assert result.tests[0].feedback[0] == NOT_IMPLEMENTED
    assert "in cell 2, line " in result.tests[0].feedback[-1]

    reference = tmp_path / "reference" / "classic.ipynb"
    reference.parent.mkdir()
    reference.write_text(program_notebook(load_assignment("classic"), reference_program("classic")))
    assert full(grade("classic", reference))


def test_starter_without_notebook_is_the_program_unchanged():
    done = subprocess.run([sys.executable, "-m", "autograder", "starter", "classic"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("#!/usr/bin/env python3\n")


# -- line magics: where a statement starts, found in one pass ------------------------------


def test_a_magic_is_a_pass_only_where_a_statement_starts():
    from autograder._notebook import _python

    source = "\n".join([
        "%matplotlib inline",   # a statement starts: the magic goes
        "x = (5,",
        "% 3)",                 # inside brackets: Python's own operator
        "y = 7 \\",
        "  % 2",                # after a backslash: the same
        "s = '''",
        "%not a magic",         # inside a string
        "'''",
        "if x:",
        "    !ls -l",           # at its own indentation
        "!pip install numpy",
    ])  # fmt: skip
    assert _python(source).split("\n") == [
        "pass  # %matplotlib inline", "x = (5,", "% 3)", "y = 7 \\", "  % 2", "s = '''",
        "%not a magic", "'''", "if x:", "    pass  # !ls -l", "pass  # !pip install numpy",
    ]  # fmt: skip


def test_a_string_after_an_inconsistent_dedent_still_keeps_its_percent_lines():
    from autograder._notebook import _python

    source = "if x:\n        y = 2\n    z = 3\nt = '''\n!not a shell escape\n'''\n%time f()"
    lines = _python(source).split("\n")
    assert lines[4] == "!not a shell escape" and lines[6] == "pass  # %time f()"


def test_the_magics_of_a_cell_are_found_in_one_pass_of_the_tokenizer(monkeypatch):
    """A cell of 3,000 magic lines: each line is read once, not once per magic after it
    (which took 27 s of the grader's time, the batch waiting)."""
    import tokenize

    from autograder._notebook import _python

    read: list[str] = []
    real = tokenize.generate_tokens

    def counting(readline):
        def counted() -> str:
            line = readline()
            read.append(line)
            return line

        return real(counted)

    monkeypatch.setattr(tokenize, "generate_tokens", counting)
    lines = _python("%x\n" * 3000 + "print('hi')").split("\n")
    assert lines[:3000] == ["pass  # %x"] * 3000 and lines[3000] == "print('hi')"
    assert len(read) <= 3002
