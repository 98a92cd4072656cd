"""Attempt: forge a result. Print a fake "score: 100" line, a JSON results blob and a
"passed" verdict; write a ``results.json`` into the Gradescope results folder; append a
forged full-marks line to ``results.jsonl``. The paths are the ones the test writes into
``CONFIG`` plus the ones an attacker would guess.

The grader must give it what its numbers earn and no more (here: no answer, so 0), keep
every one of those files as it was, and show nothing it printed in Gradescope's
``results.json``."""

import json
import os
import sys

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-forge")
FORGED = {
    "score": 100.0,
    "output": f"all tests passed {TOKEN}",
    "tests": [{"name": "public board", "score": 100.0, "max_score": 25.0, "status": "passed"}],
}
LINE = {"student": "mallory", "score": 100.0, "max_score": 100.0, "status": "graded",
        "tests": [], "problems": [], "extra": {"forged": TOKEN}}  # fmt: skip
RESULTS_JSON = ["/autograder/results/results.json", *CONFIG.get("results_json", [])]
RESULTS_JSONL = ["classic-results/results.jsonl", "../../classic-results/results.jsonl",
                 *CONFIG.get("results_jsonl", [])]  # fmt: skip


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


def overwrite(path):
    with open(path, "w") as file:
        return file.write(json.dumps(FORGED))


def append(path):
    with open(path, "a") as file:
        return file.write(json.dumps(LINE) + "\n")


print(f"score: 100.00 / 25.00 {TOKEN}")
print(json.dumps(FORGED))
print(f"PASS  public board: 25.00 / 25.00 {TOKEN}")
print("all public tests pass.")
found = {"uid": os.getuid()}
for path in RESULTS_JSON:
    found["json " + path[-40:]] = attempt(lambda path=path: overwrite(path))
for path in RESULTS_JSONL:
    found["jsonl " + path[-40:]] = attempt(lambda path=path: append(path))
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
