"""Writing a file so that whoever reads it (a teaching assistant, a rerun after a kill) finds
the old content or the new, never half of either."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = [
    "ZIP_DATE",
    "remove_temporaries",
    "remove_tree",
    "sync_folder",
    "tree_files",
    "write_atomic",
    "write_zip",
]

# Every member of a zip the grader writes carries this date, so the same content gives the
# same bytes (a rebuilt bundle or autograder compares equal).
ZIP_DATE = (2026, 1, 1, 0, 0, 0)

# Temporary files are named ".autograder-<random>.tmp": hidden, so a folder of submissions
# skips them, short whatever the target's name, and recognisable, so that a later run can
# clear the ones a kill left behind (``remove_temporaries``).
_PREFIX, _SUFFIX = ".autograder-", ".tmp"


def sync_folder(folder: Path) -> None:
    """Make the names in ``folder`` (a file just created or replaced) survive a power cut;
    a no-op where folders cannot be opened (Windows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(
    path: str | Path, text: str, *, encoding: str = "utf-8", newline: str | None = None
) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, flushed and
    synced to disk, then renamed over ``path`` (``newline`` as for :func:`open`)."""
    path = Path(path)
    fd, temporary = tempfile.mkstemp(prefix=_PREFIX, suffix=_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline=newline) as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    sync_folder(path.parent)


def write_zip(path: str | Path, members: Iterable[tuple[str, bytes, int]]) -> None:
    """Write the zip ``path`` from ``(name, data, mode)`` members, through a temporary file
    in the same folder renamed into place: a reader finds the whole zip or none."""
    path = Path(path)
    fd, temporary = tempfile.mkstemp(prefix=_PREFIX, suffix=_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file, zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data, mode in members:
                info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
                info.external_attr = (mode & 0o777) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def tree_files(folder: Path) -> Iterator[tuple[str, Path]]:
    """``(relative posix name, path)`` of every regular file under ``folder``, in order;
    links, hidden files and caches are left out."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part == "__pycache__" or part.startswith(".") for part in rel.parts):
            continue
        if path.is_file() and not path.is_symlink() and path.suffix != ".pyc":
            yield rel.as_posix(), path


def remove_temporaries(folder: Path) -> None:
    """Delete what :func:`write_atomic` leaves in ``folder`` when killed mid-write."""
    if not folder.is_dir():
        return
    for stale in folder.glob(f"{_PREFIX}*{_SUFFIX}"):
        with contextlib.suppress(OSError):
            stale.unlink()


def remove_tree(folder: str | Path) -> None:
    """Delete ``folder`` and everything in it, however deep and whatever permissions a
    program left on it. A program can nest folders past what a path can name, and
    ``shutil.rmtree`` recurses in Python, so this walks with one open folder at a time and
    names relative to it. Never follows links; what cannot go is left and skipped."""
    top = os.fspath(folder)
    try:
        info = os.lstat(top)
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode):
        with contextlib.suppress(OSError):
            os.unlink(top)
        return
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    with contextlib.suppress(OSError):
        os.chmod(top, 0o700)
    try:
        here = os.open(top, flags)
    except OSError:
        return
    below: list[str] = []  # names from ``top`` down to ``here``
    stuck: set[tuple[int, int]] = set()  # folders that could not be entered or removed
    while True:
        inner = None
        with os.scandir(here) as entries:
            for entry in entries:
                try:
                    is_folder = entry.is_dir(follow_symlinks=False)
                    key = (entry.stat(follow_symlinks=False).st_dev, entry.inode())
                except OSError:
                    continue
                if not is_folder:
                    with contextlib.suppress(OSError):
                        os.unlink(entry.name, dir_fd=here)
                elif key not in stuck:
                    inner = entry.name, key
                    break
        if inner is not None:
            name, key = inner
            with contextlib.suppress(OSError):
                os.chmod(name, 0o700, dir_fd=here)
            try:
                child = os.open(name, flags, dir_fd=here)
            except OSError:
                stuck.add(key)
                continue
            os.close(here)
            here = child
            below.append(name)
            continue
        if not below:
            os.close(here)
            with contextlib.suppress(OSError):
                os.rmdir(top)
            return
        done = os.fstat(here)
        parent = os.open("..", flags, dir_fd=here)
        os.close(here)
        here = parent
        try:
            os.rmdir(below.pop(), dir_fd=here)
        except OSError:
            stuck.add((done.st_dev, done.st_ino))
