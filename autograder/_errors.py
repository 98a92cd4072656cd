"""Errors that reach a user as one line and a non-zero exit."""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any


class UsageError(Exception):
    """Bad input from a user: a board file, a parameter, an assignment name.

    ``where`` names the thing at fault (a file path, ``--set faces=0``); the command line
    prints ``where: message`` on one line and exits with status 2.
    """

    exit_code = 2

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message

    def located(self, where: str) -> UsageError:
        """The same problem, attributed to ``where`` when it had no location yet."""
        return self if self.where else type(self)(where, self.message)


class BoardError(UsageError):
    """A board or trap-lane layout breaks a rule of docs/rules.md."""


class GoalUnreachable(UsageError):
    """No policy reaches the goal from some state: the expected cost there is infinite."""


def decode_text(data: bytes, source: str, what: str, save_as: str, *,
                error: type = UsageError) -> str:  # fmt: skip
    """``data``, the bytes of the ``what`` ``source``, as UTF-8 text (after a byte-order
    mark, which editors and spreadsheets write); else one ``error`` saying how it was saved
    and where UTF-8 fails, so that it can be found, and to save it as ``save_as``."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise error(source, f"the {what} is UTF-16, not UTF-8; save it as {save_as}")
    if b"\0" in data:  # (no text holds one; UTF-16 without its mark holds many)
        raise error(source, f"the {what} holds NUL bytes, so it is not UTF-8 text (UTF-16 "
                    f"without a byte-order mark?); save it as {save_as}")  # fmt: skip
    skipped = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[skipped:].decode("utf-8")
    except UnicodeDecodeError as err:
        at = skipped + err.start
        line = data.count(b"\n", 0, at) + 1
        column = at - data.rfind(b"\n", 0, at)
        raise error(
            source,
            f"the {what} is not UTF-8: byte {column} of line {line} is {data[at]:#04x}; save "
            f"it as {save_as} (it may be Latin-1 or Windows-1252)",
        ) from None


def read_text(path: str | Path, what: str = "file", *, error: type = UsageError) -> str:
    """A UTF-8 file's text (:func:`decode_text`); a missing or unreadable file, or one that
    is not UTF-8, is one ``error`` naming it."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise error(str(path), f"no such {what}") from None
    except IsADirectoryError:
        raise error(str(path), f"is a folder, not a {what}") from None
    except OSError as err:
        raise error(str(path), f"cannot read the {what} "
                    f"({err.strerror or err.__class__.__name__})") from None  # fmt: skip
    return decode_text(data, str(path), what, "UTF-8", error=error)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError(f"the key {key!r} is given twice in one object")
    return dict(pairs)


def read_json(path: str | Path, what: str = "file", *, error: type = UsageError) -> Any:
    """A JSON file's data; a missing, unreadable or malformed file is one ``error``."""
    text = read_text(path, what, error=error)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as err:
        # (``msg`` is json's sentence up to where it names the place: "Invalid control
        # character at", "Expecting value")
        where = f"line {err.lineno}, column {err.colno}"
        raise error(str(path), f"not valid JSON ({where}: {err.msg.removesuffix(' at')})") from None
    except ValueError as err:  # (a key twice: the later would silently win)
        raise error(str(path), str(err)) from None
