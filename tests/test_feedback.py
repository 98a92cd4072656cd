"""Feedback that teaches: a wrong example is told its mistake by name, every fair convention
gets full marks, and a printed policy is judged by what it costs.

Expected costs come from small value iterations written here from the rules, not from the
project's solver.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from autograder import PolicyGrading, grade_output, load_assignment, policy_judge, render
from autograder._run import Run
from autograder._verdict import verdict
from reference_solutions import ReferenceAnswers, examples_dir
from reference_solutions._answer_key import answer_key
from tests.autograder.test_hidden_boards import assert_says_nothing_of_its_board
from tests.grading import by_default_if_graded

ANSWERS = ReferenceAnswers()

# The examples written to make one mistake each, and the name the grader must give it.
NAMED = {
    ("classic", "wrong_overshoot_wins"): "overshoot-wins",
    ("classic", "wrong_spinner_1_to_5"): "spinner-one-short",
    ("classic", "wrong_chutes_ignored"): "chutes-ignored",
    ("classic", "wrong_stopped_early"): "stopped-early",
    ("classic", "wrong_goal_counted"): "off-by-one",
    ("boosted", "wrong_boost_skips_jumps"): "boost-skips-jumps",
    ("boosted", "wrong_choice_before_spin"): "boost-before-spin",
    ("token-boosted", "wrong_tables_reversed"): "tables-reversed",
    ("token-boosted", "wrong_tokens_unlimited"): "tokens-unlimited",
    ("aimed", "wrong_no_noise"): "noise-ignored",
    ("aimed", "wrong_aims_from_zero"): "aims-from-zero",
    ("aimed", "wrong_overshoot_wins"): "overshoot-wins",
    ("efron", "wrong_overshoot_stay"): "overshoot-stays",
    ("trap-lane", "wrong_no_junction"): "junction-ignored",
    ("trap-lane", "wrong_traps_ignored"): "traps-ignored",
    ("trap-lane", "wrong_prison_free"): "prison-free",
    ("trap-lane", "wrong_dice_from_zero"): "dice-from-zero",
}


# (Each assignment's examples are graded once a session, by default those of one assignment
# of each board family, tests.grading.GRADED_BY_DEFAULT, the others' with -m slow.)
@pytest.mark.parametrize(
    ("assignment", "example"), [by_default_if_graded(*k) for k in sorted(NAMED)]
)
def test_each_wrong_example_is_told_its_mistake_on_every_board_it_shows(
    graded, assignment, example
):
    result = graded(assignment).results[example]
    name = NAMED[assignment, example]
    wrong = [t for t in result.tests if t.status != "passed"]
    assert wrong, f"{example} passes every board"
    for test in wrong:
        assert test.mistakes == (name,), (test.name, test.mistakes, test.feedback[:4])
        # Hidden boards name the mistake too, and show no value.
        assert any("your answer matches a game where" in line or name in ("stopped-early",
                   "off-by-one") for line in test.feedback)  # fmt: skip
        if not test.visible:
            assert not [line for line in test.feedback if re.search(r"printed .*, expected", line)]


ASSIGNMENTS = ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane")


@pytest.mark.parametrize("assignment", [by_default_if_graded(a) for a in ASSIGNMENTS])
def test_every_correct_example_is_named_as_no_mistake(graded, assignment):
    for student, result in graded(assignment).results.items():
        if student.startswith("correct_") or student in ("reference", "module_only"):
            assert result.score == result.max_score, (assignment, student)
            assert not [t.mistakes for t in result.tests if t.mistakes], (assignment, student)


def test_a_program_printing_the_jump_destinations_scores_full_and_is_told_so(graded):
    result = graded("classic").results["correct_jump_destination"]
    assert result.score == result.max_score
    public = result.tests[0]
    assert public.convention == "jump-destination"
    assert (
        "convention: a jump square shows the value of the jump's destination (reading (c)); "
        "accepted." in public.feedback
    )


def test_the_stopped_early_feedback_says_about_how_many_sweeps(graded):
    # The example stops after 25 sweeps of value iteration from 0.
    public = graded("classic").results["wrong_stopped_early"].tests[0]
    line = next(x for x in public.feedback if x.startswith("stopped iterating"))
    done = int(re.search(r"about (\d+) sweeps from 0", line).group(1))
    assert abs(done - 25) <= 1, line


def test_the_mistake_is_named_in_the_summary_and_mistakes_csv(graded):
    text = (graded("classic").folder.parent / "results" / "mistakes.csv").read_text()
    rows = [line.split(",") for line in text.splitlines()]
    named = {row[2] for row in rows if row[0] == "mistake"}
    assert {"overshoot-wins", "spinner-one-short", "chutes-ignored", "stopped-early",
            "off-by-one"} <= named  # fmt: skip


# --- policies judged by their cost ---------------------------------------------------------


EFRON_DICE = ((3,) * 6, (4, 4, 4, 4, 0, 0), (6, 6, 2, 2, 2, 2), (5, 5, 5, 1, 1, 1))


def efron_fixed_die_turns(board: dict, faces: tuple[int, ...]) -> float:
    """Expected turns from square 0 when the same die is rolled on every square the program
    prints (1..goal-1) and the best first roll is made from square 0, which it does not
    print (overshoot wins; a jump applies where a move ends on another square), by plain
    value iteration."""
    goal = board["goal"]
    goes_to = list(range(goal + 1))
    for a, b in board["jumps"]:
        goes_to[a] = b
    values = [0.0] * (goal + 1)
    for _ in range(100_000):
        change = 0.0
        for i in range(goal - 1, -1, -1):
            total = 0.0
            for face in faces:
                j = min(i + face, goal)
                total += values[j if j == i else goes_to[j]]
            new = 1 + total / len(faces)
            change = max(change, abs(new - values[i]))
            values[i] = new
        if change < 1e-12:
            break

    def first(die: tuple[int, ...]) -> float:
        ends = [min(f, goal) for f in die]
        return 1 + sum(values[e if e == 0 else goes_to[e]] for e in ends) / len(die)

    # A 0 face leaves the piece on square 0, whose value is then the first roll's own.
    return min(
        first(d) if 0 not in d else _with_zeros(d, values, goes_to, goal) for d in EFRON_DICE
    )


def _with_zeros(die, values, goes_to, goal) -> float:
    """Square 0's value when rolling ``die`` there: v = 1 + (zeros * v + rest) / faces."""
    zeros = die.count(0)
    rest = sum(values[goes_to[min(f, goal)]] for f in die if f)
    return (1 + rest / len(die)) / (1 - zeros / len(die))


@pytest.mark.slow  # (efron's examples graded: tests.grading.GRADED_BY_DEFAULT)
def test_a_policy_that_always_rolls_red_is_told_what_it_costs(graded):
    # The example always rolls the die with the largest average move: Red (6,6,2,2,2,2).
    public = graded("efron").results["wrong_best_average_die"].tests[0]
    line = next(x for x in public.feedback if x.startswith("policy:"))
    said = r"policy: your policy needs (\S+) turns from the start; the best needs (\S+)\."
    m = re.fullmatch(said, line)
    assert m, line
    board = answer_key("efron", hidden=False)[0].board
    assert float(m.group(1)) == pytest.approx(efron_fixed_die_turns(board, (6, 6, 2, 2, 2, 2)),
                                              abs=0.006)  # fmt: skip
    assert float(m.group(2)) < float(m.group(1))


@pytest.mark.parametrize("discount", [0.9, 0.99])
def test_a_discount_where_none_is_asked_is_named_not_told_to_iterate_longer(discount):
    """Classic with a discount, iterated to the end (plain sweeps written here from the
    rules): 0.99's values are below the right ones and more so far from the goal, as a
    stopped iteration's are, yet more sweeps would change nothing."""
    from tests.independent import goes_to, land

    assignment = load_assignment("classic")
    case = answer_key("classic", hidden=False)[0]
    goal = case.board["goal"]
    table = goes_to(goal, case.board["jumps"])
    values = [0.0] * (goal + 1)
    for _ in range(100_000):
        change = 0.0
        for i in range(goal):
            new = 1 + discount * sum(values[land(goal, table, "stay", i, m)] for m in
                                     range(1, 7)) / 6  # fmt: skip
            change, values[i] = max(change, abs(new - values[i])), new
        if change < 1e-13:
            break
    answer = dataclasses.replace(case.expected.answer, start_value=values[0],
                                 values=tuple(values))  # fmt: skip
    result = grade_output(case, render(answer), assignment)
    assert result.mistakes == ("discounted" if discount == 0.9 else "discounted-0.99",)
    said = " ".join(result.feedback)
    assert f"your answer matches a game where each later turn is discounted by {discount}" in said
    assert "stopped iterating" not in said


def test_a_policy_caught_in_a_loop_is_told_a_square_on_the_loop():
    """Blue (always 3) on every square of a board whose chutes close each run of 3 into a
    loop (3, 6, 9 -> 3; 1, 4, 7, 10 -> 1; 2, 5, 8, 11 -> 2): every die from the start ends in
    one, so the start (square 0, never printed) is caught too, but it is on no loop."""
    from reference_solutions import own_board_case

    assignment = load_assignment("efron")
    board = {"goal": 20, "jumps": [[9, 3], [10, 1], [11, 2]]}
    case = own_board_case("efron", board)
    answer = case.expected.answer
    actions = tuple("-" if square == 20 else "Blue" for square in range(21))
    text = render(dataclasses.replace(answer, actions=actions))
    result = grade_output(case, text, assignment, policy=policy_judge(ANSWERS, assignment))
    said = " ".join(result.feedback)
    m = re.search(r"your policy never reaches the goal \(it can get caught on square (\d+)\)", said)
    assert m, said
    assert int(m.group(1)) in {1, 2, 3, 4, 5, 6, 7, 8}


def test_a_policy_caught_on_the_last_square_never_reaches_the_goal():
    assignment = load_assignment("aimed")
    case = answer_key("aimed", hidden=False)[0]
    answer = case.expected.answer
    # Aiming 6 from square 99 moves 5, 6 or 7: always past the goal, so the piece stays.
    actions = tuple("6" if square == 99 else a for square, a in enumerate(answer.actions))
    text = render(dataclasses.replace(answer, actions=actions))
    result = grade_output(case, text, assignment, policy=policy_judge(ANSWERS, assignment))
    assert "policy: your policy never reaches the goal (it can get caught on square 99); " in (
        " ".join(result.feedback)
    )
    assert "action on square 99: printed 6" in " ".join(result.feedback)


def test_cost_credit_gives_a_tied_policy_full_marks_and_a_worse_one_its_share():
    square = load_assignment("aimed")
    cost = dataclasses.replace(square, policy_grading=PolicyGrading("cost", 0.001, 0.10))
    case = answer_key("aimed", hidden=False)[0]
    answer = case.expected.answer
    judge = policy_judge(ANSWERS, cost)
    right = grade_output(case, render(answer), cost, policy=judge)
    assert right.status == "passed" and right.score == case.points
    # Aim 5 on squares 1..19, the reference's aim elsewhere: a policy that finishes but
    # costs a few percent more; all its graded actions share its credit.
    actions = tuple("5" if 0 < s < 20 else a for s, a in enumerate(answer.actions))
    text = render(dataclasses.replace(answer, actions=actions))
    worse = grade_output(case, text, cost, policy=judge)
    judged = judge(case, {s: a for s, a in enumerate(actions) if 0 < s < 100})
    assert judged.cost > judged.best
    gap = (judged.cost - judged.best) / judged.best
    credit = max(0.0, min(1.0, (0.10 - gap) / (0.10 - 0.001)))
    # The start value and squares 1..99 are right; the 80 actions off jump squares share
    # the credit (the 19 on jump squares are not graded). Values and policy are worth half
    # the board each (docs/rules.md, "Partial credit").
    jumps = len(case.board["jumps"])
    actions_graded = 99 - jumps
    total = 100 + actions_graded
    assert worse.total == total
    # (scores are kept to four decimals)
    assert worse.score == pytest.approx(case.points * (0.5 * 1.0 + 0.5 * credit), abs=1e-4)
    assert worse.status != "passed" and 0 < credit < 1


def test_policy_credit_is_full_up_to_the_gap_and_none_from_the_limit():
    grading = PolicyGrading("cost", 0.01, 0.11)
    assert grading.credit_for(0.0) == grading.credit_for(0.01) == 1.0
    assert grading.credit_for(0.06) == pytest.approx(0.5)
    assert grading.credit_for(0.11) == grading.credit_for(float("inf")) == 0.0


def test_a_policy_credit_setting_the_toml_does_not_know_is_refused(tmp_path, monkeypatch):
    from autograder import UsageError, _assignments

    folder = tmp_path / "classic"
    folder.mkdir()
    source = (_assignments.assignments_dir() / "classic" / "assignment.toml").read_text()
    (folder / "assignment.toml").write_text(
        source.replace("policy = 0.01", 'policy = 0.01\npolicy_credit = "vibes"')
    )
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path))
    with pytest.raises(UsageError, match="policy_credit must be 'squares' or 'cost'"):
        load_assignment("classic")


# --- hidden boards: the mistake, never the board ------------------------------------------


@pytest.mark.parametrize("assignment", [by_default_if_graded(a) for a in ASSIGNMENTS])
def test_no_example_is_told_a_number_of_a_hidden_board(graded, assignment):
    # Every example: right ones, each named mistake, a hard-coded answer (unreadable on
    # boards of other sizes), a crash, one that never ends.
    done = graded(assignment)
    for result in done.results.values():
        if result.status != "graded":
            continue  # (a submission that could not be run at all has no boards)
        for case, test in zip(done.cases, result.tests, strict=True):
            if not case.visible:
                assert_says_nothing_of_its_board(case, test.title, list(test.feedback),
                                                 test.right, test.total)  # fmt: skip


def test_a_hidden_board_says_a_value_iteration_stopped_early_but_not_after_how_many_sweeps(graded):
    result = graded("classic").results["wrong_stopped_early"]
    hidden = [t for t in result.tests if not t.visible and t.mistakes == ("stopped-early",)]
    assert hidden
    for test in hidden:
        assert (
            "stopped iterating before the values converged: every value is below the right "
            "one, and more so far from the goal. Iterate until the largest change is below "
            "1e-9." in test.feedback
        )
        assert any(re.search(r"about \d+ sweeps from 0", line) for line in test.staff)


@pytest.mark.slow  # (token-boosted's examples graded: tests.grading.GRADED_BY_DEFAULT)
def test_a_hidden_board_names_the_wrong_token_tables_without_counting_squares(graded):
    result = graded("token-boosted").results["wrong_tables_reversed"]
    hidden = [t for t in result.tests if not t.visible]
    assert hidden
    for test in hidden:
        tables = [line for line in test.feedback if line.startswith("tables: ")]
        assert tables and "squares" not in tables[0], test.feedback
        assert re.fullmatch(r"tables: (right with [\d, ]+ tokens?; )?wrong with [\d ,tokens]+\.",
                            tables[0])  # fmt: skip
        assert any(re.search(r"tokens \(\d+ squares\)", line) for line in test.staff)


def _hidden_aimed() -> tuple:
    assignment = load_assignment("aimed")
    case = next(c for c in answer_key("aimed") if c.name == "hidden-1")
    return assignment, case, case.expected.answer, policy_judge(ANSWERS, assignment)


def test_a_hidden_board_says_a_policy_is_caught_but_not_where():
    assignment, case, answer, judge = _hidden_aimed()
    goal = case.board["goal"]
    # Aiming 6 from the last square moves 5, 6 or 7: always past the goal, so it stays.
    actions = tuple("6" if s == goal - 1 else a for s, a in enumerate(answer.actions))
    text = render(dataclasses.replace(answer, actions=actions))
    result = grade_output(case, text, assignment, policy=judge)
    policy = [line for line in result.feedback if line.startswith("policy:")]
    assert policy == [
        "policy: your policy never reaches the goal (it can get caught on a square it leads to)."
    ]
    assert f"(it can get caught on square {goal - 1})" in " ".join(result.staff)


def test_a_hidden_board_says_a_policy_is_worse_but_not_by_how_many_turns():
    assignment, case, answer, judge = _hidden_aimed()
    actions = tuple("5" if 0 < s < 20 else a for s, a in enumerate(answer.actions))
    text = render(dataclasses.replace(answer, actions=actions))
    result = grade_output(case, text, assignment, policy=judge)
    policy = [line for line in result.feedback if line.startswith("policy:")]
    assert policy == ["policy: your policy needs more turns from the start than the best one."]
    staff = next(line for line in result.staff if line.startswith("policy:"))
    assert re.fullmatch(r"policy: your policy needs [\d.]+ turns from the start; the best "
                        r"needs [\d.]+\.", staff)  # fmt: skip
    same = grade_output(case, render(answer), assignment, policy=judge)
    assert "policy: your policy is as good as the best from the start." in same.feedback


def _acting(answer, square: int, action: str) -> str:
    """``answer`` printed with ``action`` on ``square``."""
    actions = tuple(action if s == square else a for s, a in enumerate(answer.actions))
    return render(dataclasses.replace(answer, actions=actions))


def test_an_action_that_is_no_choice_is_not_quoted_where_nothing_printed_may_be():
    assignment, case, answer, judge = _hidden_aimed()
    said = ("policy: an action printed is not one of the choices on its square, so the "
            "policy cannot be evaluated.")  # fmt: skip
    hidden = grade_output(case, _acting(answer, 7, "X-SECRET"), assignment, policy=judge)
    assert said in hidden.feedback and "X-SECRET" not in " ".join(hidden.feedback)
    # A visible board read without quoting (the process level on Gradescope) says the same.
    public = answer_key("aimed", hidden=False)[0]
    text = _acting(public.expected.answer, 7, "X-SECRET")
    run = Run("exited", 0, text.encode(), b"", 0.0)
    unquoted = verdict(public, run, assignment.limits, assignment.value_tolerance, Path("."),
                       quote_output=False, policy=judge)  # fmt: skip
    assert said in unquoted.feedback and "X-SECRET" not in " ".join(unquoted.feedback)
    quoted = grade_output(public, text, assignment, policy=judge)
    assert "policy: 'X-SECRET' is not a choice on square 7" in " ".join(quoted.feedback)


# --- the local check names the mistake too -------------------------------------------------


def test_check_on_the_trap_lane_catches_what_its_empty_board_cannot(tmp_path):
    from autograder import check_submission, check_text, render_examples

    folder = tmp_path / "ex"
    render_examples(load_assignment("trap-lane"), folder, examples_dir())
    for example, says in (("wrong_traps_ignored", "traps never go off"),
                          ("wrong_prison_free", "a prison costs nothing")):  # fmt: skip
        result = check_submission("trap-lane", folder / f"{example}.py", ANSWERS)
        text = check_text(result)
        assert not result.passed, text
        assert f"your answer matches a game where {says}" in text


@pytest.mark.parametrize("assignment", ["classic", "trap-lane"])
def test_printing_nothing_names_the_function_a_module_must_define(assignment):
    """A trap-lane module whose function is misspelt (``markov_decision``) is run as a script
    that prints nothing: the likeliest cause is named."""
    rules = load_assignment(assignment)
    public = answer_key(assignment, hidden=False)[0]
    run = Run("exited", 0, b"", b"", 0.0)
    said = verdict(public, run, rules.limits, rules.value_tolerance, Path(".")).feedback[0]
    if assignment == "classic":
        assert said == "printed nothing"
    else:
        assert said == (
            "printed nothing (a program that only defines functions is run through "
            "markovDecision(layout, circle), which must be defined under that name)"
        )


@pytest.mark.parametrize(
    ("run", "told"),
    [
        (Run("exited", 3, b"", b"", 0.1), "end normally (exit status 0)"),
        (Run("timeout", -9, b"", b"", 10.0), "end within the time limit"),
    ],
    ids=["exit-3", "hung"],
)
def test_a_right_answer_before_a_failed_end_is_told_so_on_a_visible_board(run, told):
    """A program that printed its whole answer, right, then called sys.exit(3) or hung:
    the board scores 0 (the run failed), and the student learns the answer itself was right.
    On a hidden board nothing is said of what it printed."""
    rules = load_assignment("classic")
    cases = answer_key("classic")
    public = cases[0]
    text = render(public.expected.answer).encode()
    for case, shown in ((public, True), (next(c for c in cases if not c.visible), False)):
        printed = render(case.expected.answer).encode()
        result = verdict(case, dataclasses.replace(run, stdout=printed), rules.limits,
                         rules.value_tolerance, Path("."))  # fmt: skip
        assert result.score == 0.0
        said = f"what it printed before that was all right: it must also {told}"
        assert (said in result.feedback) is shown, result.feedback
    # A wrong answer before the failure is not called right.
    wrong = text.replace(b"Expected turns per game: ", b"Expected turns per game: 1", 1)
    result = verdict(public, dataclasses.replace(run, stdout=wrong), rules.limits,
                     rules.value_tolerance, Path("."))  # fmt: skip
    assert not any(line.startswith("what it printed before") for line in result.feedback)
