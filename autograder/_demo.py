"""The main job on the bundled material: every assignment's example submissions graded as
a teaching assistant grades a folder, and the gradebook."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ._answers import AnswerSource
from ._assignments import assignment_names, load_assignment, no_assignments
from ._batch import grade_folder
from ._examples import render_examples

__all__ = ["DEMO_TIMEOUT", "demo_text"]

DEMO_TIMEOUT = 3.0  # seconds per board: the endless examples need not hold the demo up
# ...or a quarter of the assignment's own limit where that is more (plain loops over every
# pair of squares take a few seconds where one square's take a fraction of one).
DEMO_SHARE = 0.25


def demo_text(
    answers: AnswerSource,
    examples: Path,
    names: Sequence[str] | None = None,
    workers: int = 2,
    progress: TextIO | None = None,
) -> tuple[str, bool]:
    """The gradebook of the examples, and whether grading went through without a grader
    error (a student's crash or timeout is a result, not an error). ``examples``: the
    folder of each assignment's examples (``render_examples``). ``progress``: where to
    say which assignment is being graded (a bar too, on a terminal), as ``grade`` does."""
    names = list(names or assignment_names())
    if not names:
        raise no_assignments()
    lines: list[str] = []
    isolation = ""
    ok = True
    with tempfile.TemporaryDirectory(prefix="autograder-demo-") as tmp:
        for name in names:
            assignment = load_assignment(name)
            folder = Path(tmp) / name
            made = render_examples(assignment, folder / "submissions", examples)
            if not made:  # (a course's own assignment, with no examples of its own)
                lines += [f"== {name}: {assignment.title}", "  no example submissions", ""]
                continue
            if progress is not None:
                progress.write(f"grading the {len(made)} examples of {name}\n")
                progress.flush()
            batch = grade_folder(
                name,
                folder / "submissions",
                folder / "results",
                answers=answers,
                workers=workers,
                limits=assignment.limits.with_timeout(
                    max(DEMO_TIMEOUT, DEMO_SHARE * assignment.limits.timeout)
                ),
                progress=progress,
            )
            isolation = isolation or batch.isolation
            lines.append(f"== {name}: {assignment.title}")
            lines.append(f"  {'submission':<28} {'score':>7}  boards")
            for r in batch.results:
                tests = " ".join(f"{t.name}={t.status}" for t in r.tests) or "; ".join(r.problems)
                lines.append(f"  {r.student:<28} {r.score:>7.2f}  {tests}")
                ok &= not any(p.startswith("grader error") for p in r.problems)
            lines.append("")
    head = [f"isolation: {isolation}", ""] if isolation else []
    return "\n".join(head + lines), ok
