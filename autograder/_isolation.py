"""Which isolation level this machine allows: each level is tried once per process with a
trivial program, and the strongest that works is used, unless ``$AUTOGRADER_ISOLATION`` or
``isolation=`` asks for one (the levels themselves: ``_sandbox``)."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ._assignments import Limits
from ._cgroups import detect_cgroups
from ._errors import UsageError
from ._run import clean_environment, run_limited
from ._sandbox import LEVELS, Isolation, is_root, sandbox_aliases

__all__ = ["ENV", "check_hidden", "detect_isolation"]

ENV = "AUTOGRADER_ISOLATION"


def _probe(isolation: Isolation) -> str:
    """Run a trivial program at this level: ``""`` if it worked, else why not."""
    work = Path(tempfile.mkdtemp(prefix="autograder-probe-"))
    try:
        program = work / "probe.py"
        program.write_text("import json\nprint('ok')\n", encoding="utf-8")
        argv = [sys.executable, "-E", "-s", str(program)]
        limits = Limits(timeout=30, cpu=10, memory_mb=1024, output_kb=4)
        run = run_limited(argv, work, clean_environment(work), limits, isolation=isolation,
                          work=work)  # fmt: skip
        if run.status == "exited" and run.returncode == 0 and run.stdout.strip() == b"ok":
            return ""
        tail = run.stderr_tail.decode("utf-8", "replace").strip().splitlines()
        why = tail[-1] if tail else f"the probe ended: {run.status} {run.returncode}"
        if isolation.drop_user:  # most often a folder on the way to Python is closed (/root)
            why += f" (starting {sys.executable} as an unprivileged user)"
        return why
    except OSError as err:
        return str(err)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _with_cgroups(isolation: Isolation) -> Isolation:
    """``isolation`` with a control group for each run, if this machine lends the grader
    some and a run in one works; else with why not."""
    cgroups, why = detect_cgroups()
    if cgroups is not None:
        candidate = dataclasses.replace(isolation, cgroups=cgroups)
        failed = _probe(candidate)
        if not failed:
            return candidate
        why = f"a run in a control group failed: {failed}"
    return dataclasses.replace(isolation, no_cgroups=why)


@functools.cache
def _strongest(wanted: str) -> Isolation:
    unavailable: list[str] = []
    root = is_root()
    bwrap = shutil.which("bwrap")
    order = LEVELS[::-1] if wanted == "strongest" else tuple(x for x in LEVELS if x == wanted)
    for level in order:
        if level == "namespace":
            if not bwrap:
                unavailable.append("namespace: bubblewrap (bwrap) is not installed")
                continue
            candidate = Isolation("namespace", bwrap, drop_user=root)
        elif level == "user":
            if not root:
                unavailable.append("user: the grader is not root, so it cannot switch users")
                continue
            candidate = Isolation("user", drop_user=True)
        else:
            candidate = Isolation("process")
        why = _probe(candidate)
        if not why:
            return _with_cgroups(Isolation(candidate.level, candidate.bwrap,
                                           candidate.drop_user, tuple(unavailable)))  # fmt: skip
        unavailable.append(f"{level}: {why}")
    raise UsageError(f"isolation {wanted!r}", "not available here: " + "; ".join(unavailable))


def detect_isolation(wanted: str | None = None) -> Isolation:
    """The strongest level that works here, or exactly ``wanted`` (``$AUTOGRADER_ISOLATION``
    by default): one of ``namespace``, ``user``, ``process`` or ``strongest``."""
    wanted = wanted or os.environ.get(ENV) or "strongest"
    if wanted not in (*LEVELS, "strongest"):
        raise UsageError(
            f"isolation {wanted!r}", f"unknown level; choose one of {', '.join(LEVELS)}, strongest"
        )
    return _strongest(wanted)


# What the self-test runs in the sandbox: it tries every name of every hidden path, and
# imports each hidden package, and prints what it got (a listing, a digest, or True).
_LOOK = """
import hashlib, importlib, json, os, sys
names, packages = json.loads(sys.argv[1])
seen = {}
for name in names:
    try:
        if os.path.isdir(name):
            seen[name] = sorted(os.listdir(name))
        else:
            with open(name, "rb") as file:
                seen[name] = hashlib.sha256(file.read(1 << 16)).hexdigest()
    except OSError:
        pass
for parent, package in packages:
    sys.path.insert(0, parent)
    try:
        # A folder it may not enter still imports, as an empty namespace package.
        if importlib.import_module(package).__file__:
            seen["import " + package] = True
    except Exception:
        pass
    sys.path.pop(0)
print(json.dumps(seen))
"""


def _truth(path: Path) -> list[str] | str | None:
    """What a run that could read ``path`` would find there (``None``: nothing to find)."""
    try:
        if path.is_dir():
            return sorted(os.listdir(path)) or None
        data = path.read_bytes()[: 1 << 16]
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest() if data else None


def _names(path: Path, isolation: Isolation) -> list[str]:
    names = {str(path), os.path.realpath(path)}
    if isolation.level == "namespace":
        names.update(sandbox_aliases(path))
    return sorted(names)


@functools.cache
def _exposed(isolation: Isolation, hidden: tuple[Path, ...]) -> tuple[str, ...]:
    names: list[str] = []
    truth: dict[str, object] = {}
    packages: list[tuple[str, str]] = []
    for path in hidden:
        expected = _truth(path)
        for name in _names(path, isolation):
            names.append(name)
            truth[name] = expected
            if (Path(name) / "__init__.py").is_file() or (path / "__init__.py").is_file():
                packages.append((os.path.dirname(name), os.path.basename(name)))
    work = Path(tempfile.mkdtemp(prefix="autograder-probe-"))
    try:
        program = work / "look.py"
        program.write_text(_LOOK, encoding="utf-8")
        argv = [sys.executable, "-E", "-s", str(program), json.dumps([names, packages])]
        limits = Limits(timeout=60, cpu=30, memory_mb=1024, output_kb=4096)
        run = run_limited(argv, work, clean_environment(work), limits, isolation=isolation,
                          work=work, hidden=hidden)  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if run.status != "exited" or run.returncode != 0:
        tail = run.stderr_tail.decode("utf-8", "replace").strip().splitlines()
        return (f"the self-test did not run ({tail[-1] if tail else run.status})",)
    seen = json.loads(run.stdout)
    found = [key.removeprefix("import ") for key, value in seen.items() if value is True]
    found += [name for name in names if truth[name] is not None and seen.get(name) == truth[name]]
    return tuple(dict.fromkeys(found))


def check_hidden(isolation: Isolation, hidden: Sequence[Path]) -> None:
    """Refuse to grade if a run at ``isolation`` could read or import any of ``hidden``
    (by any name it is mounted under): a self-test, run once per process and set of paths,
    like the isolation probe. The ``process`` level hides nothing, and says so."""
    if isolation.level == "process":
        return
    exposed = _exposed(isolation, tuple(sorted(set(hidden))))
    if exposed:
        raise UsageError(
            f"isolation {isolation.level}",
            "a run could read what it must not: " + ", ".join(exposed) + "; not grading",
        )
