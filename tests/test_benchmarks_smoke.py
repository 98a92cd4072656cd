"""benchmarks/bench_compare.py's quick mode runs, every competitor's values agree with the
solver's (the numpy path's too), and the solver's values satisfy the Bellman equations (the
residual on its line). Values only: no timing is checked (figures depend on the machine)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOARDS = 13  # the six public boards and a random board of each of the 7 families


@pytest.mark.slow
def test_bench_compare_quick_values_agree():
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_compare.py"), "--quick", "--runs", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "values: every competitor agrees with ours within 1e-06" in done.stdout, done.stdout
    differences = [float(x) for x in re.findall(r"differs by ([-+.\de]+)", done.stdout)]
    # The numpy path and the loop on every board, and pymdptoolbox's two solvers where the
    # bench extra is in.
    assert len(differences) >= 2 * BOARDS, done.stdout
    assert max(differences) <= 1e-6, done.stdout
    # Our values against the Bellman equations, on every board.
    residuals = [float(x) for x in re.findall(r"ours: \d+ iterations, residual ([-+.\de]+)",
                                              done.stdout)]  # fmt: skip
    assert len(residuals) == BOARDS, done.stdout
    assert max(residuals) <= 1e-9, done.stdout
