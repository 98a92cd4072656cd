"""Java submissions: the compile, once per submission, against the per-board runs of the
Java and the Python reference programs on classic (medians, process isolation by default).

    python benchmarks/bench_java.py [--repeat N] [--isolation LEVEL]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from autograder import load_assignment
from autograder._configured import ConfiguredLanguage
from autograder._isolation import detect_isolation
from autograder._languages import BuildContext, language_for
from autograder._submission import run_case
from reference_solutions import ReferenceAnswers, reference_program


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--isolation", default="process")
    args = parser.parse_args()
    answers = ReferenceAnswers()
    assignment = load_assignment("classic")
    cases = answers.cases(assignment)
    hidden = answers.secret_paths()
    isolation = detect_isolation(args.isolation)
    limits = assignment.limits
    with tempfile.TemporaryDirectory() as folder:
        java = Path(folder) / "Classic.java"
        java.write_text(reference_program("classic", language="java"), encoding="utf-8")
        python = Path(folder) / "classic.py"
        python.write_text(reference_program("classic"), encoding="utf-8")
        language = language_for(java)
        assert isinstance(language, ConfiguredLanguage), language
        compiles, java_runs, python_runs = [], [], []
        for _ in range(args.repeat):
            started = time.monotonic()
            with language.prepared(java, java, BuildContext(limits, isolation, hidden)) as ready:
                compiles.append(time.monotonic() - started)
                for case in cases:
                    result = run_case(ready.program, ready.folder, case, assignment, limits,
                                      isolation=isolation, hidden=hidden)  # fmt: skip
                    assert result.status == "passed", result.feedback
                    java_runs.append(result.seconds)
            for case in cases:
                result = run_case(python, python, case, assignment, limits,
                                  isolation=isolation, hidden=hidden)  # fmt: skip
                python_runs.append(result.seconds)
    print(json.dumps({
        "isolation": isolation.level,
        "boards": len(cases),
        "compile_median_s": round(statistics.median(compiles), 3),
        "java_run_median_s": round(statistics.median(java_runs), 3),
        "python_run_median_s": round(statistics.median(python_runs), 3),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
