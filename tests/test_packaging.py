"""The wheel and the sdist carry everything read at run time, and say what they are.

A checkout reads its files where they lie; an installed package has only what the build
put in it. So each file of the two packages must be in the wheel, each folder the code
reads with ``package_data`` must be there, and the sdist must build the same wheel.
``.ci/check_installed.py`` goes further in CI: it installs each into a fresh environment and
runs the commands from an empty folder.
"""

from __future__ import annotations

import ast
import email.parser
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import autograder
import reference_solutions
from autograder._files import tree_files

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (Path(autograder.__file__).parent, Path(reference_solutions.__file__).parent)
COMPILED = (".so", ".pyd")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, str]:
    """The wheel, the sdist and the build's log, built as pip builds them (isolated)."""
    out = tmp_path_factory.mktemp("dist")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600, env=env)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return next(out.glob("*.whl")), next(out.glob("*.tar.gz")), done.stdout + done.stderr


def _package_files() -> set[str]:
    return {f"{package.name}/{rel}" for package in PACKAGES
            for rel, path in tree_files(package) if path.suffix not in COMPILED}  # fmt: skip


def test_the_wheel_carries_every_file_of_the_packages(built):
    wheel, _, _ = built
    with zipfile.ZipFile(wheel) as zipped:
        names = set(zipped.namelist())
    missing = sorted(_package_files() - names)
    assert not missing, f"the wheel lacks {missing[:10]}"
    carried = (
        "autograder/assignments/classic/assignment.toml",
        "autograder/starter_code/classic.py.j2",
        "autograder/templates",
        "autograder/gradescope/setup.sh",
        "reference_solutions/programs/classic.py.j2",
        "reference_solutions/examples/roster.csv",
        "reference_solutions/_kernel.c",
    )
    for data in carried:
        assert any(n == data or n.startswith(data + "/") for n in names), data
    assert not any(n.startswith(("tests/", "benchmarks/", "docs/")) for n in names)


def _package_data_names() -> set[tuple[str, str]]:
    """Every ``package_data("package", "name")`` the code calls with literal arguments."""
    found = set()
    for package in PACKAGES:
        for path in package.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "package_data"
                        and len(node.args) == 2
                        and all(isinstance(a, ast.Constant) for a in node.args)):  # fmt: skip
                    found.add((node.args[0].value, node.args[1].value))  # type: ignore[attr-defined]
    return found


def test_whatever_the_code_reads_as_package_data_is_in_the_wheel(built):
    wheel, _, _ = built
    wanted = _package_data_names()
    # (the guard guards: each of these is read at run time)
    assert {
        ("autograder", "assignments"),
        ("autograder", "starter_code"),
        ("autograder", "templates"),
        ("autograder", "languages.toml"),
        ("reference_solutions", "programs"),
        ("reference_solutions", "examples"),
    } <= wanted
    with zipfile.ZipFile(wheel) as zipped:
        names = zipped.namelist()
    for package, name in sorted(wanted):
        prefix = f"{package}/{name}"
        assert any(n == prefix or n.startswith(prefix + "/") for n in names), prefix


def test_the_sdist_holds_what_builds_the_same_wheel_and_no_half_test_suite(built):
    _, sdist, _ = built
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        names = {n.removeprefix(top + "/") for n in tar.getnames()}
    assert {"pyproject.toml", "setup.py", "README.md", "LICENSE", "MANIFEST.in"} <= names
    assert _package_files() <= names
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)


def test_the_metadata_names_the_license_and_the_project(built):
    wheel, _, _ = built
    with zipfile.ZipFile(wheel) as zipped:
        info = next(n for n in zipped.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(zipped.read(info).decode())
        licenses = [n for n in zipped.namelist() if "/licenses/" in n]
    # PEP 639: an SPDX expression and the license file itself, not the old free text.
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"] and licenses
    assert metadata["Requires-Python"] == ">=3.11"
    classifiers = metadata.get_all("Classifier")
    assert "Intended Audience :: Education" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # (PEP 639 forbids both)
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL"))
    assert {"Homepage", "Source", "Issues"} <= set(urls)
    runtime = {re.split(r"[<>=;\s]", r)[0] for r in metadata.get_all("Requires-Dist")
               if "extra ==" not in r}  # fmt: skip
    assert runtime == {"numpy", "scipy", "jinja2"}


def test_the_build_gives_no_warning(built):
    _, _, log = built
    warned = [line for line in log.splitlines() if re.search(r"\bwarn(ing)?\b", line, re.I)]
    assert not warned, warned
