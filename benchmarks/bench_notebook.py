"""What a notebook costs over the same code as a script. Run:
OPENBLAS_NUM_THREADS=1 python benchmarks/bench_notebook.py [--repeats N]

The classic reference program, as ``classic.py`` and as ``classic.ipynb`` (split into cells
as ``starter --notebook`` splits it), measured two ways, interleaved (script, notebook,
script, ...), medians over the repeats:

1. one run alone: ``python -E -s PROGRAM board.json``, the staged notebook (the cell runner
   and its cells file) against the script;
2. grading through the engine at the ``process`` level on every test board, the notebook's
   staging (once per submission) included, divided by the number of boards.

Figures are machine-dependent; quote them with the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autograder import grade_submission, load_assignment
from autograder._notebook import NotebookLanguage
from autograder._templates import program_notebook
from reference_solutions import ReferenceAnswers, reference_program


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(first, second, repeats: int) -> tuple[float, float]:
    """Medians of ``first`` and ``second`` (seconds), run alternately after a warm-up."""
    first(), second()
    a, b = [], []
    for _ in range(repeats):
        a.append(timed(first))
        b.append(timed(second))
    return statistics.median(a), statistics.median(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    assignment = load_assignment("classic")
    answers = ReferenceAnswers()
    cases = answers.cases(assignment)
    hidden = answers.secret_paths()
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {len(cases)} boards, {args.repeats} repeats")  # fmt: skip
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        script = folder / "py" / "classic.py"
        script.parent.mkdir()
        script.write_text(reference_program("classic"))
        notebook = folder / "nb" / "classic.ipynb"
        notebook.parent.mkdir()
        notebook.write_text(program_notebook(assignment, reference_program("classic")))
        board = folder / "board.json"
        board.write_text(json.dumps(dict(cases[0].board)))

        with NotebookLanguage().prepared(notebook, notebook, None) as ready:  # type: ignore[arg-type]

            def run(program: Path):
                argv = [sys.executable, "-E", "-s", str(program), str(board)]
                return lambda: subprocess.run(argv, cwd=program.parent, check=True,
                                              capture_output=True)  # fmt: skip

            py, nb = interleaved(run(script), run(ready.program), args.repeats)
        print(f"one run alone:    script {py * 1e3:7.1f} ms   notebook {nb * 1e3:7.1f} ms   "
              f"notebook - script {(nb - py) * 1e3:+6.1f} ms")  # fmt: skip

        def grade(path: Path):
            def go() -> None:
                result = grade_submission(assignment, path, cases, hidden=hidden,
                                          isolation="process")  # fmt: skip
                assert result.score == result.max_score, result

            return go

        py, nb = interleaved(grade(script), grade(notebook), max(3, args.repeats // 3))
        n = len(cases)
        print(f"graded, per run:  script {py / n * 1e3:7.1f} ms   "
              f"notebook {nb / n * 1e3:7.1f} ms   "
              f"notebook - script {(nb - py) / n * 1e3:+6.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
