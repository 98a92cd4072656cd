"""Attempt: read other students' submissions: the sibling files of the submissions folder
the test writes into ``CONFIG`` (a file and the folder's listing), Gradescope's
``/autograder/submission``, and every folder above the run's own, hunting through each for
the marker the test hid in the other student's program.

At ``namespace`` none of it may be readable (the marker is never found); at ``user`` a
submissions folder closed to others must not be. At ``process`` it is (not protected)."""

import contextlib
import json
import os
import sys

CONFIG = {}  # the test writes its settings here
# Written reversed, so that this file itself does not hold the marker.
MARKER = CONFIG.get("marker", "nevig rekram on")[::-1]
FOLDERS = ["..", "../..", "../../..", "/tmp", "/autograder/submission", "/autograder"]


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


def read(path):
    with open(path, "rb") as file:
        return file.read(1 << 20).decode("utf-8", "replace")


def hunt(folder):
    """Read every file in ``folder`` (not below): where the marker is."""
    hits = []
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        try:
            if os.path.isfile(path) and MARKER in read(path):
                hits.append(name)
        except OSError:
            pass
    return hits


found = {"uid": os.getuid()}
for label, path in CONFIG.get("files", {}).items():
    found[label] = attempt(lambda path=path: read(path))
for label, folder in CONFIG.get("folders", {}).items():
    found[label] = attempt(lambda folder=folder: sorted(os.listdir(folder)))
hits = []
for folder in FOLDERS + list(CONFIG.get("folders", {}).values()):
    with contextlib.suppress(OSError):
        hits += hunt(folder)
found["marker-found"] = hits
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
