"""Hidden boards are graded, but what a student reads about them says nothing of the board.

A program is handed its board, so any part of the feedback it can steer (which entries are
wrong, what it prints, how it fails) could carry the board back to the student. The
programs of ``HIDDEN_CORPUS`` try each of these on the classic answer key, graded at the
``process`` level; the student's side of the result (feedback, titles, the feedback file,
Gradescope's ``results.json``) must hold no number of the board (not even its size, which
a count of entries would give), while the share of right entries said stays right and a
mistake is still named. The staff's lines keep the detail.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autograder import SubmissionResult, grade_submission, load_assignment
from autograder import TestCase as Case  # (named apart, so that pytest collects no class)
from autograder import TestResult as Outcome
from autograder._reports import feedback_text
from reference_solutions import ReferenceAnswers, answer_key
from tests.autograder.test_adversarial import program
from tests.grading import answer_cases, gradescope_zip
from tests.independent import jump_values

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "adversarial"
# The corpus programs this work adds: the hidden-board attacks graded here, and wide_tree,
# graded in tests/autograder/test_files.py.
HIDDEN_CORPUS = ("hidden_echo", "hidden_spoil", "wide_tree")
ASSIGNMENT = load_assignment("classic")
CASES = answer_key("classic", hidden=True)
ANSWERS = ReferenceAnswers()
# A printed value is right within the tolerance (and a hair, for binary rounding).
TOLERANCE = ASSIGNMENT.value_tolerance + 1e-9


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """``graded(name, **config)``: corpus program ``name`` graded once on the whole key."""
    done: dict[tuple, SubmissionResult] = {}

    def grade(name: str, **config: object) -> SubmissionResult:
        key = (name, tuple(sorted(config.items())))
        if key not in done:
            path = tmp_path_factory.mktemp(name) / "classic.py"
            path.write_text(program(name, **config))
            done[key] = grade_submission(
                ASSIGNMENT, path, CASES, hidden=ANSWERS.secret_paths(), isolation="process"
            )
        return done[key]

    return grade


def hidden(result: SubmissionResult) -> list[tuple[Case, Outcome]]:
    pairs = list(zip(CASES, result.tests, strict=True))
    assert all(case.name == test.name for case, test in pairs)
    return [(case, test) for case, test in pairs if not case.visible]


def board_facts(case: Case) -> set[int]:
    """The numbers a hidden board is made of: its goal, its jumps' squares and counts."""
    jumps = case.board["jumps"]
    chutes = sum(b < a for a, b in jumps)
    return {case.board["goal"], len(jumps), chutes, len(jumps) - chutes,
            *(square for jump in jumps for square in jump)}  # fmt: skip


# The grader's sentences whose numbers are its limits and settings, the same on every board.
SETTINGS = (
    r"stopped after [\d.]+ s: the time limit for one board",
    r"used up its CPU time limit of [\d.]+ s",
    r"printed more than \d+ KB",
    r"ran out of memory \(limit \d+ MB\)",
    r"wrote more than \d+ MB or \d+ files into its folder",
    r"not run: the program ran out of time on \d+ boards already",
    r"below 1e-9",
    r"the goal's value is 0",
    r"\b\d+ tokens?\b",  # which token tables: the rules' count
)


def unexplained_numbers(line: str, case: Case) -> list[str]:
    """The numbers in ``line`` that come neither from the rules nor from the grader's
    settings: what a hidden board's feedback must not have. The rules' own words may hold
    numbers (the spinner's faces, a discount), as may the limits."""
    expected = case.expected
    rules = [w for v in (*expected.readings, *expected.mistakes) for w in (v.says, v.reread)]
    for words in sorted(filter(None, rules), key=len, reverse=True):
        line = line.replace(words, "")
    for setting in SETTINGS:
        line = re.sub(setting, "", line)
    return re.findall(r"\d+(?:\.\d+)?", line)


# What a hidden board says of its entries: all, none, or a tenth of them (never the count,
# whose total is the board's size).
SHARE = re.compile(r"all entries right|none of the entries right|under 10% of the entries "
                   r"right|(?P<low>[1-9])0-(?P=low)9% of the entries right")  # fmt: skip


def share_holds(line: str, right: int, total: int) -> bool:
    """Whether the share ``line`` says is that of ``right`` entries in ``total``."""
    said = SHARE.fullmatch(line)
    assert said, line
    if line.startswith("all"):
        return right == total
    if line.startswith("none"):
        return right == 0
    low = int(said["low"] or 0) / 10
    return 0 < right < total and low <= right / total < low + 0.1


def assert_says_nothing_of_its_board(case: Case, title: str, feedback: list[str],
                                     right: int, total: int) -> None:  # fmt: skip
    """A hidden board's title and feedback: only the share of right entries, in tenths,
    has numbers."""
    assert re.fullmatch(r"(hidden|edge) board [1-9]", title), title
    for line in feedback:
        if SHARE.fullmatch(line):
            assert share_holds(line, right, total), (case.name, line, right, total)
            continue
        assert not unexplained_numbers(line, case), (case.name, line)


def staff_squares(test: Outcome) -> set[int]:
    return {int(n) for n in re.findall(r"^square (\d+): printed", "\n".join(test.staff), re.M)}


# --- the attacks -----------------------------------------------------------------------------


def test_the_corpus_programs_say_what_they_attempt():
    for name in HIDDEN_CORPUS:
        doc = (CORPUS / f"{name}.py").read_text().split('"""')[1]
        assert doc.startswith("Attempt: ") and " must " in doc.replace("\n", " "), name


def test_spoiled_jump_squares_are_counted_but_never_named(graded):
    result = graded("hidden_spoil")
    public = result.tests[0]
    starts = sorted(a for a, _ in CASES[0].board["jumps"])
    # Where the board is visible, the attack works: the wrong squares are its jumps.
    named = {int(n) for n in re.findall(r"^square (\d+): printed", "\n".join(public.feedback),
                                        re.M)}  # fmt: skip
    assert named and named <= set(starts)
    for case, test in hidden(result):
        goal, jumps = case.board["goal"], case.board["jumps"]
        # The graded entries are the first value and squares 1 .. goal - 1: all right but
        # the jump squares, each spoiled by 50 turns.
        assert (test.right, test.total) == (goal - len(jumps), goal), case.name
        assert test.status == ("passed" if not jumps else "partial")
        assert_says_nothing_of_its_board(case, test.title, list(test.feedback),
                                         test.right, test.total)  # fmt: skip
        assert not any(str(square) in " ".join(test.feedback[1:]) for square in board_facts(case))
        # The teaching assistants still see where.
        assert staff_squares(test) <= {a for a, _ in jumps}
        assert len(staff_squares(test)) == min(len(jumps), 10)


def test_a_hidden_board_says_about_what_share_is_right_and_never_its_size(graded):
    result = graded("hidden_spoil")
    public = result.tests[0]
    # A visible board keeps the exact count: its size is no secret.
    assert public.feedback[0] == f"{public.right} of {public.total} entries right"
    for case, test in hidden(result):
        said = "\n".join(test.feedback)
        # "2 of 90 entries right" would give the goal away, and the count right is the
        # program's to steer (spoil as many squares as the board has jumps).
        assert not re.search(r"\d+ of \d+", said), (case.name, said)
        assert f"of {case.board['goal']}" not in said
        assert share_holds(test.feedback[0], test.right, test.total), test.feedback
        # The staff still read the count.
        assert f"{test.right} of {test.total} entries right" in test.staff


def test_the_share_said_is_the_same_on_boards_of_any_size():
    from autograder._texts import hidden_entries_right as said

    # Hidden goals are 50, 60, ..., 150: half right says the same on each of them.
    sizes = range(50, 151, 10)
    assert {said(goal // 2, goal) for goal in sizes} == {"50-59% of the entries right"}
    assert {said(goal, goal) for goal in sizes} == {"all entries right"}
    assert {said(0, goal) for goal in sizes} == {"none of the entries right"}
    # A single wrong entry or a single right one is never rounded to "all" or "none".
    assert {said(goal - 1, goal) for goal in sizes} == {"90-99% of the entries right"}
    assert {said(1, goal) for goal in sizes} == {"under 10% of the entries right"}
    for goal in sizes:
        for right in range(goal + 1):
            assert share_holds(said(right, goal), right, goal), (right, goal)


def test_a_program_ignoring_chutes_is_told_so_on_hidden_boards(graded):
    result = graded("hidden_spoil", rules="chutes-ignored")
    told = 0
    for case, test in hidden(result):
        goal, jumps = case.board["goal"], case.board["jumps"]
        assert test.total == goal
        assert_says_nothing_of_its_board(case, test.title, list(test.feedback),
                                         test.right, test.total)  # fmt: skip
        # Off the jump squares (whose printed value depends on the reading), the entries
        # right are those where the game without chutes agrees with the real one.
        real = jump_values("classic", goal, jumps)[0]
        ladders = jump_values("classic", goal, [j for j in jumps if j[1] > j[0]])[0]
        starts = {a for a, _ in jumps}
        agree = sum(abs(round(ladders[s], 2) - real[s]) <= TOLERANCE
                    for s in range(goal) if s not in starts)  # fmt: skip
        assert agree <= test.right <= agree + len(starts), case.name
        if any(b < a for a, b in jumps):
            assert test.mistakes == ("chutes-ignored",), (case.name, test.feedback)
            named = "your answer matches a game where chutes are never followed (ladders are)"
            assert any(line.startswith(named) for line in test.feedback)
            told += 1
        else:
            assert test.status == "passed"
    assert told >= 3  # a chute before the goal and three random boards


def test_chatter_echoing_the_board_is_warned_about_by_kind_only(graded):
    result = graded("hidden_echo", mode="chatter")
    assert result.score == result.max_score  # chatter costs nothing
    public = result.tests[0]
    goal = CASES[0].board["goal"]
    # On a visible board the warnings say how many lines and where: the channel is real.
    assert any(f"ignored {goal} lines before the answer" in line for line in public.feedback)
    for case, test in hidden(result):
        assert test.feedback == (
            "all entries right",
            "warning: blank lines inside the answer",
            "warning: ignored lines before the answer",
            "warning: ignored lines after the answer",
        ), case.name
        assert_says_nothing_of_its_board(case, test.title, list(test.feedback),
                                         test.right, test.total)  # fmt: skip
        staff = "\n".join(test.staff)
        assert f"ignored {case.board['goal']} lines before the answer" in staff


def test_a_crash_gives_neither_its_exit_status_nor_its_own_exception(graded):
    result = graded("hidden_echo", mode="crash")
    public = result.tests[0]
    assert public.feedback[0].startswith("exited with status 100 (Goal100Jumps1_4_9_")
    for case, test in hidden(result):
        assert (test.status, test.feedback) == ("crashed", ("exited with an error",)), case.name
        assert_says_nothing_of_its_board(case, test.title, list(test.feedback), 0, 0)
        goal = case.board["goal"]
        assert test.staff[0].startswith(f"exited with status {goal} (Goal{goal}Jumps")


def test_output_the_grader_cannot_read_is_described_without_its_numbers(graded):
    result = graded("hidden_echo", mode="size")
    public = result.tests[0]
    assert public.feedback[0].startswith("output not readable: line 103: square 101 is not on")
    for case, test in hidden(result):
        assert test.status == "unreadable"
        assert test.feedback == (
            "output not readable: the answer does not have exactly one entry for each square "
            "of this board (the board file says how many squares there are)",
        ), case.name
        goal = case.board["goal"]
        assert f"square {goal + 1} is not on this board" in test.staff[0]


# --- where the student reads it -------------------------------------------------------------


def test_the_feedback_file_of_a_spoiling_program_names_no_hidden_square(graded):
    result = graded("hidden_spoil")
    blocks = feedback_text(result).split("\n\n")[1:]  # a block per board, after the header
    assert len(blocks) == len(CASES)
    for case, test, block in zip(CASES, result.tests, blocks, strict=True):
        if case.visible:
            continue
        head, *lines = block.splitlines()
        said = re.fullmatch(r"(PASS|PART|FAIL)  (.*) \[hidden\]: (\S+) / (\S+)", head)
        assert said, head
        assert (said[3], said[4]) == (f"{test.score:.2f}", f"{case.points:.2f}")
        assert_says_nothing_of_its_board(case, said[2], [x.strip() for x in lines],
                                         test.right, test.total)  # fmt: skip


def test_gradescope_results_of_hidden_boards_name_no_square(tmp_path):
    from tests.autograder.test_gradescope import assert_valid, run_autograder

    archive = gradescope_zip("classic", tmp_path / "process.zip", timeout=10, isolation="process")
    results = run_autograder(archive, tmp_path / "root", program("hidden_spoil"),
                             [{"email": "a@b.example"}])  # fmt: skip
    assert_valid(results)
    tests = results["tests"]
    assert [t["name"] for t in tests] == [c.title for c in CASES]
    for case, test in zip(CASES, tests, strict=True):
        if case.visible:
            assert test["visibility"] == "visible"
            continue
        goal, jumps = case.board["goal"], case.board["jumps"]
        assert test["visibility"] == "after_due_date"
        assert test["score"] == pytest.approx(case.points * (goal - len(jumps)) / goal, abs=1e-4)
        lines = test["output"].splitlines()
        assert_says_nothing_of_its_board(case, test["name"], lines, goal - len(jumps), goal)
    shown = json.dumps([t for t, c in zip(tests, CASES, strict=True) if not c.visible])
    assert "square" not in shown


def test_titles_of_hidden_boards_say_nothing_of_them():
    for name in ("classic", "token-boosted", "trap-lane"):
        cases = answer_cases(name)
        plan = load_assignment(name).tests
        titles = [c.title for c in cases if not c.visible]
        edges = [e for e in plan.edge_boards if e not in plan.public_edge_boards]
        assert titles == [f"edge board {k}" for k in range(1, len(edges) + 1)] + [
            f"hidden board {k}" for k in range(1, plan.hidden_boards + 1)
        ]
        # Staff still know which board is which, by the case's name.
        assert [c.name for c in cases if not c.visible] == [
            *edges,
            *(f"hidden-{k}" for k in range(1, plan.hidden_boards + 1)),
        ]
        # Edge boards named in public keep their names.
        shown = [c.title for c in cases if c.visible][1:]
        assert shown == [f"public board: {e}" for e in plan.public_edge_boards]
