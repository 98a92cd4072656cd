"""Attempt: read the gradebook: ``results.jsonl``, ``grades.csv`` and the feedback files in
the results folder the test writes into ``CONFIG``, Gradescope's ``/autograder/results``,
and ``classic-results/`` (the default ``--out``) near the run, hunting for the marker the
test put in another student's result.

At ``namespace`` none of it may be readable; at ``user`` a results folder closed to others
must not be. At ``process`` it is (not protected)."""

import glob
import json
import os
import sys

CONFIG = {}  # the test writes its settings here
# Written reversed, so that this file itself does not hold the marker.
MARKER = CONFIG.get("marker", "nevig rekram on")[::-1]
GUESSES = [
    "/autograder/results/results.json",
    "classic-results/grades.csv",
    "../classic-results/grades.csv",
    "../../classic-results/grades.csv",
    "../../classic-results/results.jsonl",
]


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


def read(path):
    with open(path, "rb") as file:
        return file.read(1 << 20).decode("utf-8", "replace")


found = {"uid": os.getuid()}
for label, path in CONFIG.get("files", {}).items():
    found[label] = attempt(lambda path=path: read(path))
for label, folder in CONFIG.get("folders", {}).items():
    found[label] = attempt(lambda folder=folder: sorted(os.listdir(folder)))
hits = []
paths = GUESSES + list(CONFIG.get("files", {}).values())
for folder in CONFIG.get("folders", {}).values():
    paths += glob.glob(os.path.join(folder, "**", "*"), recursive=True)
for path in paths:
    try:
        if MARKER in read(path):
            hits.append(path)
    except OSError:
        pass
found["marker-found"] = hits
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
