"""Gradebooks an LMS imports as they are, beside ``grades.csv``.

* **Canvas** (``grades-canvas.csv``): Canvas's gradebook import reads ``Student``, ``ID``,
  ``SIS User ID``, ``SIS Login ID``, ``Section`` and one column per assignment, headed by
  the assignment's name as Canvas shows it (``Homework 3 (4321)``: give it with
  ``--canvas-column``, else the assignment's title). ``ID`` is the Canvas user id, which
  Canvas's download names carry and which the grader uses as the student's id.
* **Moodle** (``grades-moodle.csv``): the assignment's offline grading worksheet, which
  Moodle matches on ``Identifier`` (``Participant <id>``, the id Moodle's download folders
  carry), with ``Full name``, ``Grade``, ``Maximum Grade`` and ``Feedback comments``.

Rows follow ``grades.csv``: one per student, the score with two decimals. Text goes
through ``cell`` (a student chooses part of an LMS name).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from ._plain import cell
from ._results import SubmissionResult

__all__ = ["CANVAS_FILE", "MOODLE_FILE", "canvas_gradebook", "moodle_gradebook"]

CANVAS_FILE = "grades-canvas.csv"
MOODLE_FILE = "grades-moodle.csv"


def canvas_gradebook(
    results: Sequence[SubmissionResult], column: str, names: Mapping[str, str] | None = None
) -> str:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", cell(column)])
    # Canvas's own second row: "Points Possible" under the assignment's column.
    maximum = max((r.max_score for r in results), default=0.0)
    writer.writerow(["Points Possible", "", "", "", "", f"{maximum:g}"])
    for r in sorted(results, key=lambda r: r.student):
        name = (names or {}).get(r.student, "")
        writer.writerow([cell(name), cell(r.student), "", "", "", f"{r.score:.2f}"])
    return text.getvalue()


def moodle_gradebook(
    results: Sequence[SubmissionResult], names: Mapping[str, str] | None = None
) -> str:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["Identifier", "Full name", "Grade", "Maximum Grade", "Feedback comments"])
    for r in sorted(results, key=lambda r: r.student):
        name = (names or {}).get(r.student, "")
        said = "graded by the autograder" if r.status == "graded" else "could not be graded"
        writer.writerow([cell(f"Participant {r.student}"), cell(name), f"{r.score:.2f}",
                         f"{r.max_score:g}", said])  # fmt: skip
    return text.getvalue()
