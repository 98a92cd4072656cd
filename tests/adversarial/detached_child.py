"""Attempt: leave a process running after the program exits. A double fork and ``setsid``
put the grandchild in a session (and process group) of its own, so killing the run's
process group misses it; it closes the run's pipes, so the run seems over at once, and
re-executes itself with the token in its command line (``ps`` shows it).

The grader must grade the program's own exit as usual (it prints nothing: ``unreadable``,
score 0) and the grandchild must be dead when grading returns: at ``namespace`` the pid
namespace dies with the run, at ``user`` every process of the lent uid is killed, and at
any level a run's control group is killed whole. At the ``process`` level without one it
survives (not protected there)."""

import json
import os
import sys

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-detached-child")

read_end, write_end = os.pipe()
child = os.fork()
if child == 0:
    os.setsid()
    if os.fork() == 0:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.write(write_end, str(os.getpid()).encode())
        os.execv(
            sys.executable,
            [sys.executable, "-c", "import time\nwhile True: time.sleep(1)", TOKEN],
        )
    os._exit(0)
os.waitpid(child, 0)
os.close(write_end)
grandchild = os.read(read_end, 32).decode()
sys.stderr.write("ADVERSARY " + json.dumps({"grandchild": grandchild, "uid": os.getuid()}) + "\n")
