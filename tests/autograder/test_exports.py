"""The gradebooks in the LMS's own layouts: Canvas's import columns with its Points
Possible row, Moodle's grading worksheet matched on "Participant <id>"."""

from __future__ import annotations

import csv

from autograder import grade_folder, load_assignment
from reference_solutions import ReferenceAnswers, reference_program


def test_canvas_and_moodle_gradebooks_hold_every_student(tmp_path):
    assignment = load_assignment("classic")
    public = [c for c in ReferenceAnswers().cases(assignment) if c.visible]
    folder = tmp_path / "submissions"
    folder.mkdir()
    # A Canvas download name (user id 12345) and a Moodle one (participant 678).
    (folder / "smithjane_12345_67890_classic.py").write_text(reference_program("classic"))
    moodle = folder / "Bob Jones_678_assignsubmission_file_"
    moodle.mkdir()
    (moodle / "classic.py").write_text("raise SystemExit(1)\n")
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ReferenceAnswers(), cases=public,
                         isolation="process")  # fmt: skip
    full = sum(c.points for c in public)
    assert {r.student: r.score for r in batch.results} == {"12345": full, "678": 0.0}
    with open(out / "grades-canvas.csv", newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       assignment.title]  # fmt: skip
    assert rows[1][0] == "Points Possible" and float(rows[1][5]) == full
    assert {row[1]: float(row[5]) for row in rows[2:]} == {"12345": full, "678": 0.0}
    with open(out / "grades-moodle.csv", newline="") as file:
        moodle_rows = list(csv.DictReader(file))
    by_id = {row["Identifier"]: row for row in moodle_rows}
    assert set(by_id) == {"Participant 12345", "Participant 678"}
    assert float(by_id["Participant 12345"]["Grade"]) == full
    assert float(by_id["Participant 678"]["Maximum Grade"]) == full
