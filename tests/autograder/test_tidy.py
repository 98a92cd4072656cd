"""Clearing up after runs on a thread of its own (``_tidy``), and the reports made durable
with one flush (``_files.sync_folders``): nothing a run leaves outlives the grading of its
submission, and nothing written is lost or torn."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path

import pytest

import autograder._files as files
import autograder._run_folder as run_folders
from autograder import grade_submission, load_assignment
from autograder._batch import RESULTS, grade_folder, read_results
from autograder._files import sync_folders, write_atomic
from autograder._run_folder import RUN_PREFIX, _mounted_runs
from autograder._tidy import Tidy
from reference_solutions import ReferenceAnswers, reference_program
from tests.grading import public_board

ANSWERS = ReferenceAnswers()
PUBLIC = public_board("classic")


def test_jobs_run_in_order_on_another_thread_and_close_waits_for_them():
    done: list[tuple[int, str]] = []
    gate = threading.Event()

    def job(k: int) -> None:
        gate.wait(10)
        done.append((k, threading.current_thread().name))

    with Tidy(most=8) as tidy:
        for k in range(5):
            tidy.add(lambda k=k: job(k))
        assert done == []  # (held at the gate: add did not run them in line)
        gate.set()
    assert [k for k, _ in done] == list(range(5))
    assert all(name != threading.current_thread().name for _, name in done)


def test_add_waits_while_most_jobs_are_pending():
    gate = threading.Event()
    added: list[int] = []
    tidy = Tidy(most=2)

    def adder() -> None:
        for k in range(3):
            tidy.add(gate.wait)
            added.append(k)

    thread = threading.Thread(target=adder)
    thread.start()
    deadline = time.monotonic() + 30
    while len(added) < 2 and time.monotonic() < deadline:  # (however busy the machine)
        time.sleep(0.01)
    thread.join(0.2)  # (a third add that did not wait would be made by now)
    assert added == [0, 1] and thread.is_alive()  # the third waits for room
    gate.set()
    thread.join(10)
    assert added == [0, 1, 2]
    tidy.close()


def test_a_jobs_error_is_raised_on_close_and_the_later_jobs_still_run():
    ran: list[str] = []
    tidy = Tidy()

    def broken() -> None:
        raise OSError("cannot")

    tidy.add(broken)
    tidy.add(lambda: ran.append("after"))
    with pytest.raises(OSError, match="cannot"):
        tidy.close()
    assert ran == ["after"]


def test_a_job_added_after_close_runs_in_line():
    tidy = Tidy()
    tidy.close()
    ran: list[str] = []
    tidy.add(lambda: ran.append(threading.current_thread().name))
    assert ran == [threading.current_thread().name]


def _own_runs() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob(f"{RUN_PREFIX}{os.getpid()}-*"))


def test_run_folders_cleared_in_the_background_are_gone_when_grading_returns(monkeypatch, tmp_path):
    # Removal made slow: what grading returns after is the removal, not its speed.
    real = run_folders._remove
    removed: list[str] = []

    def slow(work: Path, mounted: bool) -> None:
        threading.Event().wait(0.05)
        removed.append(threading.current_thread().name)
        real(work, mounted)

    monkeypatch.setattr(run_folders, "_remove", slow)
    # A run (and its folder) per board: as root, a warm server would run all three boards
    # in one folder of the submission's (``_warm_sandbox``), removed as it ends.
    monkeypatch.setenv("AUTOGRADER_WARM", "off")
    before = _own_runs()
    assignment = load_assignment("classic")
    result = grade_submission(
        assignment,
        _program(tmp_path, "a"),
        PUBLIC * 3,
        hidden=ANSWERS.secret_paths(),
        isolation="process",
    )
    assert result.score == result.max_score
    assert len(removed) == 3
    assert all(name != threading.current_thread().name for name in removed)
    assert not _own_runs() - before
    assert not [p for p in _mounted_runs() if f"{RUN_PREFIX}{os.getpid()}-" in p]


def test_every_run_folder_of_a_batch_is_gone_when_it_returns(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for student in ("a", "b", "c"):
        _program(folder, student)
    before = _own_runs()
    batch = grade_folder(
        "classic", folder, tmp_path / "out", answers=ANSWERS, cases=PUBLIC * 2, workers=2,
        isolation="process",
    )  # fmt: skip
    assert all(r.score == r.max_score for r in batch.results)
    assert not _own_runs() - before
    assert not [p for p in _mounted_runs() if f"{RUN_PREFIX}{os.getpid()}-" in p]
    assert sorted(r.student for r in read_results(tmp_path / "out" / RESULTS)) == ["a", "b", "c"]


def _program(folder: Path, student: str) -> Path:
    path = folder / f"{student}.py"
    path.write_text(reference_program("classic"), encoding="utf-8")
    return path


# --- the reports: written unsynced, then one flush -------------------------------------------


def test_an_unsynced_write_replaces_the_file_whole_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "page.html"
    path.write_text("old")
    write_atomic(path, "new", synced=False)
    assert path.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


@pytest.mark.parametrize("syncfs", [True, False])
def test_sync_folders_syncs_every_file_once_or_each_file_without_syncfs(
    tmp_path, monkeypatch, syncfs
):
    inner = tmp_path / "feedback"
    inner.mkdir()
    for k in range(3):
        write_atomic(inner / f"{k}.txt", f"{k}\n", synced=False)
    write_atomic(tmp_path / "index.html", "index\n", synced=False)
    flushes: list[int] = []
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(files, "_syncfs", lambda fd: flushes.append(fd) or syncfs)
    monkeypatch.setattr(files.os, "fsync", fsync)
    sync_folders(inner, tmp_path, inner)
    if syncfs:  # one file system: one flush, nothing synced file by file
        assert len(flushes) == 1 and synced == []
    else:
        assert sorted(synced) == sorted(
            [*(str(inner / f"{k}.txt") for k in range(3)), str(inner),
             str(tmp_path / "index.html"), str(tmp_path)]
        )  # fmt: skip
    assert [(inner / f"{k}.txt").read_text() for k in range(3)] == ["0\n", "1\n", "2\n"]


def test_the_reports_are_flushed_before_the_gradebook_is_written(tmp_path, monkeypatch):
    import autograder._reports as reports

    order: list[str] = []
    real_sync, real_write = reports.sync_folders, reports.write_atomic

    def sync(*folders: Path) -> None:
        order.append("sync")
        real_sync(*folders)

    def write(path: Path, *args, **kwargs) -> None:
        order.append(f"{Path(path).name}{'' if kwargs.get('synced', True) else ' unsynced'}")
        real_write(path, *args, **kwargs)

    monkeypatch.setattr(reports, "sync_folders", sync)
    monkeypatch.setattr(reports, "write_atomic", write)
    folder = tmp_path / "submissions"
    folder.mkdir()
    _program(folder, "a")
    grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS, cases=PUBLIC)
    assert order[-2:] == ["sync", "grades.csv"]
    assert all(step.endswith(" unsynced") for step in order[:-2])
    assert (tmp_path / "out" / "feedback" / "a.html").read_text().endswith("</html>\n")
