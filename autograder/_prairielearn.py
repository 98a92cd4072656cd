"""``autograder prairielearn``: the assignment as a PrairieLearn question, graded by an
external grader, where each variant has a board of its own.

The question folder, as PrairieLearn reads one (its repository, github.com/PrairieLearn/
PrairieLearn: ``docs/question/overview.md``, ``docs/question/server.md``,
``docs/externalGrading.md``, ``docs/clientServerFiles.md``):

``info.json``
    the question's settings: a uuid kept from one export to the next, external grading in
    an image, the entrypoint, the grading job's time limit, no network;
``question.html``, ``server.py``
    the page, and the code that gives a variant its board (PrairieLearn's own Python runs
    it, without this package: standard library only);
``pool/``
    boards drawn here with the project's own variants (``AnswerSource.variant``), each with
    its starter, board file and handout, and no answer key. PrairieLearn serves students a
    question's ``clientFilesQuestion/`` alone, so they reach the pool only through
    ``server.py``'s ``file()``, which hands out the three files of the variant's own board;
``tests/``
    what PrairieLearn copies into the grading container as ``/grade/tests``: the
    entrypoint ``grade``, the options chosen here (``prairielearn.json``) and the project
    (``project/``, as ``_shipping`` lays it out).

At grading time ``prairielearn-run`` grades ``/grade/student`` on the board the variant was
given (``/grade/data/data.json``, its ``params``), whose answer the answer source works
out then, and on the assignment's edge and hidden boards, and writes
``/grade/results/results.json``.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import os
import re
import secrets
import shutil
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from ._answers import AnswerSource, with_own_board
from ._assignments import Assignment, Limits, load_assignment
from ._boards import describe_board
from ._bundles import SECRET_ENV, secret_id
from ._errors import UsageError
from ._platform import check_layout, grade_in_platform, run_job, visible_summary, write_results
from ._resources import package_data
from ._results import SubmissionResult, TestResult, TestStatus
from ._sandbox import LEVELS
from ._shipping import DISTRIBUTION, project_members
from ._templates import program_name

__all__ = [
    "HIDDEN_RESULTS",
    "PRAIRIELEARN_IMAGE",
    "PrairieLearnExport",
    "build_prairielearn",
    "prairielearn_results",
    "run_prairielearn",
]

# PrairieLearn's Python grader image: Python 3.13 (a venv at /venv, first on its PATH) with
# numpy, scipy and, through nbconvert and bokeh, jinja2 (graders/python/Dockerfile and
# requirements.txt in its repository), which is all the grader needs.
PRAIRIELEARN_IMAGE = "prairielearn/grader-python"
# Where PrairieLearn puts the question's tests/ folder in the grading container.
ENTRYPOINT = "/grade/tests/grade"
CONFIG = "prairielearn.json"
POOL = "pool"
POOL_INDEX = "pool.json"
DATA = "data/data.json"
# What the results show of the boards the student does not see: only their total (which
# the score gives away anyway), or each board with the feedback a hidden board gets.
HIDDEN_RESULTS = ("total", "boards")
DEFAULT_COUNT = 20
MAX_COUNT = 1000
# "cannot exceed 600 seconds" (docs/externalGrading.md, the timeout option).
MAX_JOB_SECONDS = 600
# A grading job's own work besides the runs: imports, the answer keys, the isolation probe
# and self-test, results; generous, as a job cut short tells the student nothing.
JOB_OVERHEAD = 30
# The namespace of the questions' uuids (a uuid of this project's own, fixed for good).
UUID_NAMESPACE = uuid.UUID("8b0f3c52-3f0e-4c57-9f43-2a7c1d6e9b15")
# The folders an export owns: written again whole by the next export into its folder.
TOP_FOLDERS = (POOL, "tests")
# Where each board's handout stops being what the question shows: the bundles' section
# on their check.py and on grading (assignments/_grading.md.j2), which the question
# replaces with its own (prairielearn/grading.md.j2).
_GRADING_SECTION = re.compile(r"^## Checking and grading\s*$", re.M)
# A result larger than 1 MB is a failed job (docs/externalGrading.md); feedback is far
# smaller, but a board's text is cut well before that.
_MOST_OUTPUT = 50_000


@dataclass(frozen=True)
class PrairieLearnExport:
    """What ``build_prairielearn`` wrote, and what the instructor should know of it."""

    out: Path
    uuid: str
    boards: int
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def summary(self) -> str:
        lines = [
            f"wrote the PrairieLearn question {self.out} (uuid {self.uuid}) with {self.boards} "
            f"board{'' if self.boards == 1 else 's'}: copy it into the course's questions/ "
            "folder and add it to an assessment",
            *self.notes,
        ]
        return "\n".join(lines) + "\n"


def build_prairielearn(
    name: str,
    out: str | Path,
    *,
    answers: AnswerSource,
    packages: Sequence[Path],
    count: int = DEFAULT_COUNT,
    secret: str | None = None,
    timeout: float | None = None,
    isolation: str | None = None,
    image: str = PRAIRIELEARN_IMAGE,
    hidden_results: str = "total",
    force: bool = False,
) -> PrairieLearnExport:
    """Write the PrairieLearn question of assignment ``name`` into the folder ``out``: a
    pool of ``count`` boards drawn from ``secret`` by ``answers``, and an external grader
    carrying the engine and the grading side's ``packages`` (folders) as they are installed
    here. Everything is checked, and the pool drawn, before anything is written."""
    assignment = load_assignment(name)  # an unknown one is reported before anything else
    if not 1 <= count <= MAX_COUNT:
        raise UsageError(f"--count {count}", f"expected an integer in 1..{MAX_COUNT:,}")
    limits = assignment.limits if timeout is None else assignment.limits.with_timeout(timeout)
    if isolation not in (None, "strongest", *LEVELS):
        raise UsageError(f"--isolation {isolation}", f"expected one of {', '.join(LEVELS)}")
    if hidden_results not in HIDDEN_RESULTS:
        raise UsageError(
            f"--hidden-results {hidden_results}", f"expected one of {', '.join(HIDDEN_RESULTS)}"
        )
    if not image or any(c.isspace() for c in image):
        raise UsageError(f"--image {image!r}", "expected an image name, such as user/name:tag")
    out = Path(out)
    before = _previous_export(out, force)
    secret, notes = _secret(secret)
    fingerprint = secret_id(secret)
    uid = str(uuid.uuid5(UUID_NAMESPACE, f"{name}\0{fingerprint}"))
    warnings = []
    if before is not None and before.get("assignment") == name and before.get("uuid"):
        # The folder is the question to PrairieLearn: a new uuid would make it another.
        uid = str(before["uuid"])
        if before.get("secret_id") != fingerprint:
            warnings.append(
                f"{out} held boards drawn with another secret: the question keeps its uuid, "
                "variants made before keep their boards (each variant's data holds its board, "
                "and the pool keeps their files, retired), and new variants draw from the new "
                "pool"
            )
    elif before is not None:
        warnings.append(
            f"{out} held the question of {before.get('assignment')!r}: PrairieLearn will take "
            "this one for a new question (another uuid)"
        )
    boards, files = _pool(assignment, answers, secret, count, limits, hidden_results)
    if before is not None and before.get("assignment") == name:
        boards += _retired(out, before, boards, program_name(assignment), files)
    distinct = len({json.dumps(b["board"], sort_keys=True) for b in boards})
    if distinct < len(boards):
        notes.append(f"{len(boards) - distinct} of the {len(boards)} draws repeat a board "
                     "drawn before: those boards come up more often")  # fmt: skip
    job, capped = _job_seconds(assignment, limits)
    if capped:
        warnings.append(
            f"{_board_count(assignment)} boards at {limits.timeout:g} s each may take longer "
            f"than the {MAX_JOB_SECONDS} s PrairieLearn allows a grading job: a program that "
            "uses most of its time on each board is stopped before it is graded; give a "
            "shorter --timeout"
        )
    program = program_name(assignment)
    index = {
        "format": 1,
        "assignment": name,
        "title": assignment.title,
        "program": program,
        "secret_id": fingerprint,
        "uuid": uid,
        "boards": boards,
    }
    files[f"{POOL}/{POOL_INDEX}"] = (_pool_json(index), 0o644)
    config = {
        "format": 1,
        "assignment": name,
        "program": program,
        "timeout": timeout,
        # None: the strongest level the grading container allows, found at each run.
        "isolation": isolation if isolation != "strongest" else None,
        "hidden_results": hidden_results,
    }
    files["tests/" + CONFIG] = (_json(config), 0o644)
    scripts = package_data("autograder", "prairielearn")
    files["tests/grade"] = ((scripts / "grade").read_bytes(), 0o755)
    files["server.py"] = ((scripts / "server.py").read_bytes(), 0o644)
    files["question.html"] = ((scripts / "question.html").read_bytes(), 0o644)
    files["info.json"] = (_json(_info(assignment, uid, image, job)), 0o644)
    files["README.md"] = (
        _render("README.md.j2", title=assignment.title, assignment=name, version=_version(),
                count=len(boards), program=program, image=image, entrypoint=ENTRYPOINT,
                job_timeout=job).encode(),
        0o644,
    )  # fmt: skip
    for member, data, mode in project_members(packages, prefix="tests/project/"):
        files[member] = (data, mode)
    _write(out, files)
    return PrairieLearnExport(out, uid, len(boards), tuple(notes), tuple(warnings))


def _retired(
    out: Path,
    before: dict[str, Any],
    boards: list[dict[str, Any]],
    program: str,
    files: dict[str, tuple[bytes, int]],
) -> list[dict[str, Any]]:
    """The earlier export's boards the new pool lacks, kept as retired entries (their files
    read into ``files``): variants made before hold those boards and are graded on them,
    so ``server.py`` still hands out their starter and handout, but never draws them for a
    new variant. Entries whose files are gone are left out (their board file still comes
    from the variant's data)."""
    drawn = [json.dumps(b["board"], sort_keys=True) for b in boards]
    kept: list[dict[str, Any]] = []
    for entry in before.get("boards") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("folder"), str):
            continue
        key = json.dumps(entry.get("board"), sort_keys=True)
        if key in drawn:
            continue
        source = out / POOL / entry["folder"]
        parts = {n: source / n for n in (program, "board.json", "handout.md")}
        if (
            "/" in entry["folder"]
            or ".." in entry["folder"]
            or not all(p.is_file() for p in parts.values())
        ):
            continue
        folder = f"retired-{len(kept):04d}"
        for n, path in parts.items():
            files[f"{POOL}/{folder}/{n}"] = (path.read_bytes(), 0o755 if n == program else 0o644)
        kept.append({**entry, "folder": folder, "retired": True})
        drawn.append(key)
    return kept


def _previous_export(out: Path, force: bool) -> dict[str, Any] | None:
    """Refuse an ``out`` that cannot take the question (a file; a folder that holds
    anything, without ``force``); the pool index of the export it holds, if any."""
    if out.exists() and not out.is_dir():
        raise UsageError(str(out), "is a file, not a folder for the question")
    if not out.is_dir() or not any(out.iterdir()):
        return None
    if not force:
        raise UsageError(
            str(out), "exists and is not empty; use --force to write the question into it"
        )
    try:
        index = json.loads((out / POOL / POOL_INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        index = None
    if isinstance(index, dict) and index.get("format") == 1:
        return index
    # An export replaces its own folders whole: never folders it did not write.
    taken = [f"{folder}/" for folder in TOP_FOLDERS if (out / folder).exists()]
    if taken:
        raise UsageError(
            str(out), f"holds {' and '.join(taken)}, not from an exported question; choose "
            "another --out",
        )  # fmt: skip
    return None


def _secret(given: str | None) -> tuple[str, list[str]]:
    """The secret the boards are drawn with, and a note on where it came from."""
    if given is not None:
        if len(given) < 8:
            raise UsageError("--secret", "use at least 8 characters, so boards cannot be guessed")
        return given, []
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV], [f"secret: from ${SECRET_ENV}"]
    note = (
        f"secret: none given (--secret or ${SECRET_ENV}), so a new one, kept nowhere: an "
        "export into this folder keeps the question's uuid, but draws other boards; pass a "
        "secret to draw the same boards again"
    )
    return secrets.token_urlsafe(24), [note]


def _pool(
    assignment: Assignment,
    answers: AnswerSource,
    secret: str,
    count: int,
    limits: Limits,
    hidden_results: str,
) -> tuple[list[dict[str, Any]], dict[str, tuple[bytes, int]]]:
    """The pool's index entries, and its files by name: per board, the starter with the
    board written in, the board file, and the handout the question shows."""
    program = program_name(assignment)
    entries: list[dict[str, Any]] = []
    files: dict[str, tuple[bytes, int]] = {}
    for k in range(count):
        variant = answers.variant(assignment, secret, f"pl-{k}")
        folder = f"{k:04d}"
        prints_actions = variant.expected.answer.actions is not None
        handout = _question_handout(variant.handout, assignment, limits, hidden_results,
                                    "layout" in variant.board, prints_actions)  # fmt: skip
        files[f"{POOL}/{folder}/{program}"] = (variant.starter.encode(), 0o755)
        files[f"{POOL}/{folder}/board.json"] = (_json(variant.board), 0o644)
        files[f"{POOL}/{folder}/handout.md"] = (handout.encode(), 0o644)
        entries.append(
            {
                "folder": folder,
                "drawn_for": f"pl-{k}",  # (with the secret: what the board was drawn from)
                "board": variant.board,
                "description": describe_board(variant.board, assignment.family),
                "self_check": variant.self_check,
            }
        )
    return entries, files


def _question_handout(
    handout: str,
    assignment: Assignment,
    limits: Limits,
    hidden_results: str,
    trap: bool,
    prints_actions: bool,
) -> str:
    """A board's handout as the question shows it: its own section on checking and grading
    (the bundle's check.py and expected.json, which the question has none of) replaced by
    the question's."""
    found = _GRADING_SECTION.search(handout)
    kept = handout[: found.start()] if found else handout
    plan = assignment.tests
    shown = list(plan.public_edge_boards)
    total = plan.public_points + plan.hidden_boards * plan.hidden_points
    total += plan.edge_points * len(plan.edge_boards)
    hidden_edges = [e for e in plan.edge_boards if e not in shown]
    others = [
        f"{_count(n, kind)} ({points:g} points{' each' if n > 1 else ''})"
        for n, kind, points in ((plan.hidden_boards, "random board", plan.hidden_points),
                                (len(hidden_edges), "edge case", plan.edge_points))
        if n
    ]  # fmt: skip
    section = _render(
        "grading.md.j2", program=program_name(assignment), limits=limits, plan=plan,
        shown=shown, others=" and ".join(others), hidden_results=hidden_results, trap=trap,
        prints_actions=prints_actions, total=total,
    )  # fmt: skip
    return kept.rstrip() + "\n\n" + section


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _board_count(assignment: Assignment) -> int:
    plan = assignment.tests
    return 1 + len(plan.edge_boards) + plan.hidden_boards


def _job_seconds(assignment: Assignment, limits: Limits) -> tuple[int, bool]:
    """The grading job's time limit (a whole number of seconds, as info.json takes it):
    every board run to its limit, and the job's own work; whether PrairieLearn's most cut
    it short."""
    wanted = math.ceil(JOB_OVERHEAD + _board_count(assignment) * limits.timeout)
    return min(wanted, MAX_JOB_SECONDS), wanted > MAX_JOB_SECONDS


def _info(assignment: Assignment, uid: str, image: str, job: int) -> dict[str, Any]:
    """``info.json``: the fields PrairieLearn's question schema requires (uuid, type, title,
    topic) and its external grading options (``schemas/infoQuestion.json``)."""
    return {
        "uuid": uid,
        "title": f"{assignment.title} (your own board)",
        "topic": "Markov decision processes",
        "tags": ["chutes-autograder", assignment.name],
        "type": "v3",
        "gradingMethod": "External",
        # The answer panel would have nothing to show: the answer is worked out by the
        # grader, and each wrong square's expected value is in the results already.
        "showCorrectAnswer": False,
        "externalGradingOptions": {
            "enabled": True,
            "image": image,
            "entrypoint": ENTRYPOINT,
            "timeout": job,
            "enableNetworking": False,
        },
    }


def _render(template: str, **values: Any) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(package_data("autograder", "prairielearn"))),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # Markdown
    )
    return env.get_template(template).render(**values)


def _version() -> str:
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _json(data: Any) -> bytes:
    return (json.dumps(data, indent=1) + "\n").encode()


def _pool_json(index: dict[str, Any]) -> bytes:
    """The pool's index with a line per board (``indent`` would give each jump two)."""
    head = "".join(f" {json.dumps(k)}: {json.dumps(v)},\n" for k, v in index.items()
                   if k != "boards")  # fmt: skip
    boards = ",\n".join(f"  {json.dumps(b)}" for b in index["boards"])
    return f'{{\n{head} "boards": [\n{boards}\n ]\n}}\n'.encode()


def _write(out: Path, files: dict[str, tuple[bytes, int]]) -> None:
    """The question, written into ``out``: what a previous export left in the folders it
    owns (a larger pool's boards) goes; anything else in ``out`` stays."""
    out.mkdir(parents=True, exist_ok=True)
    for folder in TOP_FOLDERS:
        shutil.rmtree(out / folder, ignore_errors=True)
    # The pool's index first: an export cut short is then known for one, and the next
    # export with --force replaces it.
    index = f"{POOL}/{POOL_INDEX}"
    for name in sorted(files, key=lambda name: name != index):
        data, mode = files[name]
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(mode)


# --- inside the grading container -----------------------------------------------------------

# A board's status in a word, as the results list each board.
_STATUS: dict[TestStatus, str] = {
    "passed": "right",
    "partial": "partly right",
    "wrong": "wrong",
    "unreadable": "output not readable",
    "timeout": "out of time",
    "crashed": "crashed",
    "output-limit": "printed too much",
    "not-run": "not run",
}


def prairielearn_results(
    result: SubmissionResult, hidden_results: str = "total", note: str = ""
) -> dict[str, Any]:
    """PrairieLearn's ``results.json`` (docs/externalGrading.md, "Grading results"): the
    score as a fraction, and a test per board the student sees (their own board, the edge
    boards shown), with ``points`` and ``max_points``. The boards they do not see are one
    test with their total (``hidden_results`` "total"), which the score gives away anyway,
    or a test each with the feedback a hidden board gets ("boards"); only a visible board's
    feedback may hold what the program printed (as ``run_prairielearn`` grades it).

    PrairieLearn shows all of it at once (a homework's results cannot wait for a due date),
    so the message counts only the boards always shown, as Gradescope's summary does: a
    student who could read there how the others went could learn, one submission at a
    time, what passes them."""
    if result.status == "error":
        problems = list(result.problems) or ["the submission could not be graded"]
        return {
            "gradable": False,
            "score": 0.0,
            "message": " ".join([*([note] if note else []), *problems]),
            "format_errors": problems,
            "tests": [],
        }
    each = hidden_results == "boards"
    tests = [_test(t) for t in result.tests if t.visible or each]
    others = [t for t in result.tests if not t.visible]
    if others and not each:
        tests.append(
            {
                "name": f"other boards ({len(others)})",
                "description": "boards whose results are not shown, one by one",
                "points": sum(t.score for t in others),
                "max_points": sum(t.max_score for t in others),
                "message": "graded; nothing of any one of them is shown",
                "output": "",
            }
        )
    lines = [note] if note else []
    lines += [f"problem: {p}" for p in result.problems]
    lines += visible_summary(result, each, "which count in your score; their results are "
                             "not shown one by one")  # fmt: skip
    score = result.score / result.max_score if result.max_score > 0 else 0.0
    return {
        "gradable": True,
        # Full marks are exactly 1 (PrairieLearn colours a result by score >= 1).
        "score": 1.0 if result.score >= result.max_score > 0 else min(max(score, 0.0), 1.0),
        "message": " ".join(lines),
        # The same tests in a line each, points first.
        "output": "\n".join(
            f"{t['points']:g} / {t['max_points']:g}  {t['name']}: {t['message']}" for t in tests
        ),
        "tests": tests,
    }


def _test(test: TestResult) -> dict[str, Any]:
    output = "\n".join(test.feedback)
    if len(output) > _MOST_OUTPUT:
        output = output[:_MOST_OUTPUT] + "\n... (cut)"
    return {
        "name": test.title,
        "points": test.score,
        "max_points": test.max_score,
        "message": _STATUS.get(test.status, test.status),
        "output": output,
    }


def run_prairielearn(answers: AnswerSource, root: str | Path = "/grade") -> dict[str, Any]:
    """Grade ``<root>/student`` as ``<root>/tests/prairielearn.json`` says, on the board of
    the variant (``<root>/data/data.json``) and the assignment's other boards, and write
    ``<root>/results/results.json``. A failure of the grader itself still writes a result
    (not gradable: the student loses no attempt), and the traceback goes to the job's log."""
    root = Path(root)
    check_layout(root, "PrairieLearn",
                 [(f"tests/{CONFIG}", "file"), ("student", "folder"), (DATA, "file")],
                 f"tests/{CONFIG} (the question's tests/ folder), student/ (the student's "
                 f"files) and {DATA} (the variant's data)")  # fmt: skip
    results, took = run_job(
        lambda: _grade(root, answers),
        {
            "gradable": False,
            "score": 0.0,
            "message": "The autograder failed on this submission, so it was not graded and no "
            "attempt was used. The course staff can see why; resubmit or contact them.",
            "tests": [],
        },
    )
    print(f"graded in {took:.2f} s")
    write_results(root, results)
    return results


def _grade(root: Path, answers: AnswerSource) -> dict[str, Any]:
    config = json.loads((root / "tests" / CONFIG).read_text(encoding="utf-8"))
    assignment = load_assignment(config["assignment"])
    limits = assignment.limits
    if config.get("timeout"):
        limits = limits.with_timeout(float(config["timeout"]))
    data = json.loads((root / DATA).read_text(encoding="utf-8"))
    params = data.get("params") if isinstance(data, dict) else None
    params = params if isinstance(params, dict) else {}
    board = params.get("board")
    if not isinstance(board, dict):
        print(f"no board in {root / DATA}: params holds {sorted(params)}")
        return {
            "gradable": False,
            "score": 0.0,
            "message": "This variant of the question has no board (it was made before the "
            "question was set up as it is now), so it could not be graded and no attempt was "
            "used. Ask for a new variant, or contact the course staff.",
            "tests": [],
        }
    own = answers.own_board_case(assignment, board)
    cases = with_own_board(own, answers.cases(assignment))
    variant = f"variant {params.get('variant')}"
    print(f"{variant}: {own.title}")
    # The program gets a copy of the submission; everything else PrairieLearn put in the
    # job (the project and its answer keys, the variant's data, the results) stays out of
    # its reach.
    hidden = [root / "tests", root / "data", root / "results", root / "student",
              root / "serverFilesCourse", root / "shared"]  # fmt: skip
    result = grade_in_platform(
        answers, assignment, root / "student", cases, student=variant, limits=limits,
        isolation=config.get("isolation"), hidden=hidden,
    )  # fmt: skip
    results = prairielearn_results(result, config.get("hidden_results", "total"))
    results["extra_data"] = {"isolation": result.isolation}
    return results
