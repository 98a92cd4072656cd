"""Attempt: starve whatever is graded beside it. It starts many spinning processes, each
within its own CPU limit and all within the process cap, then waits. With ``detach`` each
is in a session of its own (so that killing the run's process group misses them and each
gets a scheduling group of its own); without, they stay in the run's. With ``grade -j 2``
on a two-core machine an honest submission running beside it gets a sliver of a core.

The grader must keep the honest neighbour's result whole: each run in its own control
group with a quota of one core (where the machine gives the grader one), else a timeout
that used less CPU than it had wall-clock time is run again alone. This program itself
scores 0, and none of its processes outlives its run (``namespace``, ``user``, or a control
group at any level)."""

import json
import os
import sys
import time

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-cpu-hog")
SPINNERS = CONFIG.get("spinners", 40)
DETACH = CONFIG.get("detach", True)
# Seconds to wait before the spinners start: long enough for a neighbour started at the
# same moment to be launched before its launch has to share the machine with them.
WAIT = CONFIG.get("wait", 0)
# With ``spin`` false its processes sleep: for a test of how many it may start, whose count
# must not wait on a machine they keep busy.
LOOP = "while True: pass" if CONFIG.get("spin", True) else "import time; time.sleep(3600)"
time.sleep(WAIT)
started = []
for _ in range(SPINNERS):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        if DETACH:
            os.setsid()
        os.execv(sys.executable, [sys.executable, "-c", LOOP, TOKEN])
    started.append(pid)
sys.stderr.write("ADVERSARY " + json.dumps({"spinners": len(started)}) + "\n")
sys.stderr.flush()
time.sleep(3600)
