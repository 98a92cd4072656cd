"""Attempt: kill the grader: SIGKILL to its parent, to the parent's process group, to
process 1, and to every process it may signal (``kill(-1)``).

The grader must be unharmed (it grades this program, printing nothing: ``unreadable``,
score 0, and then the next one). At ``namespace`` it only sees its own sandbox; at ``user``
it may signal only processes of its lent uid. NEVER run this at the ``process`` level as
root: there it could kill every process of the machine."""

import contextlib
import json
import os
import signal
import sys

if os.getuid() == 0:
    sys.exit("kill_grader refuses to run as root")


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


parent = os.getppid()
found = {"uid": os.getuid(), "parent": parent}
found["kill-parent"] = attempt(lambda: os.kill(parent, signal.SIGKILL))
found["kill-parent-group"] = attempt(lambda: os.killpg(os.getpgid(parent), signal.SIGKILL))
found["kill-init"] = attempt(lambda: os.kill(1, signal.SIGKILL))
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
sys.stderr.flush()
with contextlib.suppress(OSError):  # none there may be: ESRCH
    os.kill(-1, signal.SIGKILL)  # on Linux: everyone it may signal but itself and init
