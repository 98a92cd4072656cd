"""Assignments as configured in ``assignments/<name>/assignment.toml``."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from . import _toml
from ._boards import Board, BoardFamily, VariantPlan, board_family, family_names, parse_board
from ._errors import UsageError
from ._late import LatePolicy, read_late

__all__ = [
    "Assignment",
    "Limits",
    "PolicyGrading",
    "TestPlan",
    "assignment_names",
    "assignments_dir",
    "load_assignment",
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


def assignments_dir() -> Path:
    """``$AUTOGRADER_ASSIGNMENTS``, else the ``assignments/`` folder of this checkout."""
    override = os.environ.get("AUTOGRADER_ASSIGNMENTS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "assignments"


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
    root = assignments_dir()
    if not root.is_dir():
        return []
    return sorted(p.parent.name for p in root.glob(f"*/{CONFIG_NAME}"))


def load_assignment(name: str) -> Assignment:
    config = assignments_dir() / name / CONFIG_NAME
    try:
        stamp = config.stat()
    except OSError:
        stamp = None
    if stamp is None or not config.is_file():
        known = ", ".join(assignment_names()) or "none found"
        raise UsageError("", f"unknown assignment {name!r} (known: {known})")
    # Cached per file version: variants and answer keys load the same TOML hundreds of
    # times, and an edited file (new size or time) is read again.
    return _load(name, config, stamp.st_mtime_ns, stamp.st_size)


@lru_cache(maxsize=64)
def _load(name: str, config: Path, _mtime: int, _size: int) -> Assignment:
    where = str(config)
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise UsageError(where, f"cannot read the configuration: {err}") from None
    unknown = sorted(set(data) - SECTIONS)
    if unknown:
        raise UsageError(where, f"unknown section [{unknown[0]}]")
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
