"""Attempt: read the grader's secrets from the environment: print ``os.environ``, and read
the environment the grader itself started with (``/proc/<parent>/environ``, and its
parent's: at ``process`` as root a Python program's parent may be its submission's warm
server, whose parent is the grader), looking for the variables the test set in the
grader's environment (``CONFIG["names"]``). It reads no other process's environment.

At every level ``os.environ`` must be clean (no secret, no token); at ``namespace`` and
``user`` the grader's own environment must be out of reach. At ``process`` the grader's
``/proc/<pid>/environ`` is readable by a program running as the same user (not
protected). ``CONFIG["exit"]`` makes it exit with that status, so that a check shows its
standard error."""

import json
import os
import sys

CONFIG = {}  # the test writes its settings here
NAMES = CONFIG.get("names", ["AUTOGRADER_SECRET", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY"])


def variables(raw):
    pairs = (item.partition(b"=") for item in raw.split(b"\0") if item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, _, v in pairs}


print(dict(os.environ))
found = {"uid": os.getuid(), "keys": sorted(os.environ)}
leaked = {name: os.environ[name] for name in NAMES if name in os.environ}


def parent_of(pid):
    """``pid``'s parent (0: none it can see, as for a pid namespace's first process)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            return int(file.read().rsplit(b")", 1)[1].split()[1])
    except Exception:
        return 0


for label, pid in (
    ("self", os.getpid()),
    ("parent", os.getppid()),
    ("grandparent", parent_of(os.getppid())),
):
    if pid == 0:
        found[label] = "none"
        continue
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            seen = variables(file.read())
        found[label] = "ok"
        leaked.update({name: seen[name] for name in NAMES if name in seen})
    except Exception as err:
        found[label] = "denied:" + type(err).__name__
found["leaked"] = leaked
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
sys.exit(CONFIG.get("exit", 0))
