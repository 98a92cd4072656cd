"""The Gradescope autograder: the zip's layout, and its whole flow in a temporary root."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

import autograder
import reference_solutions
from autograder import make_variants
from autograder._errors import UsageError
from autograder._files import tree_files
from autograder._gradescope import VISIBILITIES, _own_board, gradescope_results
from autograder._manifest import load_manifest
from autograder._results import SubmissionResult
from autograder._results import TestResult as Outcome  # (named apart: pytest collects no class)
from reference_solutions import ReferenceAnswers, answer_key, reference_program
from tests.grading import fill_in, gradescope_zip, isolation_or_skip

TIMEOUT = 2.0  # per board: room for the programs that end, on a busy machine
STUDENTS = [("s1", "ada@uni.example"), ("s2", "alan@uni.example"), ("s3", "grace@uni.example")]
MARKER = "PRINTED-BY-THE-SUBMISSION"


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gradescope")
    roster = tmp / "roster.csv"
    with open(roster, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["id", "email"])
        writer.writerows(STUDENTS)
    report = make_variants(
        "classic", roster, tmp / "variants", ReferenceAnswers(), secret="gradescope-secret"
    )
    return tmp / "variants", report


@pytest.fixture(scope="module")
def archive(variants, tmp_path_factory):
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    return gradescope_zip("classic", out, manifest=variants[0] / "manifest.json", timeout=TIMEOUT)


# For a program that never ends, no room is needed: any limit stops it (at TIMEOUT it cost
# two whole limits).
ENDLESS_TIMEOUT = 0.5


@pytest.fixture(scope="module")
def endless_archive(variants, tmp_path_factory):
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    return gradescope_zip("classic", out, manifest=variants[0] / "manifest.json",
                            timeout=ENDLESS_TIMEOUT)  # fmt: skip


def run_autograder(
    archive: Path, root: Path, program: str, users: list[dict], python: str = sys.executable
) -> dict:
    """Unpack the zip as Gradescope does, hand in ``program``, run ``run_autograder`` (with
    ``python`` as the image's venv)."""
    source = root / "source"
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(source)
    (source / "run_autograder").chmod(0o755)
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "classic.py").write_text(program)
    (root / "submission_metadata.json").write_text(json.dumps({"id": 1, "users": users}))
    # The venv setup.sh would build is this test's interpreter, which has the dependencies;
    # the project itself is imported from the unpacked zip (run_autograder sets PYTHONPATH).
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": python}
    done = subprocess.run(
        [str(source / "run_autograder")], env=env, cwd=root,
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"autograder from {source / 'project' / 'autograder'}" in done.stdout
    return json.loads((root / "results" / "results.json").read_text())


def own_program(variants, student: str) -> str:
    folder, _ = variants
    starter = (folder / "students" / student / "classic.py").read_text()
    return fill_in(starter, reference_program("classic"))


def assert_valid(results: dict) -> None:
    """The fields Gradescope reads, with the types it expects."""
    assert isinstance(results["score"], int | float)
    assert results["stdout_visibility"] == "hidden"
    for test in results["tests"]:
        assert set(test) >= {"name", "score", "max_score", "output", "visibility"}
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert 0 <= test["score"] <= test["max_score"]
        assert test["visibility"] in ("visible", "after_due_date")
    assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))


def test_the_zip_has_the_two_scripts_at_its_root_and_the_project_inside(archive):
    """The packages as they are installed (code and package data), the requirements pip
    installs for them, and nothing of a checkout's: no tests, no caches."""
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        for script in ("setup.sh", "run_autograder"):
            assert script in names
            assert stat.S_IMODE(zipped.getinfo(script).external_attr >> 16) & 0o111
        assert {"project/requirements.txt", "project/autograder/cli/__init__.py",
                "project/reference_solutions/_solver.py",
                "project/autograder/assignments/classic/assignment.toml",
                "project/autograder/starter_code/classic.py.j2",
                "project/reference_solutions/programs/classic.py.j2", "manifest.json",
                "gradescope.json"} <= names  # fmt: skip
        assert not any("__pycache__" in n or n.startswith("project/tests/") for n in names)
        assert "project/pyproject.toml" not in names  # (an installed package has none)
        # Every file of the two packages goes in, as the image needs it.
        for package in (autograder, reference_solutions):
            folder = Path(package.__file__).parent
            shipped = {f"project/{folder.name}/{rel}" for rel, path in tree_files(folder)
                       if path.suffix != ".so"}  # fmt: skip
            assert shipped <= names
        # The requirements are the distribution's own, extras left out.
        wanted = zipped.read("project/requirements.txt").decode().split()
        assert {r.split(">")[0] for r in wanted} == {"numpy", "scipy", "jinja2"}
        for script in ("setup.sh", "run_autograder"):
            text = zipped.read(script)
            assert subprocess.run(["bash", "-n"], input=text, timeout=10).returncode == 0


def test_the_zip_carries_the_kernels_source_and_setup_sh_builds_it(archive, tmp_path):
    """No binary built for this machine's Python goes into the zip (Gradescope's may be
    another); its source and its build script do, and the build setup.sh runs makes a
    kernel that the unpacked project imports and solves with."""
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        assert {"project/reference_solutions/_build.py",
                "project/reference_solutions/_kernel.c"} <= names  # fmt: skip
        assert not any(n.endswith((".so", ".pyd")) for n in names)
        setup = zipped.read("setup.sh").decode()
        zipped.extractall(tmp_path)
    assert 'for build in "$PROJECT"/*/_build.py' in setup
    project = tmp_path / "project"
    done = subprocess.run([sys.executable, "reference_solutions/_build.py"], cwd=project,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "solver kernel: built" in done.stdout
    probe = (
        "import reference_solutions._kernel as k, reference_solutions as r;"
        "assert k.__file__.startswith(r.__path__[0]);"
        "m = r.make_problem('trap-lane').game.model;"
        "assert r._solver._kernel_solution(m, 100, 1e-9, None) is not None"
    )
    env = {**os.environ, "PYTHONPATH": str(project)}
    ran = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert ran.returncode == 0, ran.stderr


def test_a_correct_submission_gets_full_marks_on_its_own_board(variants, archive, tmp_path):
    users = [{"email": "ALAN@uni.example", "id": 901, "name": "Alan"}]
    results = run_autograder(archive, tmp_path, own_program(variants, "s2"), users)
    assert_valid(results)
    assert results["score"] == 100
    own, edge = shown(results)
    assert own["name"].startswith("your board")
    # The edge board every student's check runs is shown too; the rest after the due date.
    assert edge["name"] == "public board: chute-before-goal"
    assert all(t["visibility"] == "after_due_date" for t in hidden(results))
    assert len(results["tests"]) == 7
    board = json.loads((variants[0] / "students" / "s2" / "board.json").read_text())
    assert f"{board['goal']} squares, {len(board['jumps'])} jumps" in own["name"]


def shown(results: dict) -> list[dict]:
    """The tests a student sees before the due date: their own board, the edge board shown."""
    tests = [t for t in results["tests"] if t["visibility"] == "visible"]
    assert len(tests) == 2
    return tests


def hidden(results: dict) -> list[dict]:
    return [t for t in results["tests"] if t["visibility"] != "visible"]


def printing(values: list[float]) -> str:
    """A program that prints ``MARKER``, then a 100-square answer with ``values``."""
    lines = [f"print({MARKER!r})", f"print('Expected turns per game: {values[0]:.2f}')",
             "print('Expected turns remaining by position:')"]  # fmt: skip
    for row in range(9, -1, -1):
        squares = range(10 * row + 1, 10 * row + 11)
        squares = squares if row % 2 == 0 else reversed(squares)
        cells = "".join("%3d: %5.2f " % (s, values[s]) for s in squares)
        lines.append(f"print({cells!r})")
    return "\n".join(lines) + "\n"


def test_another_students_program_loses_points_and_sees_its_prints_on_its_own_board_only(
    variants, archive, tmp_path
):
    # s1's solved program hard-codes nothing, so it would pass on any board; a copy of
    # s1's printed answer does not.
    # (Quoting is for levels that keep the answer material out of reach; the process level's
    # own test is test_at_the_process_level_nothing_printed_is_quoted_back.)
    isolation_or_skip("namespace")
    key = json.loads((variants[0] / "students" / "s1" / "expected.json").read_text())
    values = key["expected"]["values"]
    users = [{"email": "grace@uni.example", "id": 903, "name": "Grace"}]
    results = run_autograder(archive, tmp_path, printing(values), users)
    assert_valid(results)
    assert 0 < results["score"] < 50
    own, _edge = shown(results)  # (the edge board shown: the same for everyone)
    others = hidden(results)
    assert own["visibility"] == "visible" and own["score"] < 25
    # On the student's own board (visible) the feedback shows what the program printed,
    # as `autograder check` does: the chatter, and each wrong value beside the expected.
    assert f"(line 1: {MARKER!r})" in own["output"]
    assert "printed something else" not in own["output"]
    wrong = re.findall(r"^square (\d+): printed (\S+), expected ", own["output"], re.M)
    assert wrong and all(printed == f"{values[int(n)]:.2f}" for n, printed in wrong)
    # Hidden boards never repeat it: neither the chatter nor a printed value.
    for test in others:
        assert test["visibility"] == "after_due_date"
        assert MARKER not in test["output"] and ": printed " not in test["output"]
    read = [t["output"] for t in others if "entries right" in t["output"]]
    # (Nor how many lines it printed before the answer: a count a program chooses.)
    assert read and all("warning: ignored lines before the answer" in o.splitlines() for o in read)
    assert MARKER not in results["output"]


def summary(results: dict) -> list[str]:
    """The lines above the report in the top-level output, which the student always sees."""
    said = re.match(r"(?:<p>.*</p>\n)*", results["output"])
    assert said
    return re.findall(r"<p>(.*)</p>", said[0])


def test_the_summary_the_student_always_sees_says_nothing_of_the_hidden_boards(
    variants, archive, tmp_path
):
    # Right on the student's own board and wrong everywhere else (its answer is written
    # in), against a program right everywhere: before the due date the student must not
    # tell them apart, or resubmitting would show what passes the hidden boards.
    key = json.loads((variants[0] / "students" / "s1" / "expected.json").read_text())
    users = [{"email": "ada@uni.example", "id": 900, "name": "Ada"}]
    # The answers of the boards it is shown (its own and the edge board every check runs),
    # written in; any other board gets its own board's.
    folder = variants[0] / "students" / "s1"
    answers = {json.dumps(json.loads((folder / "board.json").read_text()), sort_keys=True):
               key["expected"]["values"]}  # fmt: skip
    for also in key["also"]:
        board = json.loads((folder / also["board"]).read_text())
        answers[json.dumps(board, sort_keys=True)] = also["expected"]["values"]
    texts = {k: printing(v) for k, v in answers.items()}
    first = next(iter(texts.values()))
    known = (f"import json, sys\ntexts = {texts!r}\nboard = json.load(open(sys.argv[1]))\n"
             f"exec(texts.get(json.dumps(board, sort_keys=True), {first!r}))\n")  # fmt: skip
    own_only = run_autograder(archive, tmp_path / "own", known, users)
    everywhere = run_autograder(archive, tmp_path / "all", own_program(variants, "s1"), users)
    assert all(t["status"] == "passed" for t in (*shown(own_only), *shown(everywhere)))
    assert all(t["status"] == "failed" for t in hidden(own_only))
    assert all(t["status"] == "passed" for t in hidden(everywhere))
    assert summary(own_only) == summary(everywhere)
    assert summary(own_only) == [
        "Graded on your own board (s1).",
        "2 of 2 visible boards fully right.",
        "Your program is also graded on other boards, whose results are shown after the due date.",
    ]
    # (The total, which does tell them apart, Gradescope hides while tests are hidden.)
    assert own_only["score"] < everywhere["score"] == 100


def board_result(hidden: str) -> SubmissionResult:
    """A submission right on the public board and ``hidden`` on the six others."""
    tests = [Outcome("public", "public board", 25.0, 25.0, True, "passed", 100, 100)]
    points = 15.0 if hidden == "passed" else 0.0
    tests += [Outcome(f"hidden-{k}", f"hidden board {k}", points, 15.0, False, hidden)
              for k in range(1, 7)]  # fmt: skip
    score = sum(t.score for t in tests)
    return SubmissionResult("s1", "classic.py", "classic", score, 115.0, "graded", tuple(tests))


@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_the_top_level_output_counts_only_the_boards_visible_to_the_student(visibility):
    passed, wrong = (gradescope_results(board_result(h), visibility) for h in ("passed", "wrong"))
    assert passed["visibility"] == "visible"  # the top-level output is always shown
    if visibility == "visible":  # every board is shown at once, so the count may cover all
        assert passed["output"] == "7 of 7 boards fully right."
        assert wrong["output"] == "1 of 7 boards fully right."
        return
    assert passed["output"] == wrong["output"]
    first, then = passed["output"].splitlines()
    assert first == "1 of 1 visible board fully right."
    when = {"after_due_date": "are shown after the due date",
            "after_published": "are shown when the grades are published",
            "hidden": "are not shown here"}[visibility]  # fmt: skip
    assert then == f"Your program is also graded on other boards, whose results {when}."
    assert all(t["visibility"] == visibility for t in passed["tests"][1:])
    # The total counts every board; Gradescope does not show it while tests are hidden.
    assert (passed["score"], wrong["score"]) == (115.0, 25.0)


def test_a_group_is_told_whose_board_it_was_graded_on(variants, archive, tmp_path):
    # Grace's board is the first member's: Ada's answer, written in, is wrong there.
    key = json.loads((variants[0] / "students" / "s1" / "expected.json").read_text())
    users = [{"email": "grace@uni.example", "id": 903, "name": "Grace"},
             {"email": "ada@uni.example", "id": 900, "name": "Ada", "sid": "s1"}]  # fmt: skip
    results = run_autograder(archive, tmp_path, printing(key["expected"]["values"]), users)
    assert_valid(results)
    own = results["tests"][0]
    board = json.loads((variants[0] / "students" / "s3" / "board.json").read_text())
    assert f"{board['goal']} squares, {len(board['jumps'])} jumps" in own["name"]
    assert own["score"] < 25
    assert summary(results)[0] == (
        "Group submission: the whole group is graded on the board of Grace (s3), its first "
        "member with a board. Ada (s1) has another board, which this submission was not "
        "graded on."
    )


def test_a_group_member_without_a_board_is_named_and_the_next_ones_board_used(variants):
    manifest = load_manifest(variants[0] / "manifest.json", "classic")
    stranger = {"email": "stranger@elsewhere.example", "name": "Stranger"}
    alan = {"email": "alan@uni.example", "name": "Alan"}
    entry, note = _own_board(manifest, [stranger, alan])
    assert entry is not None and entry.id == "s2"
    assert note == ("Group submission: the whole group is graded on the board of Alan (s2), "
                    "its first member with a board. No board was made for Stranger.")  # fmt: skip
    # One member: the note is as it always was.
    assert _own_board(manifest, [alan])[1] == "Graded on your own board (s2)."
    # Two users found as the same student (the same login twice): no other board to name.
    entry, note = _own_board(manifest, [alan, {"sid": "s2"}])
    assert note.endswith("its first member with a board.")
    assert _own_board(manifest, [stranger]) == (None, "")


def test_a_crash_shows_its_standard_error_on_the_visible_board_only(variants, archive, tmp_path):
    isolation_or_skip("namespace")  # (standard error is quoted only above the process level)
    program = f"import sys\nsys.stderr.write({MARKER!r})\nraise SystemExit(3)\n"
    results = run_autograder(archive, tmp_path, program, [{"email": "ada@uni.example"}])
    assert_valid(results)
    assert results["score"] == 0
    for test in shown(results):
        assert "exited with status 3" in test["output"]
        assert f"standard error (last lines):\n{MARKER}" in test["output"]
    for test in hidden(
        results
    ):  # (the exit status is the program's to choose: not on hidden boards)
        assert test["output"] == "exited with an error"


def test_at_the_process_level_nothing_printed_is_quoted_back(tmp_path):
    # A program run as the grader's user could read the answer material and print it, so
    # without isolation not even the visible board quotes what it printed.
    archive = gradescope_zip(
        "classic", tmp_path / "process.zip", timeout=TIMEOUT, isolation="process"
    )
    values = answer_key("classic", hidden=False)[0].expected.answer.values
    wrong = [v + 1 for v in values]  # every square off by one turn
    results = run_autograder(archive, tmp_path / "root", printing(wrong), [{"email": "a@b"}])
    assert_valid(results)
    assert results["extra_data"]["isolation"] == "process"
    public = results["tests"][0]
    assert public["visibility"] == "visible" and public["score"] == 0
    assert "ignored 1 line before the answer (line 1)" in public["output"]
    assert "printed something else" in public["output"]
    assert MARKER not in json.dumps(results)


@pytest.mark.slow  # (the same runs as `grade`'s, whose time limits the default run checks)
def test_a_program_that_never_ends_scores_zero_within_the_limits(endless_archive, tmp_path):
    users = [{"email": "ada@uni.example", "id": 900, "name": "Ada", "sid": "s1"}]
    program = "while True:\n    pass\n"
    results = run_autograder(endless_archive, tmp_path, program, users)
    assert_valid(results)
    assert results["score"] == 0
    statuses = [t["output"] for t in results["tests"]]
    # The CPU limit is as long as the wall clock's: either may end a run first (which one
    # is a race that a busy machine decides), and both are its time limit.
    limit = f"{ENDLESS_TIMEOUT:g} s"
    stopped = (f"stopped after {limit}", f"used up its CPU time limit of {limit}")
    assert sum(any(says in s for says in stopped) for s in statuses) == 2
    assert all("not run" in s for s in statuses[2:])


def test_a_student_without_a_board_is_told_and_scores_zero(variants, archive, tmp_path):
    users = [{"email": "stranger@elsewhere.example", "id": 999, "name": "Stranger"}]
    results = run_autograder(archive, tmp_path, own_program(variants, "s1"), users)
    assert results["score"] == 0 and results["tests"] == []
    assert "stranger@elsewhere.example" in results["output"]
    assert "roster" in results["output"]


def test_without_a_manifest_everyone_is_graded_on_the_public_board(tmp_path):
    archive = gradescope_zip("classic", tmp_path / "plain.zip", timeout=TIMEOUT)
    program = reference_program("classic")
    results = run_autograder(archive, tmp_path / "root", program, [{"email": "a@b.example"}])
    assert_valid(results)
    assert results["score"] == 100
    assert results["tests"][0]["name"] == "public board"
    assert "self-check holds: printed 39.60" in results["tests"][0]["output"]


def test_a_broken_configuration_still_writes_a_result(archive, tmp_path):
    source = tmp_path / "source"
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(source)
    (source / "gradescope.json").write_text("{not json")
    (tmp_path / "submission").mkdir()
    env = {**os.environ, "AUTOGRADER_ROOT": str(tmp_path), "AUTOGRADER_PYTHON": sys.executable}
    done = subprocess.run(
        ["bash", str(source / "run_autograder")], env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    assert results["score"] == 0 and "autograder failed" in results["output"]
    assert "JSONDecodeError" in done.stdout  # the traceback is in the staff's log


def test_bad_options_are_one_line_errors(tmp_path, variants):
    with pytest.raises(UsageError, match="not 'boosted'"):
        gradescope_zip("boosted", tmp_path / "a.zip", manifest=variants[0] / "manifest.json")
    with pytest.raises(UsageError, match="--hidden-visibility"):
        gradescope_zip("classic", tmp_path / "a.zip", hidden_visibility="sometimes")
    result = subprocess.run(
        [sys.executable, "-m", "autograder", "gradescope", "classic", "--out",
         str(tmp_path / "a.zip"), "--manifest", str(tmp_path / "missing.json")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert (
        result.stderr.strip() == f"autograder: error: {tmp_path / 'missing.json'}: no such manifest"
    )
    assert not (tmp_path / "a.zip").exists()


@pytest.mark.parametrize("java", [True, False])
def test_setup_installs_a_jdk_where_java_is_graded(tmp_path, java, monkeypatch):
    import autograder._gradescope as gradescope

    members: dict[str, bytes] = {}
    # (the zip's members as they are made, without compressing the whole project)
    monkeypatch.setattr(gradescope, "write_zip",
                        lambda _out, made: members.update((n, d) for n, d, _ in made))  # fmt: skip
    # Java is graded for every assignment (a .java file is compiled and run: the trap lane's
    # too, with no Java starter), unless a course's languages.toml takes it out.
    if not java:
        monkeypatch.setattr(gradescope, "language_names", lambda: ["python"])
    gradescope_zip("trap-lane", tmp_path / "autograder.zip")
    config = json.loads(members["gradescope.json"])
    setup = members["setup.sh"].decode()
    assert config["java"] is java
    # setup.sh reads that flag from the config it is unpacked beside.
    condition = re.search(r"-c '(import json, sys; [^']*)'", setup)
    assert condition is not None and "default-jdk-headless" in setup
    (tmp_path / "gradescope.json").write_bytes(json.dumps(config).encode())
    asked = subprocess.run([sys.executable, "-c", condition[1], str(tmp_path / "gradescope.json")],
                           timeout=30)  # fmt: skip
    assert (asked.returncode == 0) is java


def test_a_copy_of_the_answer_keys_installed_in_the_runs_environment_stays_hidden(
    variants, archive, tmp_path, request
):
    """Gradescope imports the project from its copy (PYTHONPATH), but the Python that runs
    the submissions may have the packages installed too (an image built from the wheel):
    that copy of the answer keys and of the seeds must be hidden as well, or a program
    could import the solver or read the seeds of the hidden boards."""
    isolation_or_skip("namespace")
    # Readable by the runs' unprivileged user, as an image's venv is (pytest's own folders
    # are closed to other users, which would hide it without any help).
    env_root = Path(tempfile.mkdtemp(prefix="installed-env-"))
    request.addfinalizer(lambda: shutil.rmtree(env_root, ignore_errors=True))
    env_root.chmod(0o755)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--clear", str(env_root)],
                   check=True, timeout=120)  # fmt: skip
    site = next(env_root.glob("lib/python3*/site-packages"))
    # The grader's own dependencies come from this test's environment; the answer keys and
    # the engine (with its assignments) are installed into the new one, as pip would.
    deps = next(p for p in map(Path, sys.path) if (p / "numpy").is_dir())
    (site / "deps.pth").write_text(f"{deps}\n")
    for package in (autograder, reference_solutions):
        folder = Path(package.__file__).parent
        shutil.copytree(folder, site / folder.name,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    python = env_root / "bin" / "python"
    look = "import reference_solutions, numpy; print(reference_solutions.__file__)"
    probe = subprocess.run([str(python), "-E", "-s", "-c", look], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert probe.stdout.startswith(str(site)), probe.stderr
    # Before solving, the program looks for the answer keys and the seeds where that
    # environment has them; finding either, it stops (and loses its marks). (Importing the
    # solver would also need numpy, which this environment borrows from outside the
    # sandbox: reading the files is the test.)
    snoop = (
        "import glob as _glob\n"
        f"_found = _glob.glob({str(site)!r} + '/reference_solutions/*.py')\n"
        f"_found += _glob.glob({str(site)!r} + '/*/assignments/*/assignment.toml')\n"
        "for _name in _found:\n"
        "    try:\n"
        "        open(_name).read()\n"
        "    except OSError:\n"
        "        continue\n"
        "    raise SystemExit('read ' + _name)\n"
    )
    head, rest = own_program(variants, "s2").split("\nimport json\n", 1)
    program = f"{head}\nimport json\n{snoop}{rest}"
    users = [{"email": "alan@uni.example"}]
    results = run_autograder(archive, tmp_path / "root", program, users, python=str(python))
    assert_valid(results)
    assert results["score"] == 100, json.dumps(results["tests"][0])


def test_hidden_visibility_is_refused_for_boards_worth_points(tmp_path, monkeypatch):
    """Gradescope's specification: "If test cases are hidden, students will not be able to
    see their total score. Test cases with visibility set to `hidden` don't affect this,
    since they should only be used for tests which don't contribute points to the total."
    So hidden boards worth points would show through the total."""
    with pytest.raises(UsageError) as caught:
        gradescope_zip("classic", tmp_path / "a.zip", hidden_visibility="hidden")
    said = str(caught.value)
    assert said.startswith("--hidden-visibility hidden: ") and "\n" not in said
    # classic: 3 hidden boards of 15 points, 2 edge boards not shown of 10.
    assert "worth 65 points" in said and "after_due_date" in said
    assert not (tmp_path / "a.zip").exists()
    # Worth nothing (set by the course, not in the package), they may be hidden.
    settings = tmp_path / "course.toml"
    settings.write_text("[classic.tests]\nhidden_points = 0\nedge_points = 0\n")
    monkeypatch.setenv("AUTOGRADER_COURSE", str(settings))
    archive = gradescope_zip("classic", tmp_path / "b.zip", hidden_visibility="hidden")
    with zipfile.ZipFile(archive) as zipped:
        assert json.loads(zipped.read("gradescope.json"))["hidden_visibility"] == "hidden"
        assert zipped.read("project/course.toml") == settings.read_bytes()


def test_the_course_settings_and_assignments_travel_in_the_zip(tmp_path, monkeypatch):
    """What a course set on the instructor's machine holds on Gradescope's: its own
    assignments folder and its settings file go into the zip, and run_autograder uses
    them."""
    own = tmp_path / "course"
    shutil.copytree(autograder.assignments_dir() / "classic", own / "classic-ours")
    settings = tmp_path / "course.toml"
    settings.write_text("[classic-ours.tests]\npublic_points = 40\nhidden_boards = 1\n")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(own))
    monkeypatch.setenv("AUTOGRADER_COURSE", str(settings))
    archive = gradescope_zip("classic-ours", tmp_path / "ours.zip", timeout=TIMEOUT)
    monkeypatch.delenv("AUTOGRADER_ASSIGNMENTS")
    monkeypatch.delenv("AUTOGRADER_COURSE")
    program = reference_program("classic")  # (the same rules and public board)
    root = tmp_path / "root"
    results = run_autograder(archive, root, program, [{"email": "a@b.example"}])
    assert_valid(results)
    public = results["tests"][0]
    assert public["max_score"] == 40 and public["score"] == 40
    assert len(results["tests"]) == 1 + 3 + 1  # public, three edge boards, one hidden


@pytest.mark.parametrize(
    ("layout", "missing"),
    [
        ({}, "source/gradescope.json (file)"),
        ({"source/gradescope.json": "{}"}, "submission (folder)"),
        ({"submission/x.py": "print(1)"}, "source/gradescope.json (file)"),
    ],
)
def test_gradescope_run_refuses_a_root_that_is_not_gradescopes_layout(tmp_path, layout, missing):
    for name, text in layout.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    done = subprocess.run([sys.executable, "-m", "autograder", "gradescope-run", "--root",
                           str(tmp_path)], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    err = done.stderr.strip()
    assert err.startswith(f"autograder: error: --root {tmp_path}: is not Gradescope's layout: "
                          f"no {missing}")  # fmt: skip
    assert "\n" not in err
    assert not (tmp_path / "results").exists()  # nothing written where nothing was graded
    nowhere = tmp_path / "nowhere"
    done = subprocess.run([sys.executable, "-m", "autograder", "gradescope-run", "--root",
                           str(nowhere)], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == f"autograder: error: --root {nowhere}: is not a folder"


@pytest.mark.slow
def test_setup_sh_makes_an_image_that_builds_the_kernel_and_grades(archive, variants, request):
    """setup.sh as Gradescope runs it, in a root of its own: a venv with the requirements,
    the kernel built for that Python, the solver that runs named in its log; then
    run_autograder with that venv (no AUTOGRADER_PYTHON) grades a correct program fully."""
    isolation_or_skip("namespace")
    # Readable by the runs' unprivileged user, as /autograder is.
    root = Path(tempfile.mkdtemp(prefix="gradescope-image-"))
    request.addfinalizer(lambda: shutil.rmtree(root, ignore_errors=True))
    root.chmod(0o755)
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(root / "source")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root)}
    env.pop("VIRTUAL_ENV", None)
    # (the image's own Python: the first 3.11+ on the PATH, not this test's venv)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                  if not p.startswith(sys.prefix))  # fmt: skip
    done = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env,
                          capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    log = done.stdout.strip().splitlines()
    assert log[-1] == f"autograder installed in {root / 'venv'}"
    solver = log[-2]
    assert solver.startswith("autograder ") and "; solver: " in solver
    built = list((root / "source" / "project" / "reference_solutions").glob("_kernel.*.so"))
    assert ("solver: compiled kernel" in solver) == bool(built)
    if os.environ.get("AUTOGRADER_EXPECT_KERNEL"):
        assert built, solver
    # The project itself is not in the venv: submissions run with its Python.
    probe = subprocess.run([str(root / "venv" / "bin" / "python"), "-c", "import autograder"],
                           cwd=root, capture_output=True, timeout=60)  # fmt: skip
    assert probe.returncode != 0
    (root / "submission").mkdir()
    (root / "submission" / "classic.py").write_text(own_program(variants, "s2"))
    (root / "submission_metadata.json").write_text(
        json.dumps({"users": [{"email": "alan@uni.example"}]})
    )
    env.pop("AUTOGRADER_PYTHON", None)
    ran = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env, cwd=root,
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert_valid(results)
    assert results["score"] == 100, ran.stdout[-3000:]
