"""Kinds of program declared in TOML rather than written in Python: a compiled language
(Java) or any program started by a command, each one ``[[language]]`` entry.

The engine ships ``autograder/languages.toml``; a course may add its own
``languages.toml`` beside its assignments (``$AUTOGRADER_ASSIGNMENTS``), whose entries add kinds
or replace a shipped one of the same name. An entry declares:

``name``, ``suffixes``
    the kind's name and the program file names it takes (``[".java"]``);
``needs``
    the commands that must be on the runs' ``PATH`` (``clean_environment``);
``missing``
    the one line saying why they cannot be graded here, ``{command}`` the first one absent;
``build``
    optional: the command run once per submission, in the sandbox, under the run's limits
    (``build_limits`` may raise its ``processes``, ``memory_mb``, ``timeout`` and ``cpu``:
    a compiler does once what no single run does), in a staged copy of
    the submission; what it writes there is what every run gets;
``run``
    the command of one run;
``env``
    variables set for both (through ``/usr/bin/env``: runs start with a clean environment);
``system_paths``
    further system paths (globs) a namespace run is shown read-only (a JDK's ``/etc``);
``classes``
    a folder, beside the program, where the build leaves Java class files: ``{main_class}``
    is the one to start (``main_class``).

Commands are lists of words, no shell; their first word is looked up on the runs' ``PATH``.
Placeholders: ``{program}`` the program file, ``{stem}`` its name without the suffix,
``{folder}`` the folder holding it (a run's working folder; in the build, the staged one),
``{board}`` the board file (runs only), ``{main_class}`` (with ``classes``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import re
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ._assignments import Limits, course_assignments_dir
from ._cases import TestCase
from ._errors import UsageError
from ._files import remove_tree
from ._languages import (
    BuildContext,
    Language,
    Prepared,
    SubmissionError,
    copy_submission,
    language_names,
    register_language,
    suffixes,
)
from ._plain import printable
from ._resources import package_data
from ._run import clean_environment, run_limited
from ._run_folder import run_folder, sized_folders
from ._sandbox import add_system_paths

__all__ = [
    "ConfiguredLanguage",
    "course_languages_file",
    "load_languages",
    "main_class",
    "register_languages",
    "shipped_languages_file",
]

KEYS = {"name", "suffixes", "needs", "missing", "build", "run", "env", "system_paths",
        "classes", "build_limits"}  # fmt: skip
# What a build may have more of than a run: a compiler starts a JVM and many threads once.
BUILD_LIMITS = frozenset({"processes", "memory_mb", "timeout", "cpu"})
RUN_PLACEHOLDERS = {"program", "stem", "folder", "board", "main_class"}
BUILD_PLACEHOLDERS = {"program", "stem", "folder"}
DEFAULT_MISSING = "{command} not found: {name} submissions cannot be graded here"
SHOWN_COMPILER_LINES = 4  # of a build's complaints, in a submission's error row
# What a build may leave (sources and class files), as a submission may be: each run copies
# it under the same cap.
BUILT_MOST_MB = 20
MAIN_DESCRIPTOR = b"([Ljava/lang/String;)V"


def shipped_languages_file() -> Path:
    return package_data("autograder", "languages.toml")


def course_languages_file() -> Path | None:
    """A course's own declarations, beside its assignments (``$AUTOGRADER_ASSIGNMENTS``)."""
    course = course_assignments_dir()
    return None if course is None else course / "languages.toml"


def _placeholders(text: str) -> set[str]:
    return {m.group(1) for m in re.finditer(r"(?<!\{)\{([^{}]*)\}", text)}


def _has_main(class_file: Path) -> bool:
    """Whether a class file names a ``main(String[])`` method (its constant pool holds the
    name ``main`` and that descriptor)."""
    data = class_file.read_bytes()
    return b"\x01\x00\x04main" in data and MAIN_DESCRIPTOR in data


def _key(name: str) -> str:
    return re.sub(r"[-_]", "", name).lower()


def main_class(classes: Path, stem: str) -> str | None:
    """The class to start among the class files in ``classes``: of the top-level classes
    with a ``main(String[])`` method, the one named like the program file (ignoring case,
    ``_`` and ``-``: ``token_boosted.java`` starts ``TokenBoosted``), else the only one;
    ``None`` when neither rule picks one. Packages give dotted names."""
    found = []
    for path in sorted(classes.rglob("*.class")) if classes.is_dir() else []:
        if "$" not in path.name and _has_main(path):
            found.append(".".join(path.relative_to(classes).with_suffix("").parts))
    named = [n for n in found if _key(n.rsplit(".", 1)[-1]) == _key(stem)]
    if len(named) == 1:
        return named[0]
    return found[0] if len(found) == 1 else None


def _words(entry: Mapping[str, Any], key: str, *, required: bool = False) -> tuple[str, ...]:
    value = entry.get(key)
    if value is None and not required:
        return ()
    if not isinstance(value, list) or not value or not all(isinstance(w, str) for w in value):
        raise ValueError(f"{key} must be a non-empty list of strings")
    return tuple(value)


class ConfiguredLanguage(Language):
    """A kind of program declared by one ``[[language]]`` entry (see the module)."""

    def __init__(self, entry: Mapping[str, Any]) -> None:
        unknown = sorted(set(entry) - KEYS)
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
        name = entry.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
            raise ValueError("name must be a lower-case word")
        self.name = name
        self.suffixes = tuple(s.lower() for s in _words(entry, "suffixes", required=True))
        if not all(re.fullmatch(r"\.[a-z0-9]+", s) for s in self.suffixes):
            raise ValueError('each suffix is a dot and letters or digits (".java")')
        self.needs = _words(entry, "needs")
        self.build = _words(entry, "build")
        self.run = _words(entry, "run", required=True)
        self.missing_text = entry.get("missing", DEFAULT_MISSING)
        if not isinstance(self.missing_text, str) or "\n" in self.missing_text:
            raise ValueError("missing must be one line of text")
        env = entry.get("env", {})
        if not isinstance(env, dict) or not all(
            isinstance(k, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k)
            and isinstance(v, str) for k, v in env.items()
        ):  # fmt: skip
            raise ValueError("env must be a table of names to strings")
        self.env = dict(env)
        self.system_paths = _words(entry, "system_paths")
        if not all(p.startswith("/") for p in self.system_paths):
            raise ValueError("system_paths must be absolute")
        classes = entry.get("classes", "")
        if not isinstance(classes, str) or classes.startswith("/") or ".." in classes:
            raise ValueError("classes must be a folder name inside the program's folder")
        self.classes = classes
        raised = entry.get("build_limits", {})
        if not isinstance(raised, dict) or set(raised) - BUILD_LIMITS:
            raise ValueError(f"build_limits takes {', '.join(sorted(BUILD_LIMITS))}")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0
                   for v in raised.values()):  # fmt: skip
            raise ValueError("build_limits must be positive numbers")
        self.build_limits = dict(raised)
        allowed = RUN_PLACEHOLDERS if self.classes else RUN_PLACEHOLDERS - {"main_class"}
        for key, words, known in (
            ("run", self.run, allowed),
            ("build", self.build, BUILD_PLACEHOLDERS),
        ):
            for word in words:
                if bad := _placeholders(word) - known:
                    raise ValueError(f"{key}: unknown placeholder {{{sorted(bad)[0]}}} "
                                     f"(known: {', '.join(sorted(known))})")  # fmt: skip
        if _placeholders(self.missing_text) - {"command", "name"}:
            raise ValueError("missing takes only {command} and {name}")

    # -- what this machine has ----------------------------------------------------------

    def _which(self, command: str) -> str | None:
        if command.startswith("/"):
            return command if Path(command).is_file() else None
        return shutil.which(command, path=clean_environment(Path("/"))["PATH"])

    def missing(self) -> str:
        for command in (*self.needs, self.run[0], *self.build[:1]):
            if self._which(command) is None:
                return self.missing_text.format(command=command, name=self.name)
        return ""

    def _argv(self, words: Sequence[str], values: Mapping[str, str]) -> list[str]:
        argv = [word.format_map(values) for word in words]
        found = self._which(argv[0])
        if found is None:
            raise SubmissionError(self.missing_text.format(command=argv[0], name=self.name))
        argv[0] = found
        if self.env:
            return ["/usr/bin/env", *(f"{k}={v}" for k, v in self.env.items()), *argv]
        return argv

    # -- the build, once per submission ---------------------------------------------------

    @contextlib.contextmanager
    def prepared(self, submission: Path, program: Path, build: BuildContext) -> Iterator[Prepared]:
        if not self.build:
            self._entry(program.parent, program)
            yield Prepared(submission, program)
            return
        with contextlib.ExitStack() as stack:
            note, staged = self._build(submission, program, build)
            stack.callback(remove_tree, staged)
            built = staged / program.relative_to(submission if submission.is_dir() else
                                                 program.parent)  # fmt: skip
            self._entry(built.parent, built)
            yield Prepared(staged, built, note)

    def _entry(self, folder: Path, program: Path) -> None:
        if self.classes and main_class(folder / self.classes, program.stem) is None:
            raise SubmissionError(
                f"{program.name}: no class to start: name the class with the main method "
                f"like the file ({program.stem}), or have only one class with a main method"
            )

    def _build(self, submission: Path, program: Path, build: BuildContext) -> tuple[str, Path]:
        """Build in a run folder of its own, under the sandbox; the staged folder with what
        the build made, copied out (removed by the caller), and its warnings."""
        limits = self._limits(build.limits)
        with run_folder(not sized_folders()) as (work, watch):
            stage = work / "submission"
            stage.mkdir()
            staged = copy_submission(submission, program, stage)
            values = {"program": str(staged), "stem": staged.stem, "folder": str(staged.parent)}
            argv = self._argv(self.build, values)
            run = run_limited(argv, staged.parent, clean_environment(work), limits,
                              isolation=build.isolation, work=work, hidden=build.hidden,
                              watch=watch)  # fmt: skip
            said = _lines(run.stderr_tail + b"\n" + run.stdout, (str(stage) + "/", str(work)))
            if run.status != "exited":
                why = {"timeout": f"ran out of time ({limits.timeout:g} s)",
                       "cpu-limit": f"ran out of CPU time ({limits.cpu:g} s)"}  # fmt: skip
                stopped = why.get(run.status, f"was stopped ({run.status})")
                raise SubmissionError(f"{program.name}: the build {stopped}")
            if run.returncode != 0:
                shown = "\n".join(said[:SHOWN_COMPILER_LINES]) or f"exit status {run.returncode}"
                raise SubmissionError(f"{program.name} does not compile:\n{shown}")
            out = Path(tempfile.mkdtemp(prefix="autograder-built-"))
            try:
                # What the build left is the student's doing, like the submission itself:
                # its regular files only, counted by their size before a byte is written
                # (a link out of the sandbox, a FIFO or a sparse file of gigabytes stays
                # behind).
                copy_submission(stage, staged, out, BUILT_MOST_MB << 20)
            except SubmissionError:
                remove_tree(out)
                raise SubmissionError(
                    f"{program.name}: the build made more than {BUILT_MOST_MB} MB"
                ) from None
            except BaseException:
                remove_tree(out)
                raise
        return "\n".join(said[:SHOWN_COMPILER_LINES]), out

    def _limits(self, limits: Limits) -> Limits:
        raised = {k: max(getattr(limits, k), v) for k, v in self.build_limits.items()}
        return dataclasses.replace(limits, **raised)

    # -- one run --------------------------------------------------------------------------

    def command(self, program: Path, board: Path, work: Path, case: TestCase) -> list[str]:
        values = {"program": str(program), "stem": program.stem,
                  "folder": str(program.parent), "board": str(board)}  # fmt: skip
        if self.classes:
            values["main_class"] = main_class(program.parent / self.classes, program.stem) or ""
        return self._argv(self.run, values)


def _lines(output: bytes, strip: Sequence[str]) -> list[str]:
    """A build's complaints as printable lines, without the staged folder's path."""
    text = output.decode("utf-8", "replace")
    for prefix in strip:
        text = text.replace(prefix, "")
    return [printable(line.rstrip()) for line in text.splitlines() if line.strip()]


# -- reading the declarations --------------------------------------------------------------


def load_languages(path: Path) -> list[ConfiguredLanguage]:
    """The kinds declared in ``path``; a problem is one :class:`UsageError` naming the file
    and the entry."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(str(path), f"cannot be read ({err})") from None
    except tomllib.TOMLDecodeError as err:
        raise UsageError(str(path), f"not valid TOML ({err})") from None
    if set(data) - {"language"}:
        raise UsageError(str(path), f"unknown section [{sorted(set(data) - {'language'})[0]}]")
    entries = data.get("language", [])
    if not isinstance(entries, list):
        raise UsageError(str(path), "language must be an array of tables ([[language]])")
    found: list[ConfiguredLanguage] = []
    for number, entry in enumerate(entries, 1):
        name = entry.get("name") if isinstance(entry, dict) else None
        where = f"[[language]] {name!r}" if isinstance(name, str) else f"[[language]] #{number}"
        try:
            if not isinstance(entry, dict):
                raise ValueError("must be a table")
            language = ConfiguredLanguage(entry)
            if any(other.name == language.name for other in found):
                raise ValueError("declared twice")
        except ValueError as err:
            raise UsageError(str(path), f"{where}: {err}") from None
        found.append(language)
    return found


def register_languages(*paths: Path) -> list[ConfiguredLanguage]:
    """Register the kinds declared in ``paths`` (later files replace earlier entries of the
    same name; a missing file declares nothing). A suffix another kind takes already, or a
    name registered already, is refused as one :class:`UsageError`."""
    chosen: dict[str, tuple[Path, ConfiguredLanguage]] = {}
    for path in paths:
        if path.is_file():
            for language in load_languages(path):
                chosen[language.name] = (path, language)
    for path, language in chosen.values():
        taken = sorted(set(language.suffixes) & set(suffixes()))
        if language.name in language_names() or taken:
            what = f"the name {language.name!r}" if not taken else f"the suffix {taken[0]}"
            raise UsageError(str(path), f"[[language]] {language.name!r}: {what} is taken")
    for _path, language in chosen.values():
        add_system_paths(*(p for pattern in language.system_paths for p in glob.glob(pattern)))
        register_language(language)
    return [language for _path, language in chosen.values()]


def _register_at_import() -> None:
    """The shipped kinds and the course's. A broken file must not stop Python submissions
    from being graded: its one-line problem goes to standard error and its kinds are left
    out (``load_languages`` raises it where a caller wants it raised)."""
    shipped = shipped_languages_file()
    try:
        course = course_languages_file()
    except UsageError:
        course = None  # (a folder that is not there: each command says so, in one line)
    try:
        register_languages(shipped, *([] if course is None else [course]))
    except UsageError as err:
        print(f"autograder: warning: {err}; no kind of that file is registered", file=sys.stderr)
        with contextlib.suppress(UsageError):
            register_languages(shipped)


_register_at_import()
