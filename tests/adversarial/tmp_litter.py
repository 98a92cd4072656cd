"""Attempt: leave files behind: in ``/tmp`` and ``/var/tmp`` (names with the token), in its
own ``$TMPDIR`` (a ``tempfile``), a folder tree, a named pipe and a read-only file in its
working folder. It reports the run's folder so the test can check it is gone.

The grader must remove the run's folder, whatever is in it; at ``namespace`` nothing with
the token appears in the real ``/tmp`` or ``/var/tmp``."""

import json
import os
import sys
import tempfile

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-tmp-litter")


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


def litter(path):
    with open(path, "w") as file:
        return file.write(TOKEN)


def tree():
    os.makedirs(f"{TOKEN}/a/b/c")
    for k in range(50):
        litter(f"{TOKEN}/a/b/c/{k}.txt")
    os.mkfifo(f"{TOKEN}/pipe")
    litter(f"{TOKEN}/locked.txt")
    os.chmod(f"{TOKEN}/locked.txt", 0)
    os.chmod(f"{TOKEN}/a/b", 0o500)
    return "made"


found = {"uid": os.getuid(), "work": os.path.dirname(os.getcwd())}
found["tmp"] = attempt(lambda: litter(f"/tmp/{TOKEN}.txt"))
found["var-tmp"] = attempt(lambda: litter(f"/var/tmp/{TOKEN}.txt"))
found["tempfile"] = attempt(lambda: tempfile.mkstemp(prefix=TOKEN)[1])
found["tree"] = attempt(tree)
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
