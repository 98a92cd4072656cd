"""Errors that reach a user as one line and a non-zero exit."""

from __future__ import annotations


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
    """A board or trap-lane layout breaks a rule of RULES.md."""


class GoalUnreachable(UsageError):
    """No policy reaches the goal from some state: the expected cost there is infinite."""
