"""What every assignment must satisfy, as a check anyone can call (in the spirit of
scikit-learn's ``check_estimator``): ``check_assignment("classic")``.

Each check is a function of a :class:`Conformance`, which computes what several checks
share once (the solved public board, the example submissions graded on the whole answer
key). A new assignment is covered the day its folder is added: the test suite runs every
check on every folder, and an instructor can run them on one.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from autograder import (
    Assignment,
    SubmissionResult,
    TestCase,
    TestResult,
    Variation,
    board_family,
    describe_board,
    grade_folder,
    grade_output,
    load_assignment,
    load_manifest,
    make_variants,
    output_format,
    parse_output,
    policy_judge,
    program_name,
    render,
    render_examples,
    render_program,
)

from ._answer_key import answer_key, self_check_text
from ._model import Model
from ._params import params_to_json
from ._policy import solved_board
from ._problem import Problem, make_problem, solution_json
from ._programs import examples_dir, programs_dir, reference_handout, reference_program
from ._protocol import rules_problems
from ._simulate import simulate
from ._solver import Solution, policy_iteration, value_iteration
from ._source import ReferenceAnswers

__all__ = ["CHECKS", "Conformance", "ConformanceError", "ConformanceReport", "check_assignment"]

# Seconds per board for the examples, at least; an assignment's own limit where it is longer
# (a correct program needs 0.1 s; plain loops over pairs of squares, a few seconds).
GRADING_TIMEOUT = 3.0
# The example that never ends is graded in a batch of its own, beside the others' and at
# this limit per board: any limit shows that it is stopped and scores 0 as a timeout, while
# at GRADING_TIMEOUT it held every batch up by two whole limits. The others keep
# GRADING_TIMEOUT, room for a busy machine.
ENDLESS = "endless"
ENDLESS_TIMEOUT = 0.5
SIMULATED_GAMES = 20_000
Z_999 = 3.2905  # the 99.9% two-sided normal quantile


class ConformanceError(AssertionError):
    """A check found the assignment wanting; the message says how."""


def _expect(condition: object, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


@dataclass(frozen=True)
class Graded:
    """The example submissions, the reference program and the starter, graded once on the
    whole answer key (``folder`` holds them all but the one that never ends, graded apart:
    see ``ENDLESS``)."""

    results: dict[str, SubmissionResult]
    cases: list[TestCase]
    folder: Path


class Conformance:
    """The checks of one assignment, sharing their work. ``workdir`` holds the graded
    submissions and bundles (a temporary folder, removed with the object, by default)."""

    def __init__(self, name: str, workdir: Path | None = None) -> None:
        self.name = name
        self.assignment: Assignment = load_assignment(name)
        if workdir is None:
            # Kept as long as the object: the folder goes with it.
            self._tmp = tempfile.TemporaryDirectory(prefix=f"conformance-{name}-")
            workdir = Path(self._tmp.name)
        self.workdir = Path(workdir)
        self.answers = ReferenceAnswers()

    @cached_property
    def solved(self) -> tuple[Problem, Solution]:
        problem = make_problem(self.name)
        return problem, policy_iteration(problem.game.model)

    @cached_property
    def graded(self) -> Graded:
        folder = self.workdir / "submissions"
        render_examples(self.assignment, folder, examples_dir())
        problem = self.solved[0]
        (folder / "reference.py").write_text(reference_program(self.name), encoding="utf-8")
        starter = render_program(self.assignment, problem.board, params_to_json(problem.params))
        (folder / "starter.py").write_text(starter, encoding="utf-8")
        cases = answer_key(self.name)
        limits = self.assignment.limits
        apart = self.workdir / "never-ends"
        apart.mkdir(exist_ok=True)
        for path in folder.glob(f"{ENDLESS}.*"):
            path.rename(apart / path.name)
        with ThreadPoolExecutor(1) as beside:
            endless = None
            if any(apart.iterdir()):
                endless = beside.submit(
                    grade_folder, self.name, apart, self.workdir / "never-ends-results",
                    answers=self.answers, cases=cases,
                    limits=limits.with_timeout(ENDLESS_TIMEOUT),
                )  # fmt: skip
            batch = grade_folder(
                self.name,
                folder,
                self.workdir / "results",
                answers=self.answers,
                workers=2,
                cases=cases,
                limits=limits.with_timeout(max(GRADING_TIMEOUT, limits.timeout)),
            )
            results = [*batch.results, *(endless.result().results if endless else ())]
        return Graded({r.student: r for r in sorted(results, key=lambda r: r.student)}, cases,
                      folder)  # fmt: skip

    def run(self, checks: Iterable[str] | None = None) -> ConformanceReport:
        """Run the named checks (all by default), each to its end, and report."""
        outcomes = []
        for check in checks or CHECKS:
            if check not in CHECKS:
                raise ValueError(f"unknown check {check!r} (known: {', '.join(CHECKS)})")
            try:
                CHECKS[check](self)
            except ConformanceError as err:
                outcomes.append(Outcome(check, False, str(err)))
            except Exception as err:  # a check that cannot even run has failed too
                outcomes.append(Outcome(check, False, f"{err.__class__.__name__}: {err}"))
            else:
                outcomes.append(Outcome(check, True, ""))
        return ConformanceReport(self.name, tuple(outcomes))


@dataclass(frozen=True)
class Outcome:
    check: str
    passed: bool
    why: str


@dataclass(frozen=True)
class ConformanceReport:
    assignment: str
    outcomes: tuple[Outcome, ...]

    @property
    def ok(self) -> bool:
        return all(o.passed for o in self.outcomes)

    def text(self) -> str:
        lines = [
            f"{self.assignment}: {sum(o.passed for o in self.outcomes)} of "
            f"{len(self.outcomes)} checks pass"
        ]
        for o in self.outcomes:
            lines.append(
                f"  {'ok  ' if o.passed else 'FAIL'} {o.check}" + (f": {o.why}" if o.why else "")
            )
        return "\n".join(lines) + "\n"


def check_assignment(
    name: str, checks: Iterable[str] | None = None, workdir: Path | None = None
) -> ConformanceReport:
    """Run the conformance checks (all, or those named) on assignment ``name``."""
    return Conformance(name, workdir).run(checks)


# --- the checks --------------------------------------------------------------------------


def _configuration(c: Conformance) -> None:
    """The assignment's board family is known, its rules module provides what a rules
    module must (``_protocol.RULES_REQUIRED``), its rules print a known format for boards
    of that family, and every edge board of its plan is one that family makes."""
    a = c.assignment
    family = board_family(a.family)
    problem, solution = c.solved
    lacking = rules_problems(problem.rules, problem.game)
    _expect(not lacking, f"the rules module {a.rules!r}: {'; '.join(lacking)}")
    answer = problem.game.answer(solution)
    fmt = output_format(answer.output)
    _expect(
        fmt.family == a.family,
        f"the rules print {fmt.name!r}, a format of {fmt.family} boards, but the "
        f"assignment's boards are {a.family} boards",
    )
    for edge in a.tests.edge_boards:
        _expect(edge in family.edge_boards, f"edge board {edge!r} is not a {a.family} board")


def _solvers_agree(c: Conformance) -> None:
    """Value iteration and policy iteration find the same values, to 1e-9."""
    problem, exact = c.solved
    swept = value_iteration(problem.game.model, tolerance=1e-10)
    gap = float(np.max(np.abs(exact.values - swept.values)))
    _expect(gap <= 1e-9, f"value and policy iteration differ by {gap:.3g}")


def _simulation_agrees(c: Conformance) -> None:
    """Games played under the optimal policy average the computed value, within the 99.9%
    confidence interval."""
    problem, solution = c.solved
    result = simulate(problem.game.model, solution.policy, games=SIMULATED_GAMES, seed=11)
    _expect(result.unfinished == 0, f"{result.unfinished} simulated games never finished")
    half = Z_999 * result.std / np.sqrt(result.games)
    _expect(
        abs(result.mean - solution.start_value) <= half,
        f"simulated mean {result.mean:.4f} is outside {solution.start_value:.4f} +- {half:.4f}",
    )


def _self_check(c: Conformance) -> None:
    """The published self-check (where there is one) is what the solver finds."""
    if c.assignment.self_check is None:
        return
    value = c.solved[1].start_value
    _expect(
        c.assignment.self_check_holds(value),
        f"the solver finds {value:.6f}, the published self-check is {c.assignment.self_check}",
    )


def _answer_reads_back(c: Conformance) -> None:
    """The answer renders in its format, leads with the start value, and reads back through
    the grader's parser with every entry right; ``--json`` has the contract's fields."""
    problem, solution = c.solved
    answer = problem.game.answer(solution)
    text = render(answer)
    first = text.splitlines()[0]
    places = output_format(answer.output).start_places
    _expect(first.endswith(f": {solution.start_value:.{places}f}"), f"the first line is {first!r}")
    key = answer_key(c.name, hidden=False)[0].expected
    printed = parse_output(text, key)
    _expect(not printed.warnings, f"the reference output draws warnings: {printed.warnings}")
    for entry in key.entries(c.assignment.value_tolerance):
        if entry.accepted is None:
            got = printed.numbers[entry.key]
            _expect(
                abs(got - (entry.value or 0.0)) <= entry.tolerance,
                f"{entry.label} reads back as {got}",
            )
    data = solution_json(problem, solution)
    _expect(
        {"assignment", "params", "start_value", "values", "policy"} <= set(data),
        f"--json lacks {sorted({'params', 'values', 'policy'} - set(data))}",
    )
    _expect("-0.00" not in text, "the reference output prints -0.00")


def _optimal_actions(c: Conformance) -> None:
    """Every action the solver calls optimal is within rounding of the best, and the
    policy only picks such actions."""
    problem, solution = c.solved
    model = problem.game.model
    signed = model.pair_sign * solution.q_values  # (minimised by whoever chooses there)
    best = np.full(model.n_states, np.inf)
    np.minimum.at(best, model.state_of_pair, signed)
    gap = signed - best[model.state_of_pair]
    scale = np.maximum(1, np.abs(best[model.state_of_pair][solution.optimal]))
    _expect(np.all(gap[solution.optimal] <= 1e-9 * scale), "an 'optimal' action is not")
    _expect(
        np.all(solution.optimal[solution.policy[solution.policy >= 0]]),
        "the policy picks an action that is not optimal",
    )


def _reference_full_marks(c: Conformance) -> None:
    """The reference program scores full marks on every board of the answer key."""
    result = c.graded.results["reference"]
    bad = [
        f"{t.name}: {t.status} ({'; '.join(t.feedback[:2])})"
        for t in result.tests
        if t.status != "passed"
    ]
    _expect(result.status == "graded" and not bad, f"the reference program fails {bad}")
    total = c.assignment.tests.total_points
    _expect(
        result.score == result.max_score == total,
        f"the reference program scores {result.score} of {result.max_score}, not {total}",
    )


def _starter_scores_zero(c: Conformance) -> None:
    """The untouched starter scores 0 on every board, each with the reason a student needs,
    and the grader is not upset by it."""
    result = c.graded.results["starter"]
    _expect(
        result.status == "graded" and result.score == 0,
        f"the starter: {result.status}, {result.score} points",
    )
    for test in result.tests:
        _expect(
            test.status == "crashed"
            and test.feedback[:1] == ("the solving function still raises NotImplementedError",),
            f"the starter on {test.name}: {test.status}, {test.feedback[:1]}",
        )


def _examples(c: Conformance) -> None:
    """The examples: more than one correct style, each full marks; a typical mistake or
    more, each losing points; an endless one and a crashing one, each 0 for what it is."""
    results = c.graded.results
    correct = [s for s in results if s.startswith("correct_") or s == "module_only"]
    _expect(len(correct) >= 2, "each assignment shows more than one correct style")
    for student in correct:
        r = results[student]
        _expect(r.score == r.max_score, f"{student} scores {r.score} of {r.max_score}")
    wrong = [s for s in results if s.startswith("wrong_")]
    _expect(wrong, "each assignment has at least one typical wrong submission")
    for student in wrong:
        r = results[student]
        _expect(r.score < r.max_score, f"{student} scores full marks")
    _expect({"endless", "crashes"} <= set(results), "an endless and a crashing example")
    endless, crashes = results["endless"], results["crashes"]
    _expect(
        endless.score == 0 and {t.status for t in endless.tests} == {"timeout", "not-run"},
        f"endless: {endless.score}, {sorted({t.status for t in endless.tests})}",
    )
    _expect(
        crashes.score == 0 and {t.status for t in crashes.tests} == {"crashed"},
        f"crashes: {crashes.score}, {sorted({t.status for t in crashes.tests})}",
    )


def _boards(c: Conformance) -> None:
    """Only the public board and the public edge boards are visible, the public board
    carries the published self-check (else the solver's first line, which the handout
    quotes), every board differs, and no expected answer prints ``-0.00`` or a goal value
    off its exact one."""
    cases = c.graded.cases
    shown = {"public", *c.assignment.tests.public_edge_boards}
    _expect(
        [t.visible for t in cases] == [t.name in shown for t in cases] and cases[0].visible,
        "only the public board (first) and the public edge boards may be visible",
    )
    quoted = c.assignment.self_check or self_check_text(cases[0].expected.answer)
    _expect(cases[0].self_check == quoted, "the public board's self-check")
    _expect(
        len({json.dumps(t.board, sort_keys=True) for t in cases}) == len(cases),
        "two test boards are the same",
    )
    for case in cases:
        answer = case.expected.answer
        _expect("-0.00" not in render(answer), f"{case.name} prints -0.00")
        for goal in output_format(answer.output).goal_values(answer):
            _expect(
                math.copysign(1.0, goal) > 0 and abs(goal) in (0.0, 100.0),
                f"{case.name}: the goal's value is {goal!r}",
            )


def _handout(c: Conformance) -> None:
    """The handout renders with the self-check and the first line of the sample output."""
    text = reference_handout(c.name)
    problem, solution = c.solved
    check = c.assignment.self_check or f"{solution.start_value:.2f}"
    _expect(check in text, f"the handout does not quote the self-check {check}")
    first = render(problem.game.answer(solution)).splitlines()[0]
    _expect(first in text, f"the handout does not show the output's first line {first!r}")
    _expect("{{" not in text and "{%" not in text, "the handout has unrendered template text")


def _variants(c: Conformance) -> None:
    """Three students' bundles: the untouched starter fails its bundled check with the
    reason, the solved program passes it with the self-check, and each is graded full on
    the public points on their own board."""
    out = c.workdir / "variants"
    roster = c.workdir / "roster.csv"
    roster.write_text("id,email\nann,ann@x.org\nbo,bo@x.org\ncy,cy@x.org\n", encoding="utf-8")
    report = make_variants(c.name, roster, out, c.answers, secret="conformance-secret")
    students = report.manifest.students
    _expect(report.problems == () and len(students) == 3, f"variants: {report.problems}")
    _expect(
        len({json.dumps(s.board, sort_keys=True) for s in students}) == 3,
        "two students were given the same board",
    )
    submissions = c.workdir / "variant-submissions"
    submissions.mkdir(exist_ok=True)
    for k, student in enumerate(students):
        bundle = out / "students" / student.id
        program = bundle / program_name(c.assignment)
        handout = (bundle / "handout.md").read_text(encoding="utf-8")
        _expect(
            student.self_check in handout and "python3 check.py" in handout,
            f"{student.id}'s handout lacks the self-check or the check command",
        )
        if k == 0:
            untouched = _bundled_check(bundle)
            _expect(
                untouched.returncode == 1
                and "still raises NotImplementedError" in untouched.stdout,
                f"the untouched starter's check said: {untouched.stdout[-300:]}",
            )
        problem = make_problem(c.name, student.board)
        program.write_text(
            render_program(
                c.assignment,
                problem.board,
                params_to_json(problem.params),
                template=f"{c.name}.py.j2",
                search_path=[programs_dir()],
                variant=True,
            ),
            encoding="utf-8",
        )
        solved = _bundled_check(bundle)
        _expect(solved.returncode == 0, f"the solved program fails its check: {solved.stdout}")
        _expect(
            f"self-check holds: printed {student.self_check}" in solved.stdout,
            f"the check does not confirm the self-check: {solved.stdout}",
        )
        (submissions / f"{student.id}.py").write_bytes(program.read_bytes())
    visible = answer_key(c.name, hidden=False)
    batch = grade_folder(
        c.name,
        submissions,
        c.workdir / "variant-results",
        answers=c.answers,
        workers=2,
        cases=visible,
        manifest=load_manifest(out / "manifest.json", c.name),
    )
    points = sum(case.points for case in visible)
    scores = {r.student: r.score for r in batch.results}
    _expect(scores == {s.id: points for s in students}, f"own-board scores {scores}")
    boards = {s.id: s.board for s in students}
    for r in batch.results:
        title = f"your board ({describe_board(boards[r.student], c.assignment.family)})"
        _expect(r.tests[0].title == title, f"{r.student} is graded on {r.tests[0].title}")


def _printed(c: Conformance, case: TestCase, text: str, policy: bool = True) -> TestResult:
    """What the grader makes of ``text`` printed by a program on ``case``'s board (the run
    itself stands in: a program that printed it and exited)."""
    judge = policy_judge(c.answers, c.assignment) if policy else None
    return grade_output(case, text, c.assignment, policy=judge)


def _same_answer(c: Conformance, case: TestCase, one: Variation, other: Variation) -> bool:
    """Whether two mistakes print answers the grader cannot tell apart on this board."""
    tolerance = c.assignment.value_tolerance
    mine = {e.key: e for e in case.expected.entries_of(one.answer, one.accepted, tolerance)}
    theirs = case.expected.entries_of(other.answer, other.accepted, tolerance)
    return all(e.key in mine and mine[e.key].accepts(e) for e in theirs)


def _mistakes_named(c: Conformance) -> None:
    """Each catalogued mistake, printed, is named as that mistake (and only that one, or
    one it cannot be told from on that board) on every board, hidden ones included, and
    loses marks; no hidden board's feedback shows a value."""
    cases = c.graded.cases
    named = 0
    for case in cases:
        for mistake in case.expected.mistakes:
            result = _printed(c, case, render(mistake.answer))
            twins = {m.name for m in case.expected.mistakes if _same_answer(c, case, mistake, m)}
            _expect(
                mistake.name in result.mistakes and set(result.mistakes) <= twins,
                f"{case.name}: {mistake.name} printed is named {list(result.mistakes)}",
            )
            _expect(result.status != "passed", f"{case.name}: {mistake.name} gets full marks")
            said = [line for line in result.feedback if mistake.says in line]
            _expect(said, f"{case.name}: the feedback does not say '{mistake.says}'")
            if not case.visible:
                shown = [
                    line for line in result.feedback if re.search(r": printed .*, expected", line)
                ]
                _expect(not shown, f"{case.name}: hidden feedback shows values: {shown[:1]}")
            named += 1
    _expect(named, "the catalogue names no mistake on any board")


def _readings_accepted(c: Conformance) -> None:
    """The answer under every reading the rules accept scores full marks, and the feedback
    says which reading it saw; every correct example is named as no mistake."""
    for case in c.graded.cases:
        for reading in case.expected.readings:
            text = render(dataclasses.replace(reading.answer, actions=case.expected.answer.actions))
            result = _printed(c, case, text)
            _expect(
                result.status == "passed" and result.convention == reading.name,
                f"{case.name}: reading {reading.name} gets {result.status} "
                f"({result.right} of {result.total}), convention {result.convention!r}",
            )
    for student, r in c.graded.results.items():
        if student.startswith("correct_") or student in ("reference", "module_only"):
            named = {m for t in r.tests for m in t.mistakes}
            _expect(not named, f"{student} is told it made the mistakes {sorted(named)}")


def _policy_costs(c: Conformance) -> None:
    """Where a policy is printed: one that differs from the reference's only in exact ties
    scores full marks and costs the optimum to 1e-9; one that can never reach the goal is
    reported as such."""
    if c.solved[0].game.answer(c.solved[1]).actions is None:
        return
    for case in c.graded.cases:
        problem, solution = solved_board(c.name, case.board)
        answer = case.expected.answer
        assert answer.actions is not None
        model = solution.model
        first = problem.game.first_square
        tied = list(answer.actions)
        for k in range(len(tied)):
            state = k  # the action list's index k is state k in both families' models
            if state < model.n_states and not model.terminal[state]:
                tied[k] = sorted(solution.optimal_actions(state))[-1]
        result = _printed(c, case, render(dataclasses.replace(answer, actions=tuple(tied))))
        _expect(result.status == "passed", f"{case.name}: a tied policy gets {result.status}")
        squares = {k + first: a for k, a in enumerate(tied)}
        cost = c.answers.policy_cost(c.assignment, case, squares)
        _expect(
            cost is not None and cost.cost is not None and abs(cost.cost - cost.best) <= 1e-9,
            f"{case.name}: a tied policy costs {cost}",
        )
        trap = _caught_policy(model, solution, first)
        if trap is None:
            continue
        cost = c.answers.policy_cost(c.assignment, case, trap)
        _expect(cost is not None and cost.cost is None, f"{case.name}: an endless policy: {cost}")
        actions = tuple(trap.get(k + first, a) for k, a in enumerate(answer.actions))
        result = _printed(c, case, render(dataclasses.replace(answer, actions=actions)))
        _expect(
            any("never reaches the goal" in line for line in result.feedback),
            f"{case.name}: an endless policy is not reported: {result.feedback[:4]}",
        )


def _caught_policy(model: Model, solution: Solution, first: int) -> dict[int, str] | None:
    """A policy (square -> action) under which the start can end up never reaching the
    goal, if the game has one: states that can stay among themselves forever, and a way
    there from the start."""
    live = [s for s in range(model.n_states) if not model.terminal[s]]
    keep = set(live)
    choice: dict[int, int] = {}
    changed = True
    while changed:  # the largest set of states that some action keeps within the set
        changed = False
        for s in sorted(keep):
            pairs = [
                p
                for p in model.pairs_of(s)
                if all(
                    int(t) in keep
                    for t in model.transitions.indices[
                        model.transitions.indptr[p] : model.transitions.indptr[p + 1]
                    ]
                )
            ]
            if pairs:
                choice[s] = pairs[0]
            else:
                keep.discard(s)
                changed = True
    if not keep:
        return None
    toward = {s: choice[s] for s in keep}
    frontier = set(keep)
    while True:  # states with an action that may lead into what is already caught
        grown = False
        for s in live:
            if s in toward:
                continue
            for p in model.pairs_of(s):
                lo, hi = model.transitions.indptr[p], model.transitions.indptr[p + 1]
                if any(int(t) in frontier for t in model.transitions.indices[lo:hi]):
                    toward[s] = p
                    frontier.add(s)
                    grown = True
                    break
        if not grown:
            break
    if model.start not in toward:
        return None
    names = model.action_names
    return {s + first: names[model.action_of_pair[p]] for s, p in toward.items()}


def _bundled_check(bundle: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-S", "check.py"],
        cwd=bundle,
        capture_output=True,
        text=True,
        timeout=120,
    )


CHECKS: dict[str, Callable[[Conformance], None]] = {
    "configuration": _configuration,
    "solvers-agree": _solvers_agree,
    "simulation-agrees": _simulation_agrees,
    "self-check": _self_check,
    "answer-reads-back": _answer_reads_back,
    "optimal-actions": _optimal_actions,
    "reference-full-marks": _reference_full_marks,
    "starter-scores-zero": _starter_scores_zero,
    "examples": _examples,
    "boards": _boards,
    "handout": _handout,
    "variants": _variants,
    "mistakes-named": _mistakes_named,
    "readings-accepted": _readings_accepted,
    "policy-costs": _policy_costs,
}
