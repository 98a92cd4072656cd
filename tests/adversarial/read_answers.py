"""Attempt: read the answer material. Import ``reference_solutions`` (and, if that works,
print the reference answer with ``python -m autograder solve``, for full marks); read the
repository's ``reference_solutions/*.py``, ``assignments/*/assignment.toml`` (its seed
rebuilds the hidden boards) and ``examples/`` (correct programs), at the paths the test
writes into ``CONFIG`` and at the paths an attacker would guess (Gradescope's
``/autograder/source``, a checkout next to the run).

At ``namespace`` every one of these must fail and the score stays 0; at ``user`` the paths
closed to others must fail. At ``process`` it succeeds (not protected there)."""

import contextlib
import glob
import json
import os
import subprocess
import sys

CONFIG = {}  # the test writes its settings here
GUESSES = {
    "gs-solver": "/autograder/source/project/reference_solutions/_solver.py",
    "gs-toml": "/autograder/source/project/assignments/classic/assignment.toml",
    "gs-config": "/autograder/source/gradescope.json",
    "gs-manifest": "/autograder/source/manifest.json",
    "beside-run": "../../reference_solutions/_solver.py",
    "home-checkout": os.path.expanduser("~root/chutes-autograder/reference_solutions/_solver.py"),
}


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


def read(path):
    with open(path, "rb") as file:
        return file.read(4096).decode("utf-8", "replace")


def read_first(pattern):
    found = sorted(glob.glob(pattern))
    if not found:
        raise FileNotFoundError(pattern)
    return f"{len(found)} files: " + read(found[0])


found = {"uid": os.getuid()}
for label, path in {**GUESSES, **CONFIG.get("files", {})}.items():
    found[label] = attempt(lambda path=path: read(path))
for label, pattern in CONFIG.get("globs", {}).items():
    found[label] = attempt(lambda pattern=pattern: read_first(pattern))
found["import"] = attempt(lambda: __import__("reference_solutions").__file__)
if found["import"].startswith("ok:"):
    with contextlib.suppress(Exception):
        solved = subprocess.run(
            [sys.executable, "-m", "autograder", "solve", "classic", "--board", sys.argv[1]],
            capture_output=True, text=True, timeout=20,
        )  # fmt: skip
        sys.stdout.write(solved.stdout)
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
