"""Grade the second diagnosis set: which boards each program loses marks on.

Run from the repository root:  python benchmarks/diagnosis/second/grade.py [--only ID ...]

Generates every program (generate.py) into a temporary folder and grades it on the
assignment's whole answer key, as benchmarks/diagnosis/measure.py does (real runs in the
sandbox). Checks that every correct base program gets full marks on every board and that
every wrong program loses marks on at least one board and runs on all of them (no crash, no
timeout). Writes results.md beside this script (unless --only is given) and exits 1 when a
check fails.

It reports scores only, on purpose: the set measures the mistake names the grader gives, so
the programs must not be tuned to them. For the converged-wrong programs it also says
whether every printed value is at most the right one (jump squares left out: their values
depend on a reading), as the class promises.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from generate import Program, correct_programs, programs, write  # beside this script

from autograder import grade_submission, load_assignment, policy_judge
from reference_solutions import ReferenceAnswers

HERE = Path(__file__).resolve().parent
# Statuses of a program that ran and printed: marked, or printed what does not fit the board
# (a program that ignores its board file prints the public board's 100 squares everywhere).
RAN = {"passed", "partial", "wrong", "unreadable"}
_ENTRY = re.compile(r"(\d+):\s+(\S+)")
_TRAP_ROW = re.compile(r"^\s*(\d+)\s+(\S+)\s+\S+\s*$")


@dataclass(frozen=True)
class Graded:
    program: Program
    losses: tuple[str, ...]  # boards not given full marks, as "name (score/max)"
    broken: tuple[str, ...]  # boards where it did not run to the end, as "name: status"
    unreadable: tuple[str, ...]  # boards where its output did not fit the board
    higher: tuple[str, ...] | None  # converged-wrong: boards with a value above the right one


def printed_tables(output: str) -> list[dict[int, float]]:
    """The value tables of a jump-board output, in printed order, as {square: value}."""
    tables: list[dict[int, float]] = []
    for line in output.splitlines():
        if line.startswith("Expected turns remaining"):
            tables.append({})
        elif line.startswith("Optimal action"):
            break
        elif tables:
            for square, value in _ENTRY.findall(line):
                tables[-1][int(square)] = float(value)
    return tables


def any_higher(output: str, case: Any, family: str) -> bool:
    """Whether a printed value is above the right one (by more than the rounding)."""
    answer = case.expected.answer
    if family == "trap":
        rows = [m.groups() for m in map(_TRAP_ROW.match, output.splitlines()) if m]
        return any(float(v) > answer.values[int(s) - 1] + 0.005 for s, v in rows)
    jump_starts = {start for start, _ in case.board["jumps"]}
    tables = printed_tables(output)
    # token-boosted prints the most tokens first; the answer lists tables by tokens left.
    rights = list(answer.values[::-1]) if isinstance(answer.values[0], tuple) else [answer.values]
    for printed, right in zip(tables, rights, strict=False):
        for square, value in printed.items():
            if square not in jump_starts and value > right[square] + 0.005:
                return True
    return False


def grade(program: Program, path: Path, answers: ReferenceAnswers) -> Graded:
    assignment = load_assignment(program.assignment)
    cases = answers.cases(assignment)
    result = grade_submission(
        assignment, path, cases, hidden=answers.secret_paths(),
        policy=policy_judge(answers, assignment), workers=2,
    )  # fmt: skip
    losses = tuple(
        f"{t.name} ({t.score:g}/{t.max_score:g})" for t in result.tests if t.score < t.max_score
    )
    broken = tuple(f"{t.name}: {t.status}" for t in result.tests if t.status not in RAN)
    unreadable = tuple(t.name for t in result.tests if t.status == "unreadable")
    higher = None
    if program.klass == "converged-wrong":
        by_name = {c.name: c for c in cases}
        family = "trap" if program.assignment == "trap-lane" else "jump"
        higher = tuple(
            t.name for t in result.tests if any_higher(t.output, by_name[t.name], family)
        )
    return Graded(program, losses, broken, unreadable, higher)


def problems(g: Graded) -> list[str]:
    """What is wrong with the program as a member of the set."""
    if g.program.klass == "correct":
        return [f"{g.program.id}: a correct program loses marks: {', '.join(g.losses)}"] * bool(
            g.losses
        )
    found = []
    if not g.losses:
        found.append(f"{g.program.id}: full marks on every board (not a mistake)")
    if g.broken:
        found.append(f"{g.program.id}: did not run on {', '.join(g.broken)}")
    return found


def report(graded: list[Graded]) -> str:
    lines = [
        "# The second diagnosis set: boards on which each program loses marks",
        "",
        "Generated by `python benchmarks/diagnosis/second/grade.py` (scores only).",
        "",
        "| program | klass | boards losing marks | runs |",
        "| --- | --- | --- | --- |",
    ]
    for g in graded:
        runs = "; ".join(g.broken) or "ok"
        if g.unreadable:
            runs += f"; output unreadable on {', '.join(g.unreadable)}"
        if g.higher is not None:
            runs += (
                "; values all <= right" if not g.higher else f"; higher on {', '.join(g.higher)}"
            )
        lines.append(
            f"| {g.program.id} | {g.program.klass} | {', '.join(g.losses) or 'none'} | {runs} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="program ids to grade")
    args = parser.parse_args(argv)
    everything = correct_programs() + programs()
    chosen = [p for p in everything if args.only is None or p.id in args.only]
    answers = ReferenceAnswers()
    graded = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        write(out)
        for program in chosen:
            g = grade(program, out / program.assignment / f"{program.slug}.py", answers)
            graded.append(g)
            note = "" if g.higher is None else f" [values above the right one: {g.higher}]"
            print(f"{program.id}: {', '.join(g.losses) or 'full marks'}{note}", flush=True)
    failures = [p for g in graded for p in problems(g)]
    if args.only is None:
        (HERE / "results.md").write_text(report(graded), encoding="utf-8")
    print("\n".join(failures) or "every check holds")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
