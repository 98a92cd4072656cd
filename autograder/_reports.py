"""What a batch leaves behind: the gradebook (CSV), a feedback file per student, a score
histogram and a summary for the terminal."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path

from ._files import write_atomic
from ._results import SubmissionResult

__all__ = [
    "feedback_names",
    "feedback_text",
    "gradebook_text",
    "histogram",
    "safe_name",
    "summary_text",
    "write_reports",
]

_MARK = {"passed": "PASS", "partial": "PART"}
# The longest feedback file name kept whole, in bytes: well under the 255 of common file
# systems, with room for a hash and ".txt".
_LONGEST = 120


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


def feedback_names(students: Iterable[str]) -> dict[str, str]:
    """The feedback file of each student: ``<safe name>.txt``, unless that name is too long
    for a file system or already taken (``a b`` and ``a_b``, or ``Ada`` and ``ada`` on a
    file system that ignores case): then a shortened name and a hash of the id, so no
    student ever reads, or overwrites, another's feedback."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    # A student whose id is already a safe name gets it, whoever else maps onto it.
    for student in sorted(set(students), key=lambda s: (safe_name(s) != s, s)):
        name = safe_name(student)
        if len(name.encode()) > _LONGEST or name.lower() in taken:
            digest = hashlib.sha256(student.encode()).hexdigest()
            short = name.encode()[:_LONGEST].decode(errors="ignore")
            name = f"{short}-{digest[:10]}"
            if name.lower() in taken:  # only a deliberate clash gets here
                name = f"{short}-{digest}"
        taken.add(name.lower())
        names[student] = f"{name}.txt"
    return names


def gradebook_text(results: Sequence[SubmissionResult]) -> str:
    """``grades.csv``: a row per student, the total, each board, and the isolation level
    its runs had."""
    names: list[str] = []
    for result in results:
        for test in result.tests:
            if test.name not in names:
                names.append(test.name)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["student", "score", "max_score", "status", *names, "problems", "isolation"])
    for r in sorted(results, key=lambda r: r.student):
        by_name = {t.name: f"{t.score:.2f}" for t in r.tests}
        row = [r.student, f"{r.score:.2f}", f"{r.max_score:g}", r.status]
        boards = [by_name.get(n, "") for n in names]
        writer.writerow([*row, *boards, "; ".join(r.problems), r.isolation])
    return text.getvalue()


def write_reports(out: Path, results: Sequence[SubmissionResult], title: str = "") -> list[str]:
    """``feedback/<student>.txt``, ``histogram.txt`` and ``grades.csv`` in ``out``, each
    replaced atomically, the gradebook last. A feedback file that cannot be written does not
    stop the others: what went wrong is returned, one line per file, for the summary."""
    problems: list[str] = []
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    names = feedback_names(r.student for r in results)
    for r in results:
        try:
            write_atomic(feedback / names[r.student], feedback_text(r, title))
        except OSError as err:
            problems.append(f"feedback of {r.student} not written: {err}")
    maximum = max((r.max_score for r in results), default=0.0)
    write_atomic(
        out / "histogram.txt", "\n".join(histogram([r.score for r in results], maximum)) + "\n"
    )
    # The csv module ends rows with CRLF; newline="" keeps them as they are.
    write_atomic(out / "grades.csv", gradebook_text(results), newline="")
    return problems
