"""``autograder conformance``: what every assignment must satisfy, checked on one (or all):
the reference program scores full marks, the starter 0, the solvers and a simulation agree,
the handout renders, the bundled check works."""

from __future__ import annotations

import argparse
import sys

from reference_solutions import CHECKS, check_assignment

from .. import assignment_names, load_assignment, no_assignments

HELP = "check that an assignment meets every promise the project makes (slow: it grades)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignments", nargs="*", metavar="ASSIGNMENT", help="default: all")
    parser.add_argument(
        "--check", action="append", choices=tuple(CHECKS), help="only this check (repeatable)"
    )


def run(args: argparse.Namespace) -> int:
    names = args.assignments or assignment_names()
    if not names:
        raise no_assignments()
    for name in names:
        load_assignment(name)  # an unknown name is reported before any work
    ok = True
    for name in names:
        report = check_assignment(name, args.check)
        sys.stdout.write(report.text())
        ok &= report.ok
    return 0 if ok else 1
