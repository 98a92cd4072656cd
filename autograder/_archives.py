"""Unpacking an archive a student (or an LMS download) hands in: ``.zip``, ``.tar``,
``.tar.gz`` / ``.tgz``, with the standard library only, and nothing trusted that the
archive says of itself.

* **Where.** Every member lands inside the target folder: an absolute name, a drive letter,
  a ``..`` part or a backslash (read as a separator, as Windows tools write them) that
  would leave it is refused, naming the member. Members are written by the grader, files
  ``0o644`` and folders ``0o755``, whatever modes the archive records (no setuid bit, no
  executable bit survives), never over an existing name.
* **What.** No links of any kind: a zip member marked as a symbolic link (its Unix mode in
  the external attributes), a tar symbolic or hard link, device or fifo, is refused. Files
  and folders only.
* **How much.** At most ``max_bytes`` written and ``max_entries`` files and folders (the
  caller's caps: a submission's, or a download's). The bytes counted are those actually
  written, streamed in chunks against the budget: a zip's headers may lie about sizes, so
  a zip bomb stops at the cap, not after. Each zip member is also held to a compression
  ratio (``MAX_RATIO`` to one, past ``RATIO_SLACK`` bytes), and a tar's whole stream to the
  same ratio against the archive's size; a tar is read as one bounded stream, headers and
  skipped members included. A zip whose directory lists more members than could be kept is
  refused before the directory is read.
* **Noise.** ``__MACOSX/``, ``.DS_Store``, ``._*`` (macOS), ``Thumbs.db``, ``desktop.ini``
  and ``__pycache__`` are skipped. An archive that holds one top folder (``alice/...``) is
  unwrapped to it.
* **Times and names.** Files and folders keep the modification times the archive records
  (a zip's Info-ZIP Unix time, else its DOS time, read as local time; a tar's ``mtime``):
  of a student's several attempts the newest is graded, so an LMS download must choose
  the same one unpacked as it does as a folder, whatever order its members come in. Times
  are set on the open file, or on a folder the grader made by a name that follows no link,
  once nothing more is written in it; a folder the archive does not list takes the newest
  time of what it holds. A zip member's name without the UTF-8 flag is read as UTF-8 where
  its bytes are UTF-8 (Info-ZIP on Linux stores UTF-8 names without the flag), else as
  cp437; every check above applies to the name so read.

Anything wrong is an :class:`ArchiveError` whose text is one line: corrupt, encrypted,
too large, too many files, or the unsafe member named (through ``printable``).
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import os
import re
import stat
import struct
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ._files import remove_tree
from ._plain import printable

__all__ = ["ARCHIVE_SUFFIXES", "ArchiveError", "Caps", "is_archive", "unpack", "unpacked"]

ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz")
MAX_RATIO = 200  # a member may unpack to this many times its compressed size ...
RATIO_SLACK = 1 << 20  # ... beyond its first MB (small files of one repeated byte are fine)
MAX_DEPTH = 32  # folders within folders
CHUNK = 1 << 16
SKIPPED = {"__MACOSX", ".DS_Store", "Thumbs.db", "desktop.ini", "__pycache__"}
FILE_MODE, FOLDER_MODE = 0o644, 0o755
_DRIVE = re.compile(r"^[A-Za-z]:")
# What a tar stream may hold besides the bytes kept: headers (a long name's or a pax header
# takes a few blocks) and padding, per member seen.
_TAR_OVERHEAD = 4096
# The room a zip's directory may take per member that may be read: 46 bytes of fixed
# fields, the name and extra fields.
_ZIP_ENTRY_BYTES = 1024
_ZIP_UTF8 = 0x800  # the flag bit saying a member's name is UTF-8
_ZIP_UNIX_TIME = 0x5455  # Info-ZIP's extra field of Unix times (UTC seconds)


class ArchiveError(Exception):
    """An archive that is not unpacked, and why (one line)."""


@dataclass(frozen=True)
class Caps:
    """How much an archive may unpack to: bytes written, files and folders kept."""

    max_bytes: int
    max_entries: int

    def members_seen(self) -> int:
        """How many members may be read at all, skipped ones (``__MACOSX``) included."""
        return 4 * self.max_entries + 16

    def describe_bytes(self) -> str:
        return f"{self.max_bytes / (1 << 20):g} MB"


def is_archive(path: Path) -> bool:
    """Whether ``path`` is a file named like an archive this module unpacks."""
    return path.name.lower().endswith(ARCHIVE_SUFFIXES) and path.is_file()


def _shown(name: str) -> str:
    """A member's name for a one-line message: escaped, cut, quoted."""
    return '"' + printable(name if len(name) <= 120 else name[:117] + "...") + '"'


def _parts(name: str) -> list[str] | None:
    """The parts of a member's name inside the target, ``[]`` for the top itself, or
    ``None`` when the name would leave it."""
    name = name.replace("\\", "/")
    if name.startswith("/") or _DRIVE.match(name) or "\x00" in name:
        return None
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        return None
    return parts


def _skipped(parts: list[str]) -> bool:
    return any(p in SKIPPED for p in parts) or parts[-1].startswith("._")


class _Writer:
    """Creates the members of one archive inside ``top``, counting what it writes."""

    def __init__(self, top: Path, caps: Caps, archive: str) -> None:
        self.top, self.caps, self.archive = top, caps, archive
        self.written = 0
        self.entries = 0
        self.seen = 0
        self.folders: set[tuple[str, ...]] = {()}
        self.times: dict[tuple[str, ...], float] = {}  # folders' times, as recorded
        self.newest: dict[tuple[str, ...], float] = {}  # the newest time in each folder

    def fail(self, why: str) -> ArchiveError:
        return ArchiveError(f"{self.archive}: {why}")

    def target(self, name: str) -> list[str] | None:
        """The checked parts of a member, or ``None`` when it is skipped."""
        self.seen += 1
        if self.seen > self.caps.members_seen():
            raise self.too_many()
        parts = _parts(name)
        if parts is None:
            raise self.fail(f"unsafe member {_shown(name)} (its path leaves the archive)")
        if not parts or _skipped(parts):
            return None
        if len(parts) > MAX_DEPTH:
            raise self.fail(f"member {_shown(name)} is nested more than {MAX_DEPTH} deep")
        return parts

    def too_many(self) -> ArchiveError:
        return self.fail(f"more than {self.caps.max_entries} files and folders")

    def too_large(self) -> ArchiveError:
        return self.fail(f"larger than {self.caps.describe_bytes()} unpacked")

    def _count(self) -> None:
        self.entries += 1
        if self.entries > self.caps.max_entries:
            raise self.too_many()

    def folder(self, parts: list[str] | tuple[str, ...]) -> Path:
        """Make the folder ``parts`` (and those above it) if it is not there yet."""
        path = self.top
        for i in range(len(parts)):
            path = path / parts[i]
            key = tuple(parts[: i + 1])
            if key in self.folders:
                continue
            try:
                os.mkdir(path, FOLDER_MODE)
            except OSError as err:
                shown = _shown("/".join(key))
                raise self.fail(f"cannot make folder {shown} ({err.strerror})") from None
            os.chmod(path, FOLDER_MODE)  # whatever the umask took
            self.folders.add(key)
            self._count()
        return path

    def folder_time(self, parts: list[str], mtime: float | None) -> None:
        """Record the time the archive gives the folder ``parts``: set by :meth:`finish`,
        once nothing more is written in it."""
        if mtime is not None:
            self.times[tuple(parts)] = mtime

    def _seen_time(self, folder: tuple[str, ...], mtime: float) -> None:
        self.newest[folder] = max(mtime, self.newest.get(folder, mtime))

    def finish(self) -> None:
        """Give each folder its time, the deepest first: the archive's, else the newest of
        what it holds (writing in a folder changes its time, so this comes last)."""
        for key in sorted(self.folders - {()}, key=len, reverse=True):
            mtime = self.times.get(key, self.newest.get(key))
            if mtime is None or not _stamp(self.top.joinpath(*key), mtime):
                continue
            self._seen_time(key[:-1], mtime)

    def file(
        self, parts: list[str], source: IO[bytes], ratio_of: int | None, mtime: float | None
    ) -> None:
        """Write ``source`` to the file ``parts``, streamed against the byte budget and,
        with ``ratio_of`` (the member's compressed size), the ratio; then give it the time
        ``mtime`` (``None``: the archive gives none)."""
        where = self.folder(parts[:-1]) / parts[-1]
        name = "/".join(parts)
        self._count()
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(where, flags, FILE_MODE)
        except OSError as err:
            raise self.fail(f"cannot write member {_shown(name)} ({err.strerror})") from None
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), FILE_MODE)
            size = 0
            while chunk := source.read(CHUNK):
                size += len(chunk)
                self.written += len(chunk)
                if self.written > self.caps.max_bytes:
                    raise self.too_large()
                if ratio_of is not None and size > MAX_RATIO * ratio_of + RATIO_SLACK:
                    raise self.fail(
                        f"member {_shown(name)} compressed more than {MAX_RATIO} to 1 (a zip bomb?)"
                    )
                try:
                    out.write(chunk)
                except OSError as err:
                    raise self.fail(
                        f"cannot write member {_shown(name)} ({err.strerror})"
                    ) from None
            try:
                out.flush()  # before the time is set: a later write would change it
            except OSError as err:
                raise self.fail(f"cannot write member {_shown(name)} ({err.strerror})") from None
            if mtime is not None and _stamp(out.fileno(), mtime):
                self._seen_time(tuple(parts[:-1]), mtime)


def _stamp(where: int | Path, mtime: float) -> bool:
    """Give an open file (by its descriptor) or a folder the grader made (by a name that
    follows no link) the access and modification time ``mtime``; whether it could (a
    time out of the system's range is left as it is)."""
    try:
        if isinstance(where, int):
            os.utime(where, (mtime, mtime))
        else:
            os.utime(where, (mtime, mtime), follow_symlinks=False)
    except (OSError, OverflowError, ValueError, NotImplementedError):
        return False
    return True


# --- zip ------------------------------------------------------------------------------------


def _zip_directory(path: Path) -> tuple[int, int] | None:
    """How many members a zip's end record says its directory holds, and the directory's
    size in bytes (``None``: no end record found; zipfile then says what is wrong)."""
    with open(path, "rb") as file:
        file.seek(0, os.SEEK_END)
        size = file.tell()
        tail_size = min(size, 22 + 0xFFFF)
        file.seek(size - tail_size)
        tail = file.read(tail_size)
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < 22:
            return None
        count, directory = struct.unpack("<HI", tail[at + 10 : at + 16])
        if at < 20 or tail[at - 20 : at - 16] != b"PK\x06\x07":
            return int(count), int(directory)
        # Zip64: the locator before the end record gives where the zip64 end record is.
        (offset,) = struct.unpack("<Q", tail[at - 12 : at - 4])
        if offset + 56 > size:
            return None
        file.seek(offset)
        record = file.read(56)
        if record[:4] != b"PK\x06\x06":
            return None
        count, directory = struct.unpack("<QQ", record[32:48])
        return int(count), int(directory)


def _zip_name(info: zipfile.ZipInfo) -> str:
    """A member's name as its maker meant it. Without the UTF-8 flag, zipfile reads the
    bytes as cp437, but Info-ZIP on Linux (and many tools since) stores UTF-8 bytes without
    setting it: those are read as UTF-8 when they are valid UTF-8, else kept as cp437. (No
    character below 128 changes: cp437 and UTF-8 both read those bytes as ASCII.)"""
    if info.flag_bits & _ZIP_UTF8:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("utf-8")
    except UnicodeError:
        return info.filename


def _zip_time(info: zipfile.ZipInfo) -> float | None:
    """A member's modification time: Info-ZIP's Unix time when the member has one (UTC, to
    the second), else its DOS time (local time, to two seconds)."""
    extra, at = info.extra, 0
    while at + 4 <= len(extra):
        kind, size = struct.unpack("<HH", extra[at : at + 4])
        data = extra[at + 4 : at + 4 + size]
        if kind == _ZIP_UNIX_TIME and len(data) >= 5 and data[0] & 1:
            return float(struct.unpack("<I", data[1:5])[0])
        at += 4 + size
    try:
        return time.mktime((*info.date_time, 0, 0, -1))
    except (OverflowError, ValueError):
        return None


def _unpack_zip(path: Path, writer: _Writer) -> None:
    # zipfile reads the whole directory before a member can be looked at: one that lists
    # (or takes the room of) more members than may be read is refused unread.
    found = _zip_directory(path)
    seen = writer.caps.members_seen()
    if found is not None and (found[0] > seen or found[1] > seen * _ZIP_ENTRY_BYTES):
        raise writer.too_many()
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            name = _zip_name(info)
            parts = writer.target(name)
            if parts is None:
                continue
            mode = info.external_attr >> 16
            kind = stat.S_IFMT(mode)
            if stat.S_ISLNK(mode):
                raise writer.fail(f"member {_shown(name)} is a link")
            if info.is_dir() or stat.S_ISDIR(mode):
                writer.folder(parts)
                writer.folder_time(parts, _zip_time(info))
                continue
            if kind and not stat.S_ISREG(mode):
                raise writer.fail(f"member {_shown(name)} is not a file or folder")
            if info.flag_bits & 0x1:
                raise writer.fail(f"encrypted (member {_shown(name)})")
            with archive.open(info) as source:
                writer.file(parts, source, info.compress_size, _zip_time(info))


# --- tar ------------------------------------------------------------------------------------


class _Bounded(io.RawIOBase):
    """A stream that refuses to give more than ``limit`` bytes in all."""

    def __init__(self, inner: io.BufferedIOBase, limit: int, fail: ArchiveError) -> None:
        self.inner, self.left, self.error = inner, limit, fail

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer)
        data = self.inner.read(min(len(view), max(self.left, 0) + 1))
        self.left -= len(data)
        if self.left < 0:
            raise self.error
        view[: len(data)] = data
        return len(data)


def _decompressed(path: Path) -> io.BufferedIOBase:
    """The archive's bytes, decompressed by its magic number (gzip, bzip2, xz) or as they
    are (a plain tar)."""
    with open(path, "rb") as file:
        magic = file.read(6)
    if magic.startswith(b"\x1f\x8b"):
        return gzip.open(path, "rb")
    if magic.startswith(b"BZh"):
        return bz2.open(path, "rb")
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.open(path, "rb")
    return open(path, "rb")


def _unpack_tar(path: Path, writer: _Writer) -> None:
    caps = writer.caps
    budget = min(
        caps.max_bytes + _TAR_OVERHEAD * caps.members_seen() + RATIO_SLACK,
        MAX_RATIO * path.stat().st_size + RATIO_SLACK,
    )
    why = writer.fail(
        f"larger than {caps.describe_bytes()} unpacked, or compressed more than {MAX_RATIO} to 1"
    )
    with _decompressed(path) as raw:
        stream = io.BufferedReader(_Bounded(raw, budget, why), CHUNK)
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            for member in archive:
                parts = writer.target(member.name)
                if parts is None:
                    continue
                if member.issym() or member.islnk():
                    raise writer.fail(f"member {_shown(member.name)} is a link")
                if member.isdir():
                    writer.folder(parts)
                    writer.folder_time(parts, member.mtime)
                elif member.isreg():
                    source = archive.extractfile(member)
                    assert source is not None  # a regular file always has its data
                    writer.file(parts, source, None, member.mtime)
                else:
                    raise writer.fail(
                        f"member {_shown(member.name)} is a device or fifo, not a file"
                    )


# --- both -----------------------------------------------------------------------------------


def unpack(archive: Path, into: Path, caps: Caps, *, unwrap: bool = True) -> Path:
    """Unpack ``archive`` into the folder ``into`` (which must exist and be empty); return
    the folder that holds the submission: ``into``, or with ``unwrap`` its one top folder
    when that is all it holds. Raises :class:`ArchiveError` (one line) and leaves what was
    written for the caller to remove."""
    writer = _Writer(into, caps, archive.name)
    lower = archive.name.lower()
    try:
        if lower.endswith(".zip"):
            _unpack_zip(archive, writer)
        else:
            _unpack_tar(archive, writer)
        writer.finish()
    except ArchiveError:
        raise
    except RuntimeError as err:  # zipfile: a password is needed, or an unknown method
        raise writer.fail(f"cannot be unpacked ({_one_line(err)})") from None
    except NotImplementedError as err:
        raise writer.fail(f"cannot be unpacked ({_one_line(err)})") from None
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, ValueError) as err:
        raise writer.fail(f"corrupt archive ({_one_line(err)})") from None
    except (lzma.LZMAError, zipfile.LargeZipFile) as err:
        raise writer.fail(f"corrupt archive ({_one_line(err)})") from None
    entries = [e for e in into.iterdir()]
    if unwrap and len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return into


def _one_line(err: BaseException) -> str:
    text = " ".join((str(err) or err.__class__.__name__).split())
    return printable(text[:200])


@contextlib.contextmanager
def unpacked(
    archive: Path, caps: Caps, *, unwrap: bool = True, prefix: str = "autograder-archive-"
) -> Iterator[Path]:
    """``archive`` unpacked (:func:`unpack`) into a new temporary folder of the grader's
    (mode 700, in the system's temporary folder), removed afterwards whatever happens."""
    top = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        into = top / archive.name
        os.mkdir(into, FOLDER_MODE)
        yield unpack(archive, into, caps, unwrap=unwrap)
    finally:
        remove_tree(top)
