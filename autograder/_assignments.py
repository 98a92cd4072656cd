"""Assignments as configured in ``<folder>/<name>/assignment.toml``.

The package ships its assignments (``autograder/assignments/``, package data). A course may
keep assignments of its own in a folder named by ``$AUTOGRADER_ASSIGNMENTS``, laid over the
shipped ones: an assignment of that folder replaces a shipped one of the same name, and its
other assignments are added. Nothing inside the installed package need be edited.

A course's settings file (``$AUTOGRADER_COURSE``, or ``--course FILE`` of the commands that
grade) changes what a course decides without copying an assignment: its ``[late]``,
``[tolerance]``, ``[tests]`` and ``[limits]`` sections apply to every assignment, and
``[<name>.late]`` (and so on) to the assignment ``<name>`` alone; each key replaces the
assignment's own.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from . import _toml
from ._boards import Board, BoardFamily, VariantPlan, board_family, family_names, parse_board
from ._errors import UsageError
from ._late import LatePolicy, read_late
from ._resources import package_data

__all__ = [
    "Assignment",
    "Limits",
    "PolicyGrading",
    "TestPlan",
    "assignment_folders",
    "assignment_names",
    "assignments_dir",
    "course_assignments_dir",
    "course_settings_file",
    "load_assignment",
    "no_assignments",
]

CONFIG_NAME = "assignment.toml"
MAX_TIMEOUT = 3600  # seconds per board
SECTIONS = {"assignment", "params", "board", "tolerance", "tests", "limits", "variants", "late"}
HEAD_KEYS = {"rules", "family", "title", "summary", "self_check"}
TOLERANCE_KEYS = {"values", "policy", "policy_credit", "policy_full_gap", "policy_zero_gap"}
PolicyCredit = Literal["squares", "cost"]


@dataclass(frozen=True)
class PolicyGrading:
    """How a printed policy earns its marks (``[tolerance] policy_credit``).

    ``squares``: each square's action is right when its expected cost is within the policy
    tolerance of the best. ``cost``: the policy is evaluated exactly on the grading side, and
    all its action entries earn the credit of its relative gap to the optimum from the
    start: full up to ``full_gap``, none from ``zero_gap``, linear between. Either way an
    equally good policy loses nothing.
    """

    credit: PolicyCredit = "squares"
    full_gap: float = 0.001
    zero_gap: float = 0.10

    def credit_for(self, gap: float) -> float:
        if gap <= self.full_gap:
            return 1.0
        if gap >= self.zero_gap:
            return 0.0
        return (self.zero_gap - gap) / (self.zero_gap - self.full_gap)


CREDIT_BY_SQUARE = PolicyGrading()


COURSE_ENV = "AUTOGRADER_ASSIGNMENTS"
SETTINGS_ENV = "AUTOGRADER_COURSE"
# What a course's settings may change: its own decisions, not the game or its boards.
COURSE_SECTIONS = ("late", "tolerance", "tests", "limits")


def assignments_dir() -> Path:
    """The assignments this package ships (package data, wherever it is installed)."""
    return package_data("autograder", "assignments")


def course_assignments_dir() -> Path | None:
    """A course's own assignments folder, ``$AUTOGRADER_ASSIGNMENTS``, or ``None``."""
    return _named_by(COURSE_ENV, Path.is_dir, "is not a folder of assignments")


def course_settings_file() -> Path | None:
    """The course's settings file, ``$AUTOGRADER_COURSE``, or ``None``."""
    return _named_by(SETTINGS_ENV, Path.is_file, "is not a course settings file")


def _named_by(variable: str, is_there: Callable[[Path], bool], otherwise: str) -> Path | None:
    """The path the environment variable names; named but not there, it is refused: a
    typo would otherwise grade with the shipped configuration, silently."""
    named = os.environ.get(variable)
    if not named:
        return None
    if not is_there(Path(named)):
        raise UsageError(f"${variable}={named}", otherwise)
    return Path(named)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise UsageError(str(path), f"cannot read the configuration: {err}") from None


def _course_sections(path: Path, name: str) -> dict[str, dict[str, Any]]:
    """The sections the settings file ``path`` lays over the assignment ``name``: those
    for every assignment, then those for ``name`` (``[name.late]``), key by key."""
    data = _read_toml(path)
    where = str(path)
    known = set(assignment_names())
    merged: dict[str, dict[str, Any]] = {}
    for key, value in data.items():
        if key in COURSE_SECTIONS:
            merged.setdefault(key, {}).update(_toml.table(data, key, where))
        elif key not in known:
            raise UsageError(
                where,
                f"unknown section [{key}] (a course sets {', '.join(COURSE_SECTIONS)}, for "
                f"every assignment or as [<assignment>.<section>]; assignments: "
                f"{', '.join(sorted(known))})",
            )
        elif not isinstance(value, dict):
            raise UsageError(where, f"[{key}] must be a table of sections")
    own = _toml.table(data, name, where) if name in data else {}
    for section, values in own.items():
        if not isinstance(values, dict):
            raise UsageError(where, f"[{name}.{section}] must be a table")
        if section not in COURSE_SECTIONS:
            raise UsageError(where, f"unknown section [{name}.{section}] (a course sets "
                             f"{', '.join(COURSE_SECTIONS)})")  # fmt: skip
        merged.setdefault(section, {}).update(_toml.table(own, section, where))
    return merged


def assignment_folders() -> tuple[Path, ...]:
    """Where assignments are looked for, first found wins: the course's folder, then the
    shipped one."""
    course = course_assignments_dir()
    return (assignments_dir(),) if course is None else (course, assignments_dir())


def no_assignments() -> UsageError:
    """The one line every command gives when it finds no assignment at all."""
    where = " or ".join(str(folder) for folder in assignment_folders())
    return UsageError(where, f"no assignment found (no <name>/{CONFIG_NAME})")


@dataclass(frozen=True)
class TestPlan:
    """Which boards a submission is graded on, and what each is worth (``[tests]``)."""

    public_points: float = 25.0
    hidden_boards: int = 3
    hidden_points: float = 15.0
    seed: int = 0
    edge_boards: tuple[str, ...] = ()
    edge_points: float = 10.0
    # Edge boards shown in full, like the public board, and run by ``check``: boards that
    # exercise the rules the public board cannot (the trap lane's traps and circle).
    public_edge_boards: tuple[str, ...] = ()

    @property
    def total_points(self) -> float:
        edges = len(self.edge_boards) * self.edge_points
        return self.public_points + self.hidden_boards * self.hidden_points + edges


@dataclass(frozen=True)
class Limits:
    """What one run of a submission on one board may use (``[limits]``)."""

    timeout: float = 10.0  # wall-clock seconds
    cpu: float = 10.0  # CPU seconds
    memory_mb: int = 1024  # address space
    output_kb: int = 1024  # standard output read; more ends the run
    processes: int = 64  # processes and threads at once (a fork bomb stops here)

    def with_timeout(self, seconds: float) -> Limits:
        """These limits with a wall-clock limit of ``seconds`` per board (a ``--timeout``
        given by a user: more than 0, at most an hour), the CPU limit no higher."""
        if not 0 < seconds <= MAX_TIMEOUT:
            raise UsageError(f"--timeout {seconds:g}", f"expected seconds in (0, {MAX_TIMEOUT}]")
        return dataclasses.replace(self, timeout=seconds, cpu=min(self.cpu, seconds))


@dataclass(frozen=True)
class Assignment:
    name: str
    title: str
    summary: str
    rules: str
    family: str  # the kind of board, a name in the board-family registry (``_boards``)
    params: Mapping[str, Any]
    board: Mapping[str, Any]
    value_tolerance: float
    policy_tolerance: float
    self_check: str | None
    config: Path
    variants: VariantPlan
    tests: TestPlan = TestPlan()
    limits: Limits = Limits()
    policy_grading: PolicyGrading = CREDIT_BY_SQUARE
    late: LatePolicy | None = None  # [late]: the deadline and the penalty for late work

    @property
    def folder(self) -> Path:
        return self.config.parent

    @property
    def board_family(self) -> BoardFamily:
        return board_family(self.family)

    def public_board(self) -> Board:
        """The board of the ``[board]`` section, which every student sees."""
        return parse_board(dict(self.board), self.family, f"{self.config} [board]").board

    def self_check_holds(self, start_value: float) -> bool:
        """``start_value`` rounds to the published self-check, to its printed decimals."""
        if self.self_check is None:
            raise ValueError(f"{self.name} has no published self-check")
        places = len(self.self_check.partition(".")[2])
        return f"{start_value:.{places}f}" == self.self_check


def assignment_names() -> list[str]:
    """The assignments of every folder (``assignment_folders``), sorted; an empty list when
    there are none (the commands that need one say so with ``no_assignments``)."""
    names: set[str] = set()
    for root in assignment_folders():
        if root.is_dir():
            names.update(p.parent.name for p in root.glob(f"*/{CONFIG_NAME}")
                         if _assignment_name(p.parent.name))  # fmt: skip
    return sorted(names)


def _assignment_name(name: str) -> bool:
    """Whether a folder's name can be an assignment's: not hidden, not a shared part
    (``_grading.md.j2``'s kin), no path."""
    return bool(name) and not name.startswith((".", "_")) and "/" not in name and "\\" not in name


def _config_file(name: str) -> tuple[Path, os.stat_result] | None:
    if not _assignment_name(name):
        return None
    for root in assignment_folders():
        config = root / name / CONFIG_NAME
        try:
            stamp = config.stat()
        except OSError:
            continue
        if config.is_file():
            return config, stamp
    return None


def load_assignment(name: str) -> Assignment:
    found = _config_file(name)
    if found is None:
        known = assignment_names()
        if not known:
            raise no_assignments()
        raise UsageError("", f"unknown assignment {name!r} (known: {', '.join(known)})")
    config, stamp = found
    settings = course_settings_file()
    course = None
    if settings is not None:
        seen = settings.stat()
        course = (settings, seen.st_mtime_ns, seen.st_size)
    # Cached per file version: variants and answer keys load the same TOML hundreds of
    # times, and an edited file (new size or time) is read again.
    return _load(name, config, stamp.st_mtime_ns, stamp.st_size, course)


@lru_cache(maxsize=64)
def _load(
    name: str, config: Path, _mtime: int, _size: int, course: tuple[Path, int, int] | None
) -> Assignment:
    where = str(config)
    data = _read_toml(config)
    unknown = sorted(set(data) - SECTIONS)
    if unknown:
        raise UsageError(where, f"unknown section [{unknown[0]}]")
    if course is not None:
        # A value the course set is checked as the assignment's own would be; a problem
        # names both files, since either may hold the key at fault.
        for section, values in _course_sections(course[0], name).items():
            data[section] = {**_toml.table(data, section, where), **values}
        where = f"{config} with {course[0]}"
    head = _toml.table(data, "assignment", where)
    tolerance = _toml.table(data, "tolerance", where)
    for section, keys in (("assignment", HEAD_KEYS), ("tolerance", TOLERANCE_KEYS)):
        unknown = sorted(set(_toml.table(data, section, where)) - keys)
        if unknown:
            raise UsageError(where, f"unknown key {unknown[0]!r} in [{section}]")
    try:
        rules, family_name = str(head["rules"]), str(head["family"])
    except KeyError as err:
        key = err.args[0]
        hint = f" (the kind of board: {', '.join(family_names())})" if key == "family" else ""
        raise UsageError(where, f"[assignment] needs the key {key!r}{hint}") from None
    try:
        family = board_family(family_name)
    except ValueError as err:
        raise UsageError(where, f"[assignment] family: {err}") from None
    try:
        value_tolerance = float(tolerance.get("values", 0.01))
        policy_tolerance = float(tolerance.get("policy", 0.01))
    except (TypeError, ValueError) as err:
        raise UsageError(where, f"a tolerance is not a number ({err})") from None
    policy_grading = _policy_grading(tolerance, where)
    self_check = head.get("self_check")
    return Assignment(
        name=name,
        title=str(head.get("title", name)),
        summary=str(head.get("summary", "")),
        rules=rules,
        family=family.name,
        params=MappingProxyType(_toml.table(data, "params", where)),
        board=MappingProxyType(_toml.table(data, "board", where)),
        value_tolerance=value_tolerance,
        policy_tolerance=policy_tolerance,
        self_check=None if self_check is None else _decimal_text(self_check, where),
        config=config,
        variants=family.read_plan(_toml.table(data, "variants", where), where),
        tests=_plan(_toml.table(data, "tests", where), family, where),
        limits=_limits(_toml.table(data, "limits", where), where),
        policy_grading=policy_grading,
        late=read_late(_toml.table(data, "late", where), where),
    )


def _policy_grading(table: dict[str, Any], where: str) -> PolicyGrading:
    credit = table.get("policy_credit", "squares")
    if credit not in ("squares", "cost"):
        raise UsageError(
            where, f"[tolerance] policy_credit must be 'squares' or 'cost', not {credit!r}"
        )
    full = _toml.number(table, "policy_full_gap", 0.001, where, 0)
    zero = _toml.number(table, "policy_zero_gap", 0.10, where, 0)
    if not full < zero:
        raise UsageError(where, "[tolerance] policy_full_gap must be below policy_zero_gap")
    return PolicyGrading(credit, float(full), float(zero))


def _plan(table: dict[str, Any], family: BoardFamily, where: str) -> TestPlan:
    _toml.known_keys(table, TestPlan, "tests", where)
    edges = table.get("edge_boards", [])
    known = family.edge_boards
    if not isinstance(edges, list) or any(e not in known for e in edges):
        raise UsageError(
            where, f"edge_boards must be a list drawn from {list(known)} ({family.name} boards)"
        )
    shown = table.get("public_edge_boards", [])
    if not isinstance(shown, list) or any(e not in edges for e in shown):
        raise UsageError(where, f"public_edge_boards must be a list drawn from edge_boards {edges}")
    return TestPlan(
        public_points=_toml.number(table, "public_points", 25, where, 0),
        hidden_boards=int(_toml.number(table, "hidden_boards", 3, where, 0)),
        hidden_points=_toml.number(table, "hidden_points", 15, where, 0),
        seed=int(_toml.number(table, "seed", 0, where, 0)),
        edge_boards=tuple(edges),
        edge_points=_toml.number(table, "edge_points", 10, where, 0),
        public_edge_boards=tuple(shown),
    )


def _limits(table: dict[str, Any], where: str) -> Limits:
    _toml.known_keys(table, Limits, "limits", where)
    timeout = _toml.number(table, "timeout", 10, where, 0.1)
    return Limits(
        timeout=timeout,
        cpu=_toml.number(table, "cpu", timeout, where, 0.1),
        memory_mb=int(_toml.number(table, "memory_mb", 1024, where, 64)),
        output_kb=int(_toml.number(table, "output_kb", 1024, where, 1)),
        processes=int(_toml.number(table, "processes", 64, where, 4)),
    )


def _decimal_text(value: object, where: str) -> str:
    text = str(value).strip()
    try:
        float(text)
    except ValueError:
        raise UsageError(where, f"self_check {value!r} is not a number") from None
    return text
