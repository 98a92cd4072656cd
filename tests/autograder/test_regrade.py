"""``regrade``: a finished batch marked again from what its programs printed, after the
tolerance changes, without running anything; exactly the scores the change moves move."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autograder import grade_folder, regrade_folder
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
