"""``autograder demo``: the main job on the bundled material.

Until the grading loop lands (issue 3) the demo solves every assignment on its public board
and checks each against the self-check value its configuration carries.
"""

from __future__ import annotations

from ._assignments import assignment_names


def demo_text() -> tuple[str, bool]:
    from reference_solutions import make_problem, solve_problem

    lines = [f"{'assignment':<14} {'start value':>12} {'self-check':>10}  result"]
    ok = True
    for name in assignment_names():
        problem = make_problem(name)
        solution = solve_problem(problem)
        check = problem.assignment.self_check
        if check is None:
            verdict, shown = "solved (no published self-check)", "-"
        else:
            agrees = problem.assignment.self_check_holds(solution.start_value)
            ok &= agrees
            verdict, shown = ("matches" if agrees else "MISMATCH"), check
        lines.append(f"{name:<14} {solution.start_value:>12.4f} {shown:>10}  {verdict}")
    return "\n".join(lines) + "\n", ok
