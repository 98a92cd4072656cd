"""The command line: the one place where the engine (``autograder``) and the answer keys
(``reference_solutions``) meet. Each verb is a module of this package with ``HELP``,
``add_arguments(parser)`` and ``run(args) -> exit status``; the table below is the whole
dispatch."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from reference_solutions import solver_kind

from .. import UsageError
from . import (
    analyze,
    board,
    check,
    conformance,
    demo,
    examples,
    grade,
    gradescope,
    gradescope_run,
    handout,
    list_assignments,
    prairielearn,
    prairielearn_run,
    regrade,
    simulate,
    solve,
    starter,
    variants,
)
from ._options import course_settings

__all__ = ["VERBS", "main", "parser"]

VERBS: dict[str, ModuleType] = {
    "list": list_assignments,
    "solve": solve,
    "simulate": simulate,
    "analyze": analyze,
    "check": check,
    "grade": grade,
    "regrade": regrade,
    "board": board,
    "variants": variants,
    "gradescope": gradescope,
    "gradescope-run": gradescope_run,
    "prairielearn": prairielearn,
    "prairielearn-run": prairielearn_run,
    "starter": starter,
    "handout": handout,
    "demo": demo,
    "examples": examples,
    "conformance": conformance,
}


def _version() -> str:
    """The installed package's version (what a bug report should name), or "unknown" when
    the project runs from a checkout without being installed (Gradescope's copy)."""
    try:
        return importlib.metadata.version("chutes-autograder")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="autograder",
        description="Autograded Markov-decision-process assignments on Chutes and Ladders.",
    )
    top.add_argument("--version", action="version",
                     version=f"%(prog)s {_version()}; solver: {solver_kind()}")  # fmt: skip
    verbs = top.add_subparsers(dest="verb", required=True, metavar="COMMAND")
    for verb, module in VERBS.items():
        module.add_arguments(verbs.add_parser(verb, help=module.HELP))
    return top


def main(argv: Sequence[str] | None = None) -> int:
    top = parser()
    args, extra = top.parse_known_args(sys.argv[1:] if argv is None else argv)
    if extra:
        hint = ""
        if all("=" in word and not word.startswith("-") for word in extra):
            # ``--set a=1 b=2``: each setting needs its own --set.
            repeated = " ".join(f"--set {word}" for word in extra)
            hint = f" (one --set per parameter: {repeated})"
        top.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        with course_settings(getattr(args, "course", None)):
            return int(VERBS[args.verb].run(args))
    except UsageError as err:
        print(f"autograder: error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:
        # A file the command was told to read or write (a folder given for a file, a full
        # disk, no permission) that no verb checked first: still one line naming it.
        where = err.filename2 or err.filename
        if where is None:
            raise
        print(f"autograder: error: {os.fsdecode(where)}: {err.strerror or err}", file=sys.stderr)
        return 2
