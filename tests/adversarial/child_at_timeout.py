"""Attempt: still have children running when the time limit strikes: one in the run's
process group, one detached with ``setsid`` (outside it), both sleeping with the token in
their command line, while the program itself sleeps past the limit.

The grader must stop the run at the wall-clock limit (status ``timeout``, score 0) and
leave none of the three alive."""

import os
import sys
import time

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-child-at-timeout")
SLEEPER = [sys.executable, "-c", "import time\nwhile True: time.sleep(1)", TOKEN]

if os.fork() == 0:
    os.execv(sys.executable, SLEEPER)
if os.fork() == 0:
    os.setsid()
    os.execv(sys.executable, SLEEPER)
while True:
    time.sleep(3600)
