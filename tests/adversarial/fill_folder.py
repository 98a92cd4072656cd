"""Attempt: fill the machine's disk or its inode table from the run's own folder: files of
the largest size a file may have, one after another, or empty files and folders by the
tens of thousands (``shape``: ``bytes`` or ``entries``).

The grader must bound the folder: a sized tmpfs of its own as root (the program runs out
of room and prints nothing), else a measure about once a second that stops the run
(``folder-limit``), and once more when the program ends; either way the folder and all in it
are gone when grading returns.

``past``: stop filling once the folder holds more than this many MB (``bytes``) or entries,
rather than when the folder or the disk is full; then, with ``hold``, wait to be stopped
(only the grader's measure ends it before its time limit), else end at once, printing
nothing (before the next measure comes, as often as not)."""

import errno
import json
import os
import sys
import time

CONFIG = {}  # the test writes its settings here
SHAPE = CONFIG.get("shape", "bytes")
LIMIT = CONFIG.get("limit", 100_000)
PAST = CONFIG.get("past")
HOLD = CONFIG.get("hold", False)
made = {"files": 0, "bytes": 0, "work": os.path.dirname(os.getcwd())}


def report(**more):
    sys.stderr.write("ADVERSARY " + json.dumps({**made, **more}) + "\n")
    sys.stderr.flush()


def filled() -> bool:
    if PAST is None:
        return False
    return made["bytes"] > PAST << 20 if SHAPE == "bytes" else 2 * made["files"] > PAST


block = b"f" * (1 << 20)
try:
    for k in range(LIMIT):
        if SHAPE == "bytes":
            with open(f"fill-{k}", "wb", buffering=0) as file:
                try:
                    while not filled():
                        made["bytes"] += file.write(block)
                except OSError as err:
                    if err.errno != errno.EFBIG:  # the largest file: go on with the next
                        raise
        else:
            os.mkdir(f"d{k}")
            open(f"f{k}", "w").close()
        made["files"] += 1
        if filled():
            break
except OSError as err:  # out of room: it stops quietly (an answer it never prints)
    report(stopped=type(err).__name__, errno=err.errno)
else:
    report()
    if HOLD:
        time.sleep(3600)
