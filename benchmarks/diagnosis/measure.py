"""How often the grader names the mistake right on realistic wrong programs.

Run from the repository root:  python benchmarks/diagnosis/measure.py

Grades every program in benchmarks/diagnosis/<assignment>/ (real runs in the sandbox, the
assignment's whole answer key) and compares the mistakes the grader names with those
expected.toml says a perfect grader could name. Verdicts, per program:
  named-right   the names given include an expected name and nothing unrelated
  named-wrong   a name is given, but not (only) an expected one
  not-named     nothing named although the bug is catalogued
  uncatalogued  nothing is expected (whatever is named is shown)
The verdict is taken on the public boards (those `check` runs: the public board and the
public edge boards), and again on the set of names given
over all boards.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from autograder import grade_submission, load_assignment, policy_judge
from reference_solutions import ReferenceAnswers

HERE = Path(__file__).resolve().parent
ASSIGNMENTS = ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane")


def verdict(expected: set[str], given: set[str]) -> str:
    if not expected:
        return "uncatalogued"
    if not given:
        return "not-named"
    return "named-right" if given & expected and given <= expected else "named-wrong"


def show(names: set[str]) -> str:
    return ",".join(sorted(names)) or "-"


def main() -> int:
    expected_all = tomllib.loads((HERE / "expected.toml").read_text(encoding="utf-8"))
    answers = ReferenceAnswers()
    rows = []
    for name in ASSIGNMENTS:
        assignment = load_assignment(name)
        cases = answers.cases(assignment)
        for program in sorted((HERE / name).glob("*.py")):
            entry = expected_all[name][program.stem]
            expected = set(entry["expected"]) - {"none"}
            result = grade_submission(
                assignment, program, cases, hidden=answers.secret_paths(),
                policy=policy_judge(answers, assignment), workers=2,
            )  # fmt: skip
            tests = {t.name: t for t in result.tests}
            public = tests.get("public")
            # What `check` shows: the public board and any public edge boards.
            on_public = {m for t in result.tests if t.visible for m in t.mistakes}
            on_all = {m for t in result.tests for m in t.mistakes}
            statuses = {t.status for t in result.tests}
            rows.append((name, program.stem, expected, public.status if public else result.status,
                         on_public, verdict(expected, on_public), on_all, verdict(expected, on_all),
                         statuses))  # fmt: skip
            print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    head = ("program", "expected", "public", "given on public", "verdict", "given on all boards",
            "verdict (all)")  # fmt: skip
    table = [head] + [
        (f"{a}/{p}", show(e), st, show(g1), v1, show(g2), v2)
        for a, p, e, st, g1, v1, g2, v2, _ in rows
    ]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    marked = {"passed", "partial", "wrong"}
    crashed = [f"{a}/{p}: {sorted(s)}" for a, p, *_, s in rows if s - marked]
    if crashed:
        print("\nno marks on some board (crash, timeout, ...):", *crashed, sep="\n  ")

    print("\nnamed right, among the catalogued programs")
    for column, label in ((5, "public board"), (7, "all boards")):
        share: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for row in rows:
            if row[2]:
                for key in (row[0], "overall"):
                    share[key][0] += row[column] == "named-right"
                    share[key][1] += 1
        parts = [f"{k} {r}/{n}" for k, (r, n) in share.items() if k != "overall"]
        right, total = share["overall"]
        print(f"  {label:12}: overall {right}/{total} = {right / total:.0%};  " + ", ".join(parts))
    for column, label in ((4, "public board"), (6, "all boards")):
        loose = [f"{r[0]}/{r[1]}" for r in rows if not r[2] and r[column]]
        total = sum(not r[2] for r in rows)
        print(f"uncatalogued programs given a name anyway ({label}): {len(loose)}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
