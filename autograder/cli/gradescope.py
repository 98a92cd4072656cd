"""``autograder gradescope``: the Gradescope autograder, as the zip Gradescope asks for."""

from __future__ import annotations

import argparse
from pathlib import Path

import reference_solutions

from .. import VISIBILITIES, UsageError, build_gradescope
from ._options import add_course_option, add_isolation_option, add_timeout_option, path_name

HELP = "the Gradescope autograder zip"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    parser.add_argument(
        "--out", required=True, metavar="ZIP", type=path_name, help="e.g. autograder.zip"
    )
    parser.add_argument(
        "--manifest", metavar="FILE", type=path_name, help="grade students on their boards"
    )
    add_timeout_option(parser)
    parser.add_argument(
        "--hidden-visibility", default="after_due_date", choices=VISIBILITIES,
        help="when students see the hidden boards' results (default: after_due_date; "
        "hidden only where those boards are worth 0 points)",
    )  # fmt: skip
    add_isolation_option(parser)
    add_course_option(parser)


def run(args: argparse.Namespace) -> int:
    if Path(args.out).is_dir():  # (said before the export's work, not after)
        raise UsageError(args.out, "is a folder; give the zip's name (autograder.zip)")
    path = build_gradescope(
        args.assignment, args.out, packages=[grading_package()], manifest=args.manifest,
        timeout=args.timeout,
        hidden_visibility=args.hidden_visibility, isolation=args.isolation,
    )  # fmt: skip
    print(f"wrote {path}: upload it as the autograder of a Gradescope programming assignment")
    return 0


def grading_package() -> Path:
    """The answer keys' package folder, which an image carries beside the engine."""
    return Path(reference_solutions.__file__).resolve().parent
