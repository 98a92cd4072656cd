"""Assignments as configured in ``assignments/<name>/assignment.toml``."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ._errors import UsageError

__all__ = ["Assignment", "assignment_names", "assignments_dir", "load_assignment"]

CONFIG_NAME = "assignment.toml"


def assignments_dir() -> Path:
    """``$AUTOGRADER_ASSIGNMENTS``, else the ``assignments/`` folder of this checkout."""
    override = os.environ.get("AUTOGRADER_ASSIGNMENTS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "assignments"


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
    unknown = sorted(set(data) - {"assignment", "params", "board", "tolerance"})
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
        )
    except KeyError as err:
        raise UsageError(where, f"[assignment] needs the key {err.args[0]!r}") from None
    except (TypeError, ValueError) as err:
        raise UsageError(where, f"a tolerance is not a number ({err})") from None


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
