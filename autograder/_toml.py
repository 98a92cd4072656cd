"""Reading values out of a configuration table (a TOML section): each problem is one
:class:`UsageError` that names the file and the key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ._errors import UsageError

__all__ = ["count_range", "known_keys", "number", "table"]


def table(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    """The section ``[key]`` (empty when absent)."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(where, f"[{key}] must be a table")
    return value


def known_keys(section: Mapping[str, Any], cls: type, name: str, where: str) -> None:
    """Every key of ``section`` is a field of the dataclass ``cls``."""
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(section) - names)
    if unknown:
        raise UsageError(where, f"unknown key {unknown[0]!r} in [{name}]")


def number(section: Mapping[str, Any], key: str, default: float, where: str, low: float) -> float:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
        raise UsageError(where, f"{key} must be a number >= {low:g}, got {value!r}")
    return float(value)


def count_range(
    section: Mapping[str, Any], key: str, default: tuple[int, int], where: str, name: str
) -> tuple[int, int]:
    """An inclusive ``(low, high)`` range of counts, written ``[low, high]`` or as one count."""
    value = section.get(key, list(default))
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value, value]
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not 0 <= value[0] <= value[1]
    ):
        raise UsageError(
            where, f"[{name}] {key} must be a count or a range [low, high], got {value!r}"
        )
    return (value[0], value[1])
