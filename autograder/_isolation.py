"""Which isolation level this machine allows: each level is tried once per process with a
trivial program, and the strongest that works is used, unless ``$AUTOGRADER_ISOLATION`` or
``isolation=`` asks for one (the levels themselves: ``_sandbox``)."""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path

from ._assignments import Limits
from ._errors import UsageError
from ._run import clean_environment, run_limited
from ._sandbox import LEVELS, Isolation, is_root

__all__ = ["ENV", "detect_isolation"]

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
            return Isolation(candidate.level, candidate.bwrap, candidate.drop_user,
                             tuple(unavailable))  # fmt: skip
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
