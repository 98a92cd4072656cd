"""Student bundles (``autograder variants``): a board per student, and a bundle per student
to hand out.

Each bundle (a folder, and the same as a zip) holds the starter program with the student's
board written in, the handout with that board's self-check, the board file, and a local
check: ``check.py`` with the expected values for that board and stdlib-only copies of the
grader's own parser and scorer, so the check reads output exactly as the grader does. No
solver and no hidden board goes into a bundle.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import secrets
import shutil
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ._answers import AnswerSource, Variant
from ._assignments import Assignment, load_assignment
from ._boards import describe_board
from ._cases import TestCase
from ._errors import UsageError
from ._files import remove_temporaries, write_atomic, write_zip
from ._manifest import Manifest, StudentBoard, load_manifest, write_manifest
from ._roster import RosterStudent, read_roster
from ._templates import program_name

__all__ = ["CHECK_SUPPORT", "MANIFEST", "STUDENTS", "VariantsReport", "make_variants", "secret_id"]

MANIFEST = "manifest.json"
SECRET_FILE = "secret.txt"
SECRET_ENV = "AUTOGRADER_SECRET"
STUDENTS = "students"
HERE = Path(__file__).resolve().parent
# The grader's modules the local check imports: all standard library, no solver.
CHECK_SUPPORT = (
    "_answer.py", "_cases.py", "_diagnose.py", "_errors.py", "_parse.py", "_registry.py",
    "_score.py",
    "_texts.py",
    # every print format, as the package finds them (each registers itself)
    *sorted(f"_formats/{p.name}" for p in (HERE / "_formats").glob("*.py")),
)  # fmt: skip


@dataclass(frozen=True)
class VariantsReport:
    out: Path
    manifest: Manifest
    problems: tuple[str, ...]
    notes: tuple[str, ...]
    # The ids of each group of students given one board (they could copy each other).
    shared: tuple[tuple[str, ...], ...] = ()
    # Students whose board is not the one the folder's manifest held before this run.
    changed: tuple[str, ...] = ()
    # Students of the folder's manifest this run made no bundle for (not on this roster, or
    # their row refused), kept in it with the bundles they have.
    kept: tuple[str, ...] = ()

    def warnings(self) -> list[str]:
        """What the instructor must act on, one line each (the command line prints them on
        standard error, apart from the summary, so that they are not missed)."""
        lines = []
        if self.shared:
            sharing = sum(len(ids) for ids in self.shared)
            lines.append(
                f"{sharing} students were given a board another student also has, so they "
                f"could hand in each other's answers: {'; '.join(map(', '.join, self.shared))} "
                "(a board depends only on the secret, the assignment and the student's id, so "
                "these are not drawn again; higher low ends of the counts in [variants] make "
                "this rarer)"
            )
        if self.changed:
            lines.append(
                f"{len(self.changed)} students' boards are not the ones {self.out / MANIFEST} "
                f"held before this run: {', '.join(self.changed)} (the assignment's "
                "[variants] or the way boards are drawn changed); hand them their new bundles"
            )
        return lines

    def summary(self) -> str:
        made = len(self.manifest.students) - len(self.kept)
        lines = [
            f"made {made} bundle{'' if made == 1 else 's'} in {self.out / STUDENTS} "
            "(a folder and a zip per student)",
            f"manifest: {self.out / MANIFEST}",
            *self.notes,
        ]
        if self.kept:
            lines.append(
                f"kept {len(self.kept)} student{'' if len(self.kept) == 1 else 's'} of the "
                "manifest whose bundles this run did not make again, with the bundles they "
                f"have: {', '.join(self.kept)} (to leave them out, make the variants into a "
                "fresh --out with the same secret)"
            )
        if self.problems:
            lines.append(f"{len(self.problems)} problem{'' if len(self.problems) == 1 else 's'} "
                         "(those students have no bundle):")  # fmt: skip
            lines += [f"  {p}" for p in self.problems]
        return "\n".join(lines) + "\n"


def secret_id(secret: str) -> str:
    """A fingerprint that tells two secrets apart without revealing either."""
    return hashlib.sha256(f"autograder-variants\0{secret}".encode()).hexdigest()[:12]


def _secret(out: Path, given: str | None) -> tuple[str, str, bool]:
    """The secret to draw boards with, a note on where it came from, and whether it is new
    (to be kept in ``DIR/secret.txt`` once the run is sure to go ahead)."""
    if given is not None:
        if len(given) < 8:
            raise UsageError("--secret", "use at least 8 characters, so boards cannot be guessed")
        return given, "", False
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV], f"secret: from ${SECRET_ENV}", False
    kept = out / SECRET_FILE
    if kept.is_file():
        return kept.read_text(encoding="utf-8").strip(), f"secret: reused from {kept}", False
    note = (
        f"secret: new, kept in {kept}; keep it (or pass --secret) to remake the same boards, "
        "and never hand it out"
    )
    return secrets.token_urlsafe(24), note, True


def _keep_secret(out: Path, secret: str) -> None:
    kept = out / SECRET_FILE
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(kept, secret + "\n")  # made with mode 600: never readable by others
    kept.chmod(0o600)


@lru_cache(maxsize=1)
def _check_files() -> dict[str, bytes]:
    # The same bytes go into every bundle: read once per run, not once per student.
    files = {"check.py": (HERE / "_bundle_check.py").read_bytes()}
    files["_check/__init__.py"] = b'"""The grader\'s parser and scorer, for check.py."""\n'
    for module in CHECK_SUPPORT:
        files[f"_check/{module}"] = (HERE / module).read_bytes()
    return files


def _bundle_files(
    assignment: Assignment,
    student: RosterStudent,
    material: Variant,
    shared: Sequence[TestCase] = (),
) -> dict[str, bytes]:
    """A student's bundle; ``shared``: the public edge boards ``check`` runs for everyone
    (the trap lane's circle and fully trapped lane), which its ``check.py`` runs too."""
    program = program_name(assignment)
    key = {
        "assignment": assignment.name,
        "title": assignment.title,
        "student": student.id,
        "program": program,
        "board": "board.json",
        "board_description": describe_board(material.board, assignment.family),
        "self_check": material.self_check,
        "value_tolerance": assignment.value_tolerance,
        "timeout": assignment.limits.timeout,
        "output_kb": assignment.limits.output_kb,
        "expected": material.expected.to_json(),
        "also": [
            {"title": c.title, "board": f"{c.name}.json", "expected": c.expected.to_json()}
            for c in shared
        ],
    }
    files = {
        program: material.starter.encode(),
        "board.json": (json.dumps(material.board) + "\n").encode(),
        "handout.md": material.handout.encode(),
        "expected.json": (_json_lines(key, 3) + "\n").encode(),
    }
    files.update({f"{c.name}.json": (json.dumps(c.board) + "\n").encode() for c in shared})
    files.update(_check_files())  # a copy: the cached dict is never changed
    return files


def _json_lines(data: object, depth: int, indent: str = "") -> str:
    """``data`` as JSON with its objects, and lists of them, ``depth`` levels deep an item
    a line (a key's names, each reading and mistake, on lines of their own), and what is
    deeper, or a list of numbers, on one line: ``indent`` would hand all of it to the
    pure-Python encoder (a token-boosted key: 12 against 3 ms; a number a line, 180 against
    150 kB)."""
    if depth <= 0 or not data or not isinstance(data, dict | list):
        return json.dumps(data)
    if isinstance(data, list) and not any(isinstance(v, dict | list) for v in data):
        return json.dumps(data)  # (a list of numbers: one line)
    inner = indent + " "
    if isinstance(data, dict):
        items = [
            f"{inner}{json.dumps(k)}: {_json_lines(v, depth - 1, inner)}" for k, v in data.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [inner + _json_lines(v, depth - 1, inner) for v in data]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"


def _write_bundle(folder: Path, top: str, files: dict[str, bytes]) -> None:
    """The folder and its zip, each written beside and then moved into place, so a bundle
    is either whole or absent."""
    staging = folder.with_name(f".{folder.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    for rel, data in files.items():
        path = staging / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    program = next(iter(files))  # the first file is the program: executable
    (staging / program).chmod(0o755)
    archive = folder.with_name(f".{folder.name}.zip.partial")
    write_zip(archive, ((f"{top}/{rel}", data, 0o755 if rel == program else 0o644)
                        for rel, data in files.items()))  # fmt: skip
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    os.replace(archive, folder.parent / f"{folder.name}.zip")  # ids may hold dots


def make_variants(
    name: str,
    roster: str | Path,
    out: str | Path,
    answers: AnswerSource,
    *,
    secret: str | None = None,
    on_student: Callable[[str], None] | None = None,
    workers: int = 1,
) -> VariantsReport:
    """A board and a bundle for every student of ``roster``, and the manifest; ``answers``
    draws each board and computes what goes with it, in ``workers`` processes (``answers``
    must then pickle). A roster row that cannot be used, or a student whose bundle fails,
    is reported and the rest go on."""
    assignment = load_assignment(name)
    out = Path(out)
    students = read_roster(roster)
    if not students.students:  # (nothing to make: a run that writes nothing says why)
        first = students.problems[0] if students.problems else "no student row"
        raise UsageError(str(roster), f"has no student row that can be used "
                         f"({len(students.problems)} refused; the first: {first})")  # fmt: skip
    if out.exists() and not out.is_dir():
        raise UsageError(str(out), "is a file, not a folder for the variants")
    secret, secret_note, new_secret = _secret(out, secret)
    fingerprint = secret_id(secret)
    manifest_path = out / MANIFEST
    before: dict[str, str] = {}  # each student's board in the folder's manifest, if any
    earlier: tuple[StudentBoard, ...] = ()
    if manifest_path.exists():
        old = load_manifest(manifest_path)
        if old.assignment != name:
            raise UsageError(
                str(out),
                f"holds variants made for another assignment ({old.assignment!r}); "
                "choose another --out",
            )
        if old.secret_id != fingerprint:
            hint = "pass the secret used before, or choose another --out"
            if new_secret:  # the likeliest cause: the secret was passed before, not kept
                hint = (
                    f"it keeps no {SECRET_FILE}, so pass the secret used before (--secret or "
                    f"${SECRET_ENV}), or choose another --out"
                )
            raise UsageError(str(out), f"holds variants made with another secret; {hint}")
        before = {s.id: _board_key(s.board) for s in old.students}
        earlier = old.students
    # Only now, with the run sure to go ahead: a refused run must leave nothing behind,
    # least of all a secret that made none of the folder's bundles.
    if new_secret:
        _keep_secret(out, secret)
    problems = list(students.problems)
    entries: list[StudentBoard] = []
    top_dir = out / STUDENTS
    top_dir.mkdir(parents=True, exist_ok=True)
    remove_temporaries(top_dir)  # what a run killed in mid-write left
    shared = [c for c in answers.cases(assignment, hidden=False) if c.name != "public"]
    ids = [s.id for s in students.students]
    with _materials(answers, assignment, secret, ids, workers) as materials:
        for student in students.students:
            entry = _bundle(assignment, student, materials.pop(student.id), shared, top_dir,
                            f"{students.source} row {student.row}")  # fmt: skip
            if isinstance(entry, str):
                problems.append(entry)
                continue
            entries.append(entry)
            if on_student is not None:
                on_student(student.id)
    # A run for some students (the late ones) leaves the others in the manifest: dropping
    # them would take them off Gradescope, and their bundles are still there.
    # (an id or an email matched as the manifest matches them: ignoring case)
    made = {e.id.lower() for e in entries} | {e.email.lower() for e in entries if e.email}
    kept = [s for s in earlier if s.id.lower() not in made and s.email.lower() not in made]
    entries += kept
    manifest = Manifest(name, tuple(entries), fingerprint, str(manifest_path))
    write_manifest(manifest_path, manifest)
    notes = [secret_note] if secret_note else []
    changed = [
        e.id for e in entries if before.get(e.id, _board_key(e.board)) != _board_key(e.board)
    ]
    return VariantsReport(out, manifest, tuple(problems), tuple(notes), _shared_boards(entries),
                          tuple(changed), tuple(s.id for s in kept))  # fmt: skip


def _bundle(
    assignment: Assignment,
    student: RosterStudent,
    material: Future[Variant],
    shared: Sequence[TestCase],
    top_dir: Path,
    where: str,
) -> StudentBoard | str:
    """Write ``student``'s bundle; their manifest entry, or why there is none (``where``:
    their roster row)."""
    try:
        variant = material.result()
        files = _bundle_files(assignment, student, variant, shared)
        _write_bundle(top_dir / student.id, f"{assignment.name}-{student.id}", files)
    except Exception as err:  # one student's failure must not cost the others theirs
        return f"{where} ({student.id}): no bundle: {err.__class__.__name__}: {err}"
    return StudentBoard(
        id=student.id,
        board=variant.board,
        name=student.name,
        email=student.email,
        self_check=variant.self_check,
        bundle=f"{STUDENTS}/{student.id}.zip",
    )


@contextmanager
def _materials(
    answers: AnswerSource, assignment: Assignment, secret: str, ids: list[str], workers: int
) -> Iterator[dict[str, Future[Variant]]]:
    """Each student's variant, computed in ``workers`` processes (in this one for 1). Each
    is a future: a student whose variant fails raises only when it is read. The workers go
    on while the caller writes the bundles of those done, in roster order (writing them all
    after the last was made left the workers idle for it, and the writer before)."""
    if workers <= 1 or len(ids) < 2 * workers:
        done: dict[str, Future[Variant]] = {}
        for student in ids:
            future: Future[Variant] = Future()
            try:
                future.set_result(answers.variant(assignment, secret, student))
            except Exception as err:
                future.set_exception(err)
            done[student] = future
        yield done
        return
    # The workers start clean ("spawn"): a forked copy of a process with threads can hang.
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        yield {s: pool.submit(_variant, answers, assignment.name, secret, s) for s in ids}
    finally:
        # Stopped part-way (an interrupt, a full disk): the students not yet begun are not.
        pool.shutdown(cancel_futures=True)


def _variant(answers: AnswerSource, name: str, secret: str, student: str) -> Variant:
    """One student's variant, in a worker (an assignment is loaded there, not pickled)."""
    return answers.variant(load_assignment(name), secret, student)


def _board_key(board: dict[str, object]) -> str:
    return json.dumps(board, sort_keys=True)


def _shared_boards(entries: list[StudentBoard]) -> tuple[tuple[str, ...], ...]:
    """The ids of each group of students whose draws gave the same board (rare, but
    possible where few boards are drawn often, as the trap lane's with one or two traps)."""
    seen: dict[str, list[str]] = {}
    for entry in entries:
        seen.setdefault(_board_key(entry.board), []).append(entry.id)
    return tuple(tuple(ids) for ids in seen.values() if len(ids) > 1)
