"""What the HTML reports cost. Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_reports.py

1. A batch of ``--students`` submissions (the example programs of an assignment, copied
   round-robin, so right, wrong, crashing and unreadable ones all appear) is graded once
   with ``--jobs`` workers at the strongest isolation level; then, side by side and
   interleaved, the text reports (``write_reports``) and the HTML reports
   (``write_html_reports``: a page per student and ``index.html``) are written again from
   the results, ``--runs`` times each. The HTML time is set against the grading time.
2. The size of one student's page per assignment (a wrong answer on the public board, so
   every square carries a number and a colour).

Medians; figures are machine-dependent, quote them with the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from autograder import (
    SubmissionResult,
    assignment_names,
    grade_folder,
    grade_output,
    load_assignment,
    output_format,
    render_examples,
    submission_html,
    write_html_reports,
)
from autograder._cases import mistake_words
from autograder._reports import write_reports
from reference_solutions import ReferenceAnswers, examples_dir


def batch_folder(name: str, students: int, into: Path) -> Path:
    examples = into / "examples"
    programs = [p for p in render_examples(load_assignment(name), examples, examples_dir())
                if "endless" not in p.name]  # fmt: skip
    folder = into / "submissions"
    folder.mkdir()
    for k in range(students):
        source = programs[k % len(programs)]
        target = folder / f"student{k:04d}{'' if source.is_dir() else '.py'}"
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy(source, target)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--assignment", default="classic")
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")  # fmt: skip
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")

    answers = ReferenceAnswers()
    assignment = load_assignment(args.assignment)
    words = mistake_words(answers.cases(assignment))
    tmp = Path(tempfile.mkdtemp(prefix="bench-reports-"))
    try:
        folder = batch_folder(args.assignment, args.students, tmp)
        out = tmp / "out"
        start = time.perf_counter()
        batch = grade_folder(args.assignment, folder, out, answers=answers, workers=args.jobs)
        grading = time.perf_counter() - start
        results = batch.results
        print(f"\n{args.assignment}: {len(results)} submissions graded in {grading:.1f} s "
              f"({args.jobs} workers, {batch.isolation})")  # fmt: skip

        def text() -> None:
            write_reports(out, results, assignment.title, words)

        def pages() -> None:
            write_html_reports(out, results, assignment, words)

        times: dict[str, list[float]] = {"text reports": [], "HTML reports": []}
        for _ in range(args.runs):  # interleaved, so both see the same machine
            for label, write in (("text reports", text), ("HTML reports", pages)):
                begin = time.perf_counter()
                write()
                times[label].append(time.perf_counter() - begin)
        print(f"writing the reports again from the results (median of {args.runs}):")
        for label, seconds in times.items():
            median = statistics.median(seconds)
            print(f"  {label:<13} {median:.3f} s (min {min(seconds):.3f}, max {max(seconds):.3f})"
                  f" = {100 * median / grading:.1f}% of the grading time")  # fmt: skip
        sizes = sorted(p.stat().st_size for p in (out / "feedback").glob("*.html"))
        print(f"  pages: {len(sizes)}, median {sizes[len(sizes) // 2] / 1000:.1f} kB, "
              f"largest {sizes[-1] / 1000:.1f} kB; index.html "
              f"{(out / 'index.html').stat().st_size / 1000:.1f} kB")  # fmt: skip
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print("\none student's page, a wrong answer on the public board:")
    for name in assignment_names():
        one = load_assignment(name)
        cases = answers.cases(one)
        mistake = next((m for m in cases[0].expected.mistakes), None)
        if mistake is None:
            continue
        text_out = output_format(mistake.answer.output).render(mistake.answer)
        test = grade_output(cases[0], text_out, one)
        result = SubmissionResult("s", "s", name, test.score, test.max_score, "graded", (test,))
        size = len(submission_html(result, one, words).encode())
        board = cases[0].board
        squares = board.get("goal", len(board.get("layout", ())))
        tables = len(cases[0].expected.answer.values) if cases[0].expected.answer.output == (
            "token-values") else 1  # fmt: skip
        print(f"  {name:<14} {squares:>4} squares x {tables} table(s): {size / 1000:.1f} kB")


if __name__ == "__main__":
    main()
