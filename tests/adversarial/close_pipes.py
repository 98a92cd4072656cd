"""Attempt: be graded wrong while honest: print a correct answer, close standard output
and standard error, and exit a moment later, cleanly. With ``daemon`` the moment is
spent in a child it waits for.

The grader must wait for the program until the deadline after both pipes close, and give it
full marks (it was once killed when its pipes closed, and scored 0)."""

import os
import sys
import time

CONFIG = {}  # the test writes its settings here
sys.stdout.write(CONFIG.get("output", ""))
sys.stdout.flush()
os.close(1)
os.close(2)
if CONFIG.get("daemon"):
    child = os.fork()
    if child == 0:
        time.sleep(CONFIG.get("pause", 0.5))
        os._exit(0)
    os.waitpid(child, 0)
else:
    time.sleep(CONFIG.get("pause", 0.5))
sys.exit(0)
