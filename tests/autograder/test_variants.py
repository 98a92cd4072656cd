"""Variants end to end: a roster of 200, a board and a bundle each, graded on their boards."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder import Answer, load_assignment, render
from autograder._batch import grade_folder
from autograder._bundles import CHECK_SUPPORT, _json_lines, make_variants
from autograder._errors import UsageError
from autograder._manifest import load_manifest
from reference_solutions import (
    ReferenceAnswers,
    answer_key,
    examples_dir,
    reference_program,
    variant_board,
)
from tests.grading import fill_in, public_board
from tests.independent import jump_values

ROSTER = 200
SECRET = "fall-2026-course-secret"
ANSWERS = ReferenceAnswers()
BUNDLE_FILES = (
    {"classic.py", "board.json", "handout.md", "expected.json", "check.py"}
    | {f"_check/{m}" for m in ("__init__.py", *CHECK_SUPPORT)}
    | {f"{edge}.json" for edge in load_assignment("classic").tests.public_edge_boards}
)


def classic_values(board: dict) -> list[float]:
    """``V[0..goal]`` of a classic game (6 faces, exact finish), by the independent solver."""
    return jump_values("classic", board["goal"], board["jumps"], 6, "stay")[0]


def write_roster(path: Path, count: int) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as file:
        out = csv.writer(file)
        out.writerow(["SID", "First Name", "Last Name", "Email"])
        for k in range(1, count + 1):
            out.writerow([f"s{k:04d}", f"First{k}", f"Last{k}", f"student{k}@uni.example"])
    return path


@pytest.fixture(scope="module")
def made(ram_folder):
    tmp = ram_folder("variants")  # (2,600 files and folders: in memory)
    roster = write_roster(tmp / "roster.csv", ROSTER)
    report = make_variants("classic", roster, tmp / "out", ANSWERS, secret=SECRET)
    return tmp, report


def test_every_student_gets_a_folder_a_zip_and_a_manifest_entry(made):
    tmp, report = made
    assert report.problems == ()
    students = report.manifest.students
    assert [s.id for s in students] == [f"s{k:04d}" for k in range(1, ROSTER + 1)]
    manifest = load_manifest(tmp / "out" / "manifest.json", "classic")
    assert manifest.problems == ()
    assert [s.to_json() for s in manifest.students] == [s.to_json() for s in students]
    for student in students[:: ROSTER // 10]:
        folder = tmp / "out" / "students" / student.id
        files = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
        assert files == BUNDLE_FILES
        assert json.loads((folder / "board.json").read_text()) == student.board
        with zipfile.ZipFile(folder.with_suffix(".zip")) as zipped:
            names = {n.removeprefix(f"classic-{student.id}/") for n in zipped.namelist()}
            assert names == BUNDLE_FILES
            assert (
                zipped.read(f"classic-{student.id}/board.json")
                == (folder / "board.json").read_bytes()
            )


def test_no_solver_and_no_hidden_board_ships_in_a_bundle(made):
    tmp, report = made
    hidden = [c.board for c in answer_key("classic") if c.name.startswith("hidden")]
    folder = tmp / "out" / "students" / report.manifest.students[0].id
    text = "\n".join(p.read_text() for p in folder.rglob("*") if p.is_file())
    # The standard library only (the check also stops runaway programs: os, signal,
    # threading, time), and the grader's own reading code copied into _check/: every
    # relative import names a module of the bundle, every absolute one the standard library.
    for path in folder.rglob("*.py"):
        package = path.parent
        for module in re.findall(r"^\s*(?:from|import)\s+([\w.]+)", path.read_text(), re.M):
            if module.startswith("."):
                dots = len(module) - len(module.lstrip("."))
                base = package.parents[dots - 2] if dots > 1 else package
                target = base.joinpath(*module.lstrip(".").split(".")) if module != "." else base
                assert target.with_suffix(".py").is_file() or (target / "__init__.py").is_file(), (
                    path,
                    module,
                )
            elif module.split(".")[0] != "_check":
                assert module.split(".")[0] in sys.stdlib_module_names, (path, module)
    for board in hidden:
        assert json.dumps(board["jumps"]) not in text


def test_boards_are_valid_distinct_and_inside_the_band(made):
    _, report = made
    plan = load_assignment("classic").variants
    boards = [json.dumps(s.board, sort_keys=True) for s in report.manifest.students]
    assert len(set(boards)) == ROSTER
    for student in report.manifest.students[:20]:
        board = student.board
        assert board["goal"] == plan.goal
        starts = {a for a, _ in board["jumps"]}
        assert len(starts) == len(board["jumps"])
        assert not any(b in starts for _, b in board["jumps"])
        chutes = sum(b < a for a, b in board["jumps"])
        assert plan.chutes[0] <= chutes <= plan.chutes[1]
        # The band is about the classic game: checked with the independent solver.
        turns = classic_values(board)[0]
        assert plan.min_turns <= turns <= plan.max_turns


def test_expected_values_in_the_bundle_come_from_the_rules(made):
    tmp, report = made
    for student in report.manifest.students[:5]:
        key = json.loads((tmp / "out" / "students" / student.id / "expected.json").read_text())
        values = classic_values(student.board)
        assert key["expected"]["values"] == pytest.approx(values, abs=1e-6)
        assert key["self_check"] == f"{values[0]:.2f}" == student.self_check
        handout = (tmp / "out" / "students" / student.id / "handout.md").read_text()
        assert f"Expected turns per game: {student.self_check}" in handout
        assert "python3 check.py" in handout


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(JSON, st.integers(0, 4))
def test_a_key_written_a_few_levels_to_a_line_reads_back_as_it_was(data, depth):
    text = _json_lines(data, depth)
    assert json.loads(text) == data
    # Past ``depth``, and in a list of numbers, nothing is broken into lines.
    assert text.count("\n") <= len(json.dumps(data, indent=1).splitlines())
    if depth == 0 or not isinstance(data, dict | list):
        assert text == json.dumps(data)


def test_a_bundles_key_has_a_line_per_name_and_per_mistake(made):
    tmp, report = made
    path = tmp / "out" / "students" / report.manifest.students[0].id / "expected.json"
    lines = path.read_text().splitlines()
    key = json.loads(path.read_text())
    expected = key["expected"]
    # Each of the key's names starts a line, and so does each mistake, whole on its line;
    # a list of values is one line.
    for indent, names in ((" ", key), ("  ", expected)):
        for name in names:
            assert sum(line.startswith(f'{indent}"{name}": ') for line in lines) == 1, name
    for mistake in expected["mistakes"]:
        assert f"   {json.dumps(mistake)}," in lines or f"   {json.dumps(mistake)}" in lines
    assert f'  "values": {json.dumps(expected["values"])},' in lines
    assert len(lines) < 3 * (len(key) + len(expected) + len(expected["mistakes"]))


def test_boards_are_stable_per_secret_and_cannot_be_had_without_it(made, tmp_path):
    _, report = made
    first = report.manifest.students[0]
    assert variant_board("classic", SECRET, first.id) == first.board
    assert variant_board("classic", SECRET + "x", first.id) != first.board
    # A second run with the same secret, in a new folder, draws the same boards.
    again = make_variants(
        "classic", write_roster(tmp_path / "r.csv", 5), tmp_path / "again", ANSWERS, secret=SECRET
    )
    assert [s.board for s in again.manifest.students] == [
        s.board for s in report.manifest.students[:5]
    ]
    with pytest.raises(UsageError, match="another secret"):
        make_variants(
            "classic", tmp_path / "r.csv", tmp_path / "again", ANSWERS, secret="another-one"
        )


def test_without_a_secret_one_is_made_kept_and_reused(tmp_path, monkeypatch):
    monkeypatch.delenv("AUTOGRADER_SECRET", raising=False)
    roster = write_roster(tmp_path / "r.csv", 3)
    first = make_variants("trap-lane", roster, tmp_path / "out", ANSWERS)
    kept = tmp_path / "out" / "secret.txt"
    assert kept.stat().st_mode & 0o077 == 0
    assert any("secret.txt" in n for n in first.notes)
    second = make_variants("trap-lane", roster, tmp_path / "out", ANSWERS)
    assert [s.board for s in second.manifest.students] == [s.board for s in first.manifest.students]


def own_programs(tmp: Path, report, into: Path, count: int = ROSTER) -> Path:
    """The first ``count`` students' starters, filled in with the reference solving part."""
    reference = reference_program("classic")
    into.mkdir()
    for student in report.manifest.students[:count]:
        starter = (tmp / "out" / "students" / student.id / "classic.py").read_text()
        (into / f"{student.id}.py").write_text(fill_in(starter, reference))
    return into


# Twenty show it; the whole roster with -m slow.
@pytest.mark.parametrize("count", [20, pytest.param(ROSTER, marks=pytest.mark.slow)])
def test_filled_in_starters_all_score_full_marks_on_their_own_boards(made, tmp_path, count):
    tmp, report = made
    submissions = own_programs(tmp, report, tmp_path / "submissions", count)
    manifest = load_manifest(tmp / "out" / "manifest.json", "classic")
    # Each student's own board only: the shared hidden boards are the same for everyone
    # and covered by the conformance suite.
    batch = grade_folder(
        "classic", submissions, tmp_path / "results", answers=ANSWERS, workers=2,
        cases=public_board("classic"), manifest=manifest,
    )  # fmt: skip
    assert len(batch.results) == count
    for result in batch.results:
        assert result.status == "graded", result.problems
        assert [t.name for t in result.tests] == ["your-board"]
        assert result.score == result.max_score, (result.student, result.tests[0].feedback)
        board = manifest.find(result.student).board
        assert result.tests[0].title.startswith(f"your board ({board['goal']} squares")


def copied_answer(board: dict) -> str:
    """A program that prints the right answer for ``board`` and solves nothing: what
    copying a classmate's output amounts to."""
    values = classic_values(board)
    text = render(Answer("values", values[0], tuple(values)))
    return f"import sys\nsys.stdout.write({text!r})\n"


def test_swapped_submissions_lose_points_on_both_boards(made, tmp_path):
    tmp, report = made
    a, b = report.manifest.students[:2]
    assert a.board != b.board
    manifest = load_manifest(tmp / "out" / "manifest.json", "classic")
    cases = public_board("classic")

    def grade(programs: dict[str, str], out: str) -> dict[str, float]:
        folder = tmp_path / out
        folder.mkdir()
        for student, text in programs.items():
            (folder / f"{student}.py").write_text(text)
        batch = grade_folder(
            "classic",
            folder,
            tmp_path / f"{out}-results",
            answers=ANSWERS,
            cases=cases,
            manifest=manifest,
        )
        return {r.student: r.score for r in batch.results}

    own = grade({a.id: copied_answer(a.board), b.id: copied_answer(b.board)}, "own")
    assert own == {a.id: 25.0, b.id: 25.0}
    swapped = grade({a.id: copied_answer(b.board), b.id: copied_answer(a.board)}, "swapped")
    assert swapped[a.id] < 25.0 * 0.5 and swapped[b.id] < 25.0 * 0.5


def unpacked(made, tmp_path: Path, student: str) -> Path:
    tmp, _ = made
    with zipfile.ZipFile(tmp / "out" / "students" / f"{student}.zip") as zipped:
        zipped.extractall(tmp_path)
    return tmp_path / f"classic-{student}"


def check(bundle: Path, *args: str) -> subprocess.CompletedProcess:
    # -I -S: no project on the path and no site-packages, so only the standard library.
    return subprocess.run(
        [sys.executable, "-I", "-S", "check.py", *args],
        cwd=bundle, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_the_bundled_check_fails_the_starter_and_passes_a_solved_program(made, tmp_path):
    student = made[1].manifest.students[3]
    bundle = unpacked(made, tmp_path, student.id)
    result = check(bundle)
    assert result.returncode == 1
    assert "still raises NotImplementedError" in result.stdout
    program = bundle / "classic.py"
    program.write_text(fill_in(program.read_text(), reference_program("classic")))
    result = check(bundle)
    assert result.returncode == 0, result.stdout
    assert "100 of 100 entries right" in result.stdout
    assert f"self-check holds: printed {student.self_check}" in result.stdout


def test_the_bundled_check_names_the_wrong_square_as_the_grader_does(made, tmp_path):
    student = made[1].manifest.students[4]
    bundle = unpacked(made, tmp_path, student.id)
    text = copied_answer(student.board)
    values = classic_values(student.board)
    right = " 57: %5.2f " % values[57]
    assert right in text
    (bundle / "mine.py").write_text(text.replace(right, " 57: %5.2f " % (values[57] + 1)))
    result = check(bundle, "mine.py")
    assert result.returncode == 1
    assert "99 of 100 entries right" in result.stdout
    assert f"square 57: printed {values[57] + 1:.2f}, expected {values[57]:.2f}" in result.stdout


def test_the_bundled_check_names_the_mistake_and_lists_every_square_with_all(made, tmp_path):
    from autograder import render_examples

    student = made[1].manifest.students[2]
    bundle = unpacked(made, tmp_path, student.id)
    render_examples(load_assignment("classic"), tmp_path / "ex", examples_dir())
    shutil.copy(tmp_path / "ex" / "wrong_overshoot_wins.py", bundle / "mine.py")
    result = check(bundle, "mine.py")
    assert result.returncode == 1
    assert "your answer matches a game where a move past the goal wins" in result.stdout
    # Where the error starts first: the wrong square nearest the goal. (On the student's
    # board: the edge board every check runs comes after it, under a heading of its own.)
    own, shown = result.stdout.split("\npublic board: chute-before-goal:\n")
    assert "your answer matches a game where a move past the goal wins" in shown
    wrong = [line for line in own.splitlines() if re.match(r"square \d+: printed", line)]
    assert len(wrong) == 10 and "... and" in own
    board = student.board
    right = classic_values(board)
    win = jump_values("classic", board["goal"], board["jumps"], 6, "win")[0]
    missed = [i for i in range(1, 100) if abs(round(win[i], 2) - right[i]) > 0.01 + 1e-9]
    least = min(right[i] for i in missed)
    first = [f"square {i}: printed {win[i]:.2f}, expected {right[i]:.2f}"
             for i in missed if right[i] <= least + 1e-9]  # fmt: skip
    assert wrong[0] in first, (wrong[0], first)
    every = check(bundle, "mine.py", "--all")
    own = every.stdout.split("\npublic board: ")[0]
    listed = [line for line in own.splitlines() if re.match(r"square \d+: printed", line)]
    assert len(listed) > 10 and "... and" not in every.stdout


RUNAWAYS = {
    "flood": ("while True:\n    print('1: 2.00 ' * 20)\n", "printed more than 1024 KB; stopped"),
    # (Ended by the clock alone, as any limit would end it: it gets a second, the others two.)
    "endless": ("while True:\n    pass\n", "stopped after 1 s: the time limit for one board"),
    # The program exits at once but a grandchild keeps the output pipe open for an hour.
    "child": (
        "import os, sys, time\n"
        "if os.fork() == 0:\n    time.sleep(3600)\n    sys.exit(0)\n"
        "print('Expected turns per game: 1.00')\n",
        "output not readable",
    ),
    # The same sentence as the grader's (one place for both: autograder/_texts.py).
    "killed": ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "killed by SIGKILL"),
}


@pytest.mark.parametrize("runaway", sorted(RUNAWAYS))
def test_the_bundled_check_stops_a_runaway_program_and_says_why(made, tmp_path, runaway):
    source, why = RUNAWAYS[runaway]
    bundle = unpacked(made, tmp_path, made[1].manifest.students[5].id)
    key = json.loads((bundle / "expected.json").read_text())
    (bundle / "expected.json").write_text(
        json.dumps({**key, "timeout": 1 if runaway == "endless" else 2})
    )
    (bundle / "runaway.py").write_text(source)
    started = time.monotonic()
    result = check(bundle, "runaway.py")
    # The child's hour is not waited for (a bound far under it, and far over what the
    # check takes however busy the machine).
    assert time.monotonic() - started < 120
    assert result.returncode == 1
    assert why in result.stdout


def test_grading_with_a_manifest_reports_strangers_doubles_and_no_shows(made, tmp_path):
    tmp, report = made
    manifest = load_manifest(tmp / "out" / "manifest.json", "classic")
    first, second = report.manifest.students[:2]
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / f"{first.email.upper()}.py").write_text(copied_answer(first.board))
    (folder / f"{first.id}.py").write_text(copied_answer(first.board))
    (folder / "stranger.py").write_text(copied_answer(second.board))
    batch = grade_folder(
        "classic", folder, tmp_path / "results", answers=ANSWERS,
        cases=public_board("classic"), manifest=manifest,
    )  # fmt: skip
    by_student = {r.student: r for r in batch.results}
    assert by_student[first.id].score == 25.0
    assert by_student["stranger"].status == "error"
    assert "matches no student" in by_student["stranger"].problems[0]
    doubles = [r for r in batch.results if r.student not in (first.id, "stranger")]
    assert len(doubles) == 1 and "also submitted" in doubles[0].problems[0]
    notes = "\n".join(batch.notes)
    assert "stranger.py: matches no student" in notes
    assert f"no submission from {ROSTER - 1} students" in notes


def test_the_cli_makes_variants_and_lists_bad_rows(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "id,name,email\nada,Ada,ada@x.org\nada,Again,again@x.org\nb.o.b,Bob,bob@x.org\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "autograder", "variants", "boosted", "--roster", str(roster),
         "--out", str(tmp_path / "out"), "--secret", SECRET],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 1
    assert "made 2 bundles" in result.stdout
    assert f"{roster} row 3: duplicate student id 'ada' (first on row 2)" in result.stdout
    # An id with dots keeps them in its zip's name.
    assert (tmp_path / "out" / "students" / "b.o.b.zip").is_file()
    assert (tmp_path / "out" / "students" / "ada.zip").is_file()


def test_grade_refuses_a_manifest_of_another_assignment(made, tmp_path):
    tmp, _ = made
    folder = tmp_path / "subs"
    folder.mkdir()
    shutil.copy(tmp / "out" / "students" / "s0001" / "classic.py", folder / "s0001.py")
    result = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", "boosted", str(folder),
         "--manifest", str(tmp / "out" / "manifest.json"), "--out", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert "is a manifest for 'classic', not 'boosted'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_student_whose_manifest_entry_is_broken_is_told_so(tmp_path):
    manifest_path = tmp_path / "manifest.json"
    manifest_path.write_text(
        json.dumps(
            {"assignment": "classic", "students": [
                {"id": "amy", "board": {"goal": 100, "jumps": [[100, 1]]}},
                {"id": "ben", "board": {"goal": 100, "jumps": [[5, 50]]}},
            ]}
        )
    )  # fmt: skip
    manifest = load_manifest(manifest_path, "classic")
    assert [s.id for s in manifest.students] == ["ben"]
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "amy.py").write_text("print(1)\n")
    (folder / "ben.py").write_text("print(1)\n")
    batch = grade_folder(
        "classic", folder, tmp_path / "results", answers=ANSWERS,
        cases=public_board("classic"), manifest=manifest,
    )  # fmt: skip
    result = next(r for r in batch.results if r.student == "amy")
    assert result.status == "error"
    assert "the entry of student amy" in result.problems[0]
    assert "starts on the goal" in result.problems[0]
    # A manifest that matches some submissions says how many, and which it missed.
    assert "the manifest matched 1 of 2 submissions; not matched: amy.py" in batch.notes


def test_the_check_support_uses_no_regex_syntax_newer_than_python_3_10():
    # check.py promises Python 3.10; possessive quantifiers and atomic groups arrived in 3.11
    # and fail to compile before it, so the students' check would not even start.
    import ast

    import autograder

    newer = re.compile(r"(?:[+*?}])\+|\(\?>")
    for module in CHECK_SUPPORT:
        tree = ast.parse((Path(autograder.__file__).parent / module).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
                "compile", "match", "fullmatch", "search", "finditer", "findall", "sub",
            ):  # fmt: skip
                for arg in node.args[:1]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        assert not newer.search(arg.value), (module, arg.value)


def test_worker_processes_make_the_same_bundles_as_one(tmp_path):
    roster = write_roster(tmp_path / "roster.csv", 5)
    one = make_variants("classic", roster, tmp_path / "one", ANSWERS, secret=SECRET)
    two = make_variants("classic", roster, tmp_path / "two", ANSWERS, secret=SECRET, workers=2)
    assert one.problems == two.problems == ()
    assert [s.board for s in one.manifest.students] == [s.board for s in two.manifest.students]
    for student in one.manifest.students:
        mine = tmp_path / "one" / "students" / student.id / "expected.json"
        theirs = tmp_path / "two" / "students" / student.id / "expected.json"
        assert mine.read_bytes() == theirs.read_bytes()
        assert json.loads(mine.read_text())["expected"]["mistakes"]  # the catalogue ships


# --- boards no student is given, and boards two students share ----------------------------


def with_variants(copied_assignments: Path, name: str, text: str) -> None:
    """Assignment ``name`` with ``text`` as its [variants] section."""
    config = copied_assignments / name / "assignment.toml"
    kept = re.sub(r"(?ms)^\[variants\]\n.*?(?=^\[|\Z)", "", config.read_text())
    config.write_text(f"{kept}\n[variants]\n{text}\n")


def game(board: dict) -> str:
    """A board as the game it is: its name aside (every parameter these tests leave alone
    is the same on all boards)."""
    return json.dumps({k: v for k, v in board.items() if k != "name"}, sort_keys=True)


def everyones_games(name: str) -> set[str]:
    """The public board, the edge boards and the hidden boards, as programs are given them."""
    return {game(case.board) for case in answer_key(name)}


def test_a_trap_lane_board_has_a_trap_and_is_none_of_the_tested_boards(copied_assignments):
    # Counts of 0 or 1: one draw in 16 has no trap, which is the public board (no circle)
    # or the public edge board "circle", both published with their answers.
    with_variants(
        copied_assignments, "trap-lane",
        'restart = [0, 1]\npenalty = [0, 1]\nprison = [0, 1]\nspecial = [0, 1]\ncircle = "either"',
    )  # fmt: skip
    boards = [variant_board("trap-lane", SECRET, f"s{k:04d}") for k in range(200)]
    assert all(any(board["layout"]) for board in boards)
    assert not everyones_games("trap-lane") & {game(board) for board in boards}
    # Drawn again from the student's own draws: the same board every time.
    assert [variant_board("trap-lane", SECRET, f"s{k:04d}") for k in range(20)] == boards[:20]


def test_shipped_trap_lane_boards_test_every_trap_and_are_all_different():
    # The roster of the report: 400 students, one of whom used to get the public board.
    boards = [variant_board("trap-lane", "secret-one-123", str(k)) for k in range(200000, 200400)]
    assert len({game(board) for board in boards}) == 400
    assert not everyones_games("trap-lane") & {game(board) for board in boards}
    for board in boards:
        assert {code for code in board["layout"] if code} == {1, 2, 3, 4}


def test_a_jump_board_is_none_of_the_tested_boards(copied_assignments):
    # No chute and at most one ladder: one draw in two is the edge board "no-jumps".
    with_variants(
        copied_assignments,
        "classic",
        "goal = 100\nchutes = 0\nladders = [0, 1]\nmin_turns = 1\nmax_turns = 100",
    )
    boards = [variant_board("classic", SECRET, f"s{k:04d}") for k in range(20)]
    assert [len(board["jumps"]) for board in boards] == [1] * 20
    assert not everyones_games("classic") & {game(board) for board in boards}


@pytest.mark.parametrize(
    ("name", "plan", "problem"),
    [
        ("trap-lane", "restart = 0\npenalty = [0, 0]\nprison = 0\nspecial = 0", "no trap at all"),
        ("classic", "chutes = 0\nladders = [0, 0]", "no chute and no ladder"),
    ],
)
def test_a_plan_that_draws_only_boards_without_traps_or_jumps_is_refused(
    copied_assignments, name, plan, problem
):
    with_variants(copied_assignments, name, plan)
    with pytest.raises(UsageError, match=rf"\[variants\] draws {problem}") as caught:
        load_assignment(name)
    assert caught.value.where == str(copied_assignments / name / "assignment.toml")


def variants_cli(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autograder", "variants", *map(str, args)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_students_given_one_board_are_a_warning_apart_and_keep_their_boards(
    copied_assignments, tmp_path
):
    # One restart trap and no circle: 13 boards for 20 students, so some must share.
    with_variants(
        copied_assignments,
        "trap-lane",
        "restart = 1\npenalty = 0\nprison = 0\nspecial = 0\ncircle = false",
    )
    roster = write_roster(tmp_path / "roster.csv", 20)
    out = tmp_path / "out"
    result = variants_cli("trap-lane", "--roster", roster, "--out", out, "--secret", SECRET)
    assert result.returncode == 0, result.stderr
    manifest = load_manifest(out / "manifest.json", "trap-lane")
    by_board: dict[str, list[str]] = {}
    for student in manifest.students:
        by_board.setdefault(game(student.board), []).append(student.id)
    shared = [ids for ids in by_board.values() if len(ids) > 1]
    assert shared
    # On standard error, where a summary sent to a file does not hide it, in one line.
    (warning,) = result.stderr.splitlines()
    assert warning.startswith(f"autograder: warning: {sum(map(len, shared))} students were ")
    for ids in shared:
        assert ", ".join(ids) in warning
    assert "warning" not in result.stdout
    # Not drawn again: a student's board still depends on the secret and their id alone.
    for student in manifest.students:
        assert variant_board("trap-lane", SECRET, student.id) == student.board


def test_a_rerun_names_the_students_whose_boards_changed(copied_assignments, tmp_path):
    roster = write_roster(tmp_path / "roster.csv", 6)
    first = make_variants("trap-lane", roster, tmp_path / "out", ANSWERS, secret=SECRET)
    assert first.warnings() == []
    with_variants(
        copied_assignments, "trap-lane", "restart = 3\npenalty = 0\nprison = 0\nspecial = 0"
    )
    second = make_variants("trap-lane", roster, tmp_path / "out", ANSWERS, secret=SECRET)
    pairs = zip(first.manifest.students, second.manifest.students, strict=True)
    changed = tuple(old.id for old, new in pairs if old.board != new.board)
    assert changed and second.changed == changed
    (warning,) = second.warnings()
    assert f"{len(changed)} students' boards are not the ones" in warning
    assert ", ".join(changed) in warning and warning.endswith("hand them their new bundles")
    third = make_variants("trap-lane", roster, tmp_path / "out", ANSWERS, secret=SECRET)
    assert third.changed == () and third.warnings() == []


def test_a_run_for_some_students_keeps_the_others_in_the_manifest(tmp_path):
    """Variants made for the late students alone, or with a row now refused, leave everyone
    already in the folder's manifest there, with their boards and bundles."""
    everyone = write_roster(tmp_path / "all.csv", 4)
    first = make_variants("classic", everyone, tmp_path / "out", ANSWERS, secret=SECRET)
    rows = everyone.read_text().splitlines()
    late = tmp_path / "late.csv"
    # s0002 is left off; s0003's email is now one no address can have; s0005 is new.
    new_row = "s0005,First5,Last5,student5@uni.example"
    late.write_text("\n".join([rows[0], rows[1], rows[3].replace("@", " at "), rows[4], new_row]))
    second = make_variants("classic", late, tmp_path / "out", ANSWERS, secret=SECRET)
    assert len(second.problems) == 1 and "late.csv row 3: " in second.problems[0]
    assert second.kept == ("s0002", "s0003")
    on_disk = load_manifest(tmp_path / "out" / "manifest.json", "classic")
    assert sorted(s.id for s in on_disk.students) == ["s0001", "s0002", "s0003", "s0004", "s0005"]
    boards = {s.id: s.board for s in first.manifest.students}
    assert all(s.board == boards[s.id] for s in on_disk.students if s.id in boards)
    assert all((tmp_path / "out" / s.bundle).is_file() for s in on_disk.students)
    summary = second.summary()
    assert summary.startswith("made 3 bundles in ")
    assert ("kept 2 students of the manifest whose bundles this run did not make again, with "
            "the bundles they have: s0002, s0003") in summary  # fmt: skip
    assert "1 problem (those students have no bundle):" in summary


def test_a_refused_run_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    monkeypatch.delenv("AUTOGRADER_SECRET", raising=False)
    roster = write_roster(tmp_path / "roster.csv", 2)
    out = tmp_path / "out"
    made = variants_cli("trap-lane", "--roster", roster, "--out", out, "--secret", "secret-one-123")
    assert made.returncode == 0, made.stderr

    def files() -> dict[str, bytes]:
        return {
            p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()
        }

    before = files()
    refused = variants_cli("trap-lane", "--roster", roster, "--out", out)
    assert refused.returncode == 2
    # No secret.txt with a secret that made none of these bundles, nothing else either.
    assert not (out / "secret.txt").exists()
    assert files() == before
    assert refused.stdout == ""
    (line,) = refused.stderr.splitlines()
    assert line.startswith(f"autograder: error: {out}: holds variants made with another secret")
    assert "keeps no secret.txt" in line


def test_the_trap_lane_bundle_checks_the_circle_and_the_trapped_lane_too(tmp_path):
    # A program that ignores the circle can be right on a student's own board (no circle
    # there); the public circle board that everyone's check runs catches it, in the bundle
    # as with `autograder check`.
    roster = write_roster(tmp_path / "roster.csv", 8)
    report = make_variants("trap-lane", roster, tmp_path / "out", ANSWERS, secret=SECRET)
    student = next(s for s in report.manifest.students if not s.board.get("circle"))
    with zipfile.ZipFile(tmp_path / "out" / "students" / f"{student.id}.zip") as zipped:
        zipped.extractall(tmp_path)
    bundle = tmp_path / f"trap-lane-{student.id}"
    right = reference_program("trap-lane")
    (bundle / "right.py").write_text(right)
    result = check(bundle, "right.py")
    assert result.returncode == 0, result.stdout
    sections = result.stdout.split("\n\n")
    titles = [s.splitlines()[0] for s in sections[1:-1]]
    assert len(titles) == 2 and any("circle" in t for t in titles), result.stdout
    call = "expec, dice = markovDecision(layout, circle)"
    assert right.count(call) == 1
    flat = right.replace(call, "expec, dice = markovDecision(layout, False)")
    (bundle / "flat.py").write_text(flat)
    result = check(bundle, "flat.py")
    assert result.returncode == 1
    own, *shared = result.stdout.split("\n\n")[:3]
    assert "29 of 29 entries right" in own  # its own board has no circle
    circle = next(s for s in shared if "circle" in s.splitlines()[0])
    assert "entries right" in circle and "29 of 29" not in circle


def test_a_roster_of_refused_rows_alone_writes_nothing(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("Name,ID,Email\nAda,..,a@x.edu\nBob,-rf,b@x.edu\n", encoding="utf-8")
    out = tmp_path / "out"
    made = variants_cli("classic", "--roster", roster, "--out", out, "--secret", "secret-one-123")
    assert made.returncode == 2 and made.stdout == ""
    (line,) = made.stderr.splitlines()
    assert str(roster) in line and "no student row that can be used (2 refused" in line
    assert not out.exists()


def test_an_out_that_is_a_file_is_one_line(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("x\n")
    roster = write_roster(tmp_path / "roster.csv", 2)
    made = variants_cli("classic", "--roster", roster, "--out", taken, "--secret", "secret-one-123")
    assert made.returncode == 2
    (line,) = made.stderr.splitlines()
    assert line == f"autograder: error: {taken}: is a file, not a folder for the variants"
    assert taken.read_text() == "x\n"
