"""``autograder examples``: a practice folder of an assignment's sample submissions (right
ones in several styles, typical mistakes, one that never ends, one that crashes), to grade
as a folder is graded; or, with ``--roster``, the sample roster ``variants`` takes."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from reference_solutions import examples_dir

from .. import UsageError, load_assignment, render_examples
from ._options import path_name

HELP = "write an assignment's sample submissions into a folder, to practise grading on"
ROSTER = "roster.csv"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment", nargs="?", help="the assignment (not with --roster)")
    parser.add_argument(
        "-o", "--output", metavar="PATH", type=path_name,
        help="the folder to write (default: ./<assignment>-examples); with --roster, the "
        "file (default: standard output)",
    )  # fmt: skip
    parser.add_argument(
        "--force", action="store_true", help="write into a folder (or over a file) that exists"
    )
    parser.add_argument(
        "--roster", action="store_true", help="the sample roster (CSV, as an LMS exports it)"
    )


def run(args: argparse.Namespace) -> int:
    if args.roster:
        if args.assignment:
            raise UsageError("--roster", "takes no assignment: the roster serves every one")
        return _roster(args.output, args.force)
    if not args.assignment:
        raise UsageError("examples", "name an assignment (autograder list), or give --roster")
    assignment = load_assignment(args.assignment)
    out = Path(args.output or f"{assignment.name}-examples")
    if out.exists() and not out.is_dir():
        raise UsageError(str(out), "is a file; give a folder for the examples")
    if out.is_dir() and any(out.iterdir()) and not args.force:
        raise UsageError(
            str(out), "exists and is not empty; use --force to write the examples into it"
        )
    made = render_examples(assignment, out, examples_dir())
    if not made:
        raise UsageError(args.assignment, "has no sample submissions")
    names = ", ".join(path.name for path in made)
    print(f"wrote {len(made)} sample submissions of {assignment.name} to {out}: {names}")
    print(f"grade them as a folder: autograder grade {assignment.name} {out}")
    return 0


def _roster(output: str | None, force: bool) -> int:
    source = examples_dir() / ROSTER
    if output is None:
        print(source.read_text(encoding="utf-8"), end="")
        return 0
    target = Path(output)
    if target.is_dir():
        raise UsageError(output, "is a folder; give the roster's file name (roster.csv)")
    if target.exists() and not force:
        raise UsageError(output, "exists; use --force to replace it")
    shutil.copyfile(source, target)
    print(f"wrote {target}: a sample roster for autograder variants --roster {target}")
    return 0
