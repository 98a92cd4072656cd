"""Hostile submissions (``tests/adversarial/``) against the grader, at every isolation level
this machine supports: each is graded on the classic public board and the test asserts the
precise outcome, that nothing of the run is left (no process, no file outside its folder),
that no secret was read, and that the grader still grades a correct program in full.

* ``namespace`` (the default here: root with bubblewrap): through ``grade_submission``, the
  ``check`` command and the Gradescope flow. Every read of the answers, other submissions,
  the gradebook or the grader's environment fails; no network; no write outside the run's
  folder.
* ``user``: ``run_limited`` with ``/usr/bin/python3`` (the project's interpreter lives under
  ``/root``, which a lent uid cannot enter) and folders closed with ``close_to_others``.
* ``process``: what it does *not* protect, asserted so that the documentation stays true.

The programs get the paths to attack in a ``CONFIG = {...}`` line this module writes into
them (they also try the paths a real attacker would guess); each reports what it got as
one ``ADVERSARY {json}`` line on standard error, which the grader keeps for the staff.

The default run contains every program through ``grade_submission`` and a few through the
``check`` and Gradescope flows; the rest of those flows, and the tests at the ``user`` level
that wait for a time limit or a disk, are marked ``slow`` (``pytest -m slow``; CI runs both).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import autograder._isolation
from autograder import (
    SubmissionResult,
    detect_isolation,
    grade_submission,
    load_assignment,
)
from autograder._assignments import Limits, assignments_dir
from autograder._files import remove_tree
from autograder._run import Run, clean_environment, run_limited
from autograder._sandbox import (
    FIRST_UID,
    UIDS,
    Isolation,
    _lock_folder,
    close_to_others,
)
from reference_solutions import ReferenceAnswers, answer_key, reference_program
from tests.autograder.test_gradescope import assert_valid, run_autograder
from tests.autograder.test_run import alive
from tests.grading import gradescope_zip, public_board

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "adversarial"
ASSIGNMENT = load_assignment("classic")
PUBLIC = public_board("classic")
ANSWERS = ReferenceAnswers()
# What a grader hides besides the engine's own protected paths: the answer source's.
ANSWER_MATERIAL = tuple(ANSWERS.secret_paths())
POINTS = PUBLIC[0].points
TIMEOUT = 2.0  # per board: an endless program costs two seconds
LIMITS = ASSIGNMENT.limits.with_timeout(TIMEOUT)
ROOMY = ASSIGNMENT.limits.with_timeout(10)  # for programs that must get to their end
HOLD_BOUND = 120  # seconds past the limit: far below the hour a hostile program sleeps
SYSTEM_PYTHON = "/usr/bin/python3"  # the standard library only, reachable by any uid
USER = Isolation("user", drop_user=True)
CONFIG_LINE = "CONFIG = {}  # the test writes its settings here"
# Set in the grader's environment for the whole module: no run may ever see them.
SECRETS = {
    "AUTOGRADER_SECRET": "grader-secret-5f1d2c",
    "GITHUB_TOKEN": "ghp_FAKEtoken0123456789abcdefABCDEF0123",
}
# All a run's environment may hold (bubblewrap adds PWD, the folder it starts in).
CLEAN_KEYS = {*clean_environment(Path("/")), "PWD"}


# --- the corpus and what its programs report ----------------------------------------------


def program(name: str, **config: object) -> str:
    """Corpus program ``name`` with ``config`` written into its ``CONFIG`` line."""
    text = (CORPUS / f"{name}.py").read_text()
    if config:
        assert text.count(CONFIG_LINE) == 1, f"{name} takes no CONFIG"
        text = text.replace(CONFIG_LINE, f"CONFIG = {config!r}")
    return text


def takes_config(name: str) -> bool:
    return CONFIG_LINE in program(name)


def report(lines: tuple[str, ...] | bytes | str) -> dict:
    """The last ``ADVERSARY {...}`` line a program wrote on standard error."""
    if isinstance(lines, bytes):
        lines = lines.decode("utf-8", "replace")
    if isinstance(lines, str):
        lines = tuple(lines.splitlines())
    for line in reversed(lines):
        if line.strip().startswith("ADVERSARY "):
            return json.loads(line.strip().removeprefix("ADVERSARY "))
    raise AssertionError(f"no report in {lines[-5:]}")


def denied(found: dict, *labels: str) -> None:
    for label in labels:
        assert str(found[label]).startswith("denied:"), (label, found[label])


def granted(found: dict, *labels: str) -> None:
    for label in labels:
        assert str(found[label]).startswith("ok"), (label, found[label])


def no_control_characters(lines: tuple[str, ...]) -> bool:
    return not any(re.search(r"[\x00-\x08\x0b-\x1f\x7f]", line) for line in lines)


# --- what a run may leave behind -------------------------------------------------------------


def _state(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"


def _uid_in_use(uid: int) -> bool:
    """Whether a run (of this or of another grader process) holds ``uid`` now: read from
    ``/proc/locks``, not by taking the lock, which (however briefly) would turn away a
    grader lending that uid at that moment."""
    try:
        inode = os.stat(_lock_folder() / str(uid)).st_ino
    except FileNotFoundError:
        return False
    with open("/proc/locks", encoding="ascii") as locks:
        # ("1: FLOCK ADVISORY WRITE pid maj:min:inode 0 EOF"; a waiter's line has "->".)
        # The inode alone: the device there is the file system's own, which is not what
        # stat says on btrfs or an older overlayfs; another lock on a file of the same inode
        # number elsewhere would only hide a leftover for as long as it is held.
        return any(line.split()[5].rsplit(":", 1)[1] == str(inode) for line in locks
                   if " FLOCK " in line and "->" not in line)  # fmt: skip


@contextlib.contextmanager
def holding(uid: int) -> Iterator[None]:
    """``uid`` held as a run holds it, for a test that starts processes of that uid itself
    (which ``stray_processes``, in another test process, would otherwise take for a run's
    leftovers)."""
    handle = os.open(_lock_folder() / str(uid), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def stray_processes(token: str) -> set[str]:
    """Live processes with ``token`` in their command line, or of a lent uid that no run
    holds: a leftover, whatever its name. (Other graders may be running on the machine:
    their runs hold their uids.)"""
    found = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or _state(entry.name) in ("Z", "X"):
            continue
        try:
            uid = entry.stat().st_uid
            cmdline = Path(entry.path, "cmdline").read_bytes()
        except OSError:
            continue
        lent = FIRST_UID <= uid < FIRST_UID + UIDS and not _uid_in_use(uid)
        if token.encode() in cmdline or lent:
            shown = cmdline.replace(b"\0", b" ")[:120]
            found.add(f"{entry.name} uid {uid}: {shown!r}")
    return found


def assert_no_stray_processes(before: set[str], token: str) -> None:
    # A killed process may take a moment to be reaped; on a busy machine, several.
    deadline = time.monotonic() + 30
    while (left := stray_processes(token) - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left


SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", os.path.expanduser("~root"))


def litter(token: str) -> list[Path]:
    """Files named with ``token`` in the shared folders a program might write to."""
    found = []
    for folder in SHARED_FOLDERS:
        with contextlib.suppress(OSError):
            found += [Path(folder, n) for n in os.listdir(folder) if token in n]
    return found


def remove_litter(path: Path) -> None:
    """Remove ``path``, a file or a folder a run left (``litter``), whatever it holds."""
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            remove_tree(path)
        else:
            path.unlink()


def snapshot(*folders: Path) -> dict[str, tuple]:
    """Every path under ``folders`` with its mode, size, modification time and content."""
    seen = {}
    for folder in folders:
        for path in [folder, *sorted(folder.rglob("*"))]:
            info = path.lstat()
            content = path.read_bytes() if stat.S_ISREG(info.st_mode) else b""
            seen[str(path)] = (info.st_mode, info.st_size, info.st_mtime_ns, content)
    return seen


# --- a course with one hostile student --------------------------------------------------------


class World:
    """A course folder as a teaching assistant has it: the submissions (a victim's and the
    attacker's), the results of a batch, a copy of answer material, a world-readable file,
    and a correct program to grade afterwards. It lies in ``/tmp`` with modes 0755/0644, so
    a lent uid reaches whatever is not closed to it."""

    def __init__(self, base: Path, token: str) -> None:
        self.base, self.token = base, token
        self.marker = f"ADV-MARKER-{token}"  # what the other student's files hold
        self.submissions = base / "submissions"
        self.victim = self.submissions / "ada.py"
        self.results = base / "results"
        self.answers = base / "answers"
        self.open = base / "open" / "notes.txt"
        self.reference = base / "reference" / "classic.py"
        for folder in (
            self.submissions,
            self.results / "feedback",
            self.answers,
            self.open.parent,
            self.reference.parent,
        ):
            folder.mkdir(parents=True)
        self.victim.write_text(f"# {self.marker}\nprint('my own work')\n")
        line = {"student": "ada", "score": 100.0, "extra": {"note": self.marker}}
        (self.results / "results.jsonl").write_text(json.dumps(line) + "\n")
        (self.results / "grades.csv").write_text(f"student,score\nada,100.00,{self.marker}\n")
        (self.results / "feedback" / "ada.txt").write_text(f"score 100 {self.marker}\n")
        shutil.copy(ROOT / "reference_solutions" / "_solver.py", self.answers / "_solver.py")
        shutil.copy(ASSIGNMENT.config, self.answers / "assignment.toml")
        self.open.write_text(f"open to everyone {token}\n")
        self.reference.write_text(reference_program("classic"))
        for path in [base, *base.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        self.watch()

    def attack(self, name: str, **config: object) -> Path:
        """The attacker's submission, next to the victim's. Its name holds the token, so
        every process forked from it shows the token in its command line."""
        path = self.submissions / f"mallory-{self.token}.py"
        path.write_text(program(name, **config))
        return path

    def guarded(self) -> tuple[Path, ...]:
        """What the attacker must not change: the submissions and the results."""
        return self.submissions, self.results

    def watch(self) -> None:
        """Remember what is there before a run: the guarded folders, stray processes."""
        self.before = snapshot(*self.guarded())
        self.processes = stray_processes(self.token)

    def assert_untouched(self) -> None:
        """The run left no process and changed nothing outside its own folder."""
        assert_no_stray_processes(self.processes, self.token)
        assert snapshot(*self.guarded()) == self.before
        assert not litter(self.token)

    def close(self) -> None:
        """Close the answers, the submissions and the results to others, as
        ``grade_submission`` closes what it hides at the ``user`` level."""
        close_to_others([self.answers, self.submissions, self.results])
        self.watch()

    def targets(self, name: str) -> dict:
        """``CONFIG`` for the reading attacks, at this world's paths."""
        marker = self.marker[::-1]  # the programs reverse it (see read_submissions.py)
        if name == "read_answers":
            files = {
                "answers": self.answers / "_solver.py",
                "toml": self.answers / "assignment.toml",
                "open": self.open,
            }
            return {"files": {k: str(v) for k, v in files.items()}}
        if name == "read_submissions":
            files = {"sibling": str(self.victim), "open": str(self.open)}
            return {
                "marker": marker,
                "files": files,
                "folders": {"submissions": str(self.submissions)},
            }
        assert name == "read_gradebook"
        files = {
            "jsonl": self.results / "results.jsonl",
            "csv": self.results / "grades.csv",
            "feedback": self.results / "feedback" / "ada.txt",
        }
        return {
            "marker": marker,
            "files": {k: str(v) for k, v in files.items()},
            "folders": {"results": str(self.results)},
        }


@pytest.fixture(scope="module")
def world_place() -> Iterator[Path]:
    """Where each test makes its world: the same path all through the module. The grader's
    self-test that hidden paths stay hidden runs once per process and set of paths, so
    worlds at one path cost it once instead of once per test (each world is still new:
    made afresh, removed after its test)."""
    root = Path(tempfile.mkdtemp(prefix="adversarial-"))
    root.chmod(0o755)  # a lent uid must get through it to the world, as through /tmp
    try:
        yield root / "world"
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def world(world_place: Path) -> Iterator[World]:
    base = world_place
    if base.exists():  # what a test before could not remove: no world is made on it
        remove_tree(base)
    base.mkdir()
    token = "adv-" + secrets.token_hex(6)
    try:
        yield World(base, token)
    finally:
        for path in litter(token):  # what a run at a weaker level was allowed to leave
            remove_litter(path)
        remove_tree(base)


@pytest.fixture(autouse=True)
def grader_secrets(monkeypatch):
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)


@pytest.fixture(scope="module")
def default_level() -> str:
    return detect_isolation().level


@pytest.fixture
def namespace(default_level):
    if default_level != "namespace":
        pytest.skip(f"the default isolation here is {default_level}, not namespace")


@pytest.fixture
def user_level():
    if os.geteuid() != 0 or not os.access(SYSTEM_PYTHON, os.X_OK):
        pytest.skip("the user level needs root and /usr/bin/python3")


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A localhost port a program could send what it found to."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        server.setblocking(False)
        yield server


def connections(server: socket.socket) -> list[bytes]:
    got = []
    with contextlib.suppress(BlockingIOError):
        while True:
            peer, _ = server.accept()
            with peer:
                peer.settimeout(2)
                got.append(peer.recv(200))
    return got


# --- grading -----------------------------------------------------------------------------------


def grade(
    world: World,
    name: str,
    *,
    isolation: str | None = None,
    limits: Limits = LIMITS,
    hidden: tuple[Path, ...] | None = None,
    **config: object,
) -> SubmissionResult:
    """Grade corpus program ``name`` on the public board as a batch should: the other
    submissions and the results are hidden from it."""
    path = world.attack(name, **config)
    world.watch()
    hidden = world.guarded() if hidden is None else hidden
    result = grade_submission(
        ASSIGNMENT, path, PUBLIC, limits=limits, isolation=isolation,
        hidden=(*hidden, *ANSWER_MATERIAL),
    )  # fmt: skip
    assert result.status == "graded" and len(result.tests) == 1
    return result


def assert_contained(world: World, result: SubmissionResult, level: str = "namespace") -> None:
    """Nothing of the run is left, nothing outside its folder changed, no secret came out,
    and the grader still gives a correct program full marks."""
    assert result.isolation == level
    world.assert_untouched()
    shown = json.dumps(result.to_json())
    for secret in (*SECRETS.values(), world.marker):
        assert secret not in shown
    correct = grade_submission(
        ASSIGNMENT, world.reference, PUBLIC, limits=ROOMY, hidden=ANSWER_MATERIAL
    )
    assert (correct.score, correct.isolation) == (POINTS, level)


def test_every_corpus_program_says_what_it_attempts_and_each_is_graded_somewhere():
    """Every program in the corpus is graded by this module or by one of the modules of the
    second round (each names its own), and says what it attempts and what the grader
    must do."""
    from tests.autograder.test_hardening import HARDENING_CORPUS
    from tests.autograder.test_hidden_boards import HIDDEN_CORPUS
    from tests.autograder.test_impersonation import LMS_CORPUS

    graded = {
        *HARDENING_CORPUS,
        *HIDDEN_CORPUS,
        *LMS_CORPUS,
        *OUTCOMES,
        "bad_numbers",
        "deep_tree",
        "forge_results",
        "network",
        "read_answers",
        "read_environment",
        "read_gradebook",
        "read_submissions",
        "write_outside",
    }
    assert {p.stem for p in CORPUS.glob("*.py")} == graded
    for name in graded:
        doc = (CORPUS / f"{name}.py").read_text().split('"""')[1]
        assert doc.startswith("Attempt: ") and " must " in doc.replace("\n", " "), name


# --- namespace: attacks on the run itself -----------------------------------------------------


def _fork_bomb(world: World, found: dict) -> None:
    assert found["refused"] >= 1 and found["uid"] >= FIRST_UID
    assert found["peak"] <= LIMITS.processes


def _litter(world: World, found: dict) -> None:
    # /tmp is its own, in memory (nothing with the token reaches the real one: see
    # assert_contained); there is no /var/tmp.
    granted(found, "tmp")
    denied(found, "var-tmp")
    granted(found, "tempfile", "tree")  # its own folder is its to use ...
    assert found["work"].startswith(tempfile.gettempdir() + "/autograder-run-")
    assert not os.path.lexists(found["work"])  # ... and goes, with everything in it


def _detached(world: World, found: dict) -> None:
    assert found["grandchild"]  # it had one running (gone now: see assert_contained)


def _kill(world: World, found: dict) -> None:
    assert found["parent"] == 1  # the sandbox's init, not the grader
    denied(found, "kill-parent", "kill-parent-group", "kill-init")


TIMED_OUT = r"stopped after 2 s: the time limit for one board"
CPU_OR_CLOCK = rf"{TIMED_OUT}|used up its CPU time limit of 2 s for one board"
# Programs that do nothing but wait for their limit (spinning or asleep) end alike at any:
# they get a second.
WAITERS = {"endless_loop", "sleep_forever"}
WAITER_LIMITS = ASSIGNMENT.limits.with_timeout(1)
# What each attack on the run itself ends as: (status, feedback, check of its report).
OUTCOMES: dict[str, tuple[str, str, Callable[[World, dict], None] | None]] = {
    "endless_loop": ("timeout", CPU_OR_CLOCK.replace("2 s", "1 s"), None),
    "sleep_forever": ("timeout", TIMED_OUT.replace("2 s", "1 s"), None),
    "child_at_timeout": ("timeout", TIMED_OUT, None),
    "fork_bomb": ("timeout", TIMED_OUT, _fork_bomb),
    "memory_bomb": ("crashed", r"ran out of memory \(limit 1024 MB\)", None),
    "output_flood": ("output-limit", r"printed more than 1024 KB; stopped", None),
    "huge_line": ("output-limit", r"printed more than 1024 KB; stopped", None),
    "stderr_flood": ("unreadable", r"printed nothing", None),
    "binary_garbage": ("unreadable", r"output not readable: line 2: '.*' is not a number .*", None),
    "signal_segv": ("crashed", r"killed by SIGSEGV \(a crash in native code, often memory\)", None),
    "abort": ("crashed", r"killed by SIGABRT", None),
    "terminal_escapes": ("crashed", r"exited with status 1", None),
    "detached_child": ("unreadable", r"printed nothing", _detached),
    "tmp_litter": ("unreadable", r"printed nothing", _litter),
    "kill_grader": ("unreadable", r"printed nothing", _kill),
}


@pytest.mark.usefixtures("namespace")
@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_a_hostile_program_is_contained(world, name):
    config = {"token": world.token} if takes_config(name) else {}
    # The memory bomb touches every page it takes: give it time to reach the limit.
    limits = ROOMY if name == "memory_bomb" else WAITER_LIMITS if name in WAITERS else LIMITS
    started = time.monotonic()
    result = grade(world, name, limits=limits, **config)  # at the default level
    took = time.monotonic() - started
    test = result.tests[0]
    status, feedback, check_report = OUTCOMES[name]
    assert (test.status, result.score) == (status, 0.0), test.feedback
    assert re.fullmatch(feedback, test.feedback[0]), test.feedback
    # A run ends at its limit, whatever it does: these programs would hold the grader for an
    # hour (or for ever), so a bound far above the limit still tells, however busy the
    # machine. (An output flood is stopped by the cap: its status says so, not the clock.)
    assert took < limits.timeout + HOLD_BOUND
    if check_report:
        check_report(world, report(test.staff))
    # No flood reaches the result: standard error is cut to its tail, output not kept.
    assert sum(map(len, test.staff)) < 4096 + 200
    assert len(json.dumps(result.to_json())) < 8000
    if name != "terminal_escapes":  # (an expected failure, below)
        assert no_control_characters(test.feedback + test.staff)
    assert_contained(world, result)


@pytest.mark.usefixtures("namespace")
def test_a_long_line_under_the_output_limit_is_unreadable_and_not_quoted(world):
    result = grade(world, "huge_line", bytes=(LIMITS.output_kb << 10) - 4096)
    test = result.tests[0]
    assert (test.status, result.score) == ("unreadable", 0.0)
    # The digits are one (infinite) number; the table that should follow is not there.
    assert test.feedback == (
        "output not readable: no line 'Expected turns remaining by position:' in the output",
    )


@pytest.mark.usefixtures("namespace")
def test_nan_infinity_and_negative_values_earn_nothing(world):
    result = grade(world, "bad_numbers")
    test = result.tests[0]
    assert (test.status, test.right, test.total, result.score) == ("wrong", 0, 100, 0.0)
    assert "self-check does not hold: printed nan, expected 39.60" in test.feedback


@pytest.mark.usefixtures("namespace")
def test_spoiled_entries_cost_exactly_their_share(world):
    values = list(PUBLIC[0].expected.answer.values)
    # The start value and squares 7, 42 and 99 are graded; the goal (100) is not.
    result = grade(world, "bad_numbers", values=values, bad=[0, 7, 42, 99, 100])
    test = result.tests[0]
    assert (test.status, test.right, test.total) == ("partial", 96, 100)
    assert result.score == round(POINTS * 96 / 100, 4)
    printed = [
        m.groups()
        for line in test.feedback
        if (m := re.fullmatch(r"(.*): printed (\S+), expected \S+", line))
    ]
    # Most informative first: where the error starts (nearest the goal), then the largest.
    assert printed == [
        ("self-check does not hold", "nan"),
        ("square 99", "-7.50"),
        ("expected turns per game", "nan"),
        ("square 42", "-inf"),
        ("square 7", "-7.50"),
    ]


@pytest.mark.usefixtures("namespace")
def test_a_very_deep_folder_tree_is_still_graded_and_removed(world):
    path = world.attack("deep_tree", depth=3000)
    runs = set(Path(tempfile.gettempdir()).glob("autograder-run-*"))
    try:
        result = grade_submission(ASSIGNMENT, path, PUBLIC, limits=LIMITS, hidden=ANSWER_MATERIAL)
        assert (result.tests[0].status, result.score) == ("unreadable", 0.0)
        assert not os.path.lexists(report(result.tests[0].staff)["work"])
    finally:  # remove what the grader left (rm copes with any depth)
        for left in set(Path(tempfile.gettempdir()).glob("autograder-run-*")) - runs:
            if (left / "submission" / "d").is_dir():
                subprocess.run(["rm", "-rf", "--", str(left)], check=False, timeout=120)


@pytest.mark.slow  # (3,000 folders on the machine's disk; at namespace: the test above)
@pytest.mark.usefixtures("user_level")
def test_user_level_removes_a_very_deep_tree_left_in_tmp(world):
    tree = Path("/tmp") / world.token
    try:
        # (3,000 folders on the machine's disk: a busy disk takes seconds)
        run = run_as_user(world, "deep_tree", limits=ROOMY, folder=str(tree), depth=3000)
        assert run.status == "exited"
        assert not os.path.lexists(tree)
    finally:
        subprocess.run(["rm", "-rf", "--", str(tree)], check=False, timeout=120)


@pytest.mark.usefixtures("namespace")
def test_terminal_control_sequences_are_not_quoted_in_feedback(world):
    result = grade(world, "terminal_escapes")
    assert result.tests[0].status == "crashed"
    assert no_control_characters(result.tests[0].feedback)


# --- namespace: reading, writing, the network, forging ----------------------------------------


@pytest.mark.usefixtures("namespace")
def test_namespace_keeps_the_answer_material_out_of_reach(world):
    config = world.targets("read_answers")
    config["files"] |= {
        "repo-toml": str(ASSIGNMENT.config),
        "repo-solver": str(ROOT / "reference_solutions" / "_solver.py"),
    }
    globs = {
        "repo-solutions": str(ROOT / "reference_solutions" / "*.py"),
        "repo-seeds": str(ROOT / "assignments" / "*" / "assignment.toml"),
        "repo-examples": str(ROOT / "examples" / "classic" / "*.j2"),
    }
    result = grade(world, "read_answers", globs=globs, **config)
    found = report(result.tests[0].staff)
    assert found["uid"] >= FIRST_UID
    denied(
        found,
        "import",
        *globs,
        *config["files"],
        "gs-solver",
        "gs-toml",
        "gs-config",
        "gs-manifest",
        "beside-run",
        "home-checkout",
    )
    assert (result.tests[0].status, result.score) == ("unreadable", 0.0)
    assert_contained(world, result)


@pytest.mark.usefixtures("namespace")
@pytest.mark.parametrize("name", ["read_submissions", "read_gradebook"])
def test_namespace_keeps_other_students_and_the_gradebook_out_of_reach(world, name):
    config = world.targets(name)
    result = grade(world, name, **config)
    found = report(result.tests[0].staff)
    denied(found, *config["files"], *config["folders"])
    assert found["marker-found"] == []
    assert result.score == 0
    assert_contained(world, result)


@pytest.mark.usefixtures("namespace")
def test_namespace_hides_secrets_inside_the_trees_it_mounts(world):
    """The Python installation is mounted for the program: answer material inside it (a
    package installed next to numpy) must be covered. The project's own install record
    stands in for such material here."""
    records = sorted(Path(sysconfig.get_paths()["purelib"]).glob("chutes_autograder-*-info"))
    if not records:
        pytest.skip("the project is not installed in this interpreter's site-packages")
    files = {"installed": str(records[0] / "METADATA")}
    result = grade(world, "read_answers", files=files, hidden=(records[0],))
    denied(report(result.tests[0].staff), "installed")
    process = grade(
        world, "read_answers", files=files, hidden=(records[0],), isolation="process", limits=ROOMY
    )
    granted(report(process.tests[0].staff), "installed")  # hidden by the namespace alone


@pytest.mark.usefixtures("namespace")
def test_namespace_environment_is_clean_and_the_graders_out_of_reach(world):
    result = grade(world, "read_environment", names=sorted(SECRETS))
    found = report(result.tests[0].staff)
    assert found["leaked"] == {}
    assert set(found["keys"]) <= CLEAN_KEYS
    granted(found, "self")
    denied(found, "parent")  # the sandbox's init (root), not the grader
    assert_contained(world, result)


@pytest.mark.usefixtures("namespace")
def test_namespace_has_no_network(world, listener):
    port = listener.getsockname()[1]
    result = grade(world, "network", limits=ROOMY, port=port, token=world.token)
    found = report(result.tests[0].staff)
    denied(found, "tcp-1.1.1.1", "udp-dns", "lookup", "localhost")
    assert connections(listener) == []
    assert_contained(world, result)


@pytest.mark.usefixtures("namespace")
def test_namespace_writes_nothing_outside_the_run_folder(world):
    write = {
        "submissions": world.submissions / f"{world.token}.py",
        "results": world.results / f"{world.token}.csv",
        "open": world.open.parent / f"{world.token}.txt",
    }
    delete = {"victim": world.victim, "gradebook": world.results / "grades.csv"}
    result = grade(
        world,
        "write_outside",
        token=world.token,
        write={k: str(v) for k, v in write.items()},
        delete={k: str(v) for k, v in delete.items()},
    )
    found = report(result.tests[0].staff)
    attempts = [k for k in found if k.startswith(("write-", "delete-"))]
    assert len(attempts) == 5 + len(write) + len(delete)  # the guesses, and the paths given
    # Its /tmp and /dev/shm are private ones, which a program may use as scratch
    # (assert_contained: no trace in the real ones); everything else is out of reach.
    scratch = ("write-tmp", "write-dev-shm")
    granted(found, *scratch)
    denied(found, *(a for a in attempts if a not in scratch))
    assert not any(path.exists() for path in write.values())
    assert_contained(world, result)


@pytest.mark.usefixtures("namespace")
def test_namespace_forged_results_earn_nothing_and_change_nothing(world):
    gradescope = world.base / "gradescope-results"
    gradescope.mkdir(mode=0o777)
    (gradescope / "results.json").write_text('{"score": 0}')
    result = grade(
        world,
        "forge_results",
        token=world.token,
        results_json=[str(gradescope / "results.json")],
        results_jsonl=[str(world.results / "results.jsonl")],
    )
    test = result.tests[0]
    assert (test.status, test.score, result.score) == ("unreadable", 0.0, 0.0)
    found = report(test.staff)
    denied(found, *(k for k in found if k != "uid"))
    assert (gradescope / "results.json").read_text() == '{"score": 0}'
    assert world.token not in " ".join(test.feedback)
    assert_contained(world, result)


# --- user: a lent uid, closed folders, no namespace ---------------------------------------------


def run_as_user(world: World, name: str, limits: Limits = LIMITS, **config: object) -> Run:
    """``run_limited`` at the ``user`` level with the system's Python, in a fresh folder as
    ``run_case`` makes one, the answers, submissions and results closed to others."""
    world.close()
    work = Path(tempfile.mkdtemp(prefix="run-", dir=world.base))
    home = work / "submission"
    home.mkdir()
    board = work / "board.json"
    board.write_text(json.dumps(PUBLIC[0].board))
    source = home / f"mallory-{world.token}.py"
    source.write_text(program(name, **config))
    argv = [SYSTEM_PYTHON, "-E", "-s", str(source), str(board)]
    run = run_limited(argv, home, clean_environment(work), limits, isolation=USER, work=work)
    assert run.isolation == "user"
    return run


@pytest.mark.usefixtures("user_level")
def test_user_level_keeps_closed_folders_out_of_reach(world):
    found = report(run_as_user(world, "read_answers", **world.targets("read_answers")).stderr_tail)
    assert found["uid"] >= FIRST_UID  # not root
    denied(found, "answers", "toml", "import")
    granted(found, "open")  # not protected: what is open to everyone stays open
    for name in ("read_submissions", "read_gradebook"):
        config = world.targets(name)
        found = report(run_as_user(world, name, **config).stderr_tail)
        denied(found, *config["folders"], *(k for k in config["files"] if k != "open"))
        assert found["marker-found"] == []
    world.assert_untouched()


@pytest.mark.usefixtures("user_level")
def test_user_level_environment_is_clean_and_the_graders_out_of_reach(world):
    run = run_as_user(world, "read_environment", names=sorted(SECRETS))
    found = report(run.stderr_tail)
    assert found["leaked"] == {} and set(found["keys"]) <= CLEAN_KEYS
    denied(found, "parent")  # the grader runs as root: not the lent uid's to inspect
    for secret in SECRETS.values():
        assert secret.encode() not in run.stdout + run.stderr_tail


@pytest.mark.usefixtures("user_level")
def test_user_level_kills_a_detached_grandchild(world):
    run = run_as_user(world, "detached_child", token=world.token)
    found = report(run.stderr_tail)
    assert found["uid"] >= FIRST_UID
    assert not alive(int(found["grandchild"]))
    world.assert_untouched()


@pytest.mark.slow  # (to its time limit; at namespace: test_a_hostile_program_is_contained)
@pytest.mark.usefixtures("user_level")
def test_user_level_fork_bomb_stops_at_the_process_limit(world):
    run = run_as_user(world, "fork_bomb")
    assert run.status in ("timeout", "cpu-limit")
    found = report(run.stderr_tail)
    assert found["refused"] >= 1 and found["peak"] <= LIMITS.processes
    world.assert_untouched()


@pytest.mark.usefixtures("user_level")
def test_user_level_writes_only_where_others_may(world):
    write = {
        "submissions": str(world.submissions / f"{world.token}.py"),
        "results": str(world.results / f"{world.token}.csv"),
    }
    run = run_as_user(
        world, "write_outside", token=world.token, write=write, delete={"victim": str(world.victim)}
    )
    found = report(run.stderr_tail)
    denied(found, "write-submissions", "write-results", "delete-victim", "write-grader-home")
    assert snapshot(*world.guarded()) == world.before
    # /tmp is everyone's: the run's uid may write there while it runs (not prevented) ...
    granted(found, "write-tmp")
    world.assert_untouched()  # ... but what its uid left there is removed with the run
    jsonl = str(world.results / "results.jsonl")
    found = report(run_as_user(world, "forge_results", results_jsonl=[jsonl]).stderr_tail)
    assert found["jsonl " + jsonl[-40:]] == "denied:PermissionError"
    world.assert_untouched()


@pytest.mark.usefixtures("user_level")
def test_user_level_cannot_touch_the_grader_but_has_the_network(world, listener):
    found = report(run_as_user(world, "kill_grader").stderr_tail)
    assert found["parent"] == os.getpid()  # the grader itself ...
    denied(found, "kill-parent", "kill-parent-group", "kill-init")  # ... out of its reach
    world.assert_untouched()
    port = listener.getsockname()[1]
    run = run_as_user(world, "network", port=port, outside=False, token=world.token)
    granted(report(run.stderr_tail), "localhost")  # not protected: no network isolation
    assert connections(listener) == [f"hello from {world.token}\n".encode()]


# --- process: what it does not protect ------------------------------------------------------


def test_process_level_does_not_keep_the_answers_from_the_program(world):
    """As the grader's user, the program imports the reference solutions and prints their
    answer: full marks. The same program scores 0 at namespace (above)."""
    config = world.targets("read_answers")
    result = grade(world, "read_answers", isolation="process", limits=ROOMY, **config)
    granted(report(result.tests[0].staff), "import", "answers", "toml", "open")
    assert (result.score, result.isolation) == (POINTS, "process")


def test_process_level_does_not_keep_other_students_or_the_gradebook_from_the_program(world):
    result = grade(
        world, "read_submissions", isolation="process", **world.targets("read_submissions")
    )
    found = report(result.tests[0].staff)
    granted(found, "sibling", "submissions", "open")
    assert "ada.py" in found["marker-found"]
    result = grade(world, "read_gradebook", isolation="process", **world.targets("read_gradebook"))
    found = report(result.tests[0].staff)
    granted(found, "jsonl", "csv", "feedback", "results")
    assert len(found["marker-found"]) == 6  # the three files, each by name and by folder


def test_process_level_environment_is_clean_but_writes_are_not_contained(world):
    result = grade(world, "read_environment", isolation="process", names=sorted(SECRETS))
    found = report(result.tests[0].staff)
    assert found["leaked"] == {} and set(found["keys"]) <= CLEAN_KEYS
    granted(found, "parent")  # the grader's own /proc/<pid>/environ: see the check below
    write = {"submissions": str(world.submissions / f"{world.token}.py")}
    result = grade(
        world,
        "write_outside",
        isolation="process",
        token=world.token,
        guesses=["tmp"],
        write=write,
        delete={"victim": str(world.victim)},
    )
    granted(report(result.tests[0].staff), "write-submissions", "write-tmp", "delete-victim")
    assert not world.victim.exists() and Path(write["submissions"]).exists()
    jsonl = world.results / "results.jsonl"
    result = grade(world, "forge_results", isolation="process", token=world.token,
                   results_jsonl=[str(jsonl)])  # fmt: skip
    granted(report(result.tests[0].staff), "jsonl " + str(jsonl)[-40:])
    assert result.score == 0  # what it printed still earns nothing ...
    assert world.token in jsonl.read_text().splitlines()[-1]  # ... but its line is in the log


def test_process_level_has_the_network(world, listener):
    port = listener.getsockname()[1]
    result = grade(world, "network", isolation="process", port=port, outside=False,
                   token=world.token)  # fmt: skip
    granted(report(result.tests[0].staff), "localhost")  # not protected
    assert connections(listener) == [f"hello from {world.token}\n".encode()]


def test_process_level_kills_a_detached_grandchild_only_with_a_control_group(world, monkeypatch):
    """A grandchild that left the process group outlives the run at ``process``, unless the
    run had a control group of its own (``_cgroups``), whose every process is killed."""
    if detect_isolation("process").cgroups is not None:
        result = grade(world, "detached_child", isolation="process", token=world.token)
        grandchild = int(report(result.tests[0].staff)["grandchild"])
        assert not alive(grandchild)
        world.assert_untouched()
    monkeypatch.setattr(autograder._isolation, "detect_cgroups", lambda: (None, "off"))
    autograder._isolation._strongest.cache_clear()
    try:
        result = grade(world, "detached_child", isolation="process", token=world.token)
    finally:
        autograder._isolation._strongest.cache_clear()
    grandchild = int(report(result.tests[0].staff)["grandchild"])
    try:
        assert alive(grandchild)  # not protected: it left the process group
        assert any(p.startswith(f"{grandchild} ") for p in stray_processes(world.token))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(grandchild, signal.SIGKILL)


def test_process_level_as_root_has_no_process_limit(tmp_path):
    """RLIMIT_NPROC does not bind root: at the process level as root ``Limits.processes``
    stops no fork bomb (which is why the corpus never runs one there)."""
    if os.geteuid() != 0:
        pytest.skip("only root is exempt from the process limit")
    source = (
        "import os, time\n"
        f"for _ in range({LIMITS.processes + 20}):\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(30)\n"
        "        os._exit(0)\n"
        "print('forked all')\n"
    )
    path = tmp_path / "wide.py"
    path.write_text(source)
    run = run_limited(
        [sys.executable, "-E", "-s", str(path)], tmp_path, clean_environment(tmp_path), LIMITS
    )
    assert (run.status, run.stdout) == ("exited", b"forked all\n")  # (its group died with it)


# --- the command line and Gradescope ---------------------------------------------------------


@pytest.fixture(scope="module")
def fast_assignments(tmp_path_factory) -> Path:
    """A copy of the assignments whose classic time limit is ``TIMEOUT`` (``check`` has no
    option for it), for ``$AUTOGRADER_ASSIGNMENTS``."""
    folder = tmp_path_factory.mktemp("assignments") / "assignments"
    shutil.copytree(assignments_dir(), folder)
    config = folder / "classic" / "assignment.toml"
    text = config.read_text()
    assert "\ntimeout = 10 " in text
    config.write_text(text.replace("\ntimeout = 10 ", f"\ntimeout = {TIMEOUT:g} "))
    return folder


def check(path: Path, assignments: Path, *more: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        **SECRETS,
        "AUTOGRADER_ASSIGNMENTS": str(assignments),
        "OPENBLAS_NUM_THREADS": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "autograder", "check", "classic", str(path), *more],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


# What a representative few print (besides their report), which must never be shown back.
PRINTED = ("ADVERSARY", "all tests passed", "score: 100", "100.00 / 25.00", "PYTHONHASHSEED")
# Each program, its CONFIG in a world, and what ``check`` says of it on the public board (a
# regular expression).
REPRESENTATIVE: dict[str, tuple[Callable[[World], dict], str]] = {
    # With the CPU limit as long as the wall clock's, either may end it first (README, "Untrusted
    # code": "stopped at the wall-clock limit or its CPU time"): a busy machine decides.
    "endless_loop": (lambda w: {}, CPU_OR_CLOCK),
    "output_flood": (lambda w: {}, "printed more than 1024 KB; stopped"),
    "forge_results": (
        lambda w: {"token": w.token, "results_jsonl": [str(w.results / "results.jsonl")]},
        re.escape("output not readable: no line 'Expected turns per game: ...' in the output"),
    ),
    "read_environment": (
        lambda w: {"names": sorted(SECRETS)},
        re.escape("output not readable: no line 'Expected turns per game: ...' in the output"),
    ),
    "read_answers": (lambda w: w.targets("read_answers"), "printed nothing"),
    "detached_child": (lambda w: {"token": w.token}, "printed nothing"),
    # The second round (test_hardening): starving a neighbour, leaving kernel state for a
    # later run, filling its folder.
    "cpu_hog": (lambda w: {"token": w.token}, TIMED_OUT),
    "kernel_state": (lambda w: {"token": w.token}, "printed nothing"),
    "fill_folder": (lambda w: {"shape": "entries"}, "printed nothing"),
}


def flows(default: set[str]) -> list:
    """The representatives, those in ``default`` in the default run, the others marked
    ``slow``: every program is contained by ``grade_submission`` in the default run
    (``test_a_hostile_program_is_contained`` and the tests of the second round); through
    each whole flow a few suffice, the rest run with ``pytest -m slow``."""
    return [
        pytest.param(name, marks=() if name in default else pytest.mark.slow)
        for name in sorted(REPRESENTATIVE)
    ]


@pytest.mark.usefixtures("namespace")
# (the hog, contained by default here only; the grader's environment, which the command line
# is given)
@pytest.mark.parametrize("name", flows({"cpu_hog", "read_environment"}))
def test_check_command_contains_a_hostile_program(world, fast_assignments, name):
    make_config, says = REPRESENTATIVE[name]
    path = world.attack(name, **make_config(world))
    world.watch()
    done = check(path, fast_assignments)
    assert done.returncode == 1, done.stderr
    shown = sum(c.points for c in answer_key("classic", hidden=False))  # what check runs
    assert f"score on the boards checked here: 0.00 / {shown:.2f}" in done.stdout.splitlines()
    assert f"FAIL  public board: 0.00 / {POINTS:.2f}" in done.stdout.splitlines()
    assert any(re.fullmatch(f"      (?:{says})", line) for line in done.stdout.splitlines())
    for secret in (*SECRETS.values(), world.marker, *PRINTED):
        assert secret not in done.stdout + done.stderr
    world.assert_untouched()


def test_check_at_process_level_lets_a_program_read_the_graders_environment(
    world, fast_assignments
):
    """Not protected at ``process``: the program runs as the grader's user, so it reads the
    environment the grader started with through /proc (here it crashes, so that the check
    quotes its standard error). At namespace, above, it cannot."""
    path = world.attack("read_environment", names=sorted(SECRETS), exit=1)
    done = check(path, fast_assignments, "--isolation", "process")
    assert done.returncode == 1
    found = report(done.stdout)
    assert set(found["keys"]) <= CLEAN_KEYS  # its own environment is clean ...
    assert found["leaked"] == SECRETS  # ... the grader's is not out of reach


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    return gradescope_zip("classic", out, timeout=TIMEOUT)


@pytest.mark.usefixtures("namespace")
# (what only Gradescope has: its results.json, and the project inside the unpacked zip)
@pytest.mark.parametrize("name", flows({"forge_results", "read_answers"}))
def test_gradescope_contains_a_hostile_program(world, archive, default_level, name):
    root = world.base / "gradescope"
    config = REPRESENTATIVE[name][0](world)
    if name == "forge_results":
        config["results_json"] = [str(root / "results" / "results.json")]
    if name == "read_answers":
        source = root / "source"
        config["files"] |= {
            "zip-solver": str(source / "project/reference_solutions/_solver.py"),
            "zip-config": str(source / "gradescope.json"),
        }
    world.watch()
    results = run_autograder(archive, root, program(name, **config), [{"email": "m@x.example"}])
    assert_valid(results)
    assert results["score"] == 0
    assert results["extra_data"] == {"isolation": default_level}
    shown = json.dumps(results)
    for secret in (*SECRETS.values(), world.token, world.marker, *PRINTED):
        assert secret not in shown
    assert os.listdir(root / "results") == ["results.json"]
    if name == "endless_loop":
        outputs = [t["output"] for t in results["tests"]]
        assert all(re.fullmatch(CPU_OR_CLOCK, output) for output in outputs[:2])
        assert all(output.startswith("not run: ") for output in outputs[2:])
    world.assert_untouched()


# --- batches, and what CI relies on ---------------------------------------------------------


def test_grade_command_runs_at_the_level_asked_for(world):
    """``grade --isolation`` is obeyed (it once was parsed and then ignored)."""
    out = world.base / "graded"
    folder = world.base / "batch"
    folder.mkdir()
    shutil.copy(world.reference, folder / "ada.py")
    command = ["grade", "classic", str(folder), "--out", str(out), "--timeout", "10"]
    done = subprocess.run(
        [sys.executable, "-m", "autograder", *command, "--isolation", "process"],
        capture_output=True, text=True, timeout=180,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert (line["isolation"], line["score"]) == ("process", 100.0)


@pytest.mark.usefixtures("user_level")
def test_a_batch_at_user_level_keeps_other_students_and_the_gradebook_out_of_reach(
    world, monkeypatch
):
    """``grade_folder`` hides (at ``user``: closes) its submissions and results folders, so
    a student graded after another reads neither the other's program nor their result."""
    from autograder._batch import grade_folder

    out = world.base / "graded"
    # The project's interpreter is under /root, closed to a lent uid: grade with the
    # system's (these programs need only the standard library).
    monkeypatch.setattr(sys, "executable", SYSTEM_PYTHON)
    targets = world.targets("read_submissions")
    (world.submissions / "zed.py").write_text(program("read_submissions", **targets))
    gradebook = {"jsonl": str(out / "results.jsonl"), "csv": str(out / "grades.csv")}
    (world.submissions / "zoe.py").write_text(
        program("read_gradebook", files=gradebook, folders={"out": str(out)})
    )
    # (grade_submission closes this checkout's answer material to others: tests/conftest.py
    # opens it again when the run ends)
    batch = grade_folder("classic", world.submissions, out, answers=ANSWERS, cases=PUBLIC,
                         limits=LIMITS, isolation="user")  # fmt: skip
    graded = {r.student: r for r in batch.results}
    assert [r.isolation for r in graded.values()] == ["user"] * 3  # ada, zed and zoe
    found = report(graded["zed"].tests[0].staff)
    assert found["sibling"] == found["submissions"] == "denied:PermissionError"
    assert found["marker-found"] == []
    found = report(graded["zoe"].tests[0].staff)
    assert found["jsonl"] == found["out"] == "denied:PermissionError"


def test_the_isolation_ci_expects_is_available():
    """CI sets ``AUTOGRADER_EXPECT_ISOLATION=namespace``: losing bubblewrap there must fail
    the build, not quietly grade at a weaker level."""
    expected = os.environ.get("AUTOGRADER_EXPECT_ISOLATION")
    if not expected:
        pytest.skip("AUTOGRADER_EXPECT_ISOLATION is not set")
    found = detect_isolation()
    assert found.level == expected, found.describe()
