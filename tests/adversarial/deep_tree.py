"""Attempt: make its folder hard to remove: a chain of directories thousands of levels deep
(made with ``dir_fd``, so no path is ever too long), deeper than a recursive clean-up can
follow: in its own folder, or in the folder ``CONFIG["folder"]`` (``/tmp``, say, whose
leftovers the grader removes at the ``user`` level).

The grader must still return a result (it prints nothing: ``unreadable``, score 0) and
remove the tree with the run."""

import json
import os
import sys

CONFIG = {}  # the test writes its settings here
folder = CONFIG.get("folder", ".")
os.makedirs(folder, exist_ok=True)
handle = os.open(folder, os.O_RDONLY)
for _ in range(CONFIG.get("depth", 3000)):
    os.mkdir("d", dir_fd=handle)
    inner = os.open("d", os.O_RDONLY, dir_fd=handle)
    os.close(handle)
    handle = inner
report = {"work": os.path.dirname(os.getcwd()), "depth": CONFIG.get("depth", 3000)}
sys.stderr.write("ADVERSARY " + json.dumps(report) + "\n")
