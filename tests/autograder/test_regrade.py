"""``regrade``: a finished batch marked again from what its programs printed, after the
tolerance changes, without running anything; exactly the scores the change moves move."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from autograder import grade_folder, load_manifest, regrade_folder
from autograder._assignments import assignments_dir
from autograder.cli import main
from reference_solutions import ReferenceAnswers, reference_program

# Every printed number 0.03 above the reference's: wrong within 0.01, right within 0.05.
OFF_BY = """
import contextlib, io, re, sys
source = {source!r}
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    sys.argv = [sys.argv[0], sys.argv[1]]
    exec(compile(source, "reference", "exec"), {{"__name__": "__main__"}})
def shifted(match):
    return f"{{float(match.group(0)) + 0.03:.2f}}"
print(re.sub(r"-?\\d+\\.\\d+", shifted, printed.getvalue()), end="")
"""


@pytest.fixture(scope="module")
def graded_once(tmp_path_factory) -> tuple[Path, dict[str, float]]:
    """The assignments, the submissions and their batch, graded once for the module (21 runs):
    each test gets its own copy of the three, to change as it likes."""
    base = tmp_path_factory.mktemp("regrade")
    assignments = base / "assignments"
    shutil.copytree(assignments_dir(), assignments)
    folder = base / "submissions"
    folder.mkdir()
    right = reference_program("classic")
    (folder / "right.py").write_text(right)
    (folder / "off.py").write_text(OFF_BY.format(source=right))
    (folder / "crash.py").write_text("raise SystemExit(3)\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOGRADER_ASSIGNMENTS", str(assignments))
        done = grade_folder("classic", folder, base / "out", answers=ReferenceAnswers(),
                            isolation="process")  # fmt: skip
    return base, {r.student: r.score for r in done.results}


@pytest.fixture()
def batch(graded_once, tmp_path, monkeypatch):
    base, scores = graded_once
    for part in ("assignments", "submissions", "out"):
        shutil.copytree(base / part, tmp_path / part)
    assignments = tmp_path / "assignments"
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(assignments))
    return (
        assignments / "classic" / "assignment.toml",
        tmp_path / "submissions",
        tmp_path / "out",
        scores,
    )


def loosen(config: Path, tolerance: float) -> None:
    text = config.read_text()
    assert "values = 0.01\n" in text
    config.write_text(text.replace("values = 0.01\n", f"values = {tolerance}\n"))


def test_a_wider_tolerance_moves_exactly_the_scores_it_should(batch, capsys):
    config, _, out, before = batch
    full = before["right"]
    assert before["off"] < full and before["crash"] == 0.0
    runs = len(list(out.glob("outputs/*.json")))
    assert runs == 2  # the crash printed nothing to keep

    loosen(config, 0.05)
    done = regrade_folder(out, ReferenceAnswers())
    after = {r.student: r.score for r in done.results}
    assert after == {"right": full, "off": full, "crash": 0.0}
    assert done.changed == (("off", before["off"], full),)
    # The log and the gradebook say so too, and the page.
    logged = {json.loads(line)["student"]: json.loads(line)["score"]
              for line in (out / "results.jsonl").read_text().splitlines()}  # fmt: skip
    assert logged == after
    assert f"off,{full:.2f}," in (out / "grades.csv").read_text()
    # The command line lists whose score changed.
    loosen_back = config.read_text().replace("values = 0.05\n", "values = 0.01\n")
    config.write_text(loosen_back)
    assert main(["regrade", str(out)]) == 0
    said = capsys.readouterr().out
    assert "1 scores changed" in said and f"off: {full:.2f} -> {before['off']:.2f}" in said


def test_nothing_changes_when_nothing_did_and_resume_still_works(batch, capsys):
    _, folder, out, before = batch
    done = regrade_folder(out, ReferenceAnswers())
    assert done.changed == () and {r.student: r.score for r in done.results} == before
    status = main(["grade", "classic", str(folder), "--out", str(out), "--resume",
                   "--isolation", "process"])  # fmt: skip
    assert status in (0, 1)
    assert "graded 0 submissions" in capsys.readouterr().out


def test_the_staff_lines_are_the_new_marking_s_not_the_old_one_s_too(batch):
    config, _, out, _ = batch

    def hidden_staff() -> list[list[str]]:
        line = next(x for x in (out / "results.jsonl").read_text().splitlines() if '"off"' in x)
        return [t["staff"] for t in json.loads(line)["tests"] if not t["visible"]]

    assert all(any("printed" in s for s in staff) for staff in hidden_staff())  # wrong: listed
    loosen(config, 0.05)
    regrade_folder(out, ReferenceAnswers())
    for staff in hidden_staff():  # all right now: one count, all of them, and no listing
        counts = [s for s in staff if s.endswith("entries right")]
        assert len(counts) == 1 and counts[0].split(" of ")[0] == counts[0].split()[2]
        assert not any("printed" in s for s in staff), staff


def test_a_batch_graded_without_a_manifest_is_not_marked_with_one(batch, tmp_path, capsys):
    _, _, out, _ = batch
    meta = (out / "batch.json").read_text()
    manifest = write_manifest_file(tmp_path / "manifest.json", OWN)
    assert main(["regrade", str(out), "--manifest", str(manifest)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "graded without --manifest" in err[0]
    assert (out / "batch.json").read_text() == meta  # and a plain regrade still works
    assert main(["regrade", str(out)]) == 0


def test_a_board_whose_output_was_not_kept_keeps_its_result(batch):
    config, _, out, before = batch
    for kept in out.glob("outputs/*.json"):
        kept.unlink()
    loosen(config, 0.05)
    done = regrade_folder(out, ReferenceAnswers())
    assert {r.student: r.score for r in done.results} == before
    assert done.kept > 0 and "their output was not kept" in done.summary()


def test_a_folder_that_is_no_batch_is_one_line(tmp_path, capsys):
    assert main(["regrade", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(tmp_path) in err[0] and "batch.json" in err[0]


# --- a batch graded with a manifest and a late policy -------------------------------------

LATE = """
[late]
deadline = 2026-01-01T23:59:00Z
penalty_per_day = 10
cap = 50
"""
# Each student on a board of their own, with their name, as ``variants`` writes it.
OWN = {
    "right": ({"goal": 20, "jumps": [[3, 12], [17, 5]]}, "Lovelace, Ada"),
    "off": ({"goal": 30, "jumps": [[2, 25]]}, "Hopper, Grace"),
}


def write_manifest_file(path: Path, own: dict) -> Path:
    students = [{"id": who, "board": board, "name": name} for who, (board, name) in own.items()]
    data = {"format": 1, "assignment": "classic", "secret_id": "abc123", "students": students}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def graded_late(tmp_path_factory) -> Path:
    """``right`` two days late, ``off`` one day late, each on their own board (14 runs)."""
    base = tmp_path_factory.mktemp("regrade-late")
    assignments = base / "assignments"
    shutil.copytree(assignments_dir(), assignments)
    config = assignments / "classic" / "assignment.toml"
    config.write_text(config.read_text() + LATE)
    folder = base / "submissions"
    folder.mkdir()
    right = reference_program("classic")
    (folder / "right.py").write_text(right)
    (folder / "off.py").write_text(OFF_BY.format(source=right))
    (base / "times.csv").write_text(
        "student,submitted\nright,2026-01-03T10:00:00Z\noff,2026-01-02T08:00:00Z\n"
    )
    manifest = write_manifest_file(base / "manifest.json", OWN)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOGRADER_ASSIGNMENTS", str(assignments))
        status = main(["grade", "classic", str(folder), "--out", str(base / "out"),
                       "--manifest", str(manifest), "--times", str(base / "times.csv"),
                       "--isolation", "process"])  # fmt: skip
    assert status in (0, 1)
    return base


@pytest.fixture()
def late_batch(graded_late, tmp_path, monkeypatch) -> Path:
    for part in ("assignments", "out"):
        shutil.copytree(graded_late / part, tmp_path / part)
    shutil.copy(graded_late / "manifest.json", tmp_path / "manifest.json")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path / "assignments"))
    return tmp_path


def gradebooks(out: Path) -> dict[str, dict[str, dict[str, str]]]:
    """Each gradebook's rows by student (Moodle's ``Participant <id>`` read as ``<id>``)."""
    books = {}
    for file, key in (("grades.csv", "student"), ("grades-canvas.csv", "ID"),
                      ("grades-moodle.csv", "Identifier")):  # fmt: skip
        with open(out / file, newline="", encoding="utf-8-sig") as f:
            rows = [row for row in csv.DictReader(f) if row.get(key)]
        books[file] = {row[key].removeprefix("Participant "): row for row in rows}
    return books


def canvas_by_name(out: Path) -> dict[str, dict[str, str]]:
    """grades-canvas.csv's rows by ``Student``: ids that are no Canvas user ids (``right``)
    leave ``ID`` empty, as Canvas reads it as a number."""
    with open(out / "grades-canvas.csv", newline="", encoding="utf-8") as f:
        return {row["Student"]: row for row in csv.DictReader(f)}


def test_every_gradebook_names_the_students_the_manifest_names(late_batch):
    out = late_batch / "out"
    books = gradebooks(out)
    assert books["grades.csv"]["right"]["name"] == "Lovelace, Ada"
    assert books["grades.csv"]["off"]["name"] == "Hopper, Grace"
    canvas = canvas_by_name(out)
    assert canvas["Lovelace, Ada"]["ID"] == "" and canvas["Hopper, Grace"]["ID"] == ""
    assert canvas["Lovelace, Ada"]["Chutes and Ladders: the classic game"] == "80.00"
    # No Moodle participant is called "right": Moodle's worksheet leaves them out.
    assert books["grades-moodle.csv"] == {}


def test_a_regrade_keeps_the_late_penalty_and_the_names(late_batch, capsys):
    out, manifest = late_batch / "out", late_batch / "manifest.json"
    before = gradebooks(out)["grades.csv"]
    # 100 points, two days late at 10% a day
    assert before["right"]["score"] == "80.00" and "2 days" in before["right"]["late"]
    assert main(["regrade", str(out), "--manifest", str(manifest)]) == 0
    assert "0 scores changed" in capsys.readouterr().out
    after = gradebooks(out)
    assert after["grades.csv"] == before
    assert canvas_by_name(out)["Lovelace, Ada"]["ID"] == ""


def test_the_penalty_is_taken_off_the_new_score(late_batch):
    config = late_batch / "assignments" / "classic" / "assignment.toml"
    off_before = gradebooks(late_batch / "out")["grades.csv"]["off"]
    assert float(off_before["score"]) < 90.0
    loosen(config, 0.05)
    manifest = load_manifest(late_batch / "manifest.json", "classic")
    done = regrade_folder(late_batch / "out", ReferenceAnswers(), manifest=manifest)
    scores = {r.student: r.score for r in done.results}
    assert scores == {"right": 80.0, "off": 90.0}  # all right now, one day late
    late = next(r for r in done.results if r.student == "off").extra["late"]
    assert late["days"] == 1 and late["score_before"] == 100.0


def test_a_batch_graded_with_a_manifest_is_not_marked_without_it(late_batch, capsys):
    out = late_batch / "out"
    results = (out / "results.jsonl").read_text()
    assert main(["regrade", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(out) in err[0] and "--manifest" in err[0]
    other = write_manifest_file(late_batch / "other.json",
                                {"right": OWN["off"], "off": OWN["right"]})  # fmt: skip
    assert main(["regrade", str(out), "--manifest", str(other)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "other.json" in err[0]
    assert (out / "results.jsonl").read_text() == results  # nothing was marked


def test_the_run_s_lines_are_told_from_an_old_marking_s():
    from autograder._regrade import _run_lines

    stderr = ("standard error (last lines):", "Traceback ...")
    # A hidden board's marking begins with its count, or with "output not readable".
    assert _run_lines(("notebook: 3 cells", "3 of 10 entries right", "x", *stderr)) == (
        ("notebook: 3 cells",),
        stderr,
    )
    assert _run_lines(("output not readable: line 2", *stderr)) == ((), stderr)
    # With neither (a batch graded before the count was kept), only the standard error.
    assert _run_lines(("square 4: printed 1.00, expected 2.00", *stderr)) == ((), stderr)


@pytest.fixture()
def course_batch(tmp_path, monkeypatch):
    """A submissions folder, a course settings file and a batch folder to grade into, with
    no course material from the environment: ``(folder, settings, out)``."""
    monkeypatch.delenv("AUTOGRADER_ASSIGNMENTS", raising=False)
    monkeypatch.delenv("AUTOGRADER_COURSE", raising=False)
    folder = tmp_path / "submissions"
    folder.mkdir()
    return folder, tmp_path / "course.toml", tmp_path / "out"


def test_regrade_marks_again_with_the_course_settings_the_batch_was_graded_with(
    tmp_path, course_batch, capsys
):
    """A course loosened the tolerance in its settings file; a regrade with no --course must
    not fall back to the package's 0.01 (and take the marks of the "off" program away), and
    an edited settings file is what regrade is for."""
    folder, settings, out = course_batch
    right = reference_program("classic")
    (folder / "off.py").write_text(OFF_BY.format(source=right))
    settings.write_text("[classic.tolerance]\nvalues = 0.05\n")
    code = main(["grade", "classic", str(folder), "--out", str(out), "--isolation", "process",
                 "--course", str(settings)])  # fmt: skip
    assert code == 0
    assert json.loads((out / "batch.json").read_text())["course"] == str(settings.resolve())

    def score() -> float:
        with open(out / "grades.csv", newline="") as file:
            return float(next(csv.DictReader(file))["score"])

    full = score()
    assert full == 100  # 0.03 off is within the course's 0.05
    assert main(["regrade", str(out)]) == 0
    assert "course settings: " + str(settings.resolve()) in capsys.readouterr().err
    assert score() == full
    # The course tightens it again: the regrade reads the edited file.
    settings.write_text("[classic.tolerance]\nvalues = 0.01\n")
    assert main(["regrade", str(out)]) == 0
    assert score() < full
    # Another file given wins, and the batch says it was graded with the first.
    other = tmp_path / "other.toml"
    other.write_text("[tolerance]\nvalues = 0.05\n")
    assert main(["regrade", str(out), "--course", str(other)]) == 0
    said = capsys.readouterr().out
    assert f"marked with the course settings {other.resolve()}" in said
    assert score() == full
    # Gone: one line, nothing marked.
    other.unlink()
    assert main(["regrade", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"autograder: error: {other.resolve()}: the course settings")
    assert "\n" not in err and score() == full


def test_outputs_are_never_marked_on_boards_they_were_not_printed_for(course_batch, capsys):
    """Another [tests] seed gives hidden-1 another board: the outputs a program printed for
    the old one are kept as graded, not marked as wrong answers to the new one."""
    folder, settings, out = course_batch
    (folder / "right.py").write_text(reference_program("classic"))
    settings.write_text("[tests]\nseed = 111\n")
    assert main(["grade", "classic", str(folder), "--out", str(out), "--isolation", "process",
                 "--course", str(settings)]) == 0  # fmt: skip
    settings.write_text("[tests]\nseed = 333\n")
    assert main(["regrade", str(out)]) == 0
    said = capsys.readouterr().out
    assert "3 boards kept as graded (hidden-1, hidden-2, hidden-3)" in said
    (result,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert result["score"] == result["max_score"] == 100
    # The boards it ran on again: marked again, nothing kept.
    settings.write_text("[tests]\nseed = 111\n")
    assert main(["regrade", str(out)]) == 0
    assert "kept as graded" not in capsys.readouterr().out


def test_grade_resume_goes_on_with_the_course_settings_the_batch_began_with(course_batch, capsys):
    folder, settings, out = course_batch
    right = reference_program("classic")
    (folder / "off.py").write_text(OFF_BY.format(source=right))
    settings.write_text("[classic.tolerance]\nvalues = 0.05\n")
    base = ["grade", "classic", str(folder), "--out", str(out), "--isolation", "process"]
    assert main([*base, "--course", str(settings)]) == 0
    (folder / "off2.py").write_text(OFF_BY.format(source=right))
    assert main([*base, "--resume"]) == 0
    assert f"course settings: {settings.resolve()}" in capsys.readouterr().err
    with open(out / "grades.csv", newline="") as file:
        scores = {row["student"]: float(row["score"]) for row in csv.DictReader(file)}
    assert scores == {"off": 100, "off2": 100}  # both within the course's 0.05
