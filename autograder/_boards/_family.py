"""What a kind of board is, and the registry the kinds are found in by name.

A board family knows how its board files are written and checked, how to describe a board
in a few words, which edge boards a test plan may name, and how an assignment's
``[variants]`` section says each student's board is drawn. Drawing boards at random is the
grading side's business (``reference_solutions``); nothing here solves a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .._errors import BoardError, read_json
from .._registry import Registry
from ._picture import BoardPicture

__all__ = [
    "Board",
    "BoardFamily",
    "LoadedBoard",
    "VariantPlan",
    "board_family",
    "describe_board",
    "family_names",
    "load_board",
    "parse_board",
    "register_family",
]


@runtime_checkable
class Board(Protocol):
    """What a board of any family is: frozen data that writes its own board file. Code that
    needs more of it (a jump board's goal) asks for its family's type."""

    def to_json(self) -> dict[str, Any]: ...


# A family's ``[variants]`` plan: a frozen dataclass of its own (``BoardFamily.plan_type``).
VariantPlan = Any


@dataclass(frozen=True)
class LoadedBoard:
    """A board read from a file, with the parameters the file may carry (trap lane)."""

    board: Any
    params: Mapping[str, Any]
    source: str


class BoardFamily:
    """One kind of board. Subclasses set the class attributes and the methods."""

    name: str
    # Names of the edge boards a test plan may list, in the order a plan shows them.
    edge_boards: tuple[str, ...] = ()
    # The dataclass ``[variants]`` is read into (``read_plan``).
    plan_type: type

    def parse(self, data: dict[str, Any], source: str) -> LoadedBoard:
        """Validate decoded JSON (or TOML) ``data``; a broken board is a
        :class:`BoardError` that says which rule it breaks."""
        raise NotImplementedError

    def describe(self, data: Mapping[str, Any]) -> str:
        """A few words on a board file's data, for titles."""
        raise NotImplementedError

    def edge_board(self, name: str, public: Any) -> dict[str, Any]:
        """The board file data of edge case ``name``, sized like the ``public`` board."""
        raise NotImplementedError

    def board_file(self, board: Any, params: Mapping[str, Any]) -> dict[str, Any]:
        """The board file a program is given for ``board`` under parameters ``params``."""
        return dict(board.to_json())

    def read_plan(self, section: dict[str, Any], where: str) -> Any:
        """The ``[variants]`` section as a ``plan_type``; a problem is a ``UsageError``."""
        raise NotImplementedError

    def picture(self, board: Any, params: Mapping[str, Any]) -> BoardPicture | None:
        """Where each square is drawn, in board order; ``None`` for a board too large to
        draw square by square (reports then say so and list the numbers)."""
        raise NotImplementedError


def reject_unknown(data: Mapping[str, Any], known: set[str], source: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise BoardError(
            source, f"unknown key {unknown[0]!r} (a board has {', '.join(sorted(known))})"
        )


_FAMILIES: Registry[BoardFamily] = Registry("board family")


def register_family(family: BoardFamily) -> BoardFamily:
    """Make ``family`` known under its name (an assignment's TOML names it)."""
    return _FAMILIES.register(family)


def board_family(name: str) -> BoardFamily:
    """The family registered as ``name``; ``ValueError`` for an unknown one."""
    return _FAMILIES.get(name)


def family_names() -> list[str]:
    return _FAMILIES.names()


def parse_board(data: object, family: str, source: str) -> LoadedBoard:
    """Validate decoded JSON (or TOML) ``data`` as a board of ``family``."""
    if not isinstance(data, dict):
        raise BoardError(source, "a board must be a JSON object")
    try:
        return board_family(family).parse(data, source)
    except BoardError as err:
        raise err.located(source) from None


def load_board(path: str | Path, family: str) -> LoadedBoard:
    """Read and validate a board file; every problem is a one-line :class:`BoardError`."""
    data = read_json(path, error=BoardError)
    return parse_board(data, family, str(path))


def describe_board(data: Mapping[str, Any], family: str) -> str:
    """A few words on a board file's data (size and jumps, or traps), for titles."""
    return board_family(family).describe(data)
