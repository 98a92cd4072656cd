"""What one run of a program on one board earns: its status, its score and the lines the
student reads (and the lines only staff read)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import _texts
from ._answer import Entry
from ._answers import Judge, PolicyCost, PolicyJudge
from ._assignments import CREDIT_BY_SQUARE, Assignment, Limits, PolicyGrading
from ._cases import TestCase
from ._diagnose import diagnose, goal_value, printed_places
from ._formats import Printed
from ._parse import OutputError, parse_output
from ._plain import printable
from ._results import TestResult, TestStatus
from ._run import Run
from ._run_folder import FOLDER_FILES, FOLDER_MB
from ._score import Wrong

__all__ = ["drawn_entries", "grade_output", "printed_policy", "same_everywhere", "verdict"]


def _stderr_lines(run: Run, folder: Path | None = None) -> list[str]:
    text = run.stderr_tail.decode("utf-8", errors="replace").rstrip()
    if folder is not None:  # tracebacks name the temporary folder; the student's file is enough
        text = text.replace(f"{folder}/", "")
    lines = text.splitlines()[-_texts.STDERR_LINES :]
    return [printable(line) for line in lines]


def _failed_run(
    run: Run, stderr: list[str], limits: Limits, hidden: bool = False
) -> tuple[TestStatus, str]:
    """``(status, one-line explanation)`` for a run that produced no usable output."""
    if run.status == "memory-limit" or run.out_of_memory:
        # Its control group's ceiling (shared memory counts too), whatever came after.
        return "crashed", _texts.out_of_memory(limits.memory_mb)
    if run.status == "timeout":
        return "timeout", _texts.time_limit(limits.timeout)
    if run.status == "cpu-limit":
        return "timeout", _texts.cpu_limit(limits.cpu)
    if run.status == "output-limit":
        return "output-limit", _texts.output_limit(limits.output_kb)
    if run.status == "folder-limit":
        return "crashed", _texts.folder_limit(FOLDER_MB, FOLDER_FILES)
    reason = _texts.crash_reason(
        run.returncode or 0, run.signal_name, stderr,
        cpu_seconds=limits.cpu, memory_mb=limits.memory_mb, hidden=hidden,
    )  # fmt: skip
    return "crashed", reason


# Said of a printed action that is no choice of the game, where the action itself may not
# be repeated: it is the program's text.
_NOT_A_CHOICE = ("policy: an action printed is not one of the choices on its square, so the "
                 "policy cannot be evaluated.")  # fmt: skip


def _policy_lines(cost: PolicyCost, quote: bool = True) -> list[str]:
    """What a visible board says of a printed policy's cost. ``quote`` false: nothing the
    program printed (an action that is no choice) is repeated."""
    if cost.problem:
        return [f"policy: {cost.problem}" if quote else _NOT_A_CHOICE]
    unit = "value" if cost.maximize else "turns"
    if cost.cost is None:
        where = f" (it can get caught on {cost.stuck})" if cost.stuck else ""
        return [f"policy: your policy never reaches the goal{where}; the best needs "
                f"{cost.best:.2f} {unit} from the start."]  # fmt: skip
    needs = "is worth" if cost.maximize else "needs"
    return [f"policy: your policy {needs} {cost.cost:.2f} {unit} from the start; "
            f"the best {needs} {cost.best:.2f}."]  # fmt: skip


def _hidden_policy_lines(cost: PolicyCost, full_gap: float) -> list[str]:
    """What a hidden board says of a printed policy: whether it is as good as the best,
    worse, or never finishes, with no cost (the best one is an expected value of the board)
    and no square."""
    if cost.problem:
        return [_NOT_A_CHOICE]
    if cost.cost is None:
        return ["policy: your policy never reaches the goal (it can get caught on a square "
                "it leads to)."]  # fmt: skip
    if cost.gap <= full_gap:
        return ["policy: your policy is as good as the best from the start."]
    worse = "is worth less" if cost.maximize else "needs more turns"
    return [f"policy: your policy {worse} from the start than the best one."]


# The longest printed action a report keeps: the program's text, on a square of a picture.
_KEPT_ACTION = 24


def drawn_entries(
    printed: Printed, entries: Sequence[Entry], wrong: Sequence[Wrong]
) -> dict[str, list[Any]]:
    """``TestResult.entries``: each entry printed against expected, as a report draws it."""
    counted = {w.key for w in wrong}
    drawn: dict[str, list[Any]] = {}
    for entry in entries:
        if entry.accepted is not None:
            action = printed.actions.get(entry.key)
            shown = None if action is None else action[:_KEPT_ACTION]
            drawn[entry.key] = [shown, sorted(entry.accepted), entry.key in counted]
        else:
            value = printed.numbers.get(entry.key)
            # NaN and the infinities go as text ("nan"): JSON has no number for them, and
            # the page says what was printed, as the text feedback does.
            kept = value if value is None or math.isfinite(value) else str(value)
            drawn[entry.key] = [kept, entry.value, entry.tolerance, entry.key in counted]
    return drawn


def printed_policy(printed: Printed) -> dict[int, str]:
    """The action printed on each square (action keys are ``"<square>:<what>"``)."""
    policy = {}
    for key, action in printed.actions.items():
        square, _, _ = key.partition(":")
        if square.isdigit():
            policy[int(square)] = action
    return policy


def _right_before_it_stopped(run: Run, case: TestCase, value_tolerance: float) -> bool:
    """Whether what a run that failed had printed is the whole answer, all of it right
    (a program that printed its answer, then raised or called ``sys.exit(3)``, or hung)."""
    try:
        printed = parse_output(run.stdout.decode("utf-8", errors="replace"), case.expected)
    except OutputError:
        return False
    marked = diagnose(printed, case.expected, value_tolerance).mark
    return marked.total > 0 and marked.right == marked.total


def verdict(
    case: TestCase,
    run: Run,
    limits: Limits,
    value_tolerance: float,
    folder: Path,
    quote_output: bool = True,
    *,
    policy: PolicyJudge | None = None,
    policy_grading: PolicyGrading = CREDIT_BY_SQUARE,
    shown: int | None = _texts.SHOWN_WRONG,
) -> TestResult:
    """The result of ``run``, the program's run on ``case`` in ``folder`` under ``limits``;
    printed values count within ``value_tolerance``. ``policy`` evaluates a printed policy
    (the grading side's; none in a student's check), which ``policy_grading`` says how to
    credit. ``shown``: wrong entries listed on a visible board (``None``: all)."""
    seconds = round(run.seconds, 3)
    stderr = _stderr_lines(run, folder)
    staff_stderr = tuple([_texts.STDERR_HEADING, *stderr]) if stderr else ()

    def result(
        status: TestStatus,
        feedback: Sequence[str],
        score: float = 0.0,
        right: int = 0,
        total: int = 0,
        staff: tuple[str, ...] = staff_stderr,
        **seen: Any,
    ) -> TestResult:
        return TestResult(case.name, case.title, score, case.points, case.visible, status,
                          right, total, seconds, tuple(feedback), staff, **seen)  # fmt: skip

    # A program is handed its board, so whatever of the feedback it steers (which entries
    # are wrong, what it prints, how it fails) could spell that board out. On a hidden board
    # the student reads about what share of the entries is right, the mistake named and the
    # kind of failure; the staff lines keep the detail.
    hidden = not case.visible
    if run.status != "exited" or run.returncode != 0:
        failed, why = _failed_run(run, stderr, limits)
        if hidden:
            said = _failed_run(run, stderr, limits, hidden=True)[1]
            return result(
                failed, [said], staff=staff_stderr if said == why else (why, *staff_stderr)
            )
        feedback = [why]
        if _right_before_it_stopped(run, case, value_tolerance):
            # (a visible board only: what it printed is the student's to see there)
            feedback.append(_texts.right_but_stopped(failed))
        if quote_output and stderr and failed == "crashed":
            feedback += [_texts.STDERR_HEADING, *stderr]
        return result(failed, feedback)
    text = run.stdout.decode("utf-8", errors="replace")
    # What a program printed on a hidden board may hold that board (a program can echo its
    # input), so it is quoted back only on visible boards, and never where it is turned off.
    quote = quote_output and case.visible
    try:
        printed = parse_output(text, case.expected, quote=quote)
    except OutputError as err:
        if not text.strip():
            return result("unreadable", [case.expected.format.printed_nothing], output=text)
        if hidden:
            return result("unreadable", [_texts.hidden_unreadable(err.message)],
                          staff=(_texts.unreadable(err), *staff_stderr), output=text)  # fmt: skip
        return result("unreadable", [_texts.unreadable(err)], output=text)
    expected = case.expected
    judge = policy if isinstance(policy, Judge) else None
    explain = None if judge is None else (lambda: judge.explain(case, printed))
    found = diagnose(printed, expected, value_tolerance, explain, printed_places(text))
    marked = found.mark
    wrong = marked.wrong
    fraction, right = marked.fraction, marked.right
    cost = policy(case, printed_policy(printed)) if policy is not None else None
    actions = sum(e.is_action for e in expected.entries(value_tolerance))
    values = marked.total - actions
    values_right = values - sum(w.truth is not None for w in wrong)
    action_credit = (actions - sum(w.truth is None for w in wrong)) / actions if actions else 0.0
    if cost is not None and policy_grading.credit == "cost":
        # The actions earn together what the policy's cost earns; an action entry is
        # graded per square only where no exact cost is at hand (a student's check).
        action_credit = 0.0 if cost.problem else policy_grading.credit_for(cost.gap)
        wrong = tuple(w for w in wrong if w.truth is not None)
        right = values_right + (actions if action_credit == 1.0 else 0)
        marked = dataclasses.replace(marked, right=right, wrong=wrong)
    if cost is not None and cost.cost is None and not cost.problem:
        action_credit = 0.0  # a policy that can never finish the game is worth nothing
    if actions and values:
        # The values and the policy are worth half the board each (docs/rules.md, "Partial
        # credit"), however many squares have an action to grade.
        fraction = 0.5 * values_right / values + 0.5 * action_credit
    score = round(case.points * fraction, 4)
    status: TestStatus = (
        "passed" if right == marked.total else "partial" if fraction > 0 else "wrong"
    )
    counts = _texts.entries_right(right, marked.total)
    detail: list[str] = []
    if case.self_check is not None:
        detail.append(expected.format.self_check_line(case.self_check, printed.numbers))
    detail += found.lines
    if cost is not None:
        # On a hidden board these lines go to the staff alone, who may read what was printed.
        detail += _policy_lines(cost, quote or hidden)
    detail += [f"warning: {w}" for w in printed.warnings]
    goal = goal_value(expected)
    listing = marked.listing(quote, shown if case.visible else _texts.SHOWN_WRONG, goal)
    if case.visible:
        feedback = [counts, *detail, *listing]
        staff: tuple[str, ...] = staff_stderr
    else:
        # No self-check (it is the board's own first value), no listing, and no count of
        # entries: their total is the board's size, and the count right is the program's.
        feedback = [_texts.hidden_entries_right(right, marked.total), *found.hidden_lines]
        if cost is not None:
            feedback += _hidden_policy_lines(cost, policy_grading.full_gap)
        feedback += [f"warning: {w}" for w in _texts.hidden_warnings(printed.warnings)]
        staff = (counts, *detail, *listing, *staff_stderr)
    convention = found.reading.name if found.reading is not None else ""
    drawn: dict[str, Any] = {}
    # The picture shows what was printed, so it is kept only where the feedback may quote it.
    if quote:
        reading = found.reading
        entries = (
            expected.entries(value_tolerance)
            if reading is None
            else expected.entries_of(reading.answer, reading.accepted, value_tolerance)
        )
        drawn = {"board": case.board, "entries": drawn_entries(printed, entries, marked.wrong)}
    return result(status, feedback, score=score, right=right, total=marked.total, staff=staff,
                  mistakes=found.mistakes, wrong=tuple(w.label for w in marked.wrong),
                  convention=convention, output=text, **drawn)  # fmt: skip


def grade_output(
    case: TestCase,
    text: str,
    assignment: Assignment,
    *,
    policy: PolicyJudge | None = None,
    shown: int | None = _texts.SHOWN_WRONG,
) -> TestResult:
    """What the grader makes of ``text``, printed on ``case``'s board by a program that then
    exited normally: the same verdict, without running anything (conformance checks and
    tests grade answers written out this way)."""
    run = Run("exited", 0, text.encode(), b"", 0.0)
    return verdict(case, run, assignment.limits, assignment.value_tolerance, Path("."),
                   policy=policy, policy_grading=assignment.policy_grading,
                   shown=shown)  # fmt: skip


# Said of a board where the program printed what it printed on other boards whose answers
# differ: it does not solve the board it is given.
HARD_CODED = "hard-coded"


def same_everywhere(
    results: Sequence[TestResult],
    outputs: Mapping[str, str],
    cases: Mapping[str, TestCase],
) -> list[TestResult]:
    """``results`` with each board not passed named "hard-coded" where the program printed
    the very same output (``outputs``, by case name) on other boards whose answers differ
    (``cases``, by name), unless one mistake explains it on every such board: a program
    that ignores the traps prints one answer for every layout too, and is told so by name,
    while one that solves the public board wherever it is run matches "traps ignored" on
    one board and "circle ignored" on another. The line names no board and no count, so a
    hidden board's feedback says it too."""
    groups: dict[str, list[str]] = {}
    for name, text in outputs.items():
        if text.strip() and name in cases:
            groups.setdefault(text.strip(), []).append(name)
    named = {r.name: r.mistakes for r in results if r.status != "passed"}
    same: set[str] = set()
    for names in groups.values():
        starts = {round(cases[n].expected.answer.start_value, 6) for n in names}
        if len(names) < 2 or len(starts) < 2:
            continue
        # (a board left unexplained says nothing either way: a mistake can be too close
        # to another to be named on one board)
        explained = {named[n] for n in names if named.get(n)}
        if len(explained) != 1:
            same.update(names)
    out = []
    for result in results:
        if result.name not in same or result.status == "passed" or HARD_CODED in result.mistakes:
            out.append(result)
            continue
        line = (f"{_texts.GENERIC_MISTAKES[HARD_CODED]}: your program printed the very same "
                "output on boards whose answers differ, so it does not work the answer out "
                "from the board it is given: read the board from the file named on the "
                "command line, and solve that one.")  # fmt: skip
        # (what else it matches on this board is a coincidence of the one answer it prints)
        out.append(dataclasses.replace(result, feedback=(*result.feedback, line),
                                       mistakes=(HARD_CODED,)))  # fmt: skip
    return out
