"""The question's server code (PrairieLearn's ``server.py``), as ``autograder prairielearn``
writes it into the question folder.

PrairieLearn runs it in its own Python, which has none of the grader's packages, so it uses
the standard library alone. ``generate`` gives a new variant one board of the pool drawn at
export time (``pool/``, beside this file), chosen by the variant's seed; ``file`` hands out
that board's starter program, board file and handout, and nothing else. No answer key is
in the pool (a handout shows its board's self-check and first rows, as a bundle's does): the
external grader works each board's answer out when it grades.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

POOL = "pool"
INDEX = "pool.json"
# The files of a variant's own board a student may download, besides the program.
DOWNLOADS = ("board.json", "handout.md")


def _pool_folder(data: dict[str, Any]) -> str:
    # PrairieLearn passes the question's folder; the folder of this file is the same one
    # (it also runs the question's code there), and serves where no path was passed.
    options = data.get("options") or {}
    question = options.get("question_path") or os.path.dirname(os.path.abspath(__file__))
    return os.path.join(str(question), POOL)


def _read_pool(data: dict[str, Any]) -> dict[str, Any]:
    with open(os.path.join(_pool_folder(data), INDEX), encoding="utf-8") as file:
        pool: dict[str, Any] = json.load(file)
    return pool


def generate(data: dict[str, Any]) -> None:
    """The variant's board and what the question page shows of it (``data["params"]``,
    which the page may show: nothing of any answer)."""
    pool = _read_pool(data)
    # (the retired boards of earlier exports, kept for their variants, come last)
    boards = [entry for entry in pool["boards"] if not entry.get("retired")]
    # PrairieLearn seeds ``random`` with the variant's seed before the question's code
    # runs, but elements may draw from it first: a generator of the question's own, seeded
    # alike, gives a variant the same board whatever else drew.
    index = random.Random(data.get("variant_seed")).randrange(len(boards))
    entry = boards[index]
    handout_path = os.path.join(_pool_folder(data), entry["folder"], "handout.md")
    with open(handout_path, encoding="utf-8") as file:
        handout = file.read()
    data["params"].update(
        {
            "assignment": pool["assignment"],
            "title": pool["title"],
            "program": pool["program"],
            "variant": index,
            "board": entry["board"],
            "description": entry["description"],
            "self_check": entry["self_check"],
            "handout": handout,
        }
    )


def file(data: dict[str, Any]) -> bytes | None:
    """One of the downloads of the variant's own board, by name (``data["filename"]``);
    nothing for any other name. A student can ask for any name in the page's address: only
    these three are answered, each from the variant's own board: the pool's entry whose
    board is the one the variant holds (and is graded on), found by the board, not by its
    place, since a question exported again has another pool (which keeps the earlier
    boards, retired). A variant whose board the pool has not (its files gone) still gets
    its board file, from its own data."""
    params = data.get("params") or {}
    name = data.get("filename")
    board = params.get("board")
    if not isinstance(name, str) or not isinstance(board, dict):
        return None
    pool = _read_pool(data)
    if name not in (pool["program"], *DOWNLOADS):
        return None
    entry = next((e for e in pool["boards"] if e["board"] == board), None)
    if entry is None:
        if name == "board.json":
            return (json.dumps(board) + "\n").encode()
        return None
    folder = os.path.join(_pool_folder(data), entry["folder"])
    with open(os.path.join(folder, name), "rb") as handle:
        return handle.read()
