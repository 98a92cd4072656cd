"""``autograder list``: the assignments, their parameters and defaults."""

from __future__ import annotations

import json

from ._assignments import assignment_names


def list_text() -> str:
    from reference_solutions import describe_params, make_problem, params_to_json

    lines = []
    for name in assignment_names():
        problem = make_problem(name)
        assignment = problem.assignment
        lines.append(f"{name:<14} {assignment.title}")
        if assignment.summary:
            lines.append(f"{'':<14} {assignment.summary}")
        defaults = params_to_json(problem.params)
        for param, accepts, help_ in describe_params(problem.rules.Params):
            shown = (
                json.dumps(defaults[param])
                if not isinstance(defaults[param], str)
                else (defaults[param])
            )
            lines.append(f"    {param:<17}= {shown:<10} {help_} ({accepts})")
        lines.append("")
    return "\n".join(lines)
