"""Attempt: be graded wrong while honest: keep scratch files in ``/tmp``, as many programs
do (a ``tempfile`` in the default folder, a fixed name, and a folder), read them back, then
print a correct answer.

The grader must give it full marks at every level: at ``namespace`` the run has a private,
writable ``/tmp`` of its own (it once was root's and read-only, and the program crashed);
nothing it leaves there outlives the run."""

import os
import sys
import tempfile

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-tmp-scratch")
with open(f"/tmp/{TOKEN}.txt", "w") as file:
    file.write("scratch")
with tempfile.NamedTemporaryFile("w", dir="/tmp", prefix=TOKEN, delete=False) as file:
    file.write("more")
os.makedirs(f"/tmp/{TOKEN}-dir/a", exist_ok=True)
with open(f"/tmp/{TOKEN}.txt") as file:
    assert file.read() == "scratch"
sys.stdout.write(CONFIG.get("output", ""))
