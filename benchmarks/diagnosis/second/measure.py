"""How often the grader names the mistake of the second set's programs, by class.

Run from the repository root:  python benchmarks/diagnosis/second/measure.py [--only ID ...]

Generates every program (generate.py) and grades it on its assignment's whole answer key
(real runs in the sandbox), then compares the names given on the boards where it loses
marks with those names.toml says a perfect grader could give. Per program:
  named-right   a name is given, and every name (each part of "a+b") is an expected one
  named-wrong   a name is given that is not expected (a program expecting none: any name)
  named-equivalent  as named-right, with a name names.toml's [equivalent] lists: not the
                program's own mistake, but the same game on these boards
  not-named     no name is given on any board it loses marks on
Reports the three counts per class and overall, and the grading time per program.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from generate import Program, programs, write  # beside this script

from autograder import grade_submission, load_assignment, policy_judge
from reference_solutions import ReferenceAnswers

HERE = Path(__file__).resolve().parent
CLASSES = ("parameter", "structural", "not-solving", "converged-wrong")


def verdict(expected: set[str], equivalent: set[str], given: set[str]) -> str:
    parts = {part for name in given for part in name.split("+")}
    if not parts:
        return "not-named"
    if parts <= expected:
        return "named-right"
    return "named-equivalent" if parts <= expected | equivalent else "named-wrong"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="program ids to measure")
    args = parser.parse_args(argv)
    names = tomllib.loads((HERE / "names.toml").read_text(encoding="utf-8"))
    chosen: list[Program] = [p for p in programs() if args.only is None or p.id in args.only]
    answers = ReferenceAnswers()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        write(out)
        for program in chosen:
            assignment = load_assignment(program.assignment)
            cases = answers.cases(assignment)
            began = time.perf_counter()
            result = grade_submission(
                assignment, out / program.assignment / f"{program.slug}.py", cases,
                hidden=answers.secret_paths(), policy=policy_judge(answers, assignment),
                workers=2,
            )  # fmt: skip
            seconds = time.perf_counter() - began
            expected = set(names[program.assignment][program.slug])
            equivalent = set(names["equivalent"].get(program.id, ()))
            lost = [t for t in result.tests if t.score < t.max_score]
            given = {m for t in lost for m in t.mistakes}
            said = "; ".join(f"{t.name}: {','.join(t.mistakes) or '-'}" for t in lost)
            rows.append((program, verdict(expected, equivalent, given), expected, said, seconds))
            print(f"{program.id:48} {rows[-1][1]:12} {seconds:5.1f} s  {said}", flush=True)
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    for program, v, *_ in rows:
        by_class[program.klass][v] += 1
        by_class["all"][v] += 1
    print("\nclass            named-right  equivalent  named-wrong  not-named  named")
    for klass in (*CLASSES, "all"):
        c = by_class[klass]
        total = sum(c.values())
        if total:
            named = c["named-right"] + c["named-equivalent"]
            print(f"{klass:16} {c['named-right']:11}  {c['named-equivalent']:10}  "
                  f"{c['named-wrong']:11}  {c['not-named']:9}  {named / total:5.0%}")  # fmt: skip
    wrong = [(p.id, e, s) for p, v, e, s, _ in rows if v == "named-wrong"]
    for pid, expected, said in wrong:
        print(f"named wrongly: {pid} (expected {sorted(expected) or 'none'}): {said}")
    times = sorted(s for *_, s in rows)
    if times:
        print(f"\ngrading time per program: median {times[len(times) // 2]:.1f} s, "
              f"longest {times[-1]:.1f} s")  # fmt: skip
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
