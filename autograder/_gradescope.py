"""``autograder gradescope``: the Gradescope autograder, as the zip Gradescope asks for.

The zip holds ``setup.sh`` (run once when Gradescope builds its image: a Python 3.11+ venv
with this project installed from the copy inside the zip), ``run_autograder`` (run for
every submission) and ``gradescope.json`` (the assignment and the options chosen here). At
run time ``gradescope-run`` grades ``<root>/submission`` and writes
``<root>/results/results.json``. The root is ``/autograder`` on Gradescope and any folder
in a test.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._answers import AnswerSource, with_own_board
from ._assignments import Assignment, load_assignment
from ._cases import mistake_words
from ._errors import UsageError
from ._files import remove_temporaries, write_zip
from ._html import submission_fragment
from ._languages import language_names
from ._manifest import Manifest, StudentBoard, load_manifest
from ._platform import check_layout, grade_in_platform, run_job, visible_summary, write_results
from ._resources import package_data
from ._results import SubmissionResult
from ._sandbox import LEVELS
from ._shipping import project_members

__all__ = ["VISIBILITIES", "build_gradescope", "gradescope_results", "run_gradescope"]

CONFIG = "gradescope.json"
METADATA = "submission_metadata.json"
MANIFEST = "manifest.json"
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
# Boards not always visible, worth points, cannot be "hidden": Gradescope keeps a student's
# total from them while any test is hidden from them, but not for tests marked "hidden",
# "since they should only be used for tests which don't contribute points to the total"
# (its autograder specification, "Controlling Test Case Visibility").
POINTS_HIDDEN = "hidden"


def build_gradescope(
    name: str,
    out: str | Path,
    *,
    packages: Sequence[Path],
    manifest: str | Path | None = None,
    timeout: float | None = None,
    hidden_visibility: str = "after_due_date",
    isolation: str | None = None,
) -> Path:
    """Write the Gradescope autograder zip of assignment ``name`` to ``out``, carrying the
    engine and the grading side's ``packages`` (folders) as they are installed here. With a
    ``manifest``, each student is graded on their own board, found by email or student id."""
    assignment = load_assignment(name)  # an unknown one is reported before anything is written
    if hidden_visibility not in VISIBILITIES:
        raise UsageError(
            f"--hidden-visibility {hidden_visibility}", f"expected one of {', '.join(VISIBILITIES)}"
        )
    if isolation not in (None, "strongest", *LEVELS):
        raise UsageError(f"--isolation {isolation}", f"expected one of {', '.join(LEVELS)}")
    if timeout is not None:
        assignment.limits.with_timeout(timeout)  # a bad --timeout is reported here
    if hidden_visibility == POINTS_HIDDEN:
        _refuse_hidden_points(assignment)
    variants = load_manifest(manifest, name) if manifest is not None else None
    if variants is not None and not variants.students:
        raise UsageError(str(manifest), "has no student with a usable board")
    config = {
        "assignment": name,
        "manifest": MANIFEST if variants is not None else None,
        "timeout": timeout,
        "hidden_visibility": hidden_visibility,
        # None: the strongest level the Gradescope machine allows, found at each run.
        "isolation": isolation if isolation != "strongest" else None,
        # setup.sh installs a JDK where Java submissions are graded (any assignment, with
        # the shipped languages.toml); Gradescope's images have none, and every Java
        # submission would be told so.
        "java": "java" in language_names(),
    }
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)

    scripts = package_data("autograder", "gradescope")
    members = [(script, (scripts / script).read_bytes(), 0o755)
               for script in ("setup.sh", "run_autograder")]  # fmt: skip
    members.append((CONFIG, (json.dumps(config, indent=1) + "\n").encode(), 0o644))
    if variants is not None:
        members.append(
            (MANIFEST, (json.dumps(variants.to_json(), indent=1) + "\n").encode(), 0o644)
        )
    members += project_members(packages)  # (read whole before the zip is begun)
    remove_temporaries(out.parent)  # what a build killed in mid-write left
    write_zip(out, members)
    return out


def _refuse_hidden_points(assignment: Assignment) -> None:
    plan = assignment.tests
    shown = set(plan.public_edge_boards)
    points = plan.hidden_boards * plan.hidden_points
    points += sum(plan.edge_points for edge in plan.edge_boards if edge not in shown)
    if points > 0:
        raise UsageError(
            f"--hidden-visibility {POINTS_HIDDEN}",
            f"the boards students do not see are worth {points:g} points, and Gradescope "
            "shows a student's total through tests marked hidden (they are meant for tests "
            "worth nothing), so the total would give their results away; use after_due_date "
            "or after_published, or make those boards worth 0 ([tests] hidden_points and "
            "edge_points in a course settings file)",
        )


# --- inside Gradescope ---------------------------------------------------------------------


def _users(root: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads((root / METADATA).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    users = data.get("users") if isinstance(data, dict) else None
    return [u for u in users if isinstance(u, dict)] if isinstance(users, list) else []


def _who(user: dict[str, Any]) -> list[str]:
    keys = [user.get(k) for k in ("sid", "student_id", "email")]
    return [str(k) for k in keys if k not in (None, "")]


def _label(user: dict[str, Any]) -> str:
    return str(user.get("name") or user.get("email") or user.get("sid") or "a member")


def _own_board(manifest: Manifest, users: list[dict[str, Any]]) -> tuple[StudentBoard | None, str]:
    """The board a submission is graded on, and what the student is told of it. A group
    (several users) is graded on one board: its first member's, in Gradescope's order,
    that the manifest has. Every member reads whose board that is, and which members have
    another board or none, since they may have worked on another."""
    found = [(user, manifest.find(*_who(user))) for user in users]
    owner, entry = next(((u, e) for u, e in found if e is not None), (None, None))
    if owner is None or entry is None:
        return None, ""
    if len(users) < 2:
        return entry, f"Graded on your own board ({entry.id})."
    note = [f"Group submission: the whole group is graded on the board of {_label(owner)} "
            f"({entry.id}), its first member with a board."]  # fmt: skip
    others = [f"{_label(u)} ({e.id})" for u, e in found if e is not None and e.id != entry.id]
    if others:
        note.append(f"{_joined(others)} {'has' if len(others) == 1 else 'have'} another "
                    "board, which this submission was not graded on.")  # fmt: skip
    nobody = [_label(u) for u, e in found if e is None]
    if nobody:
        note.append(f"No board was made for {_joined(nobody)}.")
    return entry, " ".join(note)


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# When the boards that are not always visible show, as the summary tells the student.
_SHOWN = {
    "after_due_date": "are shown after the due date",
    "after_published": "are shown when the grades are published",
    "hidden": "are not shown here",
}


def gradescope_results(
    result: SubmissionResult, hidden_visibility: str, note: str = "", page: str = ""
) -> dict[str, Any]:
    """``results.json`` for Gradescope: one test per board. Hidden boards show at
    ``hidden_visibility``; only a visible board's output may hold what the program printed
    (as ``run_gradescope`` grades it). ``page``: the HTML report (``submission_fragment``),
    shown above the tests; each test's output stays text.

    Gradescope shows the top-level ``output`` to the student at once, whatever the tests'
    visibility, so it counts only the boards always visible; a student who could read there
    how the others went could learn, one resubmission at a time, what passes them. The
    top-level ``score`` counts every board: Gradescope hides a student's total score while
    any test is hidden from them (its autograder specification, "Controlling Test Case
    Visibility")."""
    tests = []
    for test in result.tests:
        tests.append(
            {
                "name": test.title,
                "score": test.score,
                "max_score": test.max_score,
                "status": "passed" if test.status == "passed" else "failed",
                "output": "\n".join(test.feedback),
                "output_format": "text",
                "visibility": "visible" if test.visible else hidden_visibility,
            }
        )
    lines = [note] if note else []
    lines += [f"problem: {p}" for p in result.problems]
    later = _SHOWN.get(hidden_visibility, "are shown later")
    lines += visible_summary(result, hidden_visibility == "visible", f"whose results {later}")
    results: dict[str, Any] = {
        "score": result.score,
        "output": "\n".join(lines),
        "visibility": "visible",
        # What run_autograder prints (staff detail below) is for the instructors only.
        "stdout_visibility": "hidden",
        "tests": tests,
    }
    if page:
        said = "".join(f"<p>{html.escape(line)}</p>\n" for line in lines)
        results.update(output=said + page, output_format="html")
    return results


def run_gradescope(answers: AnswerSource, root: str | Path = "/autograder") -> dict[str, Any]:
    """Grade ``<root>/submission`` as ``<root>/source/gradescope.json`` says, on the cases
    of ``answers``, and write ``<root>/results/results.json``. A failure of the grader itself
    still writes a result that tells the student, and the traceback goes to the staff's
    log."""
    root = Path(root)
    check_layout(root, "Gradescope", [(f"source/{CONFIG}", "file"), ("submission", "folder")],
                 f"source/{CONFIG} (the autograder zip, unpacked) and submission/ (the "
                 "student's files)")  # fmt: skip
    results, took = run_job(
        lambda: _grade(root, answers),
        {
            "score": 0.0,
            "output": "The autograder failed on this submission, so it was not graded. "
            "The course staff can see why; resubmit or contact them.",
            "stdout_visibility": "hidden",
            "tests": [],
        },
    )
    results["execution_time"] = round(took, 3)
    write_results(root, results)
    return results


def _grade(root: Path, answers: AnswerSource) -> dict[str, Any]:
    source = root / "source"
    config = json.loads((source / CONFIG).read_text(encoding="utf-8"))
    name = config["assignment"]
    assignment = load_assignment(name)
    limits = assignment.limits
    if config.get("timeout"):
        limits = limits.with_timeout(float(config["timeout"]))
    cases = answers.cases(assignment)
    users = _users(root)
    student = ", ".join(str(u.get("email") or u.get("name") or "?") for u in users) or "submission"
    note = ""
    if config.get("manifest"):
        manifest = load_manifest(source / config["manifest"], name)
        entry, note = _own_board(manifest, users)
        if entry is None:
            keys = [key for user in users for key in _who(user)]
            who = ", ".join(keys) or "no email or student id in the submission metadata"
            print(f"no board in the manifest for {who}")
            return {
                "score": 0.0,
                "output": (
                    f"No board was made for you ({who}), so this submission could not be "
                    "graded. Ask the course staff to add you to the roster of variants."
                ),
                "stdout_visibility": "hidden",
                "tests": [],
            }
        student = entry.id
        cases = with_own_board(answers.own_board_case(assignment, entry.board), cases)
        print(note)
    # The program gets a copy of the submission; everything else under the root (answers,
    # metadata about other submissions, the results) stays out of its reach.
    hidden = [root / "source", root / "results", root / "submission", root / METADATA]
    result = grade_in_platform(
        answers, assignment, root / "submission", cases, student=student, limits=limits,
        isolation=config.get("isolation"), hidden=hidden,
    )  # fmt: skip
    page = submission_fragment(result, assignment, mistake_words(cases))
    results = gradescope_results(
        result, config.get("hidden_visibility", "after_due_date"), note, page
    )
    results["extra_data"] = {"isolation": result.isolation}
    return results
