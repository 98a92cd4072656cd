"""A run's own folder: where its program, its board and whatever it writes live, bounded in
files and bytes, and gone afterwards.

As root the folder is a file system of its own, a tmpfs of ``FOLDER_MB`` and ``FOLDER_FILES``
entries: a program that fills it gets "no space left", the machine's disk is never touched,
and unmounting it removes everything at once, however many entries it holds. Elsewhere
(a grader that is not root, or a container that may not mount) the folder lies in the
temporary folder, and the run is measured about once a second and as it ends, and stopped
(or, ended, marked) once it holds more (``measure``); it is then removed entry by entry
(``remove_tree``, linear).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ._files import libc, remove_tree, tree_size
from ._tidy import Tidy

__all__ = ["FOLDER_FILES", "FOLDER_MB", "RUN_PREFIX", "run_folder", "sized_folders"]

RUN_PREFIX = "autograder-run-"
FOLDER_MB = 128  # what a run's folder may hold: its program (at most 20 MB), board and files
FOLDER_FILES = 4096  # entries (files and folders) in it
_MS_NOSUID, _MS_NODEV, _MNT_DETACH = 2, 4, 2


def _mount(folder: Path) -> bool:
    options = f"size={FOLDER_MB}m,nr_inodes={FOLDER_FILES},mode=0700"
    done = libc().mount(b"tmpfs", os.fsencode(folder), b"tmpfs", _MS_NOSUID | _MS_NODEV,
                         options.encode())  # fmt: skip
    return done == 0


def _unmount(folder: str | Path) -> None:
    # Detached: a process still holding it open (none should) cannot keep it mounted.
    libc().umount2(os.fsencode(folder), _MNT_DETACH)


@functools.cache
def sized_folders() -> str:
    """Why a run's folder cannot be a sized tmpfs here (``""``: it can), tried once."""
    if os.geteuid() != 0:
        return "the grader is not root"
    folder = Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid()}-probe-"))
    try:
        if not _mount(folder):
            return f"mounting a tmpfs failed ({os.strerror(ctypes.get_errno())})"
        _unmount(folder)
        return ""
    finally:
        with contextlib.suppress(OSError):
            folder.rmdir()


def measure(folder: Path) -> Callable[[], bool]:
    """A check that ``folder`` holds no more than a sized folder could; it stops counting
    there, so one look costs at most ``FOLDER_FILES`` entries."""

    def over() -> bool:
        found, size = tree_size(folder, entries=FOLDER_FILES, size=FOLDER_MB << 20,
                                allocated=True)  # fmt: skip
        return found > FOLDER_FILES or size > FOLDER_MB << 20

    return over


def _mounted_runs() -> list[str]:
    """Run folders mounted now (by this grader or by one killed before it could unmount)."""
    found = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8") as file:
        for line in file:
            point = line.split()[4].encode().decode("unicode_escape")
            if os.path.basename(point).startswith(RUN_PREFIX):
                found.append(point)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


def _owner(name: str) -> int | None:
    pid = name[len(RUN_PREFIX) :].split("-", 1)[0]
    return int(pid) if name.startswith(RUN_PREFIX) and pid.isdigit() else None


@functools.cache
def sweep_stale_runs() -> None:
    """Remove the run folders of graders that were killed before they could (their names
    carry the grader's pid), once per process."""
    for point in _mounted_runs():
        pid = _owner(os.path.basename(point))
        if pid is not None and not _alive(pid):
            _unmount(point)
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            pid = _owner(entry.name)
            if pid is not None and not _alive(pid) and entry.is_dir(follow_symlinks=False):
                remove_tree(entry.path)


def _remove(work: Path, mounted: bool) -> None:
    if mounted:
        _unmount(work)
    remove_tree(work)


@contextlib.contextmanager
def run_folder(
    sized: bool, tidy: Tidy | None = None
) -> Iterator[tuple[Path, Callable[[], bool] | None]]:
    """A fresh folder for one run, and the check to make while it runs and as it ends
    (``None`` when the folder is ``sized``: a tmpfs bounds it itself). Removed afterwards:
    at once, or with ``tidy`` on its thread (unmounted and removed while the next run
    starts: ``_tidy``)."""
    sweep_stale_runs()
    work = Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid()}-"))
    mounted = sized and _mount(work)
    try:
        yield work, (None if mounted else measure(work))
    finally:
        if tidy is None:
            _remove(work, mounted)
        else:
            tidy.add(functools.partial(_remove, work, mounted))
