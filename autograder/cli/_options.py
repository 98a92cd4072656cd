"""Argument types and options that several verbs share."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from .. import graded_course
from .._errors import UsageError
from .._sandbox import LEVELS

__all__ = [
    "COURSE_OPTION_HELP",
    "add_board_options",
    "add_course_option",
    "add_isolation_option",
    "add_material_arguments",
    "add_output_options",
    "add_timeout_option",
    "batch_course",
    "count",
    "course_settings",
    "non_negative",
    "path_name",
    "refuse_to_replace",
    "write_output",
]


def non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def path_name(text: str) -> str:
    """A file or folder name as given; an empty one is refused (``Path("")`` is the
    current folder, which ``check`` or ``grade`` would then take for the one meant)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name; give a file or a folder")
    return text


def count(low: int, high: int | None) -> Callable[[str], int]:
    """An integer in ``low..high`` (no upper bound when ``high`` is None)."""
    span = f"an integer >= {low}" if high is None else f"an integer in {low}..{high:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {span}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {span}, got {text!r}")
        return value

    return parse


def add_timeout_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="time limit per board (default: TOML)"
    )


def add_board_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board",
        metavar="FILE",
        type=path_name,
        help="a board file (JSON) instead of the public board",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change a parameter (repeatable)",
    )


def add_material_arguments(parser: argparse.ArgumentParser) -> None:
    """What a verb that writes something for a student takes: the assignment, the board
    and parameters, and where to write."""
    parser.add_argument("assignment")
    add_board_options(parser)
    add_output_options(parser)


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """``-o FILE``, and ``--force`` to let it replace a file that is there."""
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    parser.add_argument("--force", action="store_true", help="replace the -o file if it exists")


def refuse_to_replace(path: str | None, force: bool, what: str) -> None:
    """Refuse to write ``what`` over the file ``path`` without ``--force``: a student's
    ``-o`` may name their own program (a handout written over a finished solution)."""
    if path and Path(path).exists() and not force:
        raise UsageError(path, f"exists, and {what} would replace it; use --force to replace it")


COURSE_SETTINGS = "AUTOGRADER_COURSE"
COURSE_OPTION_HELP = (
    "a course settings file (TOML: [late], [tolerance], [tests], [limits], for every "
    "assignment or as [ASSIGNMENT.late] ...) laid over the assignment's own; default: "
    "$AUTOGRADER_COURSE"
)


@contextlib.contextmanager
def course_settings(course: str | None) -> Iterator[None]:
    """``course`` (a settings file) as ``$AUTOGRADER_COURSE``, read wherever an assignment is
    loaded (in this process and in its workers), for the length of the block."""
    if not course:
        yield
        return
    if not Path(course).is_file():
        raise UsageError(f"--course {course}", "no such course settings file")
    before = os.environ.get(COURSE_SETTINGS)
    os.environ[COURSE_SETTINGS] = os.path.abspath(course)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(COURSE_SETTINGS, None)
        else:
            os.environ[COURSE_SETTINGS] = before


def batch_course(out: Path) -> str | None:
    """The course settings a batch in ``out`` was graded with, for a command that goes on
    with it (``regrade``, ``grade --resume``) and was given none (no ``--course``, no
    ``$AUTOGRADER_COURSE``): the batch is marked with the settings it began with, never
    quietly with the package's. ``None`` where it had none, or others are given."""
    if os.environ.get(COURSE_SETTINGS):
        return None
    course = graded_course(out)
    if course is None:
        return None
    if not Path(course).is_file():
        raise UsageError(
            course, "the course settings this batch was graded with are not there any more; "
            "give --course FILE to go on with these or others",
        )  # fmt: skip
    print(f"course settings: {course} (as the batch was graded)", file=sys.stderr)
    return course


def add_course_option(parser: argparse.ArgumentParser) -> None:
    """``--course FILE``: the command line sets ``$AUTOGRADER_COURSE`` from it
    (``autograder.cli.main``), so that every process of the command reads it."""
    parser.add_argument("--course", metavar="FILE", type=path_name, help=COURSE_OPTION_HELP)


def add_isolation_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--isolation", choices=("strongest", *LEVELS),
        help="how submissions are kept apart: namespace (bubblewrap), user (root switches to "
        "an unprivileged user), process (limits only); default: $AUTOGRADER_ISOLATION, else "
        "the strongest this machine allows",
    )  # fmt: skip


def write_output(text: str, path: str | None) -> None:
    """``text`` to the file ``path``, or to standard output."""
    if path:
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as err:
            raise UsageError(path, f"cannot be written ({err.strerror or err})") from None
    else:
        sys.stdout.write(text)
