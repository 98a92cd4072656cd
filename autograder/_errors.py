"""Errors that reach a user as one line and a non-zero exit."""

from __future__ import annotations

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


def read_text(
    path: str | Path, what: str = "file", *, encoding: str = "utf-8", error: type = UsageError
) -> str:
    """A file's text; a missing or unreadable file is one ``error`` naming it."""
    try:
        return Path(path).read_text(encoding=encoding)
    except FileNotFoundError:
        raise error(str(path), f"no such {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise error(str(path), f"cannot read the {what} ({err.__class__.__name__})") from None


def read_json(path: str | Path, what: str = "file", *, error: type = UsageError) -> Any:
    """A JSON file's data; a missing, unreadable or malformed file is one ``error``."""
    text = read_text(path, what, error=error)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise error(str(path), f"not valid JSON (line {err.lineno}: {err.msg})") from None
