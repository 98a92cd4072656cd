import contextlib
import dataclasses
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Deterministic examples in CI so a red run can be reproduced; locally the same profile
# keeps the suite's run time predictable.
settings.register_profile(
    "project",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "project"))

ROOT = Path(__file__).resolve().parent.parent


def _is_worker(config) -> bool:
    """Whether this process is one of pytest-xdist's workers, not the run's own process."""
    return hasattr(config, "workerinput")


# --- the type checker, beside the other tests -----------------------------------------------

# mypy takes seconds of CPU and needs nothing the other tests do: when a run in one process
# holds its test (tests/test_lint.py), it starts as soon as the tests are chosen, on a core
# the test process leaves idle while it waits for the programs it grades, and the test
# collects its verdict when its turn comes. Split between processes (pytest-xdist, the
# default), each collects every test and none knows which will run it: the test runs mypy
# itself, where it lands.
MYPY_TEST = "tests/test_lint.py::test_mypy_is_clean"
_MYPY = pytest.StashKey[subprocess.Popen]()


def mypy_process() -> subprocess.Popen:
    """``mypy --no-incremental`` on pyproject.toml's [tool.mypy] files, started."""
    return subprocess.Popen(
        [sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected what they leave out
def pytest_collection_modifyitems(config, items) -> None:
    if _is_worker(config) or config.option.collectonly:
        return
    if any(item.nodeid == MYPY_TEST for item in items):
        config.stash[_MYPY] = mypy_process()


def pytest_unconfigure(config) -> None:
    _give_back_modes(config)
    process = config.stash.get(_MYPY, None)
    if process is not None and process.poll() is None:  # (a run stopped before its test)
        process.kill()
        process.communicate()


@pytest.fixture
def mypy_verdict(request) -> subprocess.CompletedProcess:
    """What ``mypy --no-incremental`` said: the run started at collection, or one now."""
    process = request.config.stash.get(_MYPY, None) or mypy_process()
    out, err = process.communicate(timeout=600)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


# --- the checkout's modes ------------------------------------------------------------------

# Grading at the ``user`` level takes every permission from "others" on the answer material
# (this checkout's reference_solutions, assignments, examples, tests, benchmarks and .git:
# ``close_to_others``). The run gives them back once, when every test is done: a test that
# gave them back when it ended would open them in the middle of another process's grading
# at that level, whose self-test then finds them readable and refuses to grade.
_MODES = pytest.StashKey[dict]()


def _answer_material() -> tuple[Path, ...]:
    from autograder._sandbox import protected_paths
    from reference_solutions import ReferenceAnswers

    return protected_paths(*ReferenceAnswers().secret_paths())


def pytest_configure(config) -> None:
    if not _is_worker(config):
        config.stash[_MODES] = {p: stat.S_IMODE(p.stat().st_mode) for p in _answer_material()}


def _give_back_modes(config) -> None:
    for path, mode in config.stash.get(_MODES, {}).items():
        with contextlib.suppress(OSError):
            path.chmod(mode)


def _memory_file_system() -> Path | None:
    """``/dev/shm`` when it is a file system in memory with room to spare, else ``None``."""
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            kinds = {line.split()[1]: line.split()[2] for line in mounts if line.count(" ") >= 3}
        room = shutil.disk_usage("/dev/shm").free
    except OSError:
        return None
    if kinds.get("/dev/shm") != "tmpfs" or room < 1 << 30 or not os.access("/dev/shm", os.W_OK):
        return None
    return Path("/dev/shm")


@pytest.fixture
def copied_assignments(tmp_path, monkeypatch) -> Path:
    """A copy of the project's assignments folder, read in its place, for a test to change."""
    from autograder import assignments_dir

    copy = tmp_path / "assignments"
    shutil.copytree(assignments_dir(), copy)
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(copy))
    return copy


@pytest.fixture(scope="session")
def ram_folder(tmp_path_factory) -> Iterator:
    """``ram_folder(name)``: a fresh folder in memory (under ``/dev/shm``; from
    ``tmp_path_factory`` where there is none), kept for the session. For tests that make
    thousands of files and folders: on a virtual machine's disk each costs about a
    millisecond, several while anything else writes to the disk, and what those tests check
    does not depend on the file system."""
    memory = _memory_file_system()
    if memory is None:
        yield tmp_path_factory.mktemp
        return
    root = Path(tempfile.mkdtemp(prefix="pytest-ram-", dir=memory))
    try:
        yield lambda name: Path(tempfile.mkdtemp(prefix=f"{name}-", dir=root))
    finally:
        from autograder._files import remove_tree  # (copes with trees too deep to name)

        remove_tree(root)


@pytest.fixture
def ram_path(ram_folder, request) -> Iterator[Path]:
    """A fresh folder in memory for one test (``ram_folder``), removed after it."""
    folder = ram_folder(re.sub(r"[^\w.-]", "_", request.node.name)[:40])
    try:
        yield folder
    finally:
        from autograder._files import remove_tree

        remove_tree(folder)


@pytest.fixture(scope="session")
def conformance(tmp_path_factory):
    """``conformance(name)``: the conformance checks of one assignment, sharing their work
    (the examples, the reference program and the starter graded once on the full answer
    key) across the session."""
    from reference_solutions import Conformance

    cache: dict = {}

    def get(name: str) -> Conformance:
        if name not in cache:
            cache[name] = Conformance(name, tmp_path_factory.mktemp(name))
        return cache[name]

    return get


@pytest.fixture(scope="session")
def graded(conformance):
    """``graded(name)``: every example submission of an assignment, plus its reference and
    starter programs, graded once per session on the full answer key."""
    return lambda name: conformance(name).graded


@pytest.fixture(scope="session")
def demo():
    """``demo(name, every_board)``: ``autograder demo`` on one assignment's examples, once
    per session: its gradebook text, whether it went through, and what it said while
    grading. Without ``every_board`` on the boards ``check`` shows only, and with a CPU
    limit of one second (the honest examples need a twentieth of that, and CPU time does
    not stretch on a busy machine as the clock does): the gradebook and what is said are
    the same, and the endless example holds it up for two CPU seconds, not two whole time
    limits (the examples on every board: the ``conformance`` fixture, and CI's
    ``autograder demo``)."""
    import autograder._demo
    from reference_solutions import ReferenceAnswers, answer_key, examples_dir

    cache: dict = {}

    def get(name: str, every_board: bool = False) -> tuple[str, bool, str]:
        if (name, every_board) not in cache:
            said = io.StringIO()
            with pytest.MonkeyPatch.context() as patch:
                if not every_board:
                    grade_folder = autograder._demo.grade_folder
                    visible = answer_key(name, hidden=False)

                    def on_visible_boards(*args, limits, **kwargs):
                        limits = dataclasses.replace(limits, cpu=min(limits.cpu, 1.0))
                        return grade_folder(*args, cases=visible, limits=limits, **kwargs)

                    patch.setattr(autograder._demo, "grade_folder", on_visible_boards)
                text, ok = autograder._demo.demo_text(
                    ReferenceAnswers(), examples_dir(), names=[name], progress=said
                )
            cache[name, every_board] = (text, ok, said.getvalue())
        return cache[name, every_board]

    return get
