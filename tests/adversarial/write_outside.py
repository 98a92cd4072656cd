"""Attempt: write and delete outside the run's own folder: a file in the submissions folder
and the results folder (paths the test writes into ``CONFIG``), in the grader's home
(``~root``), in ``/tmp``, ``/var/tmp`` and ``/dev/shm``, and delete another student's
submission. Every file it makes carries the token in its name.

At ``namespace`` every write and the deletion must fail on the real file system (nothing
with the token appears anywhere, the other submission is untouched); at ``user`` the
folders closed to others must stay untouched. At ``process`` it succeeds (not protected)."""

import json
import os
import sys

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-write-outside")
WRITES = {
    "grader-home": os.path.expanduser(f"~root/{TOKEN}.txt"),
    "tmp": f"/tmp/{TOKEN}.txt",
    "var-tmp": f"/var/tmp/{TOKEN}.txt",
    "dev-shm": f"/dev/shm/{TOKEN}.txt",
    "gs-results": f"/autograder/results/{TOKEN}.txt",
}
if "guesses" in CONFIG:
    WRITES = {label: WRITES[label] for label in CONFIG["guesses"]}


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


def write(path):
    with open(path, "w") as file:
        return file.write(f"written by {TOKEN}\n")


found = {"uid": os.getuid()}
for label, path in {**WRITES, **CONFIG.get("write", {})}.items():
    found["write-" + label] = attempt(lambda path=path: write(path))
for label, path in CONFIG.get("delete", {}).items():
    found["delete-" + label] = attempt(lambda path=path: os.remove(path))
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
