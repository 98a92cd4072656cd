"""Assignments as configured in ``assignments/<name>/assignment.toml``."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ._errors import UsageError

__all__ = [
    "EDGE_BOARDS",
    "Assignment",
    "Limits",
    "TestPlan",
    "VariantPlan",
    "assignment_names",
    "assignments_dir",
    "load_assignment",
]

CONFIG_NAME = "assignment.toml"
SECTIONS = {"assignment", "params", "board", "tolerance", "tests", "limits", "variants"}


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

    @property
    def total_points(self) -> float:
        edges = len(self.edge_boards) * self.edge_points
        return self.public_points + self.hidden_boards * self.hidden_points + edges


@dataclass(frozen=True)
class VariantPlan:
    """How each student's own board is drawn by ``autograder variants`` (``[variants]``).

    Jump boards: ``goal``, the ranges of chute and ladder counts, and the band that the
    expected length of a classic game (6-face spinner, exact finish) must fall in. Trap lane:
    the range of the count of each trap kind, and the circle setting (``"either"`` draws it).
    Ranges are inclusive ``(low, high)`` pairs.
    """

    goal: int = 100
    chutes: tuple[int, int] = (8, 11)
    ladders: tuple[int, int] = (7, 10)
    min_turns: float = 25.0
    max_turns: float = 60.0
    restart: tuple[int, int] = (0, 2)
    penalty: tuple[int, int] = (0, 2)
    prison: tuple[int, int] = (0, 2)
    special: tuple[int, int] = (0, 2)
    circle: bool | str = "either"


@dataclass(frozen=True)
class Limits:
    """What one run of a submission on one board may use (``[limits]``)."""

    timeout: float = 10.0  # wall-clock seconds
    cpu: float = 10.0  # CPU seconds
    memory_mb: int = 1024  # address space
    output_kb: int = 1024  # standard output read; more ends the run
    processes: int = 64  # processes and threads at once (a fork bomb stops here)

    def with_timeout(self, seconds: float) -> Limits:
        return dataclasses.replace(self, timeout=seconds, cpu=min(self.cpu, seconds))


@dataclass(frozen=True)
class Assignment:
    name: str
    title: str
    summary: str
    rules: str
    params: Mapping[str, Any]
    board: Mapping[str, Any]
    value_tolerance: float
    policy_tolerance: float
    self_check: str | None
    config: Path
    tests: TestPlan = TestPlan()
    limits: Limits = Limits()
    variants: VariantPlan = VariantPlan()

    @property
    def folder(self) -> Path:
        return self.config.parent

    @property
    def family(self) -> str:
        """The kind of board: ``"jump"`` (squares and jumps) or ``"trap"`` (the trap lane)."""
        return "trap" if "layout" in self.board else "jump"

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
    head = _table(data, "assignment", where)
    tolerance = _table(data, "tolerance", where)
    try:
        self_check = head.get("self_check")
        return Assignment(
            name=name,
            title=str(head.get("title", name)),
            summary=str(head.get("summary", "")),
            rules=str(head["rules"]),
            params=MappingProxyType(_table(data, "params", where)),
            board=MappingProxyType(_table(data, "board", where)),
            value_tolerance=float(tolerance.get("values", 0.01)),
            policy_tolerance=float(tolerance.get("policy", 0.01)),
            self_check=None if self_check is None else _decimal_text(self_check, where),
            config=config,
            tests=_plan(_table(data, "tests", where), where),
            limits=_limits(_table(data, "limits", where), where),
            variants=_variants(_table(data, "variants", where), where),
        )
    except KeyError as err:
        raise UsageError(where, f"[assignment] needs the key {err.args[0]!r}") from None
    except (TypeError, ValueError) as err:
        raise UsageError(where, f"a tolerance is not a number ({err})") from None


EDGE_BOARDS = {
    "jump": ("no-jumps", "ladder-to-goal", "chute-before-goal"),
    "trap": ("circle", "fully-trapped", "fully-trapped-circle"),
}


def _number(table: dict[str, Any], key: str, default: float, where: str, low: float) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
        raise UsageError(where, f"{key} must be a number >= {low:g}, got {value!r}")
    return float(value)


def _plan(table: dict[str, Any], where: str) -> TestPlan:
    _known(table, TestPlan, "tests", where)
    edges = table.get("edge_boards", [])
    known = {e for family in EDGE_BOARDS.values() for e in family}
    if not isinstance(edges, list) or any(e not in known for e in edges):
        raise UsageError(where, f"edge_boards must be a list drawn from {sorted(known)}")
    return TestPlan(
        public_points=_number(table, "public_points", 25, where, 0),
        hidden_boards=int(_number(table, "hidden_boards", 3, where, 0)),
        hidden_points=_number(table, "hidden_points", 15, where, 0),
        seed=int(_number(table, "seed", 0, where, 0)),
        edge_boards=tuple(edges),
        edge_points=_number(table, "edge_points", 10, where, 0),
    )


def _limits(table: dict[str, Any], where: str) -> Limits:
    _known(table, Limits, "limits", where)
    timeout = _number(table, "timeout", 10, where, 0.1)
    return Limits(
        timeout=timeout,
        cpu=_number(table, "cpu", timeout, where, 0.1),
        memory_mb=int(_number(table, "memory_mb", 1024, where, 64)),
        output_kb=int(_number(table, "output_kb", 1024, where, 1)),
        processes=int(_number(table, "processes", 64, where, 4)),
    )


def _range(
    table: dict[str, Any], key: str, default: tuple[int, int], where: str
) -> tuple[int, int]:
    value = table.get(key, list(default))
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value, value]
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not 0 <= value[0] <= value[1]
    ):
        raise UsageError(
            where, f"[variants] {key} must be a count or a range [low, high], got {value!r}"
        )
    return (value[0], value[1])


def _variants(table: dict[str, Any], where: str) -> VariantPlan:
    _known(table, VariantPlan, "variants", where)
    d = VariantPlan()
    circle = table.get("circle", d.circle)
    if circle not in (True, False, "either"):
        raise UsageError(
            where, f'[variants] circle must be true, false or "either", got {circle!r}'
        )
    plan = VariantPlan(
        goal=int(_number(table, "goal", d.goal, where, 2)),
        chutes=_range(table, "chutes", d.chutes, where),
        ladders=_range(table, "ladders", d.ladders, where),
        min_turns=_number(table, "min_turns", d.min_turns, where, 0),
        max_turns=_number(table, "max_turns", d.max_turns, where, 0),
        restart=_range(table, "restart", d.restart, where),
        penalty=_range(table, "penalty", d.penalty, where),
        prison=_range(table, "prison", d.prison, where),
        special=_range(table, "special", d.special, where),
        circle=circle,
    )
    if plan.min_turns > plan.max_turns:
        raise UsageError(where, "[variants] min_turns is larger than max_turns")
    return plan


def _known(table: dict[str, Any], cls: type, section: str, where: str) -> None:
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(table) - names)
    if unknown:
        raise UsageError(where, f"unknown key {unknown[0]!r} in [{section}]")


def _decimal_text(value: object, where: str) -> str:
    text = str(value).strip()
    try:
        float(text)
    except ValueError:
        raise UsageError(where, f"self_check {value!r} is not a number") from None
    return text


def _table(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(where, f"[{key}] must be a table")
    return value
