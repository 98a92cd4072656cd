"""Attempt: flood standard output, 300 MB as fast as it can, in lines that look like the
answer's grid.

The grader must read no more than its output limit, stop the program there (status
``output-limit``, score 0) well within the time limit, and keep its own memory small."""

import os

CONFIG = {}  # the test writes its settings here
line = b"".join(b"%3d: %5.2f " % (k, 9.99) for k in range(1, 11)) + b"\n"
chunk = line * ((1 << 20) // len(line))
for _ in range(CONFIG.get("megabytes", 300)):
    os.write(1, chunk)
