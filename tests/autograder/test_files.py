"""Removing what a program left behind, however it arranged it.

The trees of thousands of entries are made in memory (``ram_path``, tests/conftest.py): on a
virtual machine's disk their making and removing took minutes when the disk was busy, and
how ``remove_tree`` walks them is the same on every file system."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder._files import remove_tree


def nest(top: Path, depth: int) -> None:
    """Folders ``d/d/d/...`` deeper than any path can name: made relative to an open folder."""
    here = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=here)
        with open(os.open("f", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=here), "w") as file:
            file.write("x")
        child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
        os.close(here)
        here = child
    os.close(here)


def test_a_tree_deeper_than_a_path_can_name_is_removed(ram_path):
    top = ram_path / "run"
    top.mkdir()
    nest(top, 3000)  # 3000 * len("d/") > PATH_MAX
    remove_tree(top)
    assert not top.exists()


def test_closed_folders_and_files_are_removed_but_links_are_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("the grader's")
    top = tmp_path / "run"
    (top / "closed" / "inner").mkdir(parents=True)
    (top / "closed" / "inner" / "file").write_text("x")
    (top / "link-to-outside").symlink_to(outside)
    (top / "closed" / "file-link").symlink_to(outside / "keep.txt")
    (top / "closed" / "inner").chmod(0)
    (top / "closed").chmod(0)
    remove_tree(top)
    assert not top.exists()
    assert (outside / "keep.txt").read_text() == "the grader's"


def test_a_file_or_a_missing_path_is_fine(tmp_path):
    lone = tmp_path / "lone.txt"
    lone.write_text("x")
    remove_tree(lone)
    assert not lone.exists()
    remove_tree(tmp_path / "never-there")
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    remove_tree(link)
    assert not link.is_symlink() and tmp_path.is_dir()


# --- wide trees, open folders, permissions, what cannot go ------------------------------------


@pytest.fixture
def listings(monkeypatch) -> Counter:
    """How many times each folder (by inode) is listed while the test runs."""
    seen: Counter = Counter()
    scandir = os.scandir

    def counted(path=".", *args, **kwargs):
        seen[os.fstat(path).st_ino if isinstance(path, int) else os.stat(path).st_ino] += 1
        return scandir(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", counted)
    return seen


def fill(folder: Path, folders: int, files: int) -> None:
    here = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for k in range(folders):
            os.mkdir(f"d{k}", dir_fd=here)
        for k in range(files):
            os.close(os.open(f"f{k}", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=here))
    finally:
        os.close(here)


def test_a_wide_folder_is_read_once_however_many_entries_it_has(ram_path, listings):
    top = ram_path / "run"
    top.mkdir()
    fill(top, 20_000, 20_000)
    for k in range(0, 20_000, 1000):  # some of the folders have folders and files in them
        fill(top / f"d{k}", 3, 3)
    remove_tree(top)
    assert not top.exists()
    # A walk that went back to the start of the folder after each subfolder read it once
    # per subfolder (a batch of entries each time, and every entry left in it again).
    assert listings and max(listings.values()) == 1


def test_a_deep_tree_is_removed_with_a_few_folders_open_at_a_time(ram_path, monkeypatch):
    top = ram_path / "run"
    top.mkdir()
    nest(top, 3000)
    live, peak = 0, 0
    opener, closer = os.open, os.close

    def opening(*args, **kwargs):
        nonlocal live, peak
        fd = opener(*args, **kwargs)
        live += 1
        peak = max(peak, live)
        return fd

    def closing(fd):
        nonlocal live
        closer(fd)
        live -= 1

    monkeypatch.setattr(os, "open", opening)
    monkeypatch.setattr(os, "close", closing)
    remove_tree(top)
    monkeypatch.undo()
    assert not top.exists()
    assert live == 0 and peak <= 3  # (a run may nest 100,000 folders)


NOBODY = 65534


def as_owner(action) -> int:
    """Run ``action()`` in a child process as the owner of the tree (an unprivileged uid
    when the test runs as root, to whom modes apply); its exit status."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        status = 1
        try:
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            action()
            status = 0
        finally:
            os._exit(status)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder an unprivileged uid can reach (``tmp_path`` lies under a folder closed to
    others), given to that uid when the test runs as root."""
    base = Path(tempfile.mkdtemp(prefix="remove-tree-"))
    try:
        if os.geteuid() == 0:
            os.chown(base, NOBODY, NOBODY)
        yield base
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(base)], check=False, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


def test_closed_and_read_only_folders_files_of_mode_0_and_fifos_go_as_their_owner(shared_tmp):
    outside = shared_tmp / "outside"
    (outside / "inner").mkdir(parents=True)
    (outside / "keep.txt").write_text("the grader's")
    top = shared_tmp / "run"
    (top / "closed" / "inner").mkdir(parents=True)
    (top / "closed" / "inner" / "file").write_text("x")
    (top / "read-only" / "sub").mkdir(parents=True)
    (top / "read-only" / "file").write_text("x")
    os.mkfifo(top / "read-only" / "sub" / "pipe")
    os.mkfifo(top / "pipe")
    (top / "locked").write_text("x")
    (top / "link-to-outside").symlink_to(outside, target_is_directory=True)
    (top / "read-only" / "link-to-file").symlink_to(outside / "keep.txt")
    (top / "read-only" / "link-to-folder").symlink_to(outside / "inner")
    if os.geteuid() == 0:  # (the outside too: a mode set through a link would then hold)
        for path in [top, *top.rglob("*"), outside, *outside.rglob("*")]:
            os.lchown(path, NOBODY, NOBODY)
    (outside / "inner").chmod(0o500)
    (outside / "keep.txt").chmod(0o400)
    (top / "locked").chmod(0)
    (top / "closed" / "inner" / "file").chmod(0)
    for folder, mode in (("closed/inner", 0), ("closed", 0), ("read-only/sub", 0o500),
                         ("read-only", 0o500)):  # fmt: skip
        (top / folder).chmod(mode)
    modes = {p: p.stat().st_mode for p in (outside, outside / "inner", outside / "keep.txt")}
    assert as_owner(lambda: remove_tree(top)) == 0
    assert not os.path.lexists(top)
    # What the links pointed to is untouched: neither removed nor opened up.
    assert (outside / "keep.txt").read_text() == "the grader's"
    assert {p: p.stat().st_mode for p in modes} == modes


def test_a_folder_that_will_not_go_is_skipped_once_and_the_rest_removed(tmp_path, monkeypatch,
                                                                         listings):  # fmt: skip
    top = tmp_path / "run"
    (top / "stuck" / "inner").mkdir(parents=True)
    (top / "stuck" / "inner" / "file").write_text("x")
    chain = top / "chain" / "a" / "b"
    (chain / "stuck").mkdir(parents=True)
    fill(top, 50, 50)
    tried: Counter = Counter()
    rmdir = os.rmdir

    def refusing(path, *args, **kwargs):
        tried[os.path.basename(path)] += 1
        if os.path.basename(path) == "stuck":
            raise OSError(errno.EBUSY, "busy")  # as a mount point says
        return rmdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "rmdir", refusing)
    remove_tree(top)
    monkeypatch.undo()
    left = sorted(str(p.relative_to(top)) for p in top.rglob("*"))
    assert left == ["chain", "chain/a", "chain/a/b", "chain/a/b/stuck", "stuck",
                    "stuck/inner", "stuck/inner/file"]  # fmt: skip
    assert tried["stuck"] == 2 and max(listings.values()) == 1


@pytest.fixture
def root_only():
    if os.geteuid() != 0:
        pytest.skip("mounting and chattr need root")


@pytest.mark.usefixtures("root_only")
def test_a_file_system_mounted_inside_is_neither_entered_nor_emptied(tmp_path):
    top = tmp_path / "run"
    mounted = top / "a" / "mnt"
    mounted.mkdir(parents=True)
    (top / "a" / "file").write_text("x")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mounted)],
                      capture_output=True, timeout=30).returncode:  # fmt: skip
        pytest.skip("cannot mount a tmpfs here")
    try:
        (mounted / "theirs.txt").write_text("not the run's")
        remove_tree(top)
        assert sorted(str(p.relative_to(top)) for p in top.rglob("*")) == [
            "a",
            "a/mnt",
            "a/mnt/theirs.txt",
        ]
        assert (mounted / "theirs.txt").read_text() == "not the run's"
    finally:
        subprocess.run(["umount", "-l", str(mounted)], check=False, timeout=30)


@pytest.mark.usefixtures("root_only")
def test_an_immutable_folder_stays_with_its_entries_and_the_rest_goes(tmp_path, listings):
    top = tmp_path / "run"
    frozen = top / "a" / "frozen"
    (frozen / "inner").mkdir(parents=True)
    (frozen / "inner" / "file").write_text("x")
    (frozen / "file").write_text("x")
    fill(top / "a", 20, 20)
    if subprocess.run(["chattr", "+i", str(frozen)], capture_output=True,
                      timeout=30).returncode:  # fmt: skip
        pytest.skip("this file system has no immutable flag")
    try:
        remove_tree(top)
        assert max(listings.values()) == 1  # (before rglob lists them again)
        assert sorted(str(p.relative_to(top)) for p in top.rglob("*")) == [
            "a",
            "a/frozen",
            "a/frozen/file",
            "a/frozen/inner",
            "a/frozen/inner/file",
        ]
    finally:
        subprocess.run(["chattr", "-i", str(frozen)], check=False, timeout=30)


# --- through the grader ------------------------------------------------------------------------


@pytest.mark.parametrize("folder", ["as the grader makes it", "in the temporary folder"])
def test_a_run_that_fills_its_folder_with_entries_leaves_nothing(
    tmp_path, ram_path, monkeypatch, folder
):
    from autograder import _submission, grade_submission, load_assignment
    from reference_solutions import ReferenceAnswers, answer_key
    from tests.autograder.test_hidden_boards import program

    if folder == "in the temporary folder":
        # As root a run's folder may be a file system of its own, bounded in entries and
        # unmounted at the end; elsewhere it is removed entry by entry, as here.
        if not hasattr(_submission, "sized_folders"):
            pytest.skip("run folders are never sized file systems here")
        monkeypatch.setattr(_submission, "sized_folders", lambda: "the test says so")
        # (the temporary folder in memory: its 70,000 entries are the same there)
        monkeypatch.setattr(tempfile, "tempdir", str(ram_path))
    assignment = load_assignment("classic")
    path = tmp_path / "wide.py"
    path.write_text(program("wide_tree"))
    result = grade_submission(
        assignment, path, answer_key("classic", hidden=False)[:1],
        hidden=ReferenceAnswers().secret_paths(), isolation="process",
        limits=assignment.limits.with_timeout(120),
    )  # fmt: skip
    test = result.tests[0]
    assert result.score == 0.0 and test.status != "passed", test.feedback
    reports = [json.loads(line.removeprefix("ADVERSARY ")) for line in test.staff
               if line.startswith("ADVERSARY ")]  # fmt: skip
    assert reports, test.staff
    found = reports[-1]
    assert found["work"].startswith(tempfile.gettempdir() + "/autograder-run-")
    assert not os.path.lexists(found["work"])
