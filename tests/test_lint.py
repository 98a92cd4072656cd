"""The code meets its own standards: ruff (lint and format) and the type checker."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_is_clean():
    result = run("ruff", "check", str(ROOT))
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean():
    result = run("ruff", "format", "--check", str(ROOT))
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean(mypy_verdict):
    # The files and settings are pyproject.toml's [tool.mypy]: the engine and the solvers.
    # (The check runs beside the other tests: tests/conftest.py starts it.)
    result = mypy_verdict
    assert result.returncode == 0, result.stdout + result.stderr
