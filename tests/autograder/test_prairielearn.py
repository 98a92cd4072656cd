"""The PrairieLearn question: its files against what PrairieLearn's documentation requires,
its server code run as PrairieLearn runs it, and a grading job laid out as PrairieLearn lays
out /grade in a temporary root, run through the question's own entrypoint.

The field names below are PrairieLearn's, as its repository (github.com/PrairieLearn/
PrairieLearn) documents them; each group names the file it comes from."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder import (
    build_prairielearn,
    load_assignment,
    parse_board,
    prairielearn_results,
    render,
)
from autograder._errors import UsageError
from autograder._results import SubmissionResult
from autograder._results import TestResult as Outcome  # (named apart: pytest collects no class)
from autograder.cli.gradescope import grading_package
from reference_solutions import ReferenceAnswers, reference_program
from tests.grading import fill_in, isolation_or_skip

TIMEOUT = 2.0  # per board: room for the programs that end, on a busy machine
SECRET = "prairielearn-secret"
COUNT = 4
MARKER = "PRINTED-BY-THE-SUBMISSION"

# apps/prairielearn/src/schemas/schemas/infoQuestion.json: "required": ["uuid", "type",
# "title", "topic"]; the uuid's pattern; externalGradingOptions takes these properties
# only ("additionalProperties": false), and "image" is required among them.
INFO_REQUIRED = ("uuid", "type", "title", "topic")
UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
GRADING_OPTIONS = {"comment", "enabled", "image", "entrypoint", "serverFilesCourse", "timeout",
                   "enableNetworking", "environment"}  # fmt: skip
# docs/externalGrading.md: the timeout "cannot exceed 600 seconds (10 minutes)".
MOST_SECONDS = 600
# docs/externalGrading.md, "Grading results": a gradable result's one mandatory field is
# "score", in [0.0, 1.0]; "gradable", "message", "output" and "tests" with "name",
# "description", "points", "max_points", "message", "output" are what
# <pl-external-grader-results> renders; the file must stay under 1 MB.
RESULT_FIELDS = {"gradable", "score", "message", "output", "tests", "format_errors", "images"}
TEST_FIELDS = {"name", "description", "points", "max_points", "message", "output", "images"}
MOST_BYTES = 1 << 20


def export(out: Path, name: str = "classic", **options) -> Path:
    options = {"count": COUNT, "secret": SECRET, "timeout": TIMEOUT, **options}
    build_prairielearn(name, out, answers=ReferenceAnswers(), packages=[grading_package()],
                       **options)  # fmt: skip
    return out


@pytest.fixture(scope="module")
def question(tmp_path_factory) -> Path:
    return export(tmp_path_factory.mktemp("prairielearn") / "question")


# --- the question's files -------------------------------------------------------------------


def test_info_json_has_what_prairielearns_question_schema_requires(question):
    info = json.loads((question / "info.json").read_text())
    assert all(isinstance(info[field], str) and info[field] for field in INFO_REQUIRED)
    assert re.match(UUID_PATTERN, info["uuid"])
    assert info["type"] == "v3"  # docs/question/overview.md: "v3" for new questions
    assert info["gradingMethod"] == "External"  # docs/externalGrading.md
    options = info["externalGradingOptions"]
    assert set(options) <= GRADING_OPTIONS
    assert options["enabled"] is True and options["enableNetworking"] is False
    assert options["image"] == "prairielearn/grader-python"
    # timeout: an integer in the schema, and at most 600 s: every board at its limit fits.
    assert isinstance(options["timeout"], int) and 0 < options["timeout"] <= MOST_SECONDS
    assert options["timeout"] >= 7 * TIMEOUT
    # The entrypoint is an absolute path in the container; PrairieLearn copies the
    # question's tests/ to /grade/tests (docs/externalGrading.md, "Special directories").
    entrypoint = options["entrypoint"]
    assert entrypoint.startswith("/grade/tests/")
    script = question / "tests" / entrypoint.removeprefix("/grade/tests/")
    assert stat.S_IMODE(script.stat().st_mode) & 0o111
    assert subprocess.run(["bash", "-n", str(script)], timeout=10).returncode == 0


def test_the_uuid_stays_for_the_same_assignment_and_secret(question, tmp_path, capsys):
    uuid = json.loads((question / "info.json").read_text())["uuid"]

    def uuid_of(out: Path) -> str:
        return json.loads((out / "info.json").read_text())["uuid"]

    assert uuid_of(export(tmp_path / "again", count=1)) == uuid
    assert uuid_of(export(tmp_path / "other", count=1, secret="another-secret")) != uuid
    assert uuid_of(export(tmp_path / "boosted", "boosted", count=1)) != uuid
    # Written again into its own folder with another secret, it is the same question to
    # PrairieLearn (new variants draw from the new pool).
    again = tmp_path / "again"
    build_prairielearn("classic", again, answers=ReferenceAnswers(), packages=[grading_package()],
                       count=2, secret="yet-another-secret", force=True)  # fmt: skip
    assert uuid_of(again) == uuid
    boards = json.loads((again / "pool" / "pool.json").read_text())["boards"]
    assert [b.get("retired", False) for b in boards] == [False, False, True]  # (the first's)
    assert sorted(p.name for p in (again / "pool").iterdir()) == [
        "0000", "0001", "pool.json", "retired-0000"]  # fmt: skip


def test_question_html_uses_prairielearns_elements_and_params_only(question):
    page = (question / "question.html").read_text()
    # docs/elements/pl-file-upload.md, pl-file-download.md, pl-external-grader-results.md
    assert '<pl-file-upload file-names="{{params.program}}"></pl-file-upload>' in page
    assert "<pl-external-grader-results></pl-external-grader-results>" in page
    downloads = re.findall(r'<pl-file-download file-name="([^"]+)" type="dynamic"', page)
    assert downloads == ["{{params.program}}", "board.json", "handout.md"]
    # docs/question/template.md: the question panel and the submission panel.
    assert page.index("<pl-question-panel>") < page.index("<pl-file-upload")
    assert page.index("<pl-submission-panel>") < page.index("<pl-external-grader-results>")
    # Mustache reads only params (what generate() sets); the handout is Markdown, left
    # unescaped (triple braces) inside a <markdown> block, at the start of its line.
    names = set(re.findall(r"\{\{\{?\s*([a-z_.]+)", page))
    assert {n.split(".")[0] for n in names} == {"params"}
    assert "\n<markdown>\n{{{params.handout}}}\n</markdown>\n" in page


def test_the_export_carries_the_project_and_no_compiled_kernel(question):
    project = question / "tests" / "project"
    for name in ("requirements.txt", "autograder/cli/__init__.py", "reference_solutions/_solver.py",
                 "reference_solutions/_kernel.c", "autograder/prairielearn/grade"):  # fmt: skip
        assert (project / name).is_file(), name
    assert not list(project.rglob("*.so")) and not list(project.rglob("__pycache__"))
    config = json.loads((question / "tests" / "prairielearn.json").read_text())
    assert config["assignment"] == "classic" and config["timeout"] == TIMEOUT


# --- server.py, as PrairieLearn runs it -------------------------------------------------------

# How PrairieLearn's zygote runs a question's server.py (apps/prairielearn/python/zygote.py:
# the file is compiled and exec'd in a dict holding __file__, the question's folder is the
# working directory), here in an isolated interpreter (-I: no PYTHONPATH, no user site,
# not even the script's folder), reporting any module not in the standard library.
DRIVER = r"""
import json, os, sys
before = set(sys.modules)
path, calls = sys.argv[1], json.loads(sys.argv[2])
os.chdir(os.path.dirname(path))
module = {"__file__": path}
exec(compile(open(path, encoding="utf-8").read(), path, "exec"), module)
done = []
for function, data in calls:
    answer = module[function](data)
    if isinstance(answer, bytes):
        answer = answer.decode()
    done.append([data, answer])
new = {name.partition(".")[0] for name in set(sys.modules) - before}
known = sys.stdlib_module_names | set(sys.builtin_module_names)
foreign = sorted(new - known)
print(json.dumps({"done": done, "foreign": foreign}))
"""


def generate_data(question: Path, seed: int) -> dict:
    """The data dict PrairieLearn hands generate() (apps/prairielearn/src/question-servers/
    freeform.ts, generate(): params, correct_answers, variant_seed, options with the
    question's paths and the user and group, preferences)."""
    course = question.parent
    return {
        "params": {},
        "correct_answers": {},
        "variant_seed": seed,
        "options": {
            "question_path": str(question),
            "client_files_question_path": str(question / "clientFilesQuestion"),
            "client_files_course_path": str(course / "clientFilesCourse"),
            "server_files_course_path": str(course / "serverFilesCourse"),
            "course_extensions_path": str(course / "elementExtensions"),
            "user": None,
            "group": None,
        },
        "preferences": {},
    }


def run_server(question: Path, calls: list[tuple[str, dict]]) -> list[tuple[dict, object]]:
    done = subprocess.run(
        [sys.executable, "-I", "-c", DRIVER, str(question / "server.py"), json.dumps(calls)],
        capture_output=True, text=True, timeout=60, cwd="/",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["foreign"] == [], "server.py imported modules outside the standard library"
    return [(data, answer) for data, answer in said["done"]]


def generated(question: Path, seed: int) -> dict:
    ((data, answer),) = run_server(question, [("generate", generate_data(question, seed))])
    assert answer is None
    return data


def test_generate_gives_a_board_of_the_pool_by_the_seed_and_nothing_of_its_answer(question):
    pool = json.loads((question / "pool" / "pool.json").read_text())
    data = generated(question, 12345)
    params = data["params"]
    assert data["correct_answers"] == {}
    assignment = load_assignment("classic")
    parse_board(params["board"], assignment.family, "params")  # a valid board file's data
    entry = pool["boards"][params["variant"]]
    assert params["board"] == entry["board"] and params["program"] == "classic.py"
    assert params["description"] == entry["description"]
    # No answer: no such key, and none of the board's values at full precision (the handout
    # shows the self-check and the first rows rounded, as a bundle's does).
    case = ReferenceAnswers().own_board_case(assignment, params["board"])
    text = json.dumps(params)
    assert not {"expected", "values", "answer", "answers"} & set(params)
    precise = [repr(v) for v in case.expected.answer.values if len(repr(v).partition(".")[2]) > 4]
    assert precise and not [v for v in precise if v in text]
    assert "## Checking and grading" not in params["handout"]  # (the bundle's check.py)
    assert "## Submitting and grading" in params["handout"]
    # The same seed gives the same board; seeds reach every board of the pool.
    assert generated(question, 12345)["params"] == params
    calls = [("generate", generate_data(question, seed)) for seed in range(40)]
    chosen = {data["params"]["variant"] for data, _ in run_server(question, calls)}
    assert chosen == set(range(COUNT))


def test_file_hands_out_the_variants_own_files_and_nothing_else(question):
    params = generated(question, 7)["params"]
    folder = question / "pool" / f"{params['variant']:04d}"
    names = ["classic.py", "board.json", "handout.md", "pool.json", "../pool.json",
             "../0000/classic.py", "/etc/passwd", "info.json",
             "tests/prairielearn.json"]  # fmt: skip
    calls = [("file", {**generate_data(question, 7), "params": params, "filename": n})
             for n in names]  # fmt: skip
    answers = [answer for _, answer in run_server(question, calls)]
    assert answers[:3] == [(folder / n).read_text() for n in names[:3]]
    assert answers[3:] == [None] * (len(names) - 3)
    assert json.loads(answers[1]) == params["board"]
    assert "raise NotImplementedError" in answers[0]


def test_a_variant_made_before_a_new_export_keeps_its_own_boards_files(tmp_path):
    """Exported again (--force, another secret), the question has another pool: a variant
    made before still holds, and is graded on, its own board, so its downloads must be of
    that board (kept in the pool, retired), never the new pool's board at its old place;
    new variants draw from the new boards alone."""
    folder = tmp_path / "question"
    export(folder, secret="first-secret")
    params = generated(folder, 7)["params"]
    kept = folder / "pool" / f"{params['variant']:04d}"
    old_starter, old_handout = (kept / "classic.py").read_text(), (kept / "handout.md").read_text()
    export(folder, secret="second-secret", force=True)
    pool = json.loads((folder / "pool" / "pool.json").read_text())
    current = [e["board"] for e in pool["boards"] if not e.get("retired")]
    assert len(current) == COUNT and params["board"] not in current
    names = ["board.json", "classic.py", "handout.md"]

    def downloads() -> list:
        calls = [("file", {**generate_data(folder, 7), "params": params, "filename": n})
                 for n in names]  # fmt: skip
        return [answer for _, answer in run_server(folder, calls)]

    board, starter, handout = downloads()
    assert json.loads(board) == params["board"]
    assert (starter, handout) == (old_starter, old_handout)
    calls = [("generate", generate_data(folder, k)) for k in range(40)]
    drawn = [d["params"]["board"] for d, _ in run_server(folder, calls)]
    assert all(b in current for b in drawn)
    # Its files gone from the pool: the board file still comes from the variant's own data,
    # and no other board's starter or handout takes their place.
    for retired in (folder / "pool").glob("retired-*"):
        shutil.rmtree(retired)
    export(folder, secret="third-secret", force=True)
    board, starter, handout = downloads()
    assert json.loads(board) == params["board"] and starter is None and handout is None


# --- the grading job, laid out as PrairieLearn lays out /grade --------------------------------


def grading_data(question: Path, seed: int, program: str) -> dict:
    """/grade/data/data.json as PrairieLearn writes it (apps/prairielearn/src/lib/
    externalGraderCommon.ts, buildDirectory(): the variant's params and correct answers,
    the submission's answers with the uploaded files, and the rest of its state)."""
    data = generated(question, seed)
    files = [{"name": "classic.py", "contents": program}]  # (base64 in PrairieLearn)
    return {
        "params": data["params"],
        "correct_answers": data["correct_answers"],
        "submitted_answers": {"_files": files},
        "format_errors": {},
        "partial_scores": {},
        "score": 0,
        "feedback": {},
        "variant_seed": seed,
        "options": {},
        "raw_submitted_answers": {},
        "gradable": True,
    }


def grade(question: Path, root: Path, program: str, seed: int = 12345, **env: str) -> dict:
    """A grading job: the question's tests/ at root/tests, the student's file at
    root/student, the variant's data at root/data/data.json; the entrypoint info.json
    names, run as PrairieLearn runs it (made executable, no arguments)."""
    shutil.copytree(question / "tests", root / "tests")
    (root / "student").mkdir(parents=True)
    (root / "student" / "classic.py").write_text(program)
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text(json.dumps(grading_data(question, seed, program)))
    info = json.loads((question / "info.json").read_text())
    entrypoint = root / info["externalGradingOptions"]["entrypoint"].removeprefix("/grade/")
    # The image's Python is this test's (which has numpy, scipy and jinja2); the project
    # itself is imported from the question's copy (the entrypoint sets PYTHONPATH).
    env = {**os.environ, "AUTOGRADER_GRADE_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable,
           **env}  # fmt: skip
    done = subprocess.run([str(entrypoint)], env=env, cwd="/", capture_output=True, text=True,
                          timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr  # (any other status: a failed job)
    assert f"autograder from {root / 'tests' / 'project' / 'autograder'}" in done.stdout
    path = root / "results" / "results.json"
    assert path.stat().st_size < MOST_BYTES
    return json.loads(path.read_text())


def assert_valid(results: dict) -> None:
    """The fields PrairieLearn reads, with the types it expects; the tests' points add up
    to the score."""
    assert set(results) - {"extra_data"} <= RESULT_FIELDS
    assert results["gradable"] is True
    assert isinstance(results["score"], float) and 0.0 <= results["score"] <= 1.0
    assert isinstance(results["message"], str) and isinstance(results["output"], str)
    tests = results["tests"]
    assert tests
    for test in tests:
        assert set(test) <= TEST_FIELDS
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert isinstance(test["points"], float) and isinstance(test["max_points"], float)
        assert 0 <= test["points"] <= test["max_points"]
    points = sum(t["points"] for t in tests)
    most = sum(t["max_points"] for t in tests)
    plan = load_assignment("classic").tests
    # Every board counts: the variant's, the edge boards and the hidden ones.
    assert most == plan.public_points + plan.edge_points * len(plan.edge_boards) + (
        plan.hidden_points * plan.hidden_boards
    )
    assert results["score"] == pytest.approx(points / most)


def own_program(question: Path, seed: int = 12345) -> str:
    """The variant's starter, solved: what a student who did the work hands in."""
    variant = generated(question, seed)["params"]["variant"]
    starter = (question / "pool" / f"{variant:04d}" / "classic.py").read_text()
    return fill_in(starter, reference_program("classic"))


def printing(answer_text: str) -> str:
    """A program that prints ``MARKER``, then ``answer_text`` whatever the board."""
    return f"print({MARKER!r})\nprint({answer_text!r}, end='')\n"


def other_boards_answer(question: Path, seed: int = 12345) -> str:
    """The answer printed for another board of the pool than the variant's: what a student
    who copied another's output hands in."""
    pool = json.loads((question / "pool" / "pool.json").read_text())
    own = generated(question, seed)["params"]["board"]
    other = next(b["board"] for b in pool["boards"] if b["board"] != own)
    case = ReferenceAnswers().own_board_case(load_assignment("classic"), other)
    return render(case.expected.answer)


def shown(results: dict) -> list[dict]:
    return [t for t in results["tests"] if not t["name"].startswith("other boards")]


def test_a_correct_program_for_the_variants_board_gets_full_marks(question, tmp_path):
    results = grade(question, tmp_path, own_program(question))
    assert_valid(results)
    assert results["score"] == 1.0
    own, edge, others = results["tests"]
    assert own["name"].startswith("your board (") and own["points"] == own["max_points"]
    assert "self-check holds" in own["output"]
    assert edge["name"] == "public board: chute-before-goal"
    assert others["name"] == "other boards (5)" and others["points"] == others["max_points"]
    assert results["message"].startswith("2 of 2 visible boards fully right.")


def test_another_boards_answer_loses_points_and_the_hidden_boards_say_nothing(question, tmp_path):
    results = grade(question, tmp_path, printing(other_boards_answer(question)))
    assert_valid(results)
    assert 0 < results["score"] < 1
    own = results["tests"][0]
    assert own["points"] < own["max_points"]
    assert re.search(r"^square \d+: printed \S+, expected ", own["output"], re.M)
    # The boards the student does not see are one total, with no feedback of any of them.
    others = results["tests"][-1]
    assert others["output"] == "" and others["name"] == "other boards (5)"
    everything = json.dumps(results)
    for title in ("hidden board", "edge board", "no-jumps", "ladder-to-goal"):
        assert title not in everything
    assert MARKER not in json.dumps([results["message"], results["output"], others])


def test_the_job_s_files_are_hidden_from_the_submission(question):
    """What PrairieLearn puts in the job besides the student's program (the project with
    its answer keys, the variant's data, the uploaded original, the results) is out of the
    program's reach: a program that stops when it can read any of them keeps full marks."""
    isolation_or_skip("namespace")
    # Readable by the runs' unprivileged user, as /grade is in the container (pytest's own
    # folders are closed to other users, which would hide it without any help).
    root = Path(tempfile.mkdtemp(prefix="prairielearn-job-"))
    try:
        root.chmod(0o755)
        job = root / "job"
        looked = [job / "data" / "data.json", job / "tests" / "prairielearn.json",
                  job / "tests" / "project" / "reference_solutions" / "_solver.py",
                  job / "student" / "classic.py"]  # fmt: skip
        snoop = (
            f"for _name in {[str(p) for p in looked]!r}:\n"
            "    try:\n"
            "        open(_name).read()\n"
            "    except OSError:\n"
            "        continue\n"
            "    raise SystemExit('read ' + _name)\n"
        )
        head, rest = own_program(question).split("\nimport json\n", 1)
        results = grade(question, job, f"{head}\nimport json\n{snoop}{rest}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    assert_valid(results)
    assert results["score"] == 1.0, json.dumps(results["tests"][0])
    assert results["extra_data"]["isolation"] == "namespace"


def test_the_message_is_the_same_whatever_the_hidden_boards_gave():
    def result(hidden: str) -> SubmissionResult:
        tests = [Outcome("your-board", "your board", 25.0, 25.0, True, "passed", 100, 100)]
        points = 15.0 if hidden == "passed" else 0.0
        said = ("40-49% of the entries right",)
        tests += [Outcome(f"hidden-{k}", f"hidden board {k}", points, 15.0, False, hidden,
                          feedback=said) for k in range(1, 4)]  # fmt: skip
        score = sum(t.score for t in tests)
        return SubmissionResult("v", "classic.py", "classic", score, 70.0, "graded", tuple(tests))

    passed, wrong = (prairielearn_results(result(h)) for h in ("passed", "wrong"))
    assert passed["message"] == wrong["message"]
    assert (passed["score"], wrong["score"]) == (1.0, pytest.approx(25 / 70))
    assert [t["name"] for t in passed["tests"]] == ["your board", "other boards (3)"]
    assert "40-49%" not in json.dumps(wrong)
    # For an exam whose results show after it closes: each board, with a hidden board's
    # feedback (never a square or an expected value: the engine's hidden feedback).
    each = prairielearn_results(result("wrong"), "boards")
    assert [t["name"] for t in each["tests"]][1:] == [f"hidden board {k}" for k in (1, 2, 3)]
    assert each["tests"][1]["output"] == "40-49% of the entries right"
    assert each["message"] == "1 of 4 boards fully right."


def test_a_submission_that_cannot_be_graded_costs_no_attempt():
    # docs/externalGrading.md: "gradable": false marks it "invalid, not gradable", and the
    # student is not penalized an attempt; format_errors says why.
    failed = SubmissionResult.failed("v", "student", "classic", 100.0, "no program in the folder")
    results = prairielearn_results(failed)
    assert results["gradable"] is False and results["tests"] == []
    assert results["format_errors"] == ["no program in the folder"]


def test_the_starter_scores_zero_and_says_what_is_missing(question, tmp_path):
    variant = generated(question, 12345)["params"]["variant"]
    starter = (question / "pool" / f"{variant:04d}" / "classic.py").read_text()
    results = grade(question, tmp_path, starter)
    assert_valid(results)
    assert results["score"] == 0.0
    for test in shown(results):
        assert "the solving function still raises NotImplementedError" in test["output"]


def test_a_program_that_crashes_scores_zero(question, tmp_path):
    results = grade(question, tmp_path, "raise SystemExit(3)\n")
    assert_valid(results)
    assert results["score"] == 0.0
    assert all(t["message"] == "crashed" for t in shown(results))
    assert results["tests"][-1]["points"] == 0


def test_a_grader_failure_or_a_variant_without_a_board_is_not_gradable(question, tmp_path):
    # Not gradable: PrairieLearn awards nothing and counts no attempt (docs/
    # externalGrading.md), which is right when the fault is not the student's.
    shutil.copytree(question / "tests", tmp_path / "broken" / "tests")
    (tmp_path / "broken" / "tests" / "prairielearn.json").write_text("{not json")
    root = tmp_path / "broken"
    (root / "student").mkdir()
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text(json.dumps({"params": {}}))
    env = {**os.environ, "AUTOGRADER_GRADE_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    done = subprocess.run(["bash", str(root / "tests" / "grade")], env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0 and "JSONDecodeError" in done.stdout  # (the staff's log)
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["gradable"] is False and "autograder failed" in results["message"]
    # A variant whose data has no board (made by an older question) is not graded either.
    (root / "tests" / "prairielearn.json").write_text(
        (question / "tests" / "prairielearn.json").read_text()
    )
    subprocess.run(["bash", str(root / "tests" / "grade")], env=env, capture_output=True,
                   timeout=120, check=True)  # fmt: skip
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["gradable"] is False and "no board" in results["message"]


# --- bad input ------------------------------------------------------------------------------


def autograder(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "autograder", *args], capture_output=True,
                          text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--count", "0"], "--count 0: expected an integer in 1..1,000"),
        (["--count", "many"], "--count many: expected an integer in 1..1,000"),
        (["--count", "1001"], "--count 1001: expected an integer in 1..1,000"),
        (["--secret", "short"], "--secret: use at least 8 characters"),
        (["--timeout", "0"], "--timeout 0: expected seconds in"),
        (["--image", ""], "--image '': expected an image name"),
    ],
)
def test_bad_options_are_one_line_and_write_nothing(tmp_path, options, said):
    done = autograder("prairielearn", "classic", "--out", str(tmp_path / "q"), *options)
    assert done.returncode == 2
    assert done.stderr.startswith(f"autograder: error: {said}") and done.stderr.count("\n") == 1
    assert not (tmp_path / "q").exists()


def test_an_unknown_assignment_or_a_folder_in_use_is_refused(tmp_path):
    done = autograder("prairielearn", "nope", "--out", str(tmp_path / "q"))
    assert done.returncode == 2 and "unknown assignment 'nope'" in done.stderr
    assert done.stderr.count("\n") == 1 and not (tmp_path / "q").exists()
    (tmp_path / "q").mkdir()
    (tmp_path / "q" / "notes.txt").write_text("mine")
    done = autograder("prairielearn", "classic", "--out", str(tmp_path / "q"))
    assert done.returncode == 2
    assert done.stderr == (f"autograder: error: {tmp_path / 'q'}: exists and is not empty; use "
                           "--force to write the question into it\n")  # fmt: skip
    assert sorted(p.name for p in (tmp_path / "q").iterdir()) == ["notes.txt"]
    with pytest.raises(UsageError, match="is a file"):
        export(tmp_path / "q" / "notes.txt")
    # --force writes the question beside what the folder holds.
    export(tmp_path / "q", count=1, force=True)
    assert (tmp_path / "q" / "notes.txt").read_text() == "mine"
    assert (tmp_path / "q" / "info.json").is_file()
    # An export replaces its own pool/ and tests/ whole, but never folders it did not write.
    (tmp_path / "mine" / "tests").mkdir(parents=True)
    (tmp_path / "mine" / "tests" / "test_mine.py").write_text("mine")
    done = autograder("prairielearn", "classic", "--out", str(tmp_path / "mine"), "--force")
    assert done.returncode == 2
    assert done.stderr == (f"autograder: error: {tmp_path / 'mine'}: holds tests/, not from an "
                           "exported question; choose another --out\n")  # fmt: skip
    assert [p.name for p in (tmp_path / "mine").rglob("*")] == ["tests", "test_mine.py"]


@pytest.mark.parametrize(
    ("layout", "missing"),
    [
        ({}, "tests/prairielearn.json (file)"),
        ({"tests/prairielearn.json": "{}"}, "student (folder)"),
        ({"tests/prairielearn.json": "{}", "student/classic.py": "print(1)"},
         "data/data.json (file)"),
    ],
)  # fmt: skip
def test_prairielearn_run_refuses_a_root_that_is_not_prairielearns_layout(
    tmp_path, layout, missing
):
    for name, text in layout.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    done = autograder("prairielearn-run", "--root", str(tmp_path))
    assert done.returncode == 2
    err = done.stderr.strip()
    assert err.startswith(f"autograder: error: --root {tmp_path}: is not PrairieLearn's layout: "
                          f"no {missing}")  # fmt: skip
    assert "\n" not in err
    assert not (tmp_path / "results").exists()  # nothing written where nothing was graded
    done = autograder("prairielearn-run", "--root", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert done.stderr == f"autograder: error: --root {tmp_path / 'nowhere'}: is not a folder\n"
