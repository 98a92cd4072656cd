"""Attempt: make its folder slow to remove: ``CONFIG["folders"]`` empty folders (50,000 by
default) and ``CONFIG["files"]`` empty files (20,000) side by side in its own folder, so
that a clean-up that reads the folder again after each entry it removes takes minutes. It
reports the run's folder first (it may be stopped before it is done), then what it made.

The grader must still return a result (it prints nothing: ``unreadable``, score 0) and
remove the run's folder with everything in it."""

import json
import os
import sys

CONFIG = {}  # the test writes its settings here

found = {"work": os.path.dirname(os.getcwd())}
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
sys.stderr.flush()
here = os.open(".", os.O_RDONLY)
made = {"folders": 0, "files": 0}
try:
    for k in range(CONFIG.get("folders", 50_000)):
        os.mkdir("d%d" % k, dir_fd=here)
        made["folders"] += 1
    for k in range(CONFIG.get("files", 20_000)):
        os.close(os.open("f%d" % k, os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=here))
        made["files"] += 1
except OSError as err:  # a folder bounded in entries says no at some point
    found["stopped"] = err.strerror
found.update(made)
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
