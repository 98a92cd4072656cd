"""``autograder list``: the assignments, with their parameters and defaults."""

from __future__ import annotations

import argparse
import json
import sys

from reference_solutions import describe_params, make_problem, params_to_json

from .. import assignment_names, no_assignments

HELP = "the assignments, with their parameters and defaults"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def list_text() -> str:
    names = assignment_names()
    if not names:
        raise no_assignments()
    lines = []
    for name in names:
        problem = make_problem(name)
        assignment = problem.assignment
        lines.append(f"{name:<14} {assignment.title}")
        if assignment.summary:
            lines.append(f"{'':<14} {assignment.summary}")
        defaults = params_to_json(problem.params)
        for param, accepts, help_ in describe_params(problem.rules.Params):
            value = defaults[param]
            shown = value if isinstance(value, str) else json.dumps(value)
            lines.append(f"    {param:<17}= {shown:<10} {help_} ({accepts})")
        lines.append("")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(list_text())
    return 0
