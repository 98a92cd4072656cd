"""Typed, frozen parameters: declared once per rules module, read from TOML or ``--set``.

A rules module declares a frozen dataclass whose fields are made with :func:`param`; the
field's parser accepts both the typed value of a TOML file and the text of ``--set key=value``
and raises ``ValueError`` with a message meant for a person.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from autograder import UsageError

__all__ = [
    "Overshoot",
    "boolean",
    "choice",
    "dice_set",
    "integer",
    "number",
    "overshoot",
    "param",
    "params_to_json",
    "probabilities",
    "read_params",
]

Parser = Callable[[Any], Any]


def param(default: Any, parse: Parser, help: str, applies: tuple[str, Any] | None = None) -> Any:
    """A parameter's field; ``applies``: ``(other parameter, value)`` when it has an effect
    only while the other has that value (a discount, only with the discounted objective)."""
    metadata = {"parse": parse, "help": help, "applies": applies}
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True)
class Overshoot:
    """What a move that would pass the goal does: ``stay``, ``win``, ``bounce`` or ``land:K``."""

    rule: str
    square: int | None = None

    def __str__(self) -> str:
        return f"land:{self.square}" if self.rule == "land" else self.rule


def integer(low: int, high: int | None = None) -> Parser:
    def parse(value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError(f"must be an integer, got {value!r}")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise ValueError(f"must be an integer, got {value!r}") from None
        if not isinstance(value, int):
            raise ValueError(f"must be an integer, got {value!r}")
        if value < low or (high is not None and value > high):
            span = f">= {low}" if high is None else f"in {low}..{high}"
            raise ValueError(f"must be {span}, got {value}")
        return value

    parse.__doc__ = f"integer >= {low}" if high is None else f"integer {low}..{high}"
    return parse


def number(low: float, high: float, *, open_low: bool = False, open_high: bool = False) -> Parser:
    span = f"{'(' if open_low else '['}{low}, {high}{')' if open_high else ']'}"

    def parse(value: Any) -> float:
        if isinstance(value, bool):
            raise ValueError(f"must be a number, got {value!r}")
        try:
            number_ = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"must be a number, got {value!r}") from None
        too_low = number_ <= low if open_low else number_ < low
        too_high = number_ >= high if open_high else number_ > high
        if too_low or too_high or number_ != number_:
            raise ValueError(f"must be in {span}, got {value}")
        return number_

    parse.__doc__ = f"number in {span}"
    return parse


def boolean(value: Any) -> bool:
    """true or false"""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"must be true or false, got {value!r}")


def choice(*names: str) -> Parser:
    def parse(value: Any) -> str:
        text = str(value).strip()
        if isinstance(value, bool) or text not in names:
            raise ValueError(f"must be one of {', '.join(names)}; got {value!r}")
        return text

    parse.__doc__ = " | ".join(names)
    return parse


def overshoot(value: Any) -> Overshoot:
    """stay | win | bounce | land:K"""
    if isinstance(value, Overshoot):
        return value
    text = str(value).strip()
    if text in ("stay", "win", "bounce"):
        return Overshoot(text)
    if text.startswith("land:"):
        square = text[5:]
        if square.isdigit():
            return Overshoot("land", int(square))
    raise ValueError(f"must be stay, win, bounce or land:K with K a square; got {value!r}")


def probabilities(count: int) -> Parser:
    def parse(value: Any) -> tuple[float, ...]:
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, list | tuple) or len(items) != count:
            raise ValueError(f"must be {count} probabilities, got {value!r}")
        try:
            probs = tuple(float(x) for x in items)
        except (TypeError, ValueError):
            raise ValueError(f"must be {count} numbers, got {value!r}") from None
        if any(not p >= 0 for p in probs) or abs(sum(probs) - 1.0) > 1e-9:
            raise ValueError(f"must be non-negative and sum to 1, got {value!r}")
        return probs

    parse.__doc__ = f"{count} probabilities summing to 1"
    return parse


def dice_set(value: Any) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """table of die name = faces (set one die with --set dice.Name=f1,f2,...)"""
    if isinstance(value, tuple):
        return value
    if not isinstance(value, Mapping) or not value:
        raise ValueError("must be a table of dice, name = [faces]")
    dice = []
    for name, faces in value.items():
        items = faces.split(",") if isinstance(faces, str) else faces
        try:
            parsed = tuple(integer(0)(f) for f in items)
        except (TypeError, ValueError):
            raise ValueError(f"{name}: faces must be integers >= 0") from None
        if not parsed:
            raise ValueError(f"{name}: a die needs at least one face")
        if max(parsed) == 0:
            raise ValueError(f"{name}: every face is 0, so the die never moves the piece")
        if not name or len(name) > 5 or not name.isalnum():
            raise ValueError(f"name {name!r} must be 1 to 5 letters or digits")
        dice.append((name, parsed))
    return tuple(dice)


def _as_set(value: Any) -> str:
    """A value as ``--set`` takes it (``true``, not Python's ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def read_params(cls: type, layers: list[tuple[str, Mapping[str, Any]]], assignment: str) -> Any:
    """Merge parameter layers (later wins) into an instance of ``cls``.

    Each layer is ``(where, {key: value})``; ``where`` names its source in error messages. A
    key ``table.entry`` sets one entry of a table parameter (``dice.Red``).
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    raw: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for where, values in layers:
        for key, value in values.items():
            name, _, entry = key.partition(".")
            if name not in fields:
                known = ", ".join(fields) or "none"
                raise UsageError(
                    where, f"unknown parameter {name!r} for {assignment} (known: {known})"
                )
            if entry:
                table = raw.get(name, fields[name].default)
                table = dict(table) if isinstance(table, tuple | Mapping) else {}
                table[entry] = value
                value = table
            raw[name] = value
            origin[name] = where
    parsed = {}
    for name, value in raw.items():
        try:
            parsed[name] = fields[name].metadata["parse"](value)
        except ValueError as err:
            raise UsageError(origin[name], f"{name} {err}") from None
    made = cls(**parsed)
    # A setting given on the command line that the rules would ignore is a slip (a discount
    # without the discounted objective): said, not silently dropped. (An assignment's or a
    # board file's own value may wait for another layer to switch it on.)
    for name in raw:
        applies = fields[name].metadata.get("applies")
        if applies is None or not origin[name].startswith("--set "):
            continue
        other, wanted = applies
        if (now := getattr(made, other)) != wanted:
            want, have = _as_set(wanted), _as_set(now)
            raise UsageError(origin[name], f"{name} has no effect unless {other}={want} "
                             f"({other} is {have}): add --set {other}={want}")  # fmt: skip
    return made


def params_to_json(params: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        if isinstance(value, Overshoot):
            value = str(value)
        elif f.metadata.get("parse") is dice_set:
            value = {name: list(faces) for name, faces in value}
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def params_in_effect(params: Any) -> dict[str, Any]:
    """:func:`params_to_json` without the parameters that have no effect with the others'
    values (aimed's ``discount`` and ``reward`` under the ``turns`` objective), as a page or
    a summary lists the settings."""
    out = params_to_json(params)
    for f in dataclasses.fields(params):
        applies = f.metadata.get("applies")
        if applies is not None and getattr(params, applies[0]) != applies[1]:
            del out[f.name]
    return out


def describe(cls: type) -> list[tuple[str, str, str]]:
    """``(name, accepted values, help)`` for each parameter of ``cls``."""
    rows = []
    for f in dataclasses.fields(cls):
        parse = f.metadata["parse"]
        rows.append((f.name, (parse.__doc__ or "").strip(), f.metadata["help"]))
    return rows
