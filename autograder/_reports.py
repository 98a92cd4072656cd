"""What a batch leaves behind: the gradebook (CSV), a feedback file per student, a score
histogram and a summary for the terminal."""

from __future__ import annotations

import csv
import re
import statistics
from collections.abc import Sequence
from pathlib import Path

from ._engine import SubmissionResult

__all__ = ["feedback_text", "histogram", "safe_name", "summary_text", "write_reports"]

_MARK = {"passed": "PASS", "partial": "PART"}


def safe_name(student: str) -> str:
    """A file name for a student id: nothing that could leave the feedback folder."""
    return re.sub(r"[^\w.@-]", "_", student).lstrip(".") or "_"


def feedback_text(result: SubmissionResult, title: str = "") -> str:
    """What the student reads: visible detail on the public board, none on hidden ones."""
    lines = [f"{result.assignment}: {title}".rstrip(": "), f"student: {result.student}"]
    lines.append(f"score: {result.score:.2f} / {result.max_score:.2f}")
    lines += [f"problem: {p}" for p in result.problems]
    for test in result.tests:
        mark = _MARK.get(test.status, "FAIL")
        hidden = "" if test.visible else " [hidden]"
        lines.append("")
        lines.append(f"{mark}  {test.title}{hidden}: {test.score:.2f} / {test.max_score:.2f}")
        lines += [f"      {line}" for line in test.feedback]
    return "\n".join(lines) + "\n"


def histogram(scores: Sequence[float], maximum: float, width: int = 40) -> list[str]:
    """Counts per tenth of the maximum score, the last bucket being full marks."""
    buckets = [0] * 11
    for score in scores:
        share = score / maximum if maximum else 0.0
        buckets[10 if share >= 1 - 1e-9 else min(9, int(share * 10))] += 1
    tallest = max(buckets) or 1
    lines = []
    for k, count in enumerate(buckets):
        label = "100%" if k == 10 else f"{10 * k:>2d}-{10 * k + 9:>2d}%"
        bar = "#" * round(width * count / tallest)
        lines.append(f"  {label:>7} {count:>5} {bar}")
    return lines


def summary_text(results: Sequence[SubmissionResult], notes: Sequence[str] = ()) -> str:
    if not results:
        return "no submissions graded\n"
    maximum = max(r.max_score for r in results)
    graded = [r for r in results if r.status == "graded"]
    scores = [r.score for r in results]
    lines = [
        f"{len(results)} submissions: {len(graded)} graded, {len(results) - len(graded)} "
        f"could not be run; {sum(r.passed for r in results)} with full marks",
        f"score: mean {statistics.fmean(scores):.2f}, median {statistics.median(scores):.2f} "
        f"of {maximum:g}",
        "",
        "score histogram:",
        *histogram(scores, maximum),
    ]
    if graded:
        names = [t.name for t in graded[0].tests]
        lines += ["", "boards passed:"]
        for name in names:
            outcomes = [t for r in graded for t in r.tests if t.name == name]
            passed = sum(t.status == "passed" for t in outcomes)
            lines.append(f"  {name:<22} {passed:>5} of {len(outcomes)}")
    lines += [f"note: {n}" for n in notes]
    return "\n".join(lines) + "\n"


def write_reports(out: Path, results: Sequence[SubmissionResult], title: str = "") -> None:
    """``grades.csv``, ``feedback/<student>.txt`` and ``histogram.txt`` in ``out``."""
    names: list[str] = []
    for result in results:
        for test in result.tests:
            if test.name not in names:
                names.append(test.name)
    with open(out / "grades.csv", "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["student", "score", "max_score", "status", *names, "problems"])
        for r in sorted(results, key=lambda r: r.student):
            by_name = {t.name: f"{t.score:.2f}" for t in r.tests}
            row = [r.student, f"{r.score:.2f}", f"{r.max_score:g}", r.status]
            writer.writerow([*row, *(by_name.get(n, "") for n in names), "; ".join(r.problems)])
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    for r in results:
        (feedback / f"{safe_name(r.student)}.txt").write_text(
            feedback_text(r, title), encoding="utf-8"
        )
    maximum = max((r.max_score for r in results), default=0.0)
    (out / "histogram.txt").write_text(
        "\n".join(histogram([r.score for r in results], maximum)) + "\n", encoding="utf-8"
    )
