"""Assignments as configured in ``assignments/<name>/assignment.toml``."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ._errors import UsageError

__all__ = [
    "EDGE_BOARDS",
    "Assignment",
    "Limits",
    "TestPlan",
    "assignment_names",
    "assignments_dir",
    "load_assignment",
]

CONFIG_NAME = "assignment.toml"


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
class Limits:
    """What one run of a submission on one board may use (``[limits]``)."""

    timeout: float = 10.0  # wall-clock seconds
    cpu: float = 10.0  # CPU seconds
    memory_mb: int = 1024  # address space
    output_kb: int = 1024  # standard output read; more ends the run

    def with_timeout(self, seconds: float) -> Limits:
        return Limits(seconds, min(self.cpu, seconds), self.memory_mb, self.output_kb)


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

    @property
    def folder(self) -> Path:
        return self.config.parent

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
    if not config.is_file():
        known = ", ".join(assignment_names()) or "none found"
        raise UsageError("", f"unknown assignment {name!r} (known: {known})")
    where = str(config)
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise UsageError(where, f"cannot read the configuration: {err}") from None
    unknown = sorted(set(data) - {"assignment", "params", "board", "tolerance", "tests", "limits"})
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
    )


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
