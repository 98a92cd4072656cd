"""The second round of hostile submissions: CPU starvation of a neighbour, memory the
address-space limit does not count, state a lent uid carries from run to run, a run's
folder without bounds, answers reached through a second path, and honest programs the
sandbox once graded wrong. Each attack runs at every isolation level where it applies, with
and without control groups (``_cgroups``), and honest students graded beside it keep 100%.

The default run grades each attack at ``namespace``, the strongest level (and at the other
levels too where that takes a fraction of a second); the rest of the matrix of levels and
the whole corpus beside honest students are marked ``slow`` (``pytest -m slow``; CI runs
both). So are the tests of CPU starvation and
of memory files without control groups: what they measure is how the machine shares its CPU
(an honest neighbour needs its share within a time limit), which other work on the machine
changes; the hog itself is contained in the default run (test_adversarial's ``check``), and
so is the rerun that saves a starved neighbour (without a hog, below).

The corpus programs are in ``tests/adversarial/``; the helpers (a course ``World``, reports
on standard error, stray processes) are ``test_adversarial``'s.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import autograder._isolation
import autograder._run
import autograder._run_folder
import autograder._sandbox
import autograder._submission
from autograder import SubmissionResult, detect_isolation, grade_submission
from autograder._assignments import Limits
from autograder._batch import grade_folder
from autograder._cgroups import detect_cgroups
from autograder._errors import UsageError
from autograder._run import FILE_MB, OPEN_FILES
from autograder._run_folder import FOLDER_FILES, FOLDER_MB
from autograder._sandbox import (
    FIRST_UID,
    TMP_MB,
    UIDS,
    Isolation,
    sandbox_aliases,
)
from autograder._submission import MAX_SUBMISSION_FILES, MAX_SUBMISSION_MB
from reference_solutions import answer_key, reference_program
from tests.autograder.test_adversarial import (
    ANSWER_MATERIAL,
    ANSWERS,
    ASSIGNMENT,
    CORPUS,
    POINTS,
    PUBLIC,
    SYSTEM_PYTHON,
    World,
    assert_no_stray_processes,
    denied,
    holding,
    litter,
    program,
    remove_litter,
    report,
    takes_config,
)
from tests.autograder.test_run import alive

# The corpus programs this module grades (test_adversarial checks that every one is used).
HARDENING_CORPUS = {
    "close_pipes",
    "cpu_hog",
    "fill_folder",
    "kernel_state",
    "memory_files",
    "tmp_scratch",
}
CORRECT = reference_program("classic")
ROOMY = ASSIGNMENT.limits.with_timeout(10)
# Long enough that a starved neighbour cannot finish, short enough for a test.
RACE = ASSIGNMENT.limits.with_timeout(6)


@pytest.fixture(scope="module")
def correct_output() -> str:
    """What the reference program prints on the public board (a program printing it
    scores full marks)."""
    folder = Path(tempfile.mkdtemp(prefix="hardening-"))
    try:
        (folder / "classic.py").write_text(CORRECT)
        (folder / "board.json").write_text(json.dumps(PUBLIC[0].board))
        done = subprocess.run(
            [sys.executable, str(folder / "classic.py"), str(folder / "board.json")],
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        return done.stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def world() -> Iterator[World]:
    base = Path(tempfile.mkdtemp(prefix="hardening-"))
    token = "adv-" + os.urandom(6).hex()
    try:
        yield World(base, token)
    finally:
        for path in litter(token):  # what a run at a weaker level was allowed to leave
            remove_litter(path)
        shutil.rmtree(base, ignore_errors=True)


LEVELS = ("namespace", "user", "process")


def matrix(default: set[tuple[str, ...]], *axes) -> list:
    """Every combination of ``axes`` as a parameter set: those in ``default`` in the default
    run, the others marked ``slow`` (the exhaustive matrix, run by ``pytest -m slow``)."""
    return [
        pytest.param(*values, marks=() if values in default else pytest.mark.slow)
        for values in itertools.product(*axes)
    ]


def level(name: str, cgroups: bool = True) -> Isolation:
    """The isolation ``name`` as detected here, with or without control groups (skipped
    where this machine has neither the level nor, when asked, the control groups)."""
    if name == "user" and (os.geteuid() != 0 or not os.access(SYSTEM_PYTHON, os.X_OK)):
        pytest.skip("the user level needs root and /usr/bin/python3")
    if name == "namespace" and shutil.which("bwrap") is None:
        pytest.skip("the namespace level needs bubblewrap")
    if name == "user":
        # (detect_isolation would probe the project's interpreter, which a lent uid cannot
        # start: see as_level)
        groups, why = detect_cgroups()
        found = Isolation("user", drop_user=True, cgroups=groups, no_cgroups=why)
    else:
        found = detect_isolation(name)
    if cgroups and found.cgroups is None:
        pytest.skip(f"no control groups here: {found.no_cgroups}")
    if not cgroups:
        found = dataclasses.replace(found, cgroups=None, no_cgroups="off for this test")
    return found


@pytest.fixture
def as_level(monkeypatch) -> Callable[[str], None]:
    """Call with a level's name: at ``user`` the programs run on the system's Python (the
    project's lies under /root, closed to a lent uid; the answer material, which grading
    closes to others there, is opened again when the run ends: ``tests/conftest.py``)."""

    def use(name: str) -> None:
        if name == "user":
            monkeypatch.setattr(sys, "executable", SYSTEM_PYTHON)

    return use


def grade_file(
    path: Path, isolation: Isolation, limits: Limits = ROOMY, hidden: tuple[Path, ...] = ()
) -> SubmissionResult:
    return grade_submission(ASSIGNMENT, path, PUBLIC, limits=limits, isolation=isolation,
                            hidden=(*hidden, *ANSWER_MATERIAL))  # fmt: skip


def honest_slow(output: str, pause: float = 1.5, burn: float = 0.5) -> str:
    """A correct program that takes its time: it waits (while a neighbour gets going), then
    needs ``burn`` seconds of CPU before it prints."""
    return (
        "import time\n"
        f"time.sleep({pause})\n"
        "start = time.process_time()\n"
        f"while time.process_time() - start < {burn}:\n"
        "    pass\n"
        f"print({output!r}, end='')\n"
    )


# --- 2. CPU starvation of a neighbour ------------------------------------------------------


HOGS = {"detached": {"detach": True}, "in-its-group": {"detach": False}}
# The hog's spinners die when its own run times out, so a neighbour whose run began d
# seconds after the hog's has those d seconds alone before its own limit: a launch 0.4 s
# late (starved by the spinners itself) once let ada finish half a second of work with no
# protection at all. So the hog waits this long before it spins, while both runs are
# launched, and each neighbour needs more CPU time than a late start would give it.
HOG_WAIT = 0.5
NEIGHBOUR_BURN = 1.0
# What the starving is measured on: as many cores as CI has (on more, the spinners' share
# of each core shrinks, and a neighbour left unprotected would finish all the same).
CORES = 2


@pytest.fixture
def two_cores() -> Iterator[None]:
    """The test's threads, and all they start, on ``CORES`` of this machine's cores: a pair
    of its own for each test process (``pytest -m slow`` without ``-n 0``), where there are
    enough."""
    before = os.sched_getaffinity(0)
    cores = sorted(before)
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    os.sched_setaffinity(0, {cores[(CORES * worker + k) % len(cores)] for k in range(CORES)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def hog_batch(world: World, hog: str, output: str, isolation: Isolation) -> dict:
    """Two honest students and the hog, graded two at a time: the hog sorts first, so it
    starts beside ada, and bob starts beside it when ada is done. Results by student."""
    folder = world.base / "batch"
    folder.mkdir()
    (folder / "ada.py").write_text(honest_slow(output, burn=NEIGHBOUR_BURN))
    (folder / "bob.py").write_text(honest_slow(output, burn=NEIGHBOUR_BURN))
    hostile = program("cpu_hog", token=world.token, wait=HOG_WAIT, **HOGS[hog])
    (folder / f"aaron-{world.token}.py").write_text(hostile)
    batch = grade_folder("classic", folder, world.base / "out", answers=ANSWERS, cases=PUBLIC,
                         limits=RACE, isolation=isolation, workers=2)  # fmt: skip
    return {r.student.split("-")[0]: r for r in batch.results}


@pytest.mark.slow
@pytest.mark.parametrize("hog", sorted(HOGS))
@pytest.mark.parametrize("name", LEVELS)
@pytest.mark.usefixtures("two_cores")
def test_a_neighbour_keeps_its_cpu_share_in_a_control_group(
    world, correct_output, as_level, name, hog
):
    isolation = level(name)
    as_level(name)
    graded = hog_batch(world, hog, correct_output, isolation)
    for student in ("ada", "bob"):
        assert graded[student].score == POINTS, graded[student].tests[0].feedback
        # Its share was its own: no run had to be repeated.
        assert not any("run again alone" in s for s in graded[student].tests[0].staff)
    assert report(graded["aaron"].tests[0].staff)["spinners"] >= 30
    assert (graded["aaron"].score, graded["aaron"].tests[0].status) == (0, "timeout")
    assert_no_stray_processes(set(), world.token)


@pytest.mark.slow  # (the rerun itself, cheaply, in the default run: the test after this one)
@pytest.mark.parametrize("hog", sorted(HOGS))
@pytest.mark.parametrize("name", ["namespace", "user"])
@pytest.mark.usefixtures("two_cores")
def test_without_control_groups_a_starved_neighbour_is_run_again_alone(
    world, correct_output, as_level, name, hog
):
    isolation = level(name, cgroups=False)
    as_level(name)
    graded = hog_batch(world, hog, correct_output, isolation)
    for student in ("ada", "bob"):
        result = graded[student]
        assert result.score == POINTS, result.tests[0].feedback
    # Whoever timed out beside another run was run again alone, and the staff are told.
    notes = [s for r in graded.values() for s in r.tests[0].staff if "run again alone" in s]
    assert notes and all("timed out beside 1 other run(s)" in n for n in notes)
    assert graded["aaron"].score == 0
    assert_no_stray_processes(set(), world.token)


def test_without_control_groups_a_run_that_timed_out_idle_beside_another_is_run_again_alone(
    world,
):
    """The rerun the test above relies on, without a hog: two boards graded side by side,
    each run sleeping past its limit, used far less CPU time than they had wall-clock time;
    without a control group each is run again alone before it is called a timeout, and the
    staff are told."""
    isolation = level("namespace", cgroups=False)
    path = world.base / "sleeper.py"
    path.write_text("import time\ntime.sleep(3600)\n")
    cases = answer_key("classic")[:2]
    result = grade_submission(ASSIGNMENT, path, cases, limits=ASSIGNMENT.limits.with_timeout(1),
                              isolation=isolation, hidden=ANSWER_MATERIAL, workers=2)  # fmt: skip
    assert [t.status for t in result.tests] == ["timeout", "timeout"]
    for test in result.tests:
        notes = [s for s in test.staff if "run again alone" in s]
        assert len(notes) == 1 and "timed out beside 1 other run(s)" in notes[0], test.staff
        assert notes[0].endswith("run again alone (timeout)"), notes


@pytest.mark.slow
@pytest.mark.usefixtures("two_cores")
def test_the_cpu_hog_starves_a_neighbour_when_nothing_protects_it(
    world, correct_output, monkeypatch
):
    """The attack is real: with neither a control group nor the rerun, the honest students
    time out beside it (so the two tests above would fail without their protection)."""
    isolation = level("namespace", cgroups=False)
    monkeypatch.setattr(autograder._submission, "STARVED", 0.0)
    graded = hog_batch(world, "detached", correct_output, isolation)
    assert graded["ada"].tests[0].status == "timeout"  # (bob ran after the hog was gone)


# --- 3. memory outside the address-space limit ---------------------------------------------

# Each holds more than the limit in all (one process's memory files stop at its open
# files: OPEN_FILES * FILE_MB, just under 1 GB; three processes hold three times that).
HOARDS = {
    "memfd-three-processes": {"kinds": ["memfd"], "processes": 3, "target_mb": 2400},
    "sysv-shm": {"kinds": ["shm"], "target_mb": 1536},
    "sysv-shm-two-processes": {"kinds": ["shm"], "processes": 2, "target_mb": 1536},
    "dev-shm-three-processes": {"kinds": ["devshm"], "processes": 3, "target_mb": 2400},
}


# Each kind of memory at namespace; the second process of System V segments, and the other
# levels, with -m slow.
DEFAULT_HOARDS = {("namespace", h) for h in HOARDS if h != "sysv-shm-two-processes"}


@pytest.mark.parametrize(("name", "hoard"), matrix(DEFAULT_HOARDS, LEVELS, sorted(HOARDS)))
def test_a_control_group_holds_shared_memory_to_the_limit(world, as_level, name, hoard):
    isolation = level(name)
    as_level(name)
    own_dev_shm = hoard.startswith("dev-shm") and name == "namespace"
    # In its own small /dev/shm the hoard stops at once; it then ends, once every process
    # has reported, rather than wait for its time limit.
    path = world.attack("memory_files", token=world.token, exit_when_done=own_dev_shm,
                        **HOARDS[hoard])  # fmt: skip
    result = grade_file(path, isolation, limits=ASSIGNMENT.limits.with_timeout(3) if own_dev_shm
                        else ROOMY)  # fmt: skip
    test = result.tests[0]
    if own_dev_shm:  # its own /dev/shm is small
        found = report(test.staff)
        assert found["stopped"] == "devshm: OSError 28" and found["held_mb"] <= TMP_MB
        return
    assert (test.status, result.score) == ("crashed", 0.0), test.feedback
    assert test.feedback[0] == f"ran out of memory (limit {ROOMY.memory_mb} MB)"
    # Each process reports what it holds; together they never held more than the limit.
    held: dict[int, int] = {}
    for line in test.staff:
        if line.strip().startswith("ADVERSARY "):
            found = json.loads(line.strip().removeprefix("ADVERSARY "))
            held[found["pid"]] = found["held_mb"]
    assert held and sum(held.values()) <= ROOMY.memory_mb
    left = list(Path("/dev/shm").glob("hoard-*"))
    for path in left:  # what the process level leaves (README, "Threat model")
        path.unlink()
    assert not left or name == "process"


@pytest.mark.slow  # (a gigabyte written before its time limit, however busy the machine)
@pytest.mark.parametrize("name", ["namespace", "user"])
def test_without_control_groups_few_open_files_bound_memory_files(world, as_level, name):
    isolation = level(name, cgroups=False)
    as_level(name)
    path = world.attack("memory_files", target_mb=4096, token=world.token, kinds=["memfd"])
    result = grade_file(path, isolation)
    found = report(result.tests[0].staff)
    assert found["stopped"].startswith("memfd: OSError 24")  # EMFILE: no more open files
    assert found["held_mb"] <= OPEN_FILES * FILE_MB


# --- 5. state that outlives a run -------------------------------------------------------------


# The last uids of the pool, each lent by one test alone (another test process lends
# uids from the first, and takes these only once nearly all are lent).
OWN_UIDS = {"kill-user": UIDS - 1, "clean-namespace": UIDS - 2, "clean-user": UIDS - 3}


@pytest.mark.parametrize("name", ["namespace", "user"])
def test_a_lent_uid_starts_every_run_clean(world, as_level, monkeypatch, name):
    """The first run leaves a key in each keyring, a shared-memory segment and files in the
    places anyone may write to, all holding its board; the next run of the same uid finds
    none of them."""
    # A pool of one uid, so that the second run has the first one's uid even while other
    # graders (another test process) lend uids.
    monkeypatch.setattr(autograder._sandbox, "FIRST_UID", FIRST_UID + OWN_UIDS[f"clean-{name}"])
    monkeypatch.setattr(autograder._sandbox, "UIDS", 1)
    isolation = level(name, cgroups=False)  # (state in the kernel, not in a group)
    as_level(name)
    planted = report(
        grade_file(world.attack("kernel_state", token=world.token), isolation).tests[0].staff
    )
    assert planted["key-user"].startswith("ok") and planted["key-session"].startswith("ok")
    assert planted["shm"].startswith("ok")
    if name == "user":  # (the namespace level shows no /run/lock at all)
        assert planted[f"file /run/lock/{world.token}"].startswith("ok")
    result = grade_file(world.attack("kernel_state", token=world.token, mode="find"), isolation)
    found = report(result.tests[0].staff)
    assert found["uid"] == planted["uid"]  # the same lent uid
    denied(found, *(k for k in found if k != "uid"))
    assert not [p for p in ("/run/lock", "/dev/shm", "/tmp") if world.token in os.listdir(p)]


def test_kill_user_removes_what_a_uid_left_in_every_shared_place(world):
    """Outside a namespace of its own a uid's IPC objects and files in the world-writable
    places stay until the grader removes them, when it lends the uid and when it hands it
    back."""
    if os.geteuid() != 0:
        pytest.skip("lending uids needs root")
    from autograder._sandbox import _sysv_objects, kill_user, world_writable

    uid = FIRST_UID + OWN_UIDS["kill-user"]
    places = [p for p in world_writable() if p in ("/tmp", "/dev/shm", "/run/lock")]
    script = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None)\n"
        f"os.setgid({uid}); os.setuid({uid})\n"
        "assert libc.shmget(0, 1 << 20, 0o1600) >= 0\n"
        f"for p in {places!r}:\n"
        f"    open(os.path.join(p, {world.token!r}), 'w').write('x')\n"
    )
    with holding(uid):
        subprocess.run([SYSTEM_PYTHON, "-c", script], check=True, timeout=60)
        assert _sysv_objects(uid)
        kill_user(uid)
    assert not _sysv_objects(uid)
    assert not [p for p in places if os.path.lexists(os.path.join(p, world.token))]


# --- 4. answers through a second path --------------------------------------------------------


def test_the_self_test_refuses_to_grade_when_the_answers_show(world, monkeypatch):
    """The self-test run before grading finds material the sandbox fails to hide (here:
    hiding turned off) and grading stops with one line naming it."""
    isolation = level("namespace", cgroups=False)
    path = world.attack("read_answers", **world.targets("read_answers"))
    secret = world.base / "installed"
    shutil.copytree(ROOT_SOLUTIONS, secret / "reference_solutions")
    (secret / "reference_solutions").chmod(0o755)  # open to all, as installed packages are
    trees = autograder._sandbox._python_trees()
    monkeypatch.setattr(autograder._sandbox, "_python_trees", lambda: [*trees, str(secret)])
    monkeypatch.setattr(autograder._sandbox._Mounts, "hide", lambda self, path: None)
    with pytest.raises(UsageError, match=r"a run could read what it must not: .*"
                       r"reference_solutions.*; not grading"):  # fmt: skip
        grade_file(path, isolation, hidden=(secret / "reference_solutions",))


ROOT_SOLUTIONS = Path(__file__).resolve().parents[2] / "reference_solutions"


def test_material_inside_python_is_hidden_under_the_link_and_the_real_path(world, monkeypatch):
    """A Python installation reached through a link is mounted under both names; the
    answers installed in it must be covered under both (once only under the real one)."""
    isolation = level("namespace", cgroups=False)
    real = world.base / "real"
    link = world.base / "link"
    site = real / "venv" / "lib" / "site-packages"
    shutil.copytree(ROOT_SOLUTIONS, site / "reference_solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    (site / "reference_solutions").chmod(0o755)  # open to all, as installed packages are
    link.symlink_to(real)
    trees = autograder._sandbox._python_trees()
    # What _python_trees gives for a virtual environment whose path holds a link: both.
    monkeypatch.setattr(autograder._sandbox, "_python_trees",
                        lambda: [*trees, str(link / "venv"), str(real / "venv")])  # fmt: skip
    secret = (site / "reference_solutions").resolve()
    names = sandbox_aliases(secret)
    assert sorted(names) == sorted(
        [str(link / "venv/lib/site-packages/reference_solutions"), str(secret)]
    )
    files = {f"alias-{k}": f"{n}/_solver.py" for k, n in enumerate(names)}
    path = world.attack("read_answers", files=files)
    result = grade_file(path, isolation, hidden=(secret,))
    denied(report(result.tests[0].staff), *files)
    assert result.score == 0


# --- 7. grading work outside every limit ------------------------------------------------------


def test_an_oversized_submission_is_refused_before_it_is_read(ram_path):
    isolation = level("process", cgroups=False)
    big = ram_path / "big.py"
    with open(big, "wb") as file:  # 400 MB, sparse: it costs the test nothing
        file.truncate(400 << 20)
    result = grade_file(big, isolation)
    assert result.status == "error"
    assert result.problems == (f"big.py: larger than {MAX_SUBMISSION_MB} MB",)
    many = ram_path / "many"
    many.mkdir()
    (many / "classic.py").write_text(CORRECT)
    for k in range(MAX_SUBMISSION_FILES + 1):
        (many / f"{k}.txt").touch()
    result = grade_file(many, isolation)
    assert result.status == "error"
    assert f"more than {MAX_SUBMISSION_FILES} files" in result.problems[0]
    # Folders count too: empty ones are no cheaper to copy and remove.
    (many / "classic.py").rename(ram_path / "classic.py")
    shutil.rmtree(many)
    many.mkdir()
    shutil.move(ram_path / "classic.py", many / "classic.py")
    for k in range(MAX_SUBMISSION_FILES + 1):
        (many / f"d{k}").mkdir()
    assert "more than" in grade_file(many, isolation).problems[0]


@pytest.mark.parametrize("shape", ["bytes", "entries"])
@pytest.mark.parametrize("name", LEVELS)
def test_a_run_folder_is_bounded_and_removed(world, as_level, name, shape):
    isolation = level(name, cgroups=name != "process")
    if autograder._run_folder.sized_folders():
        pytest.skip(f"run folders are not sized here: {autograder._run_folder.sized_folders()}")
    as_level(name)
    result = grade_file(world.attack("fill_folder", shape=shape), isolation)
    test = result.tests[0]
    found = report(test.staff)
    assert (test.status, found["stopped"]) == ("unreadable", "OSError")
    assert found["errno"] == 28  # ENOSPC: its folder is full, not the machine's disk
    if shape == "bytes":
        assert found["bytes"] <= FOLDER_MB << 20
    else:
        assert found["files"] <= FOLDER_FILES
    assert not os.path.lexists(found["work"])


# Just past what a run's folder may hold, in each shape (MB, entries).
PAST_THE_FOLDER = {"bytes": FOLDER_MB + 16, "entries": FOLDER_FILES + 100}


@pytest.mark.parametrize("ending", ["held", "ended"])
@pytest.mark.parametrize("shape", ["bytes", "entries"])
def test_an_unsized_run_folder_is_measured_and_the_run_stopped(world, monkeypatch, ram_path,
                                                               shape, ending):  # fmt: skip
    """``held``: the program fills its folder and waits, so only the measure made while it
    runs can stop it before its time limit (a timeout, else). ``ended``: it fills its folder
    and ends, printing nothing, and the measures while it runs are put off, so only the
    measure made when it ends can see it (else: printed nothing)."""
    isolation = level("namespace", cgroups=False)
    monkeypatch.setattr(autograder._submission, "sized_folders", lambda: "off for this test")
    # The run's folder in memory: its thousands of entries are measured the same there.
    monkeypatch.setattr(tempfile, "tempdir", str(ram_path))
    if ending == "ended":
        monkeypatch.setattr(autograder._run, "WATCH_SECONDS", 3600.0)
    path = world.attack("fill_folder", shape=shape, past=PAST_THE_FOLDER[shape],
                        hold=ending == "held")  # fmt: skip
    result = grade_file(path, isolation)
    test = result.tests[0]
    assert (test.status, result.score) == ("crashed", 0.0)
    assert test.feedback[0] == (
        f"wrote more than {FOLDER_MB} MB or {FOLDER_FILES} files into its folder; stopped"
    )
    work = Path(tempfile.gettempdir()) / "autograder-run-"
    assert not [p for p in work.parent.glob(work.name + f"{os.getpid()}-*") if p.is_dir()]


# --- 8. honest programs graded wrong ----------------------------------------------------------


PIPES = {"exit": {}, "child": {"daemon": True}, "slow": {"pause": 1.5}}


@pytest.mark.parametrize(
    ("name", "config"),
    matrix({("namespace", c) for c in PIPES} | {(n, "exit") for n in LEVELS}, LEVELS, PIPES),
)
def test_a_program_that_closes_its_pipes_before_it_exits_gets_full_marks(
    world, correct_output, as_level, name, config
):
    isolation = level(name, cgroups=False)
    as_level(name)
    path = world.attack("close_pipes", output=correct_output, **PIPES[config])
    result = grade_file(path, isolation)
    assert (result.tests[0].status, result.score) == ("passed", POINTS), result.tests[0].feedback


@pytest.mark.parametrize("name", LEVELS)
def test_a_program_may_keep_scratch_files_in_tmp(world, correct_output, as_level, name):
    isolation = level(name, cgroups=False)
    as_level(name)
    path = world.attack("tmp_scratch", output=correct_output, token=world.token)
    result = grade_file(path, isolation)
    assert (result.tests[0].status, result.score) == ("passed", POINTS), result.tests[0].feedback
    if name != "process":  # (the process level leaves what it wrote: not protected)
        assert not [n for n in os.listdir("/tmp") if world.token in n]


# --- every attack beside honest students ------------------------------------------------------


def test_a_detached_grandchild_dies_with_its_control_group_at_every_level(world, as_level):
    """With a control group, even the ``process`` level kills what a run left behind (the
    ``namespace`` level always does: test_adversarial)."""
    for name in ("user", "process"):
        if name == "user" and os.geteuid() != 0:
            continue
        isolation = level(name)
        as_level(name)
        result = grade_file(world.attack("detached_child", token=world.token), isolation)
        assert not alive(int(report(result.tests[0].staff)["grandchild"]))


# What the process level does not contain (README, "Threat model"): these write, delete,
# signal or read as the grader's own user, so a batch graded there is not safe with them.
NOT_AT_PROCESS = {
    "write_outside",
    "forge_results",
    "kill_grader",
    "read_answers",
    "read_submissions",
    "read_gradebook",
    "read_environment",
    "detached_child",
    "network",
    "kernel_state",
    "deep_tree",
}


@pytest.mark.slow  # (each attack alone at namespace: test_adversarial, and the tests above)
@pytest.mark.parametrize("name", LEVELS)
def test_honest_students_keep_full_marks_beside_every_attack(world, correct_output, as_level,
                                                            name):  # fmt: skip
    """The whole corpus in one batch, two at a time, with three honest students between
    the attacks: each honest student scores full marks, whatever ran beside them."""
    isolation = level(name, cgroups=name == "process")
    as_level(name)
    folder = world.base / "mixed"
    folder.mkdir()
    corpus = sorted(p.stem for p in CORPUS.glob("*.py"))
    if name == "process":
        corpus = [c for c in corpus if c not in NOT_AT_PROCESS]
    honest = {"ada": CORRECT, "hal": honest_slow(correct_output, pause=0.5), "zoe": CORRECT}
    for student, text in honest.items():
        (folder / f"{student}.py").write_text(text)
    for stem in corpus:
        # (each its own token, holding the world's: what it leaves is found, and removed)
        config = {"token": f"{world.token}-{stem}"} if takes_config(stem) else {}
        (folder / f"m-{stem}-{world.token}.py").write_text(program(stem, **config))
    # (3 s a board: ample for the honest, and a dozen attacks run to their limit)
    batch = grade_folder("classic", folder, world.base / "out", answers=ANSWERS, cases=PUBLIC,
                         limits=ASSIGNMENT.limits.with_timeout(3), isolation=isolation,
                         workers=2)  # fmt: skip
    graded = {r.student: r for r in batch.results}
    assert len(graded) == len(honest) + len(corpus)
    for student in honest:
        result = graded[student]
        assert (result.status, result.score) == ("graded", POINTS), result.tests
    assert_no_stray_processes(set(), world.token)


@pytest.mark.slow  # (a run at the user level that spins until its time limit)
def test_zombies_of_an_earlier_run_do_not_shrink_the_next_runs_process_cap(world, as_level):
    """Processes of a lent uid killed at the end of a run may wait a while to be reaped by
    whoever adopted them, and the kernel counts them in the uid's process limit: the next
    run (another student's) must still get its whole cap. Here the test holds forty
    zombies of the first uid the grader lends (which it now passes over)."""
    if os.geteuid() != 0:
        pytest.skip("lending uids needs root")
    from autograder._sandbox import processes_of

    isolation = level("user", cgroups=False)
    as_level("user")
    # The uid the grader would lend next: the first with nothing left of earlier runs.
    uid = next(u for u in range(FIRST_UID, FIRST_UID + UIDS) if not processes_of(u, zombies=True))
    zombies = []
    for _ in range(40):
        pid = os.fork()
        if pid == 0:
            os.setgid(uid)
            os.setuid(uid)
            os._exit(0)
        zombies.append(pid)
    try:
        path = world.attack("cpu_hog", token=world.token, detach=False, spinners=50,
                            spin=False)  # fmt: skip
        result = grade_file(path, isolation, limits=ASSIGNMENT.limits.with_timeout(2))
        assert report(result.tests[0].staff)["spinners"] == 50
    finally:
        for pid in zombies:
            os.waitpid(pid, 0)
