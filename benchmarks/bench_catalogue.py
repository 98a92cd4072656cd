"""What the catalogue of known mistakes (and the readings and sweeps that come with it)
costs at grading time, per submission.

Run from the repository root:
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_catalogue.py [--runs 7] [--copies 20]

(a) In-process, no program run: the grader's verdict on a printed wrong answer (the first
    catalogued mistake's answer, rendered) on every answer-key case of every assignment,
    with the case as is and with its expected answer stripped of mistakes, readings and
    sweeps. One "submission" is one text graded on every case.
(b) Whole grading (classic, aimed, and token-boosted, whose verdict costs most in (a)): a
    folder of COPIES copies of one wrong example program graded with grade_folder (real
    runs in the sandbox, 2 workers), with the answer key as is and stripped. The two
    configurations alternate (ABBA) so drift hits both alike.

Medians; ratio = with catalogue / without. The target: the catalogue adds at most 20% to
the grading time per submission. Figures depend on the machine: quote them with it.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from _machine import machine  # benchmarks/_machine.py, beside this script

from autograder import grade_folder, grade_output, load_assignment, render, render_examples
from reference_solutions import ReferenceAnswers, examples_dir

ASSIGNMENTS = ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane")
# (b): the two asked for, and token-boosted, whose verdict costs most in (a)
WHOLE = {
    "classic": "wrong_overshoot_wins.py",
    "aimed": "wrong_no_noise.py",
    "token-boosted": "wrong_tokens_unlimited.py",
}
TARGET = 1.20


def stripped(case):
    """``case`` without the catalogue: no mistakes, readings or sweeps to compare with."""
    expected = dataclasses.replace(case.expected, mistakes=(), readings=(), sweeps=())
    return dataclasses.replace(case, expected=expected)


def grade_texts(cases, texts, assignment) -> list:
    return [grade_output(c, t, assignment) for c, t in zip(cases, texts, strict=True)]


def grade_copies(name: str, folder: Path, out: Path, answers, cases) -> float:
    """Seconds to grade ``folder`` into ``out`` (a new folder) on ``cases``."""
    start = time.perf_counter()
    grade_folder(name, folder, out, answers=answers, cases=cases, workers=2)
    return time.perf_counter() - start


def verdicts(runs: int) -> None:
    print(f"(a) verdict on a printed wrong answer, every case; median of {runs} runs")
    print(f"    {'assignment':14} {'cases':>5} {'with (ms)':>10} {'without (ms)':>13} {'added':>6}"
          f" {'ratio':>6}  named with / without (public board)")  # fmt: skip
    answers = ReferenceAnswers()
    for name in ASSIGNMENTS:
        assignment = load_assignment(name)
        full = answers.cases(assignment)
        bare = [stripped(c) for c in full]
        texts = [render(c.expected.mistakes[0].answer) for c in full]
        grade_texts(full, texts, assignment), grade_texts(bare, texts, assignment)  # warm up
        times: dict[str, list[float]] = {"with": [], "without": []}
        for k in range(runs):
            order = (("with", full), ("without", bare))
            for label, cases in order if k % 2 == 0 else order[::-1]:
                start = time.perf_counter()
                grade_texts(cases, texts, assignment)
                times[label].append(time.perf_counter() - start)
        a, b = (statistics.median(times[x]) * 1e3 for x in ("with", "without"))
        named = (grade_texts(full, texts, assignment)[0].mistakes,
                 grade_texts(bare, texts, assignment)[0].mistakes)  # fmt: skip
        print(f"    {name:14} {len(full):5d} {a:10.2f} {b:13.2f} {a - b:6.2f} {a / b:6.2f}  "
              f"{','.join(named[0]) or '-'} / {','.join(named[1]) or '-'}")  # fmt: skip


def whole(runs: int, copies: int) -> None:
    print(f"\n(b) grade_folder on {copies} copies of one wrong example, 2 workers, "
          f"all cases; median of {runs} runs per configuration")  # fmt: skip
    answers = ReferenceAnswers()
    for name, example in WHOLE.items():
        assignment = load_assignment(name)
        full = answers.cases(assignment)
        configs = {"with": full, "without": [stripped(c) for c in full]}
        work = Path(tempfile.mkdtemp(prefix=f"bench-catalogue-{name}-"))
        try:
            rendered = work / "examples"
            render_examples(assignment, rendered, examples_dir())
            folder = work / "submissions"
            folder.mkdir()
            for k in range(copies):
                shutil.copyfile(rendered / example, folder / f"student{k:02d}.py")
            times: dict[str, list[float]] = {"with": [], "without": []}
            for label in configs:  # warm up
                grade_copies(name, folder, work / f"warm-{label}", answers, configs[label])
            for k in range(runs):
                order = ("with", "without") if k % 2 == 0 else ("without", "with")
                for label in order:
                    out = work / f"out-{k}-{label}"
                    times[label].append(grade_copies(name, folder, out, answers, configs[label]))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        a, b = (statistics.median(times[x]) for x in ("with", "without"))
        # Each run's pair ran back to back, so the pair's ratio holds when the machine drifts.
        pairs = statistics.median(
            x / y for x, y in zip(times["with"], times["without"], strict=True)
        )
        spread = {x: f"{min(v):.2f}..{max(v):.2f}" for x, v in times.items()}
        verdict = "within" if pairs <= TARGET else "OVER"
        print(f"    {name} ({example}): with {a:.2f} s ({spread['with']}), "
              f"without {b:.2f} s ({spread['without']})\n"
              f"      per submission {a / copies * 1e3:.0f} ms / {b / copies * 1e3:.0f} ms; "
              f"ratio of medians {a / b:.3f}, median of pair ratios {pairs:.3f} "
              f"({verdict} the {TARGET - 1:.0%} target)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per configuration in (b)")
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--skip-whole", action="store_true", help="only (a)")
    args = parser.parse_args()
    print(f"machine: {machine()}\n")
    verdicts(max(15, 3 * args.runs))
    if not args.skip_whole:
        whole(args.runs, args.copies)


if __name__ == "__main__":
    main()
