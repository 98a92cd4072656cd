"""Archives as submissions: a student's zip or tarball graded like the folder inside it, an
LMS download graded as one archive, and every unsafe or oversized archive refused with one
line and nothing written outside its own temporary folder."""

from __future__ import annotations

import functools
import io
import json
import os
import stat
import struct
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

import pytest

from autograder import grade_submission, load_assignment
from autograder._archives import ArchiveError, Caps, unpack
from autograder._batch import RESULTS, grade_folder
from autograder._submission import MAX_SUBMISSION_FILES, MAX_SUBMISSION_MB
from autograder.cli.grade import grade_text
from reference_solutions import ReferenceAnswers, reference_program
from tests.grading import public_board

CASES = public_board("classic")
ANSWERS = ReferenceAnswers()
CAPS = Caps(MAX_SUBMISSION_MB << 20, MAX_SUBMISSION_FILES)


@pytest.fixture(autouse=True)
def own_temporary_folder(tmp_path, monkeypatch):
    """The grader's temporary folders go under the test's, so that what they leave is seen."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    return temporary


def make_zip(path: Path, members: list[tuple[str | zipfile.ZipInfo, bytes | str]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return path


def make_tar(path: Path, members: list[tarfile.TarInfo], data: dict[str, bytes] | None = None):
    with tarfile.open(path, "w:gz" if path.name.endswith("gz") else "w") as archive:
        for member in members:
            content = (data or {}).get(member.name)
            if content is not None:
                member.size = len(content)
            archive.addfile(member, io.BytesIO(content) if content is not None else None)
    return path


def link_member(name: str, target: str, kind: bytes) -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.type, member.linkname = kind, target
    return member


def symlink_zip_member(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16  # how Info-ZIP marks a symbolic link
    return info


def encrypted_zip(path: Path) -> Path:
    """A zip whose member says it is encrypted (zipfile cannot write one): the flag bit set
    in the local header and in the central directory."""
    make_zip(path, [("classic.py", "print(1)\n")])
    data = bytearray(path.read_bytes())
    local = data.find(b"PK\x03\x04")
    central = data.find(b"PK\x01\x02")
    data[local + 6] |= 1
    data[central + 8] |= 1
    path.write_bytes(bytes(data))
    return path


def zip_bomb(path: Path, gigabytes: int = 1) -> Path:
    """``gigabytes`` of zeros in one deflated member (about a megabyte per gigabyte)."""
    path.write_bytes(_zip_bomb(gigabytes))
    return path


@functools.cache
def _zip_bomb(gigabytes: int) -> bytes:
    """The bomb's bytes, deflated once per session (a gigabyte takes seconds to compress),
    streamed in a megabyte of zeros at a time."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("zeros.py", "w", force_zip64=True) as member,
    ):
        chunk = bytes(1 << 20)
        for _ in range(1024 * gigabytes):
            member.write(chunk)
    return buffer.getvalue()


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")}


# Each unsafe archive: how to make it, and what its one-line reason says.
UNSAFE = {
    "dotdot.zip": (lambda p: make_zip(p, [("../evil.py", "x")]), "leaves the archive"),
    "deep-dotdot.zip": (
        lambda p: make_zip(p, [("a/../../evil.py", "x")]),
        "leaves the archive",
    ),
    "absolute.zip": (lambda p: make_zip(p, [("/tmp/evil.py", "x")]), "leaves the archive"),
    "backslash.zip": (lambda p: make_zip(p, [("..\\evil.py", "x")]), "leaves the archive"),
    "drive.zip": (lambda p: make_zip(p, [("C:/evil.py", "x")]), "leaves the archive"),
    "symlink.zip": (
        lambda p: make_zip(p, [(symlink_zip_member("classic.py"), "/etc/passwd")]),
        "is a link",
    ),
    "symlink.tar.gz": (
        lambda p: make_tar(p, [link_member("classic.py", "/etc/passwd", tarfile.SYMTYPE)]),
        "is a link",
    ),
    "hardlink.tgz": (
        lambda p: make_tar(
            p,
            [tarfile.TarInfo("a.py"), link_member("classic.py", "/etc/passwd", tarfile.LNKTYPE)],
            {"a.py": b"print(1)\n"},
        ),
        "is a link",
    ),
    "fifo.tar": (
        lambda p: make_tar(p, [link_member("classic.py", "", tarfile.FIFOTYPE)]),
        "device or fifo",
    ),
    "dotdot.tar": (
        lambda p: make_tar(p, [tarfile.TarInfo("../evil.py")], {"../evil.py": b"x"}),
        "leaves the archive",
    ),
    "bomb.zip": (zip_bomb, f"larger than {MAX_SUBMISSION_MB} MB unpacked"),
    "many.zip": (
        lambda p: make_zip(p, [(f"f{k}.py", "") for k in range(MAX_SUBMISSION_FILES + 1)]),
        f"more than {MAX_SUBMISSION_FILES} files and folders",
    ),
    "encrypted.zip": (encrypted_zip, "encrypted"),
    "corrupt.zip": (lambda p: p.write_bytes(b"PK\x03\x04" + b"\x00" * 200) and p, "corrupt"),
    "corrupt.tar.gz": (lambda p: p.write_bytes(b"\x1f\x8b\x08\x00garbage") and p, "corrupt"),
}


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_an_unsafe_archive_is_refused_with_one_line(tmp_path, name):
    make, reason = UNSAFE[name]
    archives = tmp_path / "archives"
    archives.mkdir()
    archive = archives / name
    make(archive)
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(ArchiveError) as caught:
        unpack(archive, into, CAPS)
    message = str(caught.value)
    assert message.startswith(f"{name}: ") and reason in message and "\n" not in message
    assert files_under(tmp_path) - {"tmp", "archives", "into", f"archives/{name}"} <= {
        f"into/{f}" for f in files_under(into)
    }
    assert not any("evil" in f for f in files_under(tmp_path.parent) if "archives" not in f)


@pytest.mark.parametrize("name", ["dotdot.zip", "symlink.tar.gz", "bomb.zip", "encrypted.zip"])
def test_an_unsafe_student_archive_is_an_error_row_and_its_folder_goes(
    tmp_path, name, own_temporary_folder
):
    make, reason = UNSAFE[name]
    archive = make(tmp_path / name)
    result = grade_submission(
        load_assignment("classic"), archive, CASES, hidden=ANSWERS.secret_paths()
    )
    assert result.status == "error" and len(result.problems) == 1
    assert reason in result.problems[0] and result.problems[0].startswith(name)
    assert list(own_temporary_folder.iterdir()) == []  # the unpacked folder was removed


def test_the_bomb_stops_early(tmp_path, monkeypatch):
    # 1 GB of zeros is refused at the 20 MB cap, not after writing the gigabyte: not even
    # decompressed further than a read past the cap.
    archive = zip_bomb(tmp_path / "bomb.zip")
    into = tmp_path / "into"
    into.mkdir()
    inflated = []
    read = zipfile.ZipExtFile.read

    def counted(self, *args, **kwargs):
        data = read(self, *args, **kwargs)
        inflated.append(len(data))
        return data

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counted)
    with pytest.raises(ArchiveError, match=f"larger than {MAX_SUBMISSION_MB} MB unpacked"):
        unpack(archive, into, CAPS)
    assert inflated and sum(inflated) <= CAPS.max_bytes + max(inflated)
    assert sum(p.stat().st_size for p in into.rglob("*") if p.is_file()) <= CAPS.max_bytes


def test_under_a_generous_cap_the_bomb_is_stopped_by_its_ratio(tmp_path):
    archive = zip_bomb(tmp_path / "bomb.zip")
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(ArchiveError, match="compressed more than 200 to 1"):
        unpack(archive, into, Caps(2 << 30, 50_000))
    assert sum(p.stat().st_size for p in into.rglob("*") if p.is_file()) < 300 << 20


def test_a_lying_header_cannot_pass_the_budget(tmp_path):
    # A member whose header claims 10 bytes but holds 30 MB: the bytes written are counted.
    archive = make_zip(tmp_path / "liar.zip", [("big.py", b"#" * (30 << 20))])
    data = bytearray(archive.read_bytes())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    data[local + 22 : local + 26] = (10).to_bytes(4, "little")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    archive.write_bytes(bytes(data))
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(ArchiveError):
        unpack(archive, into, CAPS)
    assert sum(p.stat().st_size for p in into.rglob("*") if p.is_file()) <= CAPS.max_bytes


def test_modes_are_the_graders_and_mac_noise_is_skipped(tmp_path):
    setuid = tarfile.TarInfo("alice/classic.py")
    setuid.mode = 0o6777
    folder = tarfile.TarInfo("alice/data")
    folder.type, folder.mode = tarfile.DIRTYPE, 0o7777
    archive = make_tar(tmp_path / "alice.tar", [setuid, folder], {"alice/classic.py": b"x"})
    into = tmp_path / "into"
    into.mkdir()
    top = unpack(archive, into, CAPS)
    assert top == into / "alice"  # one top folder: unwrapped
    assert stat.S_IMODE((top / "classic.py").stat().st_mode) == 0o644
    assert stat.S_IMODE((top / "data").stat().st_mode) == 0o755
    mac = make_zip(
        tmp_path / "mac.zip",
        [("classic.py", "x"), ("__MACOSX/._classic.py", "x"), (".DS_Store", "x"),
         ("sub/.DS_Store", "x"), ("sub/._x.py", "x"), ("sub/x.py", "y")],
    )  # fmt: skip
    out = tmp_path / "mac"
    out.mkdir()
    assert unpack(mac, out, CAPS) == out
    assert files_under(out) == {"classic.py", "sub", "sub/x.py"}


def test_a_student_zip_is_graded_like_the_folder_inside(tmp_path, own_temporary_folder):
    program = reference_program("classic")
    archive = make_zip(
        tmp_path / "alice.zip",
        [("alice/classic.py", program), ("alice/README.txt", "mine"),
         ("__MACOSX/alice/._classic.py", "x")],
    )  # fmt: skip
    result = grade_submission(
        load_assignment("classic"), archive, CASES, hidden=ANSWERS.secret_paths()
    )
    assert result.status == "graded" and result.score == result.max_score == 25
    assert result.student == "alice" and result.submission == str(archive)
    assert list(own_temporary_folder.iterdir()) == []


def test_a_student_tarball_without_a_program_says_so(tmp_path):
    archive = make_tar(tmp_path / "bob.tar.gz", [tarfile.TarInfo("notes.txt")], {"notes.txt": b"x"})
    result = grade_submission(
        load_assignment("classic"), archive, CASES, hidden=ANSWERS.secret_paths()
    )
    assert result.status == "error" and "no program" in result.problems[0]


CANVAS = {
    "lovelaceada_12345_900001_classic.py": "program",
    "turingalan_777_900002_submission.zip": "zip",
    "hopper_LATE_4242_900003_classic.py": "wrong",
}


def canvas_download(path: Path) -> Path:
    """A Canvas "Download Submissions" zip: one file per student at the top, one of them a
    student's own zip."""
    program = reference_program("classic")
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as student_zip:
        student_zip.writestr("hw/classic.py", program)
    content = {
        "program": program.encode(),
        "zip": inner.getvalue(),
        "wrong": b"print('Expected turns per game: 1.00')\n",
    }
    return make_zip(path, [(name, content[kind]) for name, kind in CANVAS.items()])


def test_an_lms_download_zip_is_graded_and_resumed(tmp_path, own_temporary_folder):
    download = canvas_download(tmp_path / "submissions.zip")
    out = tmp_path / "out"
    batch = grade_folder("classic", download, out, answers=ANSWERS, cases=CASES, workers=2)
    scores = {r.student: r.score for r in batch.results}
    assert scores == {"12345": 25, "777": 25, "4242": 0}
    submissions = {r.student: r.submission for r in batch.results}
    assert submissions["777"] == f"{download}/turingalan_777_900002_submission.zip"
    assert list(own_temporary_folder.iterdir()) == []
    again = grade_folder("classic", download, out, answers=ANSWERS, cases=CASES, resume=True)
    assert again.graded_now == 0 and len(again.results) == 3
    lines = (out / RESULTS).read_text().splitlines()
    assert len(lines) == 3 and all(str(own_temporary_folder) not in line for line in lines)
    assert json.loads(lines[0])["submission"].startswith(str(download))


def test_grade_takes_a_download_zip_and_resumes_on_it(tmp_path):
    download = canvas_download(tmp_path / "submissions.zip")
    out = tmp_path / "out"
    first = grade_text("classic", str(download), str(out), isolation="process")
    assert first.startswith("graded 3 submissions")
    rows = (out / "grades.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["12345", "4242", "777"]
    again = grade_text("classic", str(download), str(out), resume=True, isolation="process")
    assert again.startswith("graded 0 submissions (3 already graded before --resume)")


def test_a_broken_download_is_one_line_naming_it(tmp_path):
    from autograder import UsageError

    download = make_zip(tmp_path / "submissions.zip", [("../escape.py", "x")])
    with pytest.raises(UsageError) as caught:
        grade_folder("classic", download, tmp_path / "out", answers=ANSWERS, cases=CASES)
    assert str(caught.value).startswith(f"{download}: unsafe member")
    assert not (tmp_path / "out").exists() or not (tmp_path / "out" / RESULTS).exists()


def test_a_download_of_one_moodle_folder_is_not_unwrapped(tmp_path):
    folder = "Ada Lovelace_123456_assignsubmission_file_"
    download = make_zip(
        tmp_path / "moodle.zip", [(f"{folder}/classic.py", reference_program("classic"))]
    )
    batch = grade_folder("classic", download, tmp_path / "out", answers=ANSWERS, cases=CASES)
    assert [(r.student, r.score) for r in batch.results] == [("123456", 25)]


def test_a_moodle_folder_holding_the_students_zip_is_graded_from_the_zip(tmp_path):
    folder = tmp_path / "subs" / "Ada Lovelace_123456_assignsubmission_file_"
    folder.mkdir(parents=True)
    make_zip(folder / "hw3.zip", [("hw3/classic.py", reference_program("classic"))])
    batch = grade_folder("classic", tmp_path / "subs", tmp_path / "out", answers=ANSWERS,
                         cases=CASES)  # fmt: skip
    assert [(r.student, r.score) for r in batch.results] == [("123456", 25)]


def test_a_directory_listing_too_many_members_is_refused_unread(tmp_path, monkeypatch):
    import autograder._archives as archives

    archive = make_zip(tmp_path / "wide.zip", [(f"__MACOSX/._f{k}", "") for k in range(100)])
    read = []
    monkeypatch.setattr(archives.zipfile, "ZipFile", lambda *a, **k: read.append(a))
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(ArchiveError, match="more than 5 files and folders"):
        unpack(archive, into, Caps(1 << 20, 5))
    assert read == []  # zipfile never read the directory


def test_a_plain_named_tar_gz_is_its_student_without_both_suffixes(tmp_path):
    from autograder import find_submissions

    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "alice.tar.gz").write_bytes(b"")
    (folder / "bob.tgz").write_bytes(b"")
    found, _ = find_submissions(folder)
    assert sorted(s.student for s in found) == ["alice", "bob"]


# --- what a zip or tarball records: times, and names written by Info-ZIP --------------------


def without_utf8_flag(path: Path) -> Path:
    """The zip as Info-ZIP on Linux writes one: each name's UTF-8 bytes, without the flag
    that says they are UTF-8 (which zipfile sets), so that zipfile reads them as cp437."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        infos, at = archive.infolist(), archive.start_dir
    for info in infos:
        data[info.header_offset + 7] &= ~0x08  # bit 11 of the local header's flags
        assert data[at : at + 4] == b"PK\x01\x02"
        data[at + 9] &= ~0x08  # and of the central directory's
        name, extra, comment = struct.unpack("<HHH", data[at + 28 : at + 34])
        at += 46 + name + extra + comment
    path.write_bytes(bytes(data))
    return path


def dated(name: str, date_time: tuple[int, ...], unix_time: int | None = None) -> zipfile.ZipInfo:
    """A zip member with a DOS time and, if given, Info-ZIP's Unix time beside it."""
    info = zipfile.ZipInfo(name, date_time)
    if unix_time is not None:
        info.extra = struct.pack("<HHBI", 0x5455, 5, 1, unix_time)
    return info


def unpacked_into(archive: Path, tmp_path: Path) -> Path:
    into = tmp_path / "into"
    into.mkdir()
    assert unpack(archive, into, CAPS, unwrap=False) == into
    return into


def test_zip_members_keep_the_times_the_zip_records(tmp_path):
    archive = make_zip(
        tmp_path / "times.zip",
        [(dated("hw/", (2021, 3, 4, 5, 6, 8)), ""),
         (dated("hw/old.py", (2020, 1, 2, 3, 4, 6)), "x"),
         (dated("hw/new.py", (2020, 1, 2, 3, 4, 6), unix_time=1_700_000_001), "y"),
         (dated("lib/deep/a.py", (2019, 5, 6, 7, 8, 10)), "z")],
    )  # fmt: skip
    into = unpacked_into(archive, tmp_path)

    def local(*date_time: int) -> float:
        return time.mktime((*date_time, 0, 0, -1))

    assert (into / "hw" / "old.py").stat().st_mtime == local(2020, 1, 2, 3, 4, 6)
    assert (into / "hw" / "new.py").stat().st_mtime == 1_700_000_001  # UTC, to the second
    # A folder keeps its own time, written after what was written in it.
    assert (into / "hw").stat().st_mtime == local(2021, 3, 4, 5, 6, 8)
    # Folders the zip does not list take the newest time of what they hold.
    assert (into / "lib" / "deep").stat().st_mtime == local(2019, 5, 6, 7, 8, 10)
    assert (into / "lib").stat().st_mtime == local(2019, 5, 6, 7, 8, 10)


def test_tar_members_keep_the_times_the_tar_records(tmp_path):
    folder = tarfile.TarInfo("hw")
    folder.type, folder.mtime = tarfile.DIRTYPE, 1_600_000_000
    program = tarfile.TarInfo("hw/classic.py")
    program.mtime = 1_500_000_000
    deep = tarfile.TarInfo("lib/deep/a.py")
    deep.mtime = 1_400_000_000
    archive = make_tar(
        tmp_path / "times.tar.gz",
        [folder, program, deep],
        {"hw/classic.py": b"x", "lib/deep/a.py": b"y"},
    )
    into = unpacked_into(archive, tmp_path)
    assert (into / "hw" / "classic.py").stat().st_mtime == 1_500_000_000
    assert (into / "hw").stat().st_mtime == 1_600_000_000
    assert (into / "lib" / "deep").stat().st_mtime == 1_400_000_000
    assert (into / "lib").stat().st_mtime == 1_400_000_000


def test_a_zipped_download_grades_the_same_attempt_as_its_folder(tmp_path):
    # alice handed in twice: alice.py first (wrong), then the folder alice/ (right). The
    # zip lists alice.py last, so unpacked without its times it would be the newest.
    subs = tmp_path / "subs"
    (subs / "alice").mkdir(parents=True)
    (subs / "alice" / "classic.py").write_text(reference_program("classic"))
    (subs / "alice.py").write_text("print('Expected turns per game: 1.00')\n")
    times = {"alice": 1_700_000_000, "alice/classic.py": 1_700_000_000, "alice.py": 1_600_000_000}
    for name, when in times.items():
        os.utime(subs / name, (when, when))
    download = tmp_path / "lms.zip"
    with zipfile.ZipFile(download, "w") as archive:
        for name in times:
            archive.write(subs / name, name)
    scores = {}
    for graded in (subs, download):
        batch = grade_folder("classic", graded, tmp_path / f"out-{graded.name}",
                             answers=ANSWERS, cases=CASES)  # fmt: skip
        scores[graded.name] = [(r.student, r.score) for r in batch.results]
        assert any("graded the newest, alice;" in n for n in batch.notes)
    assert scores == {"subs": [("alice", 25)], "lms.zip": [("alice", 25)]}


def test_utf8_names_without_the_utf8_flag_are_read_as_utf8(tmp_path):
    archive = without_utf8_flag(
        make_zip(tmp_path / "names.zip",
                 [("rosa ñ é.py", "x"), ("café/ñandú.py", "y"), ("plain.py", "z")])
    )  # fmt: skip
    with zipfile.ZipFile(archive) as check:  # what zipfile alone makes of them
        assert "rosa ├▒ ├⌐.py" in check.namelist()
    into = unpacked_into(archive, tmp_path)
    assert files_under(into) == {"rosa ñ é.py", "café", "café/ñandú.py", "plain.py"}


def test_names_that_are_not_utf8_stay_cp437(tmp_path):
    # A DOS tool's name: bytes 0x81 and 0x94 (ü and ö in cp437) are not UTF-8.
    archive = make_zip(tmp_path / "dos.zip", [("M_ll_r.py", "x")])
    archive.write_bytes(archive.read_bytes().replace(b"M_ll_r.py", b"M\x81ll\x94r.py"))
    assert files_under(unpacked_into(archive, tmp_path)) == {"Müllör.py"}


# Unsafe members whose names are read as UTF-8: the checks apply to the names so read.
UNSAFE_UTF8 = {
    "dotdot": ([("../ñ.py", "x")], 'unsafe member "../ñ.py" (its path leaves the archive)'),
    "deep": ([("ñ/../../é.py", "x")], 'unsafe member "ñ/../../é.py"'),
    "absolute": ([("/tmp/ñ.py", "x")], "leaves the archive"),
    "link": ([(symlink_zip_member("ñ.py"), "/etc/passwd")], 'member "ñ.py" is a link'),
    "many": ([(f"ñ{k}.py", "") for k in range(MAX_SUBMISSION_FILES + 1)], "more than"),
}


@pytest.mark.parametrize("name", sorted(UNSAFE_UTF8))
def test_names_read_as_utf8_are_checked_as_read(tmp_path, name):
    members, reason = UNSAFE_UTF8[name]
    archives = tmp_path / "archives"
    archives.mkdir()
    archive = without_utf8_flag(make_zip(archives / f"{name}.zip", members))
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(ArchiveError) as caught:
        unpack(archive, into, CAPS)
    assert reason in str(caught.value)
    outside = files_under(tmp_path) - {"tmp", "archives", "into", f"archives/{name}.zip"}
    assert outside <= {f"into/{f}" for f in files_under(into)}
