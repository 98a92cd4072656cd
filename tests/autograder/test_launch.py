"""How a run's limits are set at ``process``: the direct launch (``_sandbox.direct_launch``: a
shell held until the grader has set its limits, started as root from an IPC namespace the
grader's thread made for it and left) must give a run exactly what the Python launcher
(``_launch.py``) gives it: the same resource limits, umask, ignored and blocked signals,
capabilities, session, control groups, standard input, environment and, as root, an IPC
namespace of its own. Where that namespace cannot be made, or is not fresh, the launcher
takes over; and the limits hold either way. No timing is checked here (the speed is
``benchmarks/bench_throughput.py``'s business)."""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import errno
import os
import re
import resource
import shutil
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder import UsageError, _run
from autograder import _sandbox as sandbox
from autograder._assignments import Limits
from autograder._cgroups import HOLD_FAILED
from autograder._isolation import detect_isolation
from autograder._launch import decode, encode, rlimits
from autograder._run import FILE_MB, OPEN_FILES, Run, clean_environment, run_limited
from autograder._sandbox import LAUNCHER, Isolation, is_root
from tests.autograder.test_adversarial import SYSTEM_PYTHON

LIMITS = Limits(timeout=30.0, cpu=2.5, memory_mb=512, output_kb=256)
PATIENT = 60.0  # a wall clock far beyond the CPU limits below: the CPU limit must end it
WAYS = ("direct", "launcher")
# What a process's status says of what it was given (not of what it did since).
GIVEN = ("Umask", "Uid", "Gid", "Groups", "NoNewPrivs", "Seccomp", "SigPnd", "ShdPnd",
         "SigBlk", "SigIgn", "SigCgt", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
         "Cpus_allowed_list", "Mems_allowed_list")  # fmt: skip
CAT = shutil.which("cat") or "/bin/cat"
LS = shutil.which("ls") or "/bin/ls"
IPC = "import os\nprint(os.readlink('/proc/self/ns/ipc'))\n"


@pytest.fixture(autouse=True)
def fresh_direct_check() -> Iterator[None]:
    sandbox.direct_ready.cache_clear()
    yield
    sandbox.direct_ready.cache_clear()


@pytest.fixture(autouse=True)
def in_the_foreground() -> Iterator[None]:
    """This process as a grader started from a terminal, whatever started the tests (a CI
    script run in the background ignores SIGINT and SIGQUIT, and the direct launch then
    gives way to the launcher: ``test_a_program_gets_sigint_and_sigquit_at_their_default``)."""
    with signals_as({signal.SIGINT: signal.default_int_handler, signal.SIGQUIT: signal.SIG_DFL}):
        yield


@contextlib.contextmanager
def signals_as(handlers: dict) -> Iterator[None]:
    saved = {number: signal.signal(number, handler) for number, handler in handlers.items()}
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


@pytest.fixture
def tools() -> None:
    """The direct launch must be possible here, or there is nothing to compare. CI (which
    sets ``AUTOGRADER_EXPECT_ISOLATION``) runs as root where ``unshare(2)`` is allowed."""
    if not sandbox.direct_ready():
        if os.environ.get("AUTOGRADER_EXPECT_ISOLATION"):
            pytest.fail("the direct launch should work here (as root: unshare(2) allowed)")
        pytest.skip("no direct launch here (as root it needs unshare(2))")


def recording(monkeypatch) -> tuple[list[list[str]], object]:
    """Every command ``_run._run`` starts from now on, from any thread, is listed; the list,
    and the original ``_run._run`` to put back."""
    started: list[list[str]] = []
    original = _run._run

    def record(command, *more, **options):
        started.append(list(command))
        return original(command, *more, **options)

    monkeypatch.setattr(_run, "_run", record)
    return started, original


def recorded(monkeypatch, *args, **kwargs) -> tuple[Run, list[str]]:
    """``run_limited(*args, **kwargs)``, and the command it started."""
    started, original = recording(monkeypatch)
    try:
        run = run_limited(*args, **kwargs)
    finally:
        monkeypatch.setattr(_run, "_run", original)
    (command,) = started
    return run, command


def launch(monkeypatch, way: str, argv: list[str], cwd: Path, limits: Limits = LIMITS,
           isolation: Isolation | None = None, *,
           force: bool = True) -> tuple[Run, list[str]]:  # fmt: skip
    """Run ``argv`` at ``process`` the ``way`` named (``force``: the launcher asked for by
    ``$AUTOGRADER_DIRECT_LAUNCH``, not only because the direct launch cannot be had); the
    run, and the command it started."""
    if force:
        monkeypatch.setenv(sandbox.DIRECT_ENV, "on" if way == "direct" else "off")
    run, command = recorded(monkeypatch, argv, cwd, clean_environment(cwd), limits,
                            isolation=isolation)  # fmt: skip
    # The way asked for is the way taken: else the comparisons below compare a way with
    # itself.
    uses_launcher = str(LAUNCHER) in command
    held = command[0] == "/bin/sh" and "read go" in command[2]
    assert (uses_launcher, held) == (way == "launcher", way == "direct"), command
    return run, command


def seen(monkeypatch, way: str, cwd: Path, isolation: Isolation | None) -> dict[str, object]:
    """What a run started ``way`` finds of itself."""

    def read(path: str) -> str:
        run, _ = launch(monkeypatch, way, [CAT, path], cwd, isolation=isolation)
        assert (run.status, run.returncode) == ("exited", 0), run
        return run.stdout.decode()

    def read_dir(path: str) -> list[str]:
        run, _ = launch(monkeypatch, way, [LS, path], cwd, isolation=isolation)
        assert (run.status, run.returncode) == ("exited", 0), run
        return run.stdout.decode().split()

    status = dict(line.split(":", 1) for line in read("/proc/self/status").splitlines())
    pid, rest = read("/proc/self/stat").split(" ", 1)
    # Its pid, process group and session: a session of its own.
    session = (int(pid), *(int(field) for field in rest.rsplit(")", 1)[1].split()[2:4]))
    run, _ = launch(monkeypatch, way, [sys.executable, "-I", "-S", "-c", IPC], cwd,
                    isolation=isolation)  # fmt: skip
    return {
        "limits": read("/proc/self/limits"),
        "status": {key: status[key].strip() for key in GIVEN},
        "own session": session[0] == session[1] == session[2],
        # The run's own groups: their names differ only by the run's number.
        "cgroups": re.sub(r"/run-\d+", "/run-N", read("/proc/self/cgroup")),
        "environment": sorted(read("/proc/self/environ").split("\0")),
        "open files": read("/proc/self/fdinfo/0").splitlines()[1:2]  # (its flags)
        + sorted(os.path.basename(path) for path in read_dir("/proc/self/fd")),
        "fresh IPC namespace": run.stdout.decode().strip() != os.readlink("/proc/self/ns/ipc"),
    }


@pytest.mark.parametrize("groups", ["with control groups", "without"])
def test_the_direct_launch_gives_a_run_exactly_what_the_launcher_gives_it(
    tools, monkeypatch, tmp_path, groups
):
    isolation = detect_isolation("process")
    if groups == "without":
        isolation = dataclasses.replace(isolation, cgroups=None)
    elif isolation.cgroups is None:
        pytest.skip(f"no control groups here: {isolation.no_cgroups}")
    direct = seen(monkeypatch, "direct", tmp_path, isolation)
    launcher = seen(monkeypatch, "launcher", tmp_path, isolation)
    assert direct == launcher
    # And what both give is what was asked for.
    assert direct["status"]["Umask"] == "0077"  # type: ignore[index]
    assert direct["own session"]
    assert direct["fresh IPC namespace"] == is_root()
    limits = str(direct["limits"])
    assert re.search(r"Max cpu time +3 +4 ", limits)
    assert re.search(rf"Max file size +{FILE_MB << 20} +{FILE_MB << 20} ", limits)
    assert re.search(r"Max address space +536870912 +536870912 ", limits)
    assert re.search(r"Max core file size +0 +0 ", limits)
    assert re.search(rf"Max open files +{OPEN_FILES} +{OPEN_FILES} ", limits)
    # Python's start-up ignores SIGPIPE and SIGXFSZ, and the launcher's program inherits
    # them ignored: so does the direct launch's.
    ignored = int(direct["status"]["SigIgn"], 16)  # type: ignore[index]
    assert ignored & (1 << 12) and ignored & (1 << 24)
    if groups == "with control groups":
        assert "/run-N" in str(direct["cgroups"])


def test_the_direct_launch_sets_every_limit_the_launcher_sets(tools):
    """The same soft and hard values, then (as root) a fresh IPC namespace."""
    payload: dict[str, float | None] = {"cpu": 2.5, "memory_mb": 512, "file_mb": 16,
                                        "files": 64, "nproc": 40, "uid": None}  # fmt: skip
    launch = sandbox.direct_launch(payload)
    assert launch is not None
    assert launch.limits == (
        (resource.RLIMIT_CPU, 3, 4),
        (resource.RLIMIT_AS, 512 << 20, 512 << 20),
        (resource.RLIMIT_FSIZE, 16 << 20, 16 << 20),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_NOFILE, 64, 64),
        (resource.RLIMIT_NPROC, 40, 40),
    )
    assert len(launch.limits) == len(rlimits(payload))
    assert launch.fresh_ipc == is_root()


def test_the_launcher_reads_back_what_the_grader_writes():
    payload: dict[str, float | None] = {"cpu": 0.25, "memory_mb": 300, "file_mb": 16,
                                        "files": 64, "nproc": 7, "uid": None}  # fmt: skip
    assert "uid" not in decode(encode(payload))
    assert rlimits(decode(encode(payload))) == rlimits(payload)
    lent = {**payload, "uid": 61003}
    assert decode(encode(lent))["uid"] == 61003


def test_a_run_with_a_lent_uid_always_goes_through_the_launcher():
    payload: dict[str, float | None] = {"cpu": 1, "memory_mb": 64, "file_mb": 1, "uid": 61000}
    assert sandbox.direct_launch(payload) is None


def test_the_launcher_takes_over_where_no_ipc_namespace_can_be_made(monkeypatch, tmp_path):
    """A container may refuse ``unshare(2)`` to root: the check finds out, and the launcher
    does what it can."""
    if not is_root():
        pytest.skip("the direct launch makes an IPC namespace only as root")

    @contextlib.contextmanager
    def refused() -> Iterator[None]:
        raise PermissionError(1, "Operation not permitted")
        yield

    monkeypatch.setattr(sandbox, "fresh_ipc", refused)
    monkeypatch.delenv(sandbox.DIRECT_ENV, raising=False)
    assert not sandbox.direct_ready()
    assert sandbox.direct_launch({"cpu": 1, "memory_mb": 64, "file_mb": 1}) is None
    run, _ = launch(monkeypatch, "launcher", [CAT, "/proc/self/limits"], tmp_path, force=False)
    assert (run.status, run.returncode) == ("exited", 0)
    assert re.search(r"Max cpu time +3 +4 ", run.stdout.decode())


def test_a_namespace_that_is_not_fresh_is_not_used(tools, monkeypatch, tmp_path):
    """A way of making one that leaves the run in the grader's namespace is found out by
    the check, and the launcher does the work."""
    if not is_root():
        pytest.skip("the direct launch makes an IPC namespace only as root")
    monkeypatch.setattr(sandbox, "fresh_ipc", contextlib.nullcontext)
    sandbox.direct_ready.cache_clear()
    assert not sandbox.direct_ready()
    run, _ = launch(monkeypatch, "launcher", [sys.executable, "-I", "-S", "-c", IPC], tmp_path,
                    force=False)  # fmt: skip
    assert run.stdout.decode().strip() != os.readlink("/proc/self/ns/ipc")


def test_a_thread_that_would_stay_in_the_run_namespace_is_found_out(tools, monkeypatch):
    """A namespace made but not left would put the thread's next runs in it: the check
    refuses the direct launch (run on a thread of its own, which is then thrown away)."""
    if not is_root():
        pytest.skip("the direct launch makes an IPC namespace only as root")
    real = sandbox.libc()

    class NoWayBack:
        unshare = real.unshare

        @staticmethod
        def setns(fd: int, kind: int) -> int:
            return 0  # says it went back, and did not

    monkeypatch.setattr(sandbox, "libc", lambda: NoWayBack)
    sandbox.direct_ready.cache_clear()
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(sandbox.direct_ready()))
    thread.start()
    thread.join()
    assert found == [False]


class _Refused:
    """The C library, but the way back to the grader's namespace refused."""

    unshare = staticmethod(ctypes.CDLL(None, use_errno=True).unshare)

    @staticmethod
    def setns(fd: int, kind: int) -> int:
        ctypes.set_errno(errno.EPERM)
        return -1


def _on_a_thread_of_its_own(work) -> list[BaseException]:
    """Run ``work`` on a thread that is then thrown away (it may be left in a run's
    namespace); what it raised."""
    raised: list[BaseException] = []

    def attempt() -> None:
        try:
            work()
        except BaseException as err:  # (handed back to the test)
            raised.append(err)

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join()
    return raised


def test_a_thread_that_cannot_go_back_says_so_and_later_runs_take_the_launcher(
    tools, monkeypatch, tmp_path
):
    """Its runs would share that namespace: after it, no run is launched directly, and the
    launcher makes each its own."""
    if not is_root():
        pytest.skip("the direct launch makes an IPC namespace only as root")
    monkeypatch.setattr(sandbox, "_stranded", False)
    payload: dict[str, float | None] = {"cpu": 1, "memory_mb": 64, "file_mb": 1}
    assert sandbox.direct_launch(payload) is not None
    monkeypatch.setattr(sandbox, "libc", lambda: _Refused)

    def enter() -> None:
        with sandbox.fresh_ipc():
            pass

    (raised,) = _on_a_thread_of_its_own(enter)
    assert isinstance(raised, OSError) and raised.errno == errno.EPERM
    assert "back to the grader's IPC namespace" in str(raised)
    assert sandbox.direct_launch(payload) is None
    monkeypatch.undo()
    monkeypatch.setattr(sandbox, "_stranded", True)
    run, _ = launch(monkeypatch, "launcher", [sys.executable, "-I", "-S", "-c", IPC], tmp_path,
                    force=False)  # fmt: skip
    assert run.stdout.decode().strip() != os.readlink("/proc/self/ns/ipc")


def test_a_shell_started_when_the_way_back_fails_is_killed(tools, monkeypatch, tmp_path):
    """The run is the grader's error; its held shell, never let go, is not left waiting."""
    if not is_root():
        pytest.skip("the direct launch makes an IPC namespace only as root")
    monkeypatch.setattr(sandbox, "_stranded", False)
    monkeypatch.setenv(sandbox.DIRECT_ENV, "on")
    started = tmp_path / "started"
    argv = _program(tmp_path, f"open({str(started)!r}, 'w').close()\n")
    assert sandbox.direct_ready()
    monkeypatch.setattr(sandbox, "libc", lambda: _Refused)
    killed: list[int] = []
    original = _run._kill_group
    monkeypatch.setattr(_run, "_kill_group", lambda pid: (killed.append(pid), original(pid)))
    isolation = detect_isolation("process")

    def start() -> None:
        run_limited(argv, tmp_path, clean_environment(tmp_path), LIMITS, isolation=isolation)

    (raised,) = _on_a_thread_of_its_own(start)
    assert isinstance(raised, OSError) and "back to the grader's IPC namespace" in str(raised)
    assert len(killed) == 1
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(killed[0], 0)
    assert not started.exists()


def test_a_start_that_fails_leaves_the_thread_in_its_own_namespace(tools, monkeypatch, tmp_path):
    if not is_root():
        pytest.skip("the direct launch makes an IPC namespace only as root")
    monkeypatch.setenv(sandbox.DIRECT_ENV, "on")
    assert sandbox.direct_ready()
    seen: list[str] = []

    def start_in_a_missing_folder() -> None:
        before = os.readlink("/proc/thread-self/ns/ipc")
        try:
            run_limited([CAT, "/dev/null"], tmp_path / "missing", clean_environment(tmp_path),
                        LIMITS, isolation=detect_isolation("process"))  # fmt: skip
        finally:
            seen.extend([before, os.readlink("/proc/thread-self/ns/ipc")])

    (raised,) = _on_a_thread_of_its_own(start_in_a_missing_folder)
    assert isinstance(raised, FileNotFoundError)
    assert seen[0] == seen[1]


def test_runs_started_at_once_from_two_threads_each_get_their_own_namespace(
    tools, monkeypatch, tmp_path
):
    """A namespace belongs to the thread that made it: two runs started side by side (as
    at ``-j 2``), both launched directly, get one each, neither the grader's, and each
    thread, and the grader's main thread, is back in its own as soon as its run has
    started."""
    if not is_root():
        pytest.skip("the direct launch makes an IPC namespace only as root")
    monkeypatch.setenv(sandbox.DIRECT_ENV, "on")
    isolation = detect_isolation("process")
    grader = os.readlink("/proc/self/ns/ipc")
    commands, _ = recording(monkeypatch)
    # Each run says its namespace, then waits for the other run's (both alive: two distinct
    # namespaces, whose numbers cannot have been reused).
    script = (
        "import os, sys, time\n"
        "mine, other = sys.argv[1], sys.argv[2]\n"
        "open(mine, 'w').write(os.readlink('/proc/self/ns/ipc'))\n"
        "deadline = time.monotonic() + 20\n"
        "while not os.path.exists(other) and time.monotonic() < deadline:\n"
        "    time.sleep(0.01)\n"
        "print(os.readlink('/proc/self/ns/ipc'))\n"
    )
    program = tmp_path / "say.py"
    program.write_text(script)
    results: dict[int, tuple[Run, str]] = {}
    barrier = threading.Barrier(2, timeout=30)

    def one(k: int) -> None:
        barrier.wait()
        mine, other = tmp_path / f"said-{k}", tmp_path / f"said-{1 - k}"
        run = run_limited([sys.executable, "-I", "-S", str(program), str(mine), str(other)],
                          tmp_path, clean_environment(tmp_path), LIMITS,
                          isolation=isolation)  # fmt: skip
        results[k] = (run, os.readlink("/proc/thread-self/ns/ipc"))

    threads = [threading.Thread(target=one, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(commands) == 2
    assert all(command[0] == "/bin/sh" and "read go" in command[2] for command in commands)
    assert sorted(results) == [0, 1]
    seen_by_runs = []
    for run, thread_after in results.values():
        assert (run.status, run.returncode) == ("exited", 0), run
        seen_by_runs.append(run.stdout.decode().strip())
        assert thread_after == grader
    assert grader not in seen_by_runs
    assert seen_by_runs[0] != seen_by_runs[1]
    assert os.readlink("/proc/thread-self/ns/ipc") == grader


def test_a_program_whose_limits_could_not_be_set_never_starts(tools, monkeypatch, tmp_path):
    """The shell waits for its limits; when the grader cannot set them, it is not let go,
    and the run is the grader's error, not the student's."""
    started = tmp_path / "started"
    argv = _program(tmp_path, f"open({str(started)!r}, 'w').close()\n")

    def refused(*args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(sandbox.resource, "prlimit", refused)
    with pytest.raises(OSError, match=HOLD_FAILED):
        launch(monkeypatch, "direct", argv, tmp_path, isolation=detect_isolation("process"))
    assert not started.exists()


# -- the limits hold, either way ----------------------------------------------------------


def _program(tmp_path: Path, source: str) -> list[str]:
    program = tmp_path / "program.py"
    program.write_text(source)
    return [sys.executable, "-E", "-s", str(program)]


# The launcher's way, the fallback, with -m slow (its other checks run by default).
@pytest.mark.parametrize("way", ["direct", pytest.param("launcher", marks=pytest.mark.slow)])
def test_the_cpu_limit_ends_a_busy_program(tools, monkeypatch, tmp_path, way):
    argv = _program(tmp_path, "while True:\n    pass\n")
    run, _ = launch(monkeypatch, way, argv, tmp_path, Limits(timeout=PATIENT, cpu=1.0),
                    detect_isolation("process"))  # fmt: skip
    assert run.status == "cpu-limit" and run.signal_name in ("SIGXCPU", "SIGKILL")


@pytest.mark.parametrize("way", WAYS)
def test_the_address_space_limit_stops_a_memory_bomb(tools, monkeypatch, tmp_path, way):
    argv = _program(tmp_path, "block = bytearray(2 * 1024 ** 3)\n")
    # Without a control group: the address-space limit alone must stop it.
    isolation = dataclasses.replace(detect_isolation("process"), cgroups=None)
    run, _ = launch(monkeypatch, way, argv, tmp_path, LIMITS, isolation)
    assert run.status == "exited" and run.returncode != 0
    assert b"MemoryError" in run.stderr_tail


@pytest.mark.parametrize("way", WAYS)
def test_the_file_size_limit_stops_a_large_file(tools, monkeypatch, tmp_path, way):
    big = tmp_path / "big.bin"
    source = (
        "chunk = b'x' * (1 << 20)\n"
        f"with open({str(big)!r}, 'wb', buffering=0) as file:\n"
        f"    for _ in range({2 * FILE_MB}):\n"
        "        file.write(chunk)\n"
    )
    run, _ = launch(monkeypatch, way, _program(tmp_path, source), tmp_path, LIMITS,
                    detect_isolation("process"))  # fmt: skip
    # SIGXFSZ is ignored (as under the launcher): the write fails, the program is not killed.
    assert run.status == "exited" and run.returncode != 0
    assert b"File too large" in run.stderr_tail
    assert big.stat().st_size == FILE_MB << 20


@pytest.mark.parametrize("way", WAYS)
def test_what_a_run_writes_is_its_own(tools, monkeypatch, tmp_path, way):
    made = tmp_path / "made.txt"
    argv = _program(tmp_path, f"open({str(made)!r}, 'w').write('x')\n")
    run, _ = launch(monkeypatch, way, argv, tmp_path)
    assert (run.status, run.returncode) == ("exited", 0)
    assert stat.S_IMODE(made.stat().st_mode) == 0o600


@pytest.mark.parametrize("level", ["user", "namespace"])
def test_other_levels_keep_the_launcher(monkeypatch, tmp_path, level):
    """At ``user`` and ``namespace`` (as root: a lent uid) the launcher does it all, as
    before."""
    if level == "user":  # (the level's probe runs Python: the project's is closed to a lent uid)
        monkeypatch.setattr(sys, "executable", SYSTEM_PYTHON)
    try:
        isolation = detect_isolation(level)
    except UsageError as err:
        pytest.skip(str(err))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv(sandbox.DIRECT_ENV, "on")
    run, command = recorded(monkeypatch, [CAT, "/proc/self/limits"], work,
                            clean_environment(work), LIMITS, isolation=isolation,
                            work=work)  # fmt: skip
    assert (run.status, run.returncode) == ("exited", 0), run
    assert re.search(r"Max cpu time +3 +4 ", run.stdout.decode())
    assert str(LAUNCHER) in command or sandbox.LAUNCHER_INSIDE in command
    assert not any("read go" in word for word in command)


SIGNALS = (
    "import signal\n"
    "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler,"
    " signal.getsignal(signal.SIGQUIT) == signal.SIG_DFL)\n"
)


@pytest.mark.parametrize("background", [False, True])
def test_a_program_gets_sigint_and_sigquit_at_their_default(tools, monkeypatch, tmp_path,
                                                            background):  # fmt: skip
    """However the grader was started, a run's program starts as from a terminal: SIGINT
    at its default (so Python's KeyboardInterrupt handler is installed) and SIGQUIT too.
    A shell cannot undo a signal it was started ignoring, so a grader in the background
    takes the launcher."""
    argv = _program(tmp_path, SIGNALS)
    ignored = {signal.SIGINT: signal.SIG_IGN, signal.SIGQUIT: signal.SIG_IGN}
    with signals_as(ignored) if background else contextlib.nullcontext():
        run, command = recorded(monkeypatch, argv, tmp_path, clean_environment(tmp_path),
                                LIMITS)  # fmt: skip
    assert (run.status, run.returncode) == ("exited", 0), run
    assert run.stdout.decode().split() == ["True", "True"]
    assert (str(LAUNCHER) in command) == background
