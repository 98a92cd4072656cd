"""One sandbox per submission with a warm interpreter (``autograder/_warm_sandbox.py``, the
server ``autograder/_warm.py``): each board still runs in a fresh process, folder and uid of
its own, under its own limits, with the same result as a sandbox of its own; whatever a
board does, the others are graded; and no two students share a server.

The programs report what they see on standard error (``REPORT {json}``), which the staff
lines keep. No test here depends on how fast anything runs."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import autograder._warm_sandbox
from autograder import SubmissionResult, detect_isolation, grade_submission, load_assignment
from autograder._assignments import Limits
from autograder._batch import grade_folder
from autograder._cgroups import Cgroups
from autograder._languages import language_for
from autograder._run import Run
from autograder._sandbox import Isolation, protected_paths
from autograder._submission import _run_once, sized_folders
from autograder._warm_sandbox import HEAVY, WarmSandbox, heavy_modules, warm_path, warm_sandbox
from reference_solutions import ReferenceAnswers, answer_key, reference_program
from tests.autograder.test_adversarial import (
    SYSTEM_PYTHON,
    assert_no_stray_processes,
    stray_processes,
)
from tests.grading import isolation_or_skip

ASSIGNMENT = load_assignment("classic")
CASES = answer_key("classic")  # the public board, three edge boards, three hidden ones
ANSWERS = ReferenceAnswers()
HIDDEN = tuple(ANSWERS.secret_paths())
CORRECT = reference_program("classic")
LIMITS = ASSIGNMENT.limits.with_timeout(10)
SHORT = ASSIGNMENT.limits.with_timeout(2)  # for the boards that never end
ROOT = Path(__file__).resolve().parents[2]
# Reports what the program sees; the staff lines of its result keep it.
REPORT = """
import json as _json, os as _os, sys as _sys
def report(**found):
    _sys.stderr.write("REPORT " + _json.dumps(found) + "\\n")
    _sys.stderr.flush()
_board = _json.load(open(_sys.argv[1]))
"""


def with_prelude(prelude: str, program: str = CORRECT) -> str:
    """``program`` with ``prelude`` run first (after ``REPORT``), the board in ``_board``."""
    return REPORT + prelude + "\n" + program


def reports(test) -> list[dict]:
    return [
        json.loads(line.strip().removeprefix("REPORT "))
        for line in test.staff
        if line.strip().startswith("REPORT ")
    ]


@pytest.fixture
def namespace(monkeypatch) -> Isolation:
    """The ``namespace`` level as root: where the warm path applies (turned on, whatever
    ``$AUTOGRADER_WARM`` says)."""
    monkeypatch.delenv("AUTOGRADER_WARM", raising=False)
    isolation_or_skip("namespace")
    isolation = detect_isolation("namespace")
    if not isolation.drop_user:
        pytest.skip("the warm path needs lent uids: the grader is not root")
    return isolation


@pytest.fixture(params=["namespace", "user", "process"])
def level(request, monkeypatch) -> Isolation:
    """Each level where the warm path applies (turned on, whatever ``$AUTOGRADER_WARM``
    says): ``namespace`` as root (a sandbox per submission, a lent uid per board), ``user``
    (a plain server, a lent uid per board) and ``process`` as root with control groups (a
    plain server, each board as root in a session, an IPC namespace and a control group of
    its own)."""
    return level_named(request.param, request, monkeypatch)


def level_named(name: str, request, monkeypatch) -> Isolation:
    """The level ``name`` where the warm path applies (see ``level``)."""
    if name == "process":
        return _process_level(monkeypatch)
    return request.getfixturevalue(name)


@pytest.fixture(params=["namespace", "user"])
def lent(request, monkeypatch) -> Isolation:
    """Each level where a board runs as a lent uid (see ``level``)."""
    return level_named(request.param, request, monkeypatch)


@pytest.fixture
def user(monkeypatch) -> Isolation:
    """The ``user`` level (the grader is root; a plain server, a lent uid per board). The
    project's interpreter lies under /root here, which a lent uid cannot enter, so the
    server and the cold runs use the system's (``SYSTEM_PYTHON``: the standard library, no
    numpy), as the adversarial tests' runs at this level do (the answer material, which
    grading closes to others at this level, is opened again when the run ends:
    ``tests/conftest.py``)."""
    monkeypatch.delenv("AUTOGRADER_WARM", raising=False)
    if os.geteuid() != 0 or not os.access(SYSTEM_PYTHON, os.X_OK):
        if os.environ.get("AUTOGRADER_EXPECT_ISOLATION") == "namespace":
            pytest.fail("the user level expected: root and /usr/bin/python3")
        pytest.skip("the user level needs root and /usr/bin/python3")
    monkeypatch.setattr(sys, "executable", SYSTEM_PYTHON)
    return detect_isolation("user")


@pytest.fixture(params=["namespace", "process"])
def with_numpy(request, monkeypatch) -> Isolation:
    """Each level where the warm path applies and a board's interpreter has numpy here (not
    ``user``'s: see ``user``)."""
    return level_named(request.param, request, monkeypatch)


def has_numpy(isolation: Isolation) -> bool:
    """Whether a board's interpreter has numpy (``user`` runs the system's here)."""
    return isolation.level != "user"


@pytest.fixture
def process(monkeypatch) -> Isolation:
    """The ``process`` level where the warm path applies (see ``level``)."""
    return _process_level(monkeypatch)


def _process_level(monkeypatch) -> Isolation:
    monkeypatch.delenv("AUTOGRADER_WARM", raising=False)
    if os.geteuid() != 0:
        pytest.skip("the warm path at process level is for a grader that is root")
    isolation = detect_isolation("process")
    if isolation.cgroups is None:
        if os.environ.get("AUTOGRADER_EXPECT_ISOLATION") == "namespace":
            pytest.fail(f"control groups expected as root: {isolation.no_cgroups}")
        pytest.skip(f"the warm path at process level needs control groups: {isolation.no_cgroups}")
    return isolation


class Spy:
    """Every warm sandbox opened while it watches: how it ended, and each board it ran."""

    def __init__(self) -> None:
        self.sandboxes: list[dict] = []
        self.warm_runs = 0


@pytest.fixture
def spy(monkeypatch) -> Iterator[Spy]:
    watched = Spy()
    close, run = WarmSandbox.close, WarmSandbox.run

    def closing(self: WarmSandbox) -> None:
        watched.sandboxes.append(
            {"broken": self.broken, "loaded": self.loaded, "server": self.server_pid}
        )
        close(self)

    def running(self: WarmSandbox, *args, **kwargs) -> Run | None:
        done = run(self, *args, **kwargs)
        watched.warm_runs += done is not None
        return done

    monkeypatch.setattr(WarmSandbox, "close", closing)
    monkeypatch.setattr(WarmSandbox, "run", running)
    yield watched


def grade(
    tmp_path: Path,
    source: str,
    isolation: Isolation | str,
    *,
    limits: Limits = LIMITS,
    workers: int = 1,
    name: str = "classic.py",
) -> SubmissionResult:
    path = tmp_path / name
    path.write_text(source)
    result = grade_submission(ASSIGNMENT, path, CASES, limits=limits, isolation=isolation,
                              hidden=HIDDEN, workers=workers)  # fmt: skip
    assert result.status == "graded", result.problems
    return result


def statuses(result: SubmissionResult) -> dict[str, str]:
    return {t.name: t.status for t in result.tests}


def all_warm(spy: Spy, boards: int = len(CASES)) -> None:
    """One sandbox served the submission, it never failed, and every board ran in it."""
    assert len(spy.sandboxes) == 1 and spy.sandboxes[0]["broken"] == "", spy.sandboxes
    assert spy.warm_runs == boards


def cold_and_warm(
    program: Path, isolation: Isolation, monkeypatch, limits: Limits = LIMITS
) -> tuple[tuple[Run, Path], tuple[Run, Path]]:
    """``program`` run on the public board at ``isolation``, first the usual way, then in a
    warm sandbox of its own (which must not break): each run, and the folder it named."""
    language = language_for(program)
    assert language is not None
    hidden = protected_paths(*HIDDEN)
    monkeypatch.setenv("AUTOGRADER_WARM", "off")
    cold = _run_once(program, program, CASES[0], limits, isolation, hidden)
    monkeypatch.delenv("AUTOGRADER_WARM")
    with warm_sandbox(language, isolation, hidden, program, program,
                      sized=not sized_folders()) as warm:  # fmt: skip
        assert warm is not None
        hot = _run_once(program, program, CASES[0], limits, isolation, hidden, warm)
        assert warm.broken == ""
    return cold, hot


# --- which modules, where -------------------------------------------------------------------


def test_heavy_modules_are_read_from_the_source_text():
    source = """
import os, sys
import numpy as np, scipy.sparse as sp
from scipy.sparse import csr_matrix, linalg as la
from numpy import (zeros,
def solve():
    import numpy.linalg
    from numpy.random import default_rng
# import scipy.optimize  (a comment, not an import)
import numpyish
from . import numpy
x = "import scipy.signal"
"""
    assert heavy_modules([source]) == [
        "numpy",
        "scipy.sparse",
        "scipy.sparse.linalg",
        "numpy.linalg",
        "numpy.random",
    ]
    assert heavy_modules(["import os\nprint('no numpy here')\n"]) == []
    # Only the public subpackages, by name: never a library's tests, conftest (which would
    # import pytest), or private modules, which a root server has no business importing.
    named = "import numpy.conftest, numpy.f2py, scipy._lib, numpy.linalg.tests, scipy.stats\n"
    assert heavy_modules([named]) == ["scipy.stats"]
    # (each a module that exists, and none private)
    assert all(importlib.util.find_spec(name) is not None for name in HEAVY)
    assert not [name for name in HEAVY if any(p.startswith("_") for p in name.split("."))]


def test_the_warm_path_is_for_python_as_root(monkeypatch, tmp_path):
    monkeypatch.delenv("AUTOGRADER_WARM", raising=False)
    python = language_for(Path("a.py"))
    notebook = language_for(Path("a.ipynb"))
    java = language_for(Path("A.java"))
    assert python is not None and notebook is not None and java is not None
    root = Isolation("namespace", bwrap="/usr/bin/bwrap", drop_user=True)
    assert warm_path(python, root)
    assert not warm_path(notebook, root) and not warm_path(java, root)
    assert not warm_path(python, Isolation("namespace", bwrap="/usr/bin/bwrap"))  # not root
    # At ``user`` (root: it lends uids), with or without control groups; at ``process`` as
    # root, where every board can have a control group of its own.
    lending = Isolation("user", drop_user=True)
    grouped = Isolation("process", cgroups=Cgroups(1, (("memory", tmp_path),)))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert warm_path(python, lending) and not warm_path(notebook, lending)
    assert warm_path(python, grouped) and not warm_path(java, grouped)
    assert not warm_path(python, Isolation("process"))  # no control groups
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert not warm_path(python, grouped) and not warm_path(python, lending)  # not root
    monkeypatch.setenv("AUTOGRADER_WARM", "off")
    assert not warm_path(python, root)


def test_the_process_level_without_control_groups_keeps_a_run_per_board(tmp_path, monkeypatch, spy):
    monkeypatch.delenv("AUTOGRADER_WARM", raising=False)
    isolation = dataclasses.replace(detect_isolation("process"), cgroups=None)
    result = grade(tmp_path, CORRECT, isolation)
    assert result.score == result.max_score
    assert spy.sandboxes == [] and spy.warm_runs == 0


# --- each board on its own --------------------------------------------------------------------


def test_a_numpy_program_gets_full_marks_with_numpy_imported_ahead(tmp_path, with_numpy, spy):
    isolation = with_numpy
    source = with_prelude("import numpy\nreport(numpy=numpy.__name__)")
    result = grade(tmp_path, source, isolation)
    assert (result.score, result.isolation) == (result.max_score, isolation.level)
    all_warm(spy)
    assert spy.sandboxes[0]["loaded"] == ["numpy"]


def test_a_program_without_heavy_imports_runs_warm_too(tmp_path, level, spy):
    result = grade(tmp_path, CORRECT, level)
    assert result.score == result.max_score
    all_warm(spy)
    assert spy.sandboxes[0]["loaded"] == []


def test_every_board_gets_a_fresh_folder_uid_and_namespaces(tmp_path, lent, spy):
    """Where boards run as lent uids, each finds its folder holding only the board and its
    copy of the submission, and none of what the board before left in the places it may
    write to (the sandbox's /tmp and /dev/shm; at ``user`` the machine's shared places) or
    as a System V object; it runs as a lent uid without capabilities, in user and IPC
    namespaces that are not the grader's, cannot read the answer material, and lists no
    other board's folder. Its parent is its server: the sandbox's process 1 at
    ``namespace``, a plain process at ``user``, where it leads a session of its own, as a
    run there does."""
    token = "warm-left-" + os.urandom(4).hex()
    prelude = f"""
import ctypes, glob
libc = ctypes.CDLL(None, use_errno=True)
mine = _os.path.dirname(_os.getcwd())
above = _os.path.dirname(mine)
places = [p for p in ("/tmp", "/var/tmp", "/dev/shm") if _os.access(p, _os.W_OK)]
def readable(path):
    try:
        _os.listdir(path) if _os.path.isdir(path) else open(path, "rb").read(1)
        return True
    except OSError:
        return False
status = open("/proc/self/status").read()
found = {{
    "folder": sorted(_os.listdir(mine)), "copy": sorted(_os.listdir(".")),
    "left": sorted(x for p in places + ["."] for x in glob.glob(p + "/{token}-*")),
    "shm": libc.shmget(0x5EC0DE, 0, 0) >= 0,
    "boards": sorted(_os.listdir(above)) if _os.access(above, _os.R_OK) else "closed",
    "uid": _os.getuid(), "parent": _os.getppid(), "pidns": _os.readlink("/proc/self/ns/pid"),
    "leader": _os.getsid(0) == _os.getpgrp() == _os.getpid(),
    "ipc": _os.readlink("/proc/self/ns/ipc"), "userns": _os.readlink("/proc/self/ns/user"),
    "caps": [line.split()[1] for line in status.splitlines()
             if line.startswith(("CapEff", "CapPrm"))],
    "secrets": [path for path in {[str(p) for p in HIDDEN]!r} if readable(path)],
    "cgroups": sorted(open("/proc/self/cgroup").read().split()),
}}
for place in places + ["."]:
    open(_os.path.join(place, "{token}-%d" % _os.getpid()), "w").write("x")
assert libc.shmget(0x5EC0DE, 1 << 20, 0o1666) >= 0
report(**found)
"""
    seen = boards_seen(tmp_path, prelude, lent, spy)
    own = {name: os.readlink(f"/proc/self/ns/{name}") for name in ("ipc", "user")}
    for found in seen:
        assert found["left"] == [] and not found["shm"]  # what the board before left: gone
        assert found["boards"] == "closed" and found["secrets"] == []
        assert found["uid"] >= 61000 and found["caps"] == ["0000000000000000"] * 2
        assert found["ipc"] != own["ipc"] and found["userns"] != own["user"]
    if lent.level == "namespace":
        assert {found["parent"] for found in seen} == {1}
        assert len({found["pidns"] for found in seen}) == 1  # (one sandbox)
    else:
        assert {found["parent"] for found in seen} == {spy.sandboxes[0]["server"]}
        assert all(found["leader"] for found in seen)
        assert not [p for place in ("/tmp", "/var/tmp") for p in Path(place).glob(token + "-*")]


def boards_seen(tmp_path: Path, prelude: str, isolation: Isolation, spy: Spy) -> list[dict]:
    """What each board of a correct program run after ``prelude`` reported, all boards
    having run warm in one server and passed; each found its folder holding only the board
    and its copy of the submission, and was in a control group of its own."""
    result = grade(tmp_path, with_prelude(prelude), isolation)
    assert result.score == result.max_score
    all_warm(spy)
    seen = [reports(test)[0] for test in result.tests]
    for found in seen:
        assert found["folder"] == ["board.json", "submission"]
        assert found["copy"] == ["classic.py"]
    if isolation.cgroups is not None:
        names = [_run_groups(found["cgroups"], isolation) for found in seen]
        assert all(len(n) == 1 and min(n).startswith("run-") for n in names), names
        assert len({min(n) for n in names}) == len(CASES)
    return seen


def _run_groups(lines: list[str], isolation: Isolation) -> set[str]:
    """The names of the groups a process is in, in the hierarchies the grader uses."""
    assert isolation.cgroups is not None
    ours = set(isolation.cgroups.controllers)
    names = set()
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if set(controllers.split(",")) & ours or (
            isolation.cgroups.version == 2 and not controllers
        ):
            names.add(path.rsplit("/", 1)[-1])
    return names


def test_at_process_every_board_gets_a_fresh_folder_session_and_namespace(tmp_path, process, spy):
    """At ``process`` the boards run as root beside a plain server: each still finds its
    folder holding only the board and its copy of the submission (nothing the board before
    left there), is its own session's leader, is a child of the submission's server, has
    an IPC namespace that is not the grader's (a System V object the board before made is
    not there), and is in a control group of its own."""
    prelude = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
mine = _os.path.dirname(_os.getcwd())
found = {
    "folder": sorted(_os.listdir(mine)), "copy": sorted(_os.listdir(".")),
    "shm": libc.shmget(0x5EC0DE, 0, 0) >= 0, "ipc": _os.readlink("/proc/self/ns/ipc"),
    "leader": _os.getsid(0) == _os.getpgrp() == _os.getpid(), "parent": _os.getppid(),
    "uid": _os.getuid(), "cgroups": sorted(open("/proc/self/cgroup").read().split()),
}
open(_os.path.join(mine, "left-%d" % _os.getpid()), "w").write("x")
assert libc.shmget(0x5EC0DE, 1 << 20, 0o1666) >= 0
report(**found)
"""
    seen = boards_seen(tmp_path, prelude, process, spy)
    own_ipc = os.readlink("/proc/self/ns/ipc")
    for found in seen:
        assert not found["shm"] and found["ipc"] != own_ipc
        assert found["leader"] and found["uid"] == 0
        assert found["parent"] == spy.sandboxes[0]["server"]


def test_a_program_the_server_cannot_run_as_python_would_runs_the_usual_way(
    tmp_path, user, spy, monkeypatch
):
    """Before 3.11.4, ``python PROGRAM`` reads a line holding a null byte as a C string
    (gh-96670), which the server cannot do: such a program runs the usual way on every
    board, beside a server that stays usable. From 3.11.4 on both refuse it as a syntax
    error, and it runs warm. Either way it is graded as a run of its own grades it. (``user``
    runs the system's interpreter here, whichever of the two it is.)"""
    source = "# a null byte: \0 and what follows it on this line\n" + CORRECT
    check = "import sys; print(sys.version_info >= (3, 11, 4))"
    new = subprocess.run([SYSTEM_PYTHON, "-c", check], capture_output=True, check=True)
    result = grade(tmp_path, source, user)
    if new.stdout.strip() == b"True":
        all_warm(spy)
    else:
        assert spy.warm_runs == 0 and spy.sandboxes[0]["broken"] == ""
    monkeypatch.setenv("AUTOGRADER_WARM", "off")
    cold = grade(tmp_path, source, user)
    assert [(t.status, t.feedback) for t in result.tests] == [
        (t.status, t.feedback) for t in cold.tests
    ]


def test_at_process_a_program_that_kills_its_server_is_still_graded(tmp_path, process, spy):
    """At ``process`` a board runs as root and can reach its server: one that kills it
    only loses its own submission the warm path (the board runs again the usual way, and
    so do the rest); every board is graded and passes."""
    # (only a warm board's parent: run the usual way, its parent is the grader, which a
    # program at process level can kill too, and this test's process would go with it)
    prelude = """
import signal as _signal
if b"autograder/_warm.py" in open("/proc/%d/cmdline" % _os.getppid(), "rb").read():
    _os.kill(_os.getppid(), _signal.SIGKILL)
"""
    result = grade(tmp_path, with_prelude(prelude), process)
    assert result.score == result.max_score
    assert spy.warm_runs == 0
    assert spy.sandboxes[0]["broken"] == "the server stopped in the middle of a board"


@pytest.mark.slow  # (the default run stops a warm board at its CPU limit: the test after this)
def test_a_board_that_never_ends_times_out_and_the_next_boards_pass(tmp_path, level, spy):
    source = with_prelude("if not _board['jumps']:\n    while True:\n        pass")
    result = grade(tmp_path, source, level, limits=SHORT)
    assert statuses(result) == {
        c.name: "timeout" if c.name == "no-jumps" else "passed" for c in CASES
    }
    all_warm(spy)


def test_per_board_limits_still_apply(tmp_path, level, spy):
    """Memory and output are each stopped on the board that overruns them; the other
    boards pass."""
    prelude = """
if not _board['jumps']:
    block = bytearray(4 * 1024 ** 3)  # past the address-space limit
if _board['jumps'] == [[10, 100], [50, 25]]:
    while True:
        _sys.stdout.write("x" * 65536)
"""
    limits = Limits(timeout=30, cpu=10, memory_mb=1024, output_kb=64)
    result = grade(tmp_path, with_prelude(prelude), level, limits=limits)
    expected = {c.name: "passed" for c in CASES} | {
        "no-jumps": "crashed",
        "ladder-to-goal": "output-limit",
    }
    assert statuses(result) == expected
    tests = {t.name: t for t in result.tests}
    assert "MemoryError" in " ".join(tests["no-jumps"].staff)
    assert tests["ladder-to-goal"].feedback[0] == "printed more than 64 KB; stopped"
    all_warm(spy)


# (a second of CPU time at least, each: the other levels' with ``pytest -m slow``)
@pytest.mark.parametrize(
    "name",
    ["namespace", pytest.param("user", marks=pytest.mark.slow),
     pytest.param("process", marks=pytest.mark.slow)],
)  # fmt: skip
def test_a_board_that_ignores_sigxcpu_is_stopped_at_its_cpu_time(
    tmp_path, name, request, monkeypatch, spy
):
    prelude = """
if _board['jumps'] == [[99, 1], [20, 50]]:
    import signal as _signal
    _signal.signal(_signal.SIGXCPU, _signal.SIG_IGN)
    while True:
        pass
"""
    limits = Limits(timeout=30, cpu=1, memory_mb=1024, output_kb=64)
    result = grade(tmp_path, with_prelude(prelude), level_named(name, request, monkeypatch),
                   limits=limits)  # fmt: skip
    assert statuses(result) == {c.name: "passed" for c in CASES} | {"chute-before-goal": "timeout"}
    (stopped,) = [t for t in result.tests if t.name == "chute-before-goal"]
    assert stopped.feedback[0] == "used up its CPU time limit of 1 s for one board"
    all_warm(spy)


def test_a_program_that_attacks_its_server_only_hurts_itself(tmp_path, lent, spy):
    """Every board signals its parent (the server), process 1, its process group and
    everyone it may (``kill(-1)``), and reads its server's environment, then prints its
    answer: the server is out of its reach, so every board is graded by the same server and
    passes."""
    prelude = """
import signal as _signal
def attempt(action):
    try:
        action()
        return "ok"
    except OSError as err:
        return "denied:" + type(err).__name__
tried = {
    "parent": attempt(lambda: _os.kill(_os.getppid(), _signal.SIGKILL)),
    "init": attempt(lambda: _os.kill(1, _signal.SIGKILL)),
    "group": attempt(lambda: _os.killpg(_os.getpgid(_os.getppid()), _signal.SIGKILL)),
    "trace": attempt(lambda: open("/proc/1/environ", "rb").read()),
    "server": attempt(lambda: open("/proc/%d/environ" % _os.getppid(), "rb").read()),
}
report(**tried)
try:
    _os.kill(-1, _signal.SIGKILL)  # everyone it may signal: none but its own
except OSError:
    pass
"""
    # (two at a time: a board's ``kill(-1)`` must miss the other board running beside it)
    result = grade(tmp_path, with_prelude(prelude), lent, workers=2)
    assert result.score == result.max_score
    all_warm(spy)
    for test in result.tests:
        (tried,) = reports(test)
        assert tried["parent"] == tried["init"] == "denied:PermissionError", tried
        assert tried["trace"] == tried["server"] == "denied:PermissionError", tried


def test_when_the_server_dies_the_remaining_boards_run_the_usual_way(
    tmp_path, level, monkeypatch, spy
):
    """Killed from outside (no program can: see above) in the middle of a submission, the
    server is given up: the board it would have run and those after run in a sandbox of
    their own, and all pass."""
    run = WarmSandbox.run  # (the spy's)
    count = {"boards": 0}

    def kill_third(self: WarmSandbox, *args, **kwargs) -> Run | None:
        count["boards"] += 1
        if count["boards"] == 3:
            assert self._await_ready() and self.server_pid is not None
            os.kill(self.server_pid, signal.SIGKILL)
        return run(self, *args, **kwargs)

    monkeypatch.setattr(WarmSandbox, "run", kill_third)
    result = grade(tmp_path, CORRECT, level)
    assert result.score == result.max_score
    assert spy.warm_runs == 2  # the first two; the rest the usual way
    assert spy.sandboxes[0]["broken"]


def test_a_server_that_cannot_start_leaves_every_board_to_the_usual_way(
    tmp_path, level, monkeypatch, spy
):
    if level.level == "namespace":
        monkeypatch.setattr(autograder._warm_sandbox, "WARM_INSIDE", "/run/grader/missing.py")
    else:
        monkeypatch.setattr(autograder._warm_sandbox, "WARM", tmp_path / "missing.py")
    result = grade(tmp_path, CORRECT, level)
    assert result.score == result.max_score
    assert spy.warm_runs == 0
    assert spy.sandboxes[0]["broken"].startswith("the server did not start")


def test_a_background_child_that_outlives_its_board_is_killed(tmp_path, level, spy):
    """Each board looks for processes other than itself and the server (the last board's
    leftovers), then leaves a grandchild in a session of its own, its pipes closed, with a
    token in its command line: none is ever found by the next board, and none is left."""
    token = "warm-leftover-" + os.urandom(4).hex()
    prelude = f"""
others = [p for p in _os.listdir("/proc") if p.isdigit() and int(p) not in (1, _os.getpid())]
report(others=others)
if _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        devnull = _os.open(_os.devnull, _os.O_RDWR)
        for fd in (0, 1, 2):
            _os.dup2(devnull, fd)
        _os.execv(_sys.executable, [_sys.executable, "-c", "import time; time.sleep(3600)", {token!r}])
    _os._exit(0)
_os.wait()
"""  # noqa: E501
    result = grade(tmp_path, with_prelude(prelude), level)
    assert result.score == result.max_score
    all_warm(spy)
    if level.level == "namespace":  # (at process every board sees the machine's processes)
        assert [reports(test)[0]["others"] for test in result.tests] == [[]] * len(CASES)
    assert_no_stray_processes(set(), token)


def test_a_child_left_in_its_session_is_killed_as_its_program_ends(
    tmp_path, level, monkeypatch, spy
):
    """A child in the program's own session, holding its standard output open, is killed
    as the program exits (as a run's process group is), not left to run (and print) while
    the grader drains the pipes: once a board has been followed, it dies without anything
    else killing it (its control group is removed only after this)."""
    token = "warm-session-" + os.urandom(4).hex()
    prelude = f"""
if _os.fork() == 0:
    _os.execv(_sys.executable, [_sys.executable, "-c", "import time; time.sleep(3600)", {token!r}])
"""
    follow = autograder._warm_sandbox.follow
    alive_after: list[set[str]] = []

    def followed(*args, **kwargs) -> Run:
        run = follow(*args, **kwargs)
        # (killed, it may take a moment to go on a busy machine; left alone, it sleeps on)
        deadline = time.monotonic() + 10
        while (alive := stray_processes(token)) and time.monotonic() < deadline:
            time.sleep(0.01)
        alive_after.append(alive)
        return run

    monkeypatch.setattr(autograder._warm_sandbox, "follow", followed)
    result = grade(tmp_path, with_prelude(prelude), level)
    assert result.score == result.max_score
    all_warm(spy)
    assert alive_after == [set()] * len(CASES)


def test_at_process_a_board_may_start_as_many_processes_as_a_run_of_its_own(
    tmp_path, process, monkeypatch
):
    """Root has no process limit of its own: the control group's cap is what stops a
    fork, and a warm board's is the same as a run's of its own there."""
    program = tmp_path / "p.py"
    program.write_text(
        "import os\nread, write = os.pipe()\ncount = 0\nwhile True:\n    try:\n"
        "        pid = os.fork()\n    except OSError:\n        break\n    if pid == 0:\n"
        "        os.close(write)\n        os.read(read, 1)\n        os._exit(0)\n"
        "    count += 1\nprint(count)\n"
    )
    limits = dataclasses.replace(LIMITS, processes=12)
    (cold, _), (hot, _) = cold_and_warm(program, process, monkeypatch, limits)
    assert cold.status == hot.status == "exited"
    assert int(hot.stdout) == int(cold.stdout) >= limits.processes


def test_a_zip_application_named_like_a_program_runs_as_python_runs_it(
    tmp_path, level, monkeypatch
):
    """``python PROGRAM`` runs a zip archive as an application (its ``__main__.py``),
    whatever its name: the server leaves such a board to the usual way, and stays."""
    program = tmp_path / "p.py"
    with zipfile.ZipFile(program, "w") as archive:
        archive.writestr("__main__.py", "import sys\nprint('zipped', len(sys.argv))\n")
    (cold, _), (hot, _) = cold_and_warm(program, level, monkeypatch)
    assert cold.stdout == hot.stdout == b"zipped 2\n"


@pytest.mark.parametrize("name", ["process", "streams"])
def test_at_user_without_control_groups_a_board_ends_as_a_run_of_its_own(
    tmp_path, user, monkeypatch, name
):
    """Without control groups a run at ``user`` is the launcher's alone (no shell joins
    groups in front of it, so no ``PWD``): a warm board gets the same environment, limits
    and streams."""
    program = tmp_path / "p.py"
    program.write_text(SAME_END[name])
    isolation = dataclasses.replace(user, cgroups=None)
    (cold, _), (hot, _) = cold_and_warm(program, isolation, monkeypatch)
    assert (hot.status, hot.returncode) == (cold.status, cold.returncode) == ("exited", 0)
    assert [x for x in hot.stdout.splitlines() if not x.startswith(b"ids:")] == [
        x for x in cold.stdout.splitlines() if not x.startswith(b"ids:")
    ]


def test_a_uid_whose_killed_processes_are_not_reaped_is_not_the_next_boards(
    tmp_path, user, monkeypatch, spy
):
    """The kernel counts a uid's unreaped processes in its process limit: a uid left with
    some after its board is passed over for the next board (as ``lent_uid`` passes it
    over), and handed back with the submission's others. Here the first board's uid is
    made to look as if a zombie of it lingered."""
    real = autograder._warm_sandbox.processes_of
    first: list[int] = []

    def lingering(uid: int, *, zombies: bool = False) -> list[int]:
        if not first:
            first.append(uid)
        return real(uid, zombies=zombies) + ([2**22 + 1] if zombies and uid == first[0] else [])

    monkeypatch.setattr(autograder._warm_sandbox, "processes_of", lingering)
    result = grade(tmp_path, with_prelude("report(uid=_os.getuid())"), user)
    assert result.score == result.max_score
    all_warm(spy)
    uids = [reports(test)[0]["uid"] for test in result.tests]
    assert uids[0] == first[0] and first[0] not in uids[1:]
    assert len(set(uids[1:])) == 1  # (one board at a time: the next uid serves the rest)


def test_boards_run_side_by_side_in_one_sandbox(tmp_path, level, spy):
    heavy = "import numpy\n" if has_numpy(level) else ""
    source = with_prelude(heavy + "report(pidns=_os.readlink('/proc/self/ns/pid'),"
                          " parent=_os.getppid())")  # fmt: skip
    result = grade(tmp_path, source, level, workers=2)
    assert result.score == result.max_score
    all_warm(spy)
    assert len({reports(test)[0]["pidns"] for test in result.tests}) == 1
    parents = {reports(test)[0]["parent"] for test in result.tests}
    assert parents == ({1} if level.level == "namespace" else {spy.sandboxes[0]["server"]})


def test_two_students_never_share_a_server(tmp_path, level, spy):
    """A batch graded two at a time: each student's boards share one server (at
    ``namespace``, one sandbox: one pid namespace), and no two students do."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    # A namespace's inode number can be handed out again once it is gone (with two workers,
    # the third student's sandbox may start after the first's ends), so each namespace is
    # named by its number and when its first process started (field 22 of /proc/1/stat).
    source = with_prelude(
        "report(pidns=_os.readlink('/proc/self/ns/pid'),"
        " born=open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19], uid=_os.getuid(),"
        " parent=_os.getppid())"
    )
    for student in ("ada", "bob", "cy"):
        (folder / f"{student}.py").write_text(source)
    batch = grade_folder("classic", folder, tmp_path / "out", answers=ANSWERS, cases=CASES,
                         limits=LIMITS, isolation=level, workers=2)  # fmt: skip
    # (at process, the boards' parent: the server, one of the three the spy saw)
    servers = {s["server"] for s in spy.sandboxes}
    namespaces = {}
    for result in batch.results:
        assert result.score == result.max_score, result.student
        seen = {
            (reports(test)[0]["pidns"], reports(test)[0]["born"])
            if level.level == "namespace"
            else reports(test)[0]["parent"]
            for test in result.tests
        }
        assert len(seen) == 1, result.student
        namespaces[result.student] = seen.pop()
    assert len(set(namespaces.values())) == 3
    assert len(spy.sandboxes) == 3 and len(servers) == 3
    assert level.level == "namespace" or set(namespaces.values()) == servers
    assert all(s["broken"] == "" for s in spy.sandboxes)


# --- the same result as a sandbox of its own --------------------------------------------------

# Programs whose every observable end (status, exit status, output, standard error with the
# run's folder taken out) must be the same whether a board runs warm or in a fresh sandbox.
SAME_END = {
    "exit-3": "import sys\nprint('a')\nsys.exit(3)\n",
    "exit-message": "import sys\nsys.exit('goodbye')\n",
    "exit-256": "raise SystemExit(256)\n",
    "os-exit": "import os\nprint('x', flush=True)\nos._exit(4)\n",
    "syntax-error": "def broken(:\n    pass\n",
    "null-byte": "x = 1\n\0\n",
    "traceback": "import numpy\ndef look(d):\n    return d['key']\nlook({})\n",
    "chained": (
        "try:\n    1 / 0\nexcept ZeroDivisionError as err:\n    raise ValueError('no') from err\n"
    ),
    "keyboard-interrupt": "raise KeyboardInterrupt\n",
    "segfault": "import ctypes\nctypes.string_at(0)\n",
    "recursion": "def f(n):\n    return f(n + 1)\nf(0)\n",
    "recursion-depth": (
        "import sys\ndef f(n):\n    try:\n        return f(n + 1)\n    except RecursionError:\n"
        "        return n\nprint(sys.getrecursionlimit(), f(0))\n"
    ),
    "threads-and-atexit": (
        "import atexit, threading, time\natexit.register(lambda: print('atexit'))\n"
        "def late():\n    time.sleep(0.2)\n    print('thread')\n"
        "threading.Thread(target=late).start()\nprint('main')\n"
    ),
    "closed-stdout": "import os, sys\nprint('x')\nsys.stdout.flush()\nos.close(1)\nprint('y')\n",
    "stdin": "print(repr(input()))\n",
    "streams": (
        "import sys\nfor s in (sys.stdin, sys.stdout, sys.stderr):\n"
        "    print(s.name, s.encoding, s.errors, s.line_buffering, s.mode)\n"
    ),
    "process": (
        "import os, resource, signal, sys\n"
        "print(os.getsid(0) == os.getpgrp() == os.getpid(), oct(os.umask(0)), os.getgroups())\n"
        # (raw numbers: the same in a fresh pid namespace, at namespace; not at process)
        "print('ids:', os.getppid(), os.getsid(0), os.getpgrp())\n"
        "print(sorted(os.listdir('/proc/self/fd')), sorted(os.environ))\n"
        "print([resource.getrlimit(r) for r in (resource.RLIMIT_CPU, resource.RLIMIT_AS,"
        " resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE, resource.RLIMIT_CORE)])\n"
        "print([signal.getsignal(s) for s in (signal.SIGINT, signal.SIGPIPE, signal.SIGCHLD)])\n"
        "print(sys.argv[1:] != [], sys.path[0] == os.getcwd(), __name__, __spec__,"
        " __file__ == sys.argv[0])\n"
        "print([line for line in open('/proc/self/status').read().splitlines()"
        " if line.startswith(('Cap', 'NoNewPrivs', 'Seccomp'))])\n"
    ),
}


@pytest.mark.parametrize("name", sorted(SAME_END))
def test_a_board_ends_as_in_a_sandbox_of_its_own(tmp_path, level, monkeypatch, name):
    program = tmp_path / "p.py"
    program.write_text(SAME_END[name])

    def seen(run: Run, home: Path) -> tuple:
        stderr = run.stderr_tail.decode("utf-8", "replace").replace(f"{home}/", "")
        return (run.status, run.returncode, run.stdout, stderr)

    cold_run, warm_run = cold_and_warm(program, level, monkeypatch)
    cold, hot = seen(*cold_run), seen(*warm_run)
    # Line by line, so that a difference is shown whole rather than cut short.
    assert hot[:2] == cold[:2]

    def lines(stdout: bytes) -> list[str]:
        found = stdout.decode("utf-8", "replace").splitlines()
        return [x for x in found if level.level == "namespace" or not x.startswith("ids:")]

    assert lines(hot[2]) == lines(cold[2])
    assert hot[3].splitlines() == cold[3].splitlines()
    assert "warm" not in hot[3] and "/run/grader" not in hot[3]


def test_a_crash_is_quoted_naming_the_students_file(tmp_path, level, spy, monkeypatch):
    """The feedback quotes the traceback as a sandbox of its own gives it: from the
    program's own first frame, naming its file only."""
    source = "import json, sys\nboard = json.load(open(sys.argv[1]))\nprint(board['nope'])\n"
    result = grade(tmp_path, source, level)
    all_warm(spy)
    public = result.tests[0]
    assert public.status == "crashed"
    assert public.feedback[0] == "exited with status 1 (KeyError)"
    quoted = public.feedback[public.feedback.index("standard error (last lines):") + 1 :]
    assert quoted[:3] == (
        "Traceback (most recent call last):",
        '  File "classic.py", line 3, in <module>',
        "    print(board['nope'])",
    )
    assert quoted[-1] == "KeyError: 'nope'"
    monkeypatch.setenv("AUTOGRADER_WARM", "off")
    cold = grade(tmp_path, source, level)
    assert [(t.status, t.feedback, t.staff) for t in cold.tests] == [
        (t.status, t.feedback, t.staff) for t in result.tests
    ]


def test_nothing_of_the_sandbox_is_left_after_the_submission(tmp_path, level, spy):
    before = set(Path("/tmp").glob(f"autograder-run-{os.getpid()}-*"))
    scratch = Path("/tmp", "warm-scratch-" + os.urandom(4).hex())
    prelude = f"open({str(scratch)!r} + '-%d' % _os.getpid(), 'w').write('x')"
    result = grade(tmp_path, with_prelude(prelude), level)
    assert result.score == result.max_score
    all_warm(spy)
    assert not set(Path("/tmp").glob(f"autograder-run-{os.getpid()}-*")) - before
    # (at ``namespace`` in the sandbox's own /tmp; at ``user`` removed with the uid; at
    # ``process`` a program writes as root where it likes, and it stays)
    left = list(Path("/tmp").glob(scratch.name + "-*"))
    for path in left:
        path.unlink()
    assert len(left) == (len(CASES) if level.level == "process" else 0)
    server = spy.sandboxes[0]["server"]
    try:
        command = Path(f"/proc/{server}/cmdline").read_bytes()
    except OSError:
        command = b""
    assert b"warm.py" not in command


def test_a_grader_started_in_the_background_gives_boards_the_usual_signals(
    tmp_path, level, monkeypatch
):
    """A shell starts a background job (``grade ... &``, a CI script) with SIGINT and SIGQUIT
    ignored, and an ignored signal stays ignored across exec: a board still starts with them
    at their default (Python's KeyboardInterrupt handler on SIGINT), warm or cold."""
    program = tmp_path / "p.py"
    program.write_text(
        "import signal\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler,"
        " signal.getsignal(signal.SIGQUIT) == signal.SIG_DFL)\n"
    )
    saved = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGQUIT)}
    try:
        (cold, _), (hot, _) = cold_and_warm(program, level, monkeypatch)
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
    assert cold.stdout.split() == hot.stdout.split() == [b"True", b"True"]
