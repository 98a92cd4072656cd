"""``autograder grade`` killed with SIGKILL at many points, then ``--resume``: every
submission ends up graded exactly once, the reports are whole, and no temporary file stays
behind. The batches run the command line in a subprocess and kill its process group; each
``--resume`` that follows (killed by none of these) runs in this process.

The default run kills at a few points (in the middle of the batch, while writing batch.json
and while writing a report); every other point, kills at random times and chains of kills
are marked ``slow`` (``pytest -m slow``; CI runs both)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from autograder._batch import META, RESULTS, grade_folder, read_results
from autograder._errors import UsageError
from autograder.cli import main
from reference_solutions import ReferenceAnswers, reference_program
from tests.grading import public_board

ROOT = Path(__file__).resolve().parents[2]
STUDENTS = [f"s{k:02d}" for k in range(8)]
# Each program sleeps before its answer, so results arrive a tenth of a second or more
# apart and each kill point below is reached on its own.
SLOW = "import time\ntime.sleep(0.1)\n"
ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
REPORTS = {"grades.csv", "histogram.txt", "mistakes.csv", "feedback", "index.html",
           "grades-canvas.csv", "grades-moodle.csv", "similarity.csv"}  # fmt: skip
PUBLIC = public_board("classic")
ANSWERS = ReferenceAnswers()

# ``autograder grade`` as the command line runs it (``autograder.cli.main``), with two changes:
#  * the answer key is the public board alone: the command line has no option for that, and
#    the full key (seven boards a submission) would make this module take minutes
#    (test_grade.py kills and resumes ``python -m autograder`` on the full key);
#  * given n > 0, the grader SIGKILLs itself on its n-th atomic replace of a file in OUT:
#    the temporary file written and synced, the rename not done. That is a kill in the
#    middle of writing batch.json, a feedback file or the gradebook, hit every time.
DRIVER = """
import os, signal, sys
from reference_solutions import ReferenceAnswers
full_key = ReferenceAnswers.cases
def public_only(self, assignment, hidden=True):
    return full_key(self, assignment, hidden=False)
ReferenceAnswers.cases = public_only
folder, nth = os.path.realpath(sys.argv[1]), int(sys.argv[2])
real, calls = os.replace, [0]
def replace(src, dst, *args, **kwargs):
    if os.path.dirname(os.path.realpath(dst)).startswith(folder):
        calls[0] += 1
        if calls[0] == nth:
            os.kill(os.getpid(), signal.SIGKILL)
    return real(src, dst, *args, **kwargs)
os.replace = replace
from autograder.cli import main
sys.exit(main(sys.argv[3:]))
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("batch") / "submissions"
    folder.mkdir()
    program = SLOW + reference_program("classic")
    for student in STUDENTS:
        (folder / f"{student}.py").write_text(program)
    return folder


def grade_args(folder: Path, out: Path, *more: str) -> list[str]:
    return ["grade", "classic", str(folder), "--out", str(out), "-j", "2", *more]


def command(folder: Path, out: Path, *more: str, kill_on_replace: int = 0) -> list[str]:
    args = grade_args(folder, out, *more)
    return [sys.executable, "-c", DRIVER, str(out), str(kill_on_replace), *args]


def start(folder: Path, out: Path, *more: str) -> subprocess.Popen:
    return subprocess.Popen(
        command(folder, out, *more), cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip


def run(
    folder: Path, out: Path, *more: str, kill_on_replace: int = 0
) -> subprocess.CompletedProcess:
    return subprocess.run(
        command(folder, out, *more, kill_on_replace=kill_on_replace), cwd=ROOT, env=ENV,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def resume(folder: Path, out: Path) -> str:
    """``--resume`` with ``DRIVER``'s command line and answer key, but in this process:
    nothing kills it, and a process of its own would start Python, its imports and the
    isolation probes again for each resume (every kill above is of a real process)."""
    said = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(said):
        patch.setattr(ReferenceAnswers, "cases", _public_only)
        status = main(grade_args(folder, out, "--resume"))
    assert status == 0, said.getvalue()
    return said.getvalue()


_FULL_KEY = ReferenceAnswers.cases


def _public_only(self: ReferenceAnswers, assignment, hidden: bool = True):
    return _FULL_KEY(self, assignment, hidden=False)


def lines(out: Path) -> int:
    """Complete lines in the log: results recorded so far."""
    try:
        return (out / RESULTS).read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def kill_group(process: subprocess.Popen) -> bool:
    """SIGKILL the grader's process group; whether that is what ended the grader (it may
    have finished just before)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    return process.returncode == -signal.SIGKILL


def kill_when(process: subprocess.Popen, ready: Callable[[], bool], limit: float = 90) -> bool:
    """SIGKILL the grader as soon as ``ready()``; fail if it ends before that."""
    deadline = time.monotonic() + limit
    while not ready():
        if process.poll() is not None:
            _, err = process.communicate()
            pytest.fail(f"the grader ended ({process.returncode}) before the kill point: {err}")
        if time.monotonic() > deadline:
            kill_group(process)
            pytest.fail("the kill point was never reached")
        time.sleep(0.005)
    return kill_group(process)


def kill_after(process: subprocess.Popen, seconds: float) -> bool:
    """SIGKILL the grader after ``seconds``; whether it was still running then."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(seconds)
    return kill_group(process)


def assert_complete(out: Path) -> None:
    """What a finished batch must look like, however many kills it went through."""
    raw = (out / RESULTS).read_bytes()
    assert raw.endswith(b"\n")
    logged = Counter(json.loads(line)["student"] for line in raw.splitlines())
    assert logged == Counter(STUDENTS), "each submission logged exactly once"
    results = read_results(out / RESULTS)
    assert sorted(r.student for r in results) == STUDENTS
    assert all(r.status == "graded" and r.score == r.max_score for r in results)
    with open(out / "grades.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert [r["student"] for r in rows] == STUDENTS, "one row per student"
    full = results[0].max_score
    for result in results:
        text = (out / "feedback" / f"{result.student}.txt").read_text()
        assert f"score: {full:.2f} / {full:.2f}" in text
    assert f"100% {len(STUDENTS):>5}" in (out / "histogram.txt").read_text()
    assert json.loads((out / META).read_text())["assignment"] == "classic"
    # Nothing else: no temporary file of an interrupted write, in out or in feedback/.
    # (outputs/ holds what each program printed, for regrade: none when the whole log was
    # copied in and nothing graded again.)
    assert sorted(p.name for p in out.iterdir() if p.name != "outputs") == sorted(
        {META, RESULTS, *REPORTS}
    )
    outputs = out / "outputs"
    assert not outputs.exists() or not list(outputs.glob(".autograder-*"))
    pages = sorted(f"{s}.{kind}" for s in STUDENTS for kind in ("html", "txt"))
    assert sorted(p.name for p in (out / "feedback").iterdir()) == pages
    index = (out / "index.html").read_text()
    assert all(f'href="feedback/{s}.html"' in index for s in STUDENTS)


@pytest.fixture(scope="module")
def graded(folder, tmp_path_factory) -> tuple[Path, float]:
    """A batch graded without interruption, and how long it took."""
    out = tmp_path_factory.mktemp("graded") / "out"
    began = time.monotonic()
    process = start(folder, out)
    _, err = process.communicate(timeout=180)
    assert process.returncode == 0, err
    seconds = time.monotonic() - began
    assert_complete(out)
    return out, seconds


KILL_POINTS = {
    # batch.json is in place, no result yet
    "before-any-result": lambda out: (out / META).exists(),
    "after-1-result": lambda out: lines(out) >= 1,
    "after-half": lambda out: lines(out) >= len(STUDENTS) // 2,
    # every result logged; the reports not yet, or partly, written
    "after-all-results": lambda out: lines(out) >= len(STUDENTS),
}


def some(values, default: set[str]) -> list:
    """``values`` as parameters: those in ``default`` in the default run, the others
    ``slow``."""
    return [pytest.param(v, marks=() if v in default else pytest.mark.slow) for v in values]


@pytest.mark.parametrize("point", some(KILL_POINTS, {"after-half"}))
def test_kill_at_a_point_then_resume(folder, tmp_path, point):
    out = tmp_path / "out"
    killed = kill_when(start(folder, out), lambda: KILL_POINTS[point](out))
    before = read_results(out / RESULTS)
    reports = sorted(REPORTS & {p.name for p in out.iterdir()})
    print(f"{point}: killed={killed}, {len(before)} results logged, reports there: {reports}")
    # Only after the last result may the grader win the race and finish before the kill.
    assert killed or point == "after-all-results"
    if point == "before-any-result":
        assert before == []
    elif point != "after-all-results":
        assert 0 < len(before) < len(STUDENTS), "the kill came in the middle of the batch"
    resume(folder, out)
    assert_complete(out)
    after = read_results(out / RESULTS)
    assert [r.student for r in after[: len(before)]] == [r.student for r in before]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 20240611, 6])
def test_kill_at_a_random_time_then_resume(folder, graded, tmp_path, seed):
    # A time drawn within about as long as an uninterrupted batch takes: before, during or
    # (rarely) after the grading.
    _, seconds = graded
    out = tmp_path / "out"
    when = random.Random(seed).uniform(0.0, 1.1) * seconds
    killed = kill_after(start(folder, out), when)
    print(f"seed {seed}: kill at {when:.2f}s of about {seconds:.2f}s, killed={killed}, "
          f"{lines(out)} results logged")  # fmt: skip
    resume(folder, out)
    assert_complete(out)


@pytest.mark.slow
def test_kill_twice_the_second_time_during_the_resume(folder, tmp_path):
    out = tmp_path / "out"
    assert kill_when(start(folder, out), lambda: lines(out) >= 2)
    first = lines(out)
    assert first < len(STUDENTS)
    # The resume is killed once it has graded two more.
    assert kill_when(start(folder, out, "--resume"), lambda: lines(out) >= first + 2)
    second = read_results(out / RESULTS)
    print(f"chain: {first} results, then {len(second)} after the killed resume")
    assert first + 2 <= len(second) < len(STUDENTS)
    resume(folder, out)
    assert_complete(out)


@pytest.mark.slow
def test_kill_while_the_resume_starts_up(folder, tmp_path):
    out = tmp_path / "out"
    assert kill_when(start(folder, out), lambda: lines(out) >= 3)
    # Within the resume's first half second: its imports, reading the log, batch.json.
    when = random.Random(7).uniform(0.0, 0.5)
    before = lines(out)
    assert kill_after(start(folder, out, "--resume"), when)
    print(f"startup: resume killed at {when:.2f}s, {before} then {lines(out)} results")
    resume(folder, out)
    assert_complete(out)


def test_kill_while_writing_batch_json(folder, tmp_path):
    out = tmp_path / "out"
    process = run(folder, out, kill_on_replace=1)
    assert process.returncode == -signal.SIGKILL, process.stderr
    assert not (out / META).exists() and not (out / RESULTS).exists()
    assert [p.name.endswith(".tmp") for p in out.iterdir()] == [True]  # the one left behind
    resume(folder, out)
    assert_complete(out)


# After every result is logged, a run writes the pages (one per student, in order of their
# ids, then index.html), then the feedback files (likewise), then histogram.txt,
# mistakes.csv, the Canvas and Moodle gradebooks and grades.csv: one atomic replace each.
PAGES = len(STUDENTS) + 1
WRITES = {
    "first-page": 1,
    "index": PAGES,
    "first-feedback": PAGES + 1,
    "middle-feedback": PAGES + len(STUDENTS) // 2,
    "histogram": PAGES + len(STUDENTS) + 1,
    "gradebook": PAGES + len(STUDENTS) + 5,  # after mistakes.csv and the two LMS layouts
}


@pytest.mark.parametrize("write", some(WRITES, {"middle-feedback"}))
def test_kill_while_writing_the_reports(folder, graded, tmp_path, write):
    # The state of a kill after the last result: batch.json and the whole log, no reports.
    out = tmp_path / "out"
    out.mkdir()
    for name in (META, RESULTS):
        shutil.copy(graded[0] / name, out / name)
    nth = WRITES[write]
    process = run(folder, out, "--resume", kill_on_replace=nth)
    assert process.returncode == -signal.SIGKILL, process.stderr
    # What was written before the kill is whole; what was being written is not there yet.
    pages = sorted((out / "feedback").glob("*.html"))
    assert len(pages) == min(nth - 1, len(STUDENTS))
    assert all(p.read_text().endswith("</html>\n") for p in pages)
    assert (out / "index.html").exists() == (nth > PAGES)
    written = sorted((out / "feedback").glob("*.txt"))
    assert len(written) == min(max(nth - 1 - PAGES, 0), len(STUDENTS))
    assert all(p.read_text().endswith("\n") for p in written)
    assert (out / "histogram.txt").exists() == (nth > PAGES + len(STUDENTS) + 1)
    assert not (out / "grades.csv").exists()
    assert len(list(out.rglob(".autograder-*.tmp"))) == 1
    resume(folder, out)
    assert_complete(out)


# --- in-process: the odd states a folder can be left in, and errors on one submission -----


def small_batch(tmp_path: Path, students: dict[str, str]) -> Path:
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in students:
        (folder / name).write_text(students[name])
    return folder


def test_a_torn_batch_json_from_an_older_grader_does_not_block_resume(tmp_path):
    folder = small_batch(tmp_path, {"a.py": reference_program("classic")})
    out = tmp_path / "out"
    grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC)
    text = (out / META).read_text()
    # Torn before the first result: nothing to check, the batch simply starts.
    (out / RESULTS).unlink()
    (out / META).write_text(text[:10])
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC, resume=True)
    assert batch.graded_now == 1 and (out / META).read_text() == text
    # Torn with results: resumed on them (they are all for classic), with a note.
    (out / META).write_text(text[:10])
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC, resume=True)
    assert batch.graded_now == 0 and len(batch.results) == 1
    assert any("batch.json was missing or unreadable" in n for n in batch.notes)
    assert (out / META).read_text() == text
    # Gone, with results of another assignment: refused.
    (out / META).unlink()
    log = (out / RESULTS).read_text().replace('"assignment": "classic"', '"assignment": "boosted"')
    (out / RESULTS).write_text(log)
    with pytest.raises(UsageError, match="holds results of boosted"):
        grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC, resume=True)


def test_another_answer_key_is_refused_only_when_there_are_results(tmp_path):
    folder = small_batch(tmp_path, {"a.py": reference_program("classic")})
    out = tmp_path / "out"
    grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC)
    other = [replace(PUBLIC[0], points=PUBLIC[0].points + 1)]
    with pytest.raises(UsageError, match="another assignment or answer key"):
        grade_folder("classic", folder, out, answers=ANSWERS, cases=other, resume=True)
    (out / RESULTS).write_text("")  # killed before the first result
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=other, resume=True)
    assert batch.graded_now == 1


def test_a_last_line_without_its_newline_is_graded_again(tmp_path):
    folder = small_batch(tmp_path, {"a.py": reference_program("classic")})
    grade_folder("classic", folder, tmp_path, answers=ANSWERS, cases=PUBLIC)
    path = tmp_path / RESULTS
    whole = path.read_bytes()
    path.write_bytes(whole[:-1])  # valid JSON, but the write was cut before its newline
    assert read_results(path) == [] and path.read_bytes() == b""
    batch = grade_folder("classic", folder, tmp_path, answers=ANSWERS, cases=PUBLIC, resume=True)
    assert batch.graded_now == 1 and path.read_bytes().count(b"\n") == 1


def test_feedback_files_of_awkward_names_are_distinct_and_written(tmp_path):
    program = reference_program("classic")
    long = "x" * 240  # + ".txt" is too long a file name
    folder = small_batch(tmp_path, {f"{long}.py": program, "a b.py": program, "a_b.py": program})
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC, workers=2)
    assert sorted(r.student for r in batch.results) == sorted([long, "a b", "a_b"])
    texts = {p.name: p.read_text() for p in (out / "feedback").glob("*.txt")}
    assert len(texts) == 3 and "a_b.txt" in texts
    # Each page is named as its text, so neither clashes where the text would not.
    pages = sorted(p.stem for p in (out / "feedback").glob("*.html"))
    assert pages == sorted(Path(name).stem for name in texts)
    assert "student: a_b\n" in texts["a_b.txt"]  # the one whose id it is
    for student in (long, "a b"):
        assert sum(f"student: {student}\n" in text for text in texts.values()) == 1
    with open(out / "grades.csv", newline="") as file:
        assert len(list(csv.DictReader(file))) == 3


def test_a_feedback_file_that_cannot_be_written_stops_nothing_else(tmp_path, monkeypatch):
    import autograder._reports as reports

    program = reference_program("classic")
    folder = small_batch(tmp_path, {"a.py": program, "b.py": program, "c.py": program})
    real = reports.write_atomic

    def failing(path, *args, **kwargs):
        if Path(path).name == "b.txt":
            raise OSError(28, "No space left on device")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(reports, "write_atomic", failing)
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC)
    assert any(n.startswith("feedback of b not written") for n in batch.notes)
    assert sorted(p.name for p in (out / "feedback").glob("*.txt")) == ["a.txt", "c.txt"]
    with open(out / "grades.csv", newline="") as file:
        assert [r["student"] for r in csv.DictReader(file)] == ["a", "b", "c"]
    assert (out / "histogram.txt").exists()


def test_a_result_that_cannot_be_logged_is_an_error_for_that_submission(tmp_path, monkeypatch):
    import autograder._batch as grade

    program = reference_program("classic")
    folder = small_batch(tmp_path, {"a.py": program, "b.py": program})
    real = grade.grade_submission

    def odd(assignment, path, *args, **kwargs):
        result = real(assignment, path, *args, **kwargs)
        if path.name == "a.py":  # something json cannot write
            return replace(result, extra={"when": object()})
        return result

    monkeypatch.setattr(grade, "grade_submission", odd)
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC)
    by_student = {r.student: r for r in batch.results}
    assert by_student["a"].status == "error"
    assert "could not be recorded" in by_student["a"].problems[0]
    assert by_student["b"].score == by_student["b"].max_score
    # The log reads back whole, so a resume grades nothing again.
    assert sorted(r.student for r in read_results(out / RESULTS)) == ["a", "b"]
    monkeypatch.undo()
    again = grade_folder("classic", folder, out, answers=ANSWERS, cases=PUBLIC, resume=True)
    assert again.graded_now == 0


def test_a_log_from_another_version_of_the_grader_still_resumes(tmp_path):
    folder = small_batch(tmp_path, {"a.py": reference_program("classic")})
    grade_folder("classic", folder, tmp_path, answers=ANSWERS, cases=PUBLIC)
    path = tmp_path / RESULTS
    data = json.loads(path.read_text())
    data["tests"][0]["added_later_too"] = 2
    path.write_text(json.dumps({**data, "added_later": 1}) + "\n")
    assert [r.student for r in read_results(path)] == ["a"]
