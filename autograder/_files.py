"""Writing a file so that whoever reads it (a teaching assistant, a rerun after a kill) finds
the old content or the new, never half of either."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["remove_temporaries", "sync_folder", "write_atomic"]

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


def remove_temporaries(folder: Path) -> None:
    """Delete what :func:`write_atomic` leaves in ``folder`` when killed mid-write."""
    if not folder.is_dir():
        return
    for stale in folder.glob(f"{_PREFIX}*{_SUFFIX}"):
        with contextlib.suppress(OSError):
            stale.unlink()
