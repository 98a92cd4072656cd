"""The kinds of program a submission may be, found by the program file's suffix: how to
get it ready once per submission (a notebook turned into a script, a Java program
compiled) and how to start one run of it on a board.

The submission contract stays the same for every kind: a program that reads the board
file named on its command line and prints the assignment's format. A kind registers an
instance of :class:`Language`; ``find_program`` asks which suffixes are known.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._assignments import Limits
from ._cases import TestCase
from ._registry import Registry
from ._sandbox import Isolation

__all__ = [
    "HERE",
    "IGNORED_NAMES",
    "PYTHON_FLAGS",
    "Language",
    "Prepared",
    "PythonLanguage",
    "SubmissionError",
    "copy_submission",
    "is_module_only",
    "language_for",
    "language_names",
    "register_language",
    "suffixes",
]

HERE = Path(__file__).resolve().parent
# How a Python program is started (``python -E -s PROGRAM BOARD``); a warm interpreter
# (``_warm_sandbox``) is started the same way.
PYTHON_FLAGS = ("-E", "-s")
# Never copied with a folder submission: caches, an editor's or an OS's leftovers.
IGNORED_NAMES = frozenset({"__pycache__", "__MACOSX", ".git", ".ipynb_checkpoints"})


class SubmissionError(Exception):
    """The submission cannot be run at all (no program, unreadable, too large, does not
    compile)."""


@dataclass(frozen=True)
class Prepared:
    """A submission made ready to run: each run copies ``folder`` (the submission, or a
    staged copy holding what a build made) and starts ``program``, a path inside it.
    ``note``: what the staff should know of the preparation (a compiler's warnings)."""

    folder: Path
    program: Path
    note: str = ""


@dataclass(frozen=True)
class BuildContext:
    """What a build step may use: the run limits and sandbox of the submission's runs
    (a compiler is the student's code's first reader: it runs under the same guard)."""

    limits: Limits
    isolation: Isolation
    hidden: Sequence[Path]


class Language:
    """One kind of program. ``suffixes``: the file names it takes (``.py``). ``warm``: its
    runs are ``[sys.executable, *PYTHON_FLAGS, SCRIPT, ARGS...]``, which a submission's
    warm interpreter may run instead of a fresh one (``_warm_sandbox``)."""

    name: str
    suffixes: tuple[str, ...]
    warm: bool = False

    def missing(self) -> str:
        """Why this machine cannot run such programs (``""``: it can)."""
        return ""

    @contextlib.contextmanager
    def prepared(self, submission: Path, program: Path, build: BuildContext) -> Iterator[Prepared]:
        """The submission ready to run, for as long as the ``with`` lasts; a submission
        that cannot be made ready raises :class:`SubmissionError` saying why."""
        yield Prepared(submission, program)

    def command(self, program: Path, board: Path, work: Path, case: TestCase) -> list[str]:
        """The command of one run: ``program`` is the copied program in the run's folder
        ``work``, ``board`` the board file."""
        raise NotImplementedError


def copy_submission(
    submission: Path, program: Path, into: Path, most_bytes: int | None = None
) -> Path:
    """Copy the program (and, for a folder, its regular files, no links, none of
    ``IGNORED_NAMES``) into ``into``; the copied program's path. More than ``most_bytes``
    in all is a :class:`SubmissionError`."""
    if submission.is_file():
        target = into / program.name
        shutil.copyfile(program, target)
        return target
    total = 0
    for path in sorted(submission.rglob("*")):
        rel = path.relative_to(submission)
        if set(rel.parts) & IGNORED_NAMES or path.is_symlink() or not path.is_file():
            continue
        total += path.stat().st_size
        if most_bytes is not None and total > most_bytes:
            raise SubmissionError(f"{submission.name}: larger than {most_bytes >> 20} MB")
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, into / rel)
    return into / program.relative_to(submission)


def is_module_only(source: str, function: str) -> bool:
    """A module that defines ``function`` (the trap lane's ``markovDecision``) and runs
    nothing itself."""
    defines = re.search(rf"^def\s+{re.escape(function)}\s*\(", source, re.M)
    return bool(defines) and "__main__" not in source


def python_command(program: Path, board: Path, work: Path, case: TestCase) -> list[str]:
    """A Python program's run; a module that only defines the format's entry function
    (``ModuleEntry``) is run through the format's runner, which calls it."""
    python = [sys.executable, *PYTHON_FLAGS]
    entry = case.expected.format.module_entry
    source = program.read_text(encoding="utf-8", errors="replace")
    if entry is not None and is_module_only(source, entry.function):
        runner = work / "grader_runner.py"
        runner.write_bytes((HERE / entry.runner).read_bytes())
        return [*python, str(runner), str(program), str(board)]
    return [*python, str(program), str(board)]


class PythonLanguage(Language):
    name = "python"
    suffixes = (".py",)
    warm = True

    def command(self, program: Path, board: Path, work: Path, case: TestCase) -> list[str]:
        return python_command(program, board, work, case)


_LANGUAGES: Registry[Language] = Registry("kind of program")
_BY_SUFFIX: dict[str, Language] = {}


def register_language(language: Language) -> Language:
    """Make ``language`` known by its name and its suffixes."""
    _LANGUAGES.register(language)
    for suffix in language.suffixes:
        _BY_SUFFIX[suffix] = language
    return language


def language_for(program: Path) -> Language | None:
    return _BY_SUFFIX.get(program.suffix.lower())


def suffixes() -> tuple[str, ...]:
    """Every program suffix a submission may use, in the order the kinds were registered."""
    return tuple(_BY_SUFFIX)


def language_names() -> list[str]:
    return _LANGUAGES.names()


register_language(PythonLanguage())
