"""Attempt: a fork bomb. Every process forks again and again; a refused fork is retried.
The first process reports, on standard error, the most live processes of its uid it ever
saw.

The grader must hold it at the process limit (``Limits.processes``: forks beyond it fail),
stop it at the time limit (status ``timeout``, score 0) and leave no process behind. (At the
``process`` level, as root, the process limit does not bind: never run this there.)"""

import contextlib
import json
import os
import sys
import time

first = os.getpid()
uid = os.getuid()


def mine() -> int:
    """Live processes of this uid (zombies of an earlier run, dead already, not counted)."""
    count = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if os.stat(f"/proc/{name}").st_uid != uid:
                    continue
                with open(f"/proc/{name}/stat", "rb") as file:
                    count += file.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    return count


peak = refused = 0
while True:
    try:
        os.fork()
    except OSError:
        refused += 1
        if os.getpid() == first:
            peak = max(peak, mine())
            report = {"peak": peak, "refused": refused, "uid": uid}
            sys.stderr.write("ADVERSARY " + json.dumps(report) + "\n")
            sys.stderr.flush()
        time.sleep(0.01)
