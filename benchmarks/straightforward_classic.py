"""What a course's own code looks like at its best: classic by one sparse solve.

Run: python benchmarks/straightforward_classic.py board.json > values.json

A numpy-vectorised build of ``I - P`` (spin 1..6, a move past the goal stays, then the
jump), one ``scipy.sparse.linalg.spsolve``, and the values written as JSON. It is the
baseline that ``benchmarks/bench_scale.py`` runs side by side with
``autograder solve classic --board board.json --json``; it is not used by the project.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        board = json.load(handle)
    goal, faces = int(board["goal"]), 6
    goes_to = np.arange(goal + 1)
    for start, end in board["jumps"]:
        goes_to[start] = end
    squares = np.arange(goal)[:, None]
    target = squares + np.arange(1, faces + 1)[None, :]
    target = np.where(target > goal, squares, goes_to[np.minimum(target, goal)])
    target = np.where(target == squares, squares, target)
    rows = np.repeat(np.arange(goal), faces)
    P = sp.csr_array(
        (np.full(rows.size, 1.0 / faces), (rows, target.ravel())), shape=(goal + 1, goal + 1)
    )
    A = sp.csc_array(sp.eye_array(goal + 1, format="csc") - P)
    b = np.ones(goal + 1)
    b[goal] = 0.0
    values = spla.spsolve(A, b)
    json.dump({"start_value": float(values[0]), "values": values.tolist()}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
