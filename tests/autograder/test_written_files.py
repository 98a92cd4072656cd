"""What the grader writes through a temporary file (pages, gradebooks, zips) gets the mode a
file made by ``open`` would: the umask's, not ``mkstemp``'s private 600."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import zipfile

import pytest

from autograder._files import write_atomic, write_zip

WRITE_BOTH = """
import sys
from autograder._files import write_atomic, write_zip
write_atomic(sys.argv[1] + "/page.html", "<p>hi</p>")
write_zip(sys.argv[1] + "/bundle.zip", [("a/b.txt", b"b", 0o644)])
open(sys.argv[1] + "/by-open.txt", "w").close()
"""


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077, 0o002])
def test_written_files_follow_the_umask(tmp_path, umask):
    # In a process of its own: the umask is the whole process's, and tests run in threads.
    subprocess.run([sys.executable, "-c", WRITE_BOTH, str(tmp_path)], check=True,
                   preexec_fn=lambda: os.umask(umask))  # fmt: skip
    made = stat.S_IMODE((tmp_path / "by-open.txt").stat().st_mode)
    for name in ("page.html", "bundle.zip"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == made, name
    with zipfile.ZipFile(tmp_path / "bundle.zip") as zipped:
        assert zipped.read("a/b.txt") == b"b"


def test_a_file_replaced_keeps_no_temporary_behind(tmp_path):
    write_atomic(tmp_path / "grades.csv", "a\n")
    write_atomic(tmp_path / "grades.csv", "b\n")
    write_zip(tmp_path / "x.zip", [("x", b"x", 0o644)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "x.zip"]
    assert (tmp_path / "grades.csv").read_text() == "b\n"


def test_a_folder_that_takes_no_file_is_named_as_the_file_meant(tmp_path, monkeypatch):
    """Not as the temporary file beside it, a name the user never gave."""
    import errno
    import tempfile

    def refused(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(tmp_path / ".autograder-x.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    for write in (lambda p: write_atomic(p, "x"), lambda p: write_zip(p, [])):
        with pytest.raises(OSError) as caught:
            write(tmp_path / "batch.json")
        assert (caught.value.errno, caught.value.filename) == (
            errno.EROFS,
            str(tmp_path / "batch.json"),
        )
