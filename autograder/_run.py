"""Running one untrusted program with limits, in a process group of its own.

The grader never imports student code: every run is a separate process, started through
``_launch.py`` (which sets the resource limits), or at ``process`` through ``prlimit`` on a
held shell, which sets the same ones faster (``_sandbox.direct_launch``), in its own session
so that a timeout kills the program and everything it started. (A Python submission's
boards, as root, may instead be forked from its warm interpreter, which sets the same
limits: ``_warm_sandbox``.)
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from ._assignments import Limits
from ._cgroups import HOLD_FAILED, JOIN_FAILED, RunGroup, join_command
from ._launch import encode
from ._sandbox import (
    LAUNCHER,
    LAUNCHER_INSIDE,
    DirectLaunch,
    Isolation,
    bwrap_command,
    direct_launch,
    hand_over,
    kill_user,
    lent_uid,
    processes_of,
)
from ._tidy import Tidy

__all__ = ["Run", "RunStatus", "Tracked", "clean_environment", "follow", "run_limited"]

# How a run ended: on its own, or stopped by the wall clock, its CPU time or its output cap,
# or killed by a signal.
# ``memory-limit``: its control group reached its memory ceiling; ``folder-limit``: its
# folder grew past what a run may keep there (where no sized file system holds it).
RunStatus = Literal[
    "exited", "timeout", "cpu-limit", "output-limit", "memory-limit", "folder-limit", "signal"
]

STDERR_TAIL = 4096  # bytes of standard error kept for feedback
# The largest file a run may write, and how many it may hold open: both small, because a
# memory file kept open holds memory that no address-space limit counts (where no control
# group does): at most OPEN_FILES * FILE_MB per process.
FILE_MB = 16
OPEN_FILES = 64
DRAIN_SECONDS = 1.0  # how long to wait for pipes after the program is gone
KILLED_SECONDS = 10.0  # how long to wait for a killed program's end to be said
WATCH_SECONDS = 1.0  # how often a run's folder is measured, where it is not bounded
# CPU seconds a run's processes may use together, past the per-process limit: the
# launcher's and the sandbox's own start-up.
CPU_GRACE = 1


@dataclass(frozen=True)
class Run:
    """How a run ended. ``status``: ``exited``, ``timeout`` (wall clock), ``cpu-limit``,
    ``output-limit`` or ``signal``; ``isolation`` is the level it ran at."""

    status: RunStatus
    returncode: int | None
    stdout: bytes
    stderr_tail: bytes
    seconds: float
    cpu_seconds: float = 0.0
    isolation: str = "process"
    out_of_memory: bool = False  # the run's control group hit its memory ceiling

    @property
    def signal_name(self) -> str:
        if self.returncode is None or self.returncode >= 0:
            return ""
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"


def clean_environment(home: Path) -> dict[str, str]:
    """No inherited variables (secrets, tokens): only what a Python program needs."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "TMPDIR": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def run_limited(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    limits: Limits,
    *,
    isolation: Isolation | None = None,
    work: Path | None = None,
    hidden: Sequence[Path] = (),
    watch: Callable[[], bool] | None = None,
    tidy: Tidy | None = None,
) -> Run:
    """Run ``argv`` (``argv[0]`` an absolute path) under ``limits``; read at most
    ``limits.output_kb`` of standard output, then stop the program.

    With an ``isolation`` stronger than ``process``, ``work`` (the run's own folder, holding
    ``cwd``) is the only place it may write, ``hidden`` paths are kept from it, and at the
    ``user`` level or as root it runs as a lent uid whose every process is killed afterwards.
    Where the isolation has control groups, the run gets one of its own (``_cgroups``), and
    all of it is killed at the end, at every level; the emptied group is removed on
    ``tidy``'s thread if one is given. ``watch``: see ``_run``.
    """
    isolation = isolation or Isolation("process")
    work = work or cwd
    with contextlib.ExitStack() as stack:
        uid = stack.enter_context(lent_uid()) if isolation.drop_user else None
        payload: dict[str, float | None] = {"cpu": limits.cpu, "memory_mb": limits.memory_mb,
                   "file_mb": FILE_MB, "uid": uid, "nproc": limits.processes,
                   "files": OPEN_FILES}  # fmt: skip
        if uid is not None:
            hand_over(work, uid)
            stack.callback(kill_user, uid, work)
            # RLIMIT_NPROC counts the uid's zombies too: an earlier run's processes, killed
            # but not yet reaped by whoever adopted them, must not shrink this run's share.
            payload["nproc"] = limits.processes + len(processes_of(uid, zombies=True))
        elif os.getuid() != 0:
            # RLIMIT_NPROC counts all of this user's processes, not just the run's.
            payload["nproc"] = limits.processes + len(processes_of(os.getuid(), zombies=True))
        group = None
        joins: list[Path] = []
        if isolation.cgroups is not None:
            group = RunGroup(isolation.cgroups, limits.memory_mb, limits.processes)
            stack.callback(group.remove, tidy)
            # The join prefix is a single-threaded shell that has started nothing yet: it
            # may move itself alone, which is faster (``RunGroup.self_joins``).
            joins = group.self_joins or group.joins
        launcher = [sys.executable, "-I", "-S"]
        direct = direct_launch(payload, joins) if isolation.level == "process" else None
        if direct is not None:
            command = [*direct.prefix, *argv]
        elif isolation.level == "namespace":
            prefix = bwrap_command(isolation, work, cwd, hidden)
            command = [*prefix, *launcher, LAUNCHER_INSIDE, encode(payload), *argv]
        else:
            command = [*launcher, str(LAUNCHER), encode(payload), *argv]
        if group is not None and direct is None:
            command = [*join_command(joins, itself=True), *command]
        # bubblewrap reports a program killed by signal N as exit status 128 + N.
        run = _run(command, cwd, env, limits, signal_in_status=isolation.level == "namespace",
                   group=group, watch=watch, direct=direct)  # fmt: skip
        if run.returncode == 125 and run.stderr_tail.startswith(JOIN_FAILED.encode()):
            raise OSError(run.stderr_tail.decode("utf-8", "replace").strip())
    return dataclasses.replace(run, isolation=isolation.level)


def _reap(pid: int, options: int) -> tuple[int, float] | None:
    """The wait status and CPU time of ``pid`` once it has ended (``os.wait4``, not
    ``Popen.poll``, because the CPU time it used tells a CPU limit from other kills)."""
    got, wait_status, usage = os.wait4(pid, options)
    return (wait_status, usage.ru_utime + usage.ru_stime) if got == pid else None


class Tracked(Protocol):
    """A started program as :func:`follow` watches it: the grader's ends of its standard
    output and error, and a descriptor that turns readable when it may have ended."""

    stdout: int
    stderr: int
    end: int

    def ended(self) -> tuple[int, float] | None:
        """Its wait status and CPU time, if it has ended (``end`` is readable); else
        ``None``, and ``end`` is still watched."""

    def kill(self) -> None:
        """Kill the program and everything it started that this level can reach."""

    def wait(self) -> tuple[int, float]:
        """Its wait status and CPU time, once killed."""

    def close(self) -> None:
        """Close the grader's descriptors."""


class _Child:
    """A program started by ``subprocess``: its end is watched through a pidfd, not its
    pipes: a program may close both and still be at work (or be about to exit cleanly),
    and a child it left behind may hold them open after it is gone."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None and process.stderr is not None
        self.process = process
        self.stdout = process.stdout.fileno()
        self.stderr = process.stderr.fileno()
        self.end = os.pidfd_open(process.pid)

    def _reaped(self, got: tuple[int, float] | None) -> tuple[int, float] | None:
        if got is not None:
            self.process.returncode = os.waitstatus_to_exitcode(got[0])
        return got

    def ended(self) -> tuple[int, float] | None:
        return self._reaped(_reap(self.process.pid, os.WNOHANG))

    def kill(self) -> None:
        _kill_group(self.process.pid)

    def wait(self) -> tuple[int, float]:
        return self._reaped(_reap(self.process.pid, 0)) or (0, 0.0)

    def close(self) -> None:
        os.close(self.end)
        assert self.process.stdout is not None and self.process.stderr is not None
        self.process.stdout.close()
        self.process.stderr.close()


def _run(
    command: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    limits: Limits,
    signal_in_status: bool = False,
    group: RunGroup | None = None,
    watch: Callable[[], bool] | None = None,
    direct: DirectLaunch | None = None,
) -> Run:
    """Run ``command`` until it ends and its pipes are drained, or a limit stops it
    (``follow``). ``group``: the run's control group, whose CPU time counts all its
    processes together. ``watch``: called about once a second and as it ends; true stops
    the run (its folder has grown past what it may hold). ``direct``: ``command`` starts with its
    prefix, which waits for its limits (``DirectLaunch.release``)."""
    started = time.monotonic()
    process = None
    try:
        with contextlib.nullcontext() if direct is None else direct.starting():
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=dict(env),
                # (the direct launch's shell puts /dev/null there once released)
                stdin=subprocess.DEVNULL if direct is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
            )
    except BaseException:
        if process is not None:  # started, not let go: the thread's way back failed
            _kill_group(process.pid)
            process.communicate()
        raise
    # Not released: the shell ends without starting the program (its end is followed as
    # any other), and the run is the grader's failure, not the program's.
    released = direct is None or direct.release(process)
    run = follow(_Child(process), limits, started, signal_in_status=signal_in_status,
                 group=group, watch=watch)  # fmt: skip
    if not released:
        raise OSError(HOLD_FAILED)
    return run


# Set while an interrupted batch stops: every run under way ends at once (the batch keeps
# none of their results, and waiting out their time limits kept a Ctrl-C unanswered).
ABANDONED = threading.Event()


def follow(
    tracked: Tracked,
    limits: Limits,
    started: float,
    *,
    signal_in_status: bool = False,
    group: RunGroup | None = None,
    watch: Callable[[], bool] | None = None,
) -> Run:
    """Watch a program started at ``started`` (``time.monotonic``) until it ends and its
    pipes are drained, or a limit stops it: the wall clock, the CPU time of its control
    group ``group``, its memory ceiling, ``limits.output_kb`` of standard output, or
    ``watch`` (called about once a second, and once more if it ended by itself; true: its
    folder has grown past what it may hold). ``signal_in_status``: its exit status says
    death by signal N as 128 + N (as bubblewrap reports it)."""
    cap = limits.output_kb * 1024
    cpu_cap = max(1, int(limits.cpu + 0.999)) + CPU_GRACE
    out = bytearray()
    err = bytearray()
    status: RunStatus | None = None
    deadline = started + limits.timeout
    next_watch = started + WATCH_SECONDS

    def stop(why: RunStatus) -> None:
        nonlocal status
        if not status:
            status = why
            tracked.kill()
            if group is not None:
                group.kill()

    with selectors.DefaultSelector() as selector:
        selector.register(tracked.stdout, selectors.EVENT_READ, out)
        selector.register(tracked.stderr, selectors.EVENT_READ, err)
        selector.register(tracked.end, selectors.EVENT_READ, None)
        drain_until: float | None = None
        killed_at: float | None = None
        ended: tuple[int, float] | None = None
        try:
            while True:
                now = time.monotonic()
                if now >= deadline or ABANDONED.is_set():
                    stop("timeout")
                if group is not None:
                    if (used := group.cpu_seconds()) and used > cpu_cap:
                        stop("cpu-limit")
                    elif group.out_of_memory():
                        # The kernel killed one of its processes at the group's ceiling;
                        # the rest go too (cgroup v2's memory.oom.group does it itself).
                        stop("memory-limit")
                if watch is not None and now >= next_watch:
                    next_watch = now + WATCH_SECONDS
                    if watch():
                        stop("folder-limit")
                pipes_open = len(selector.get_map()) - (ended is None)
                if ended is not None and drain_until is None:
                    # The program is gone: whatever it started goes too, and the pipes get
                    # a moment to deliver what is left.
                    tracked.kill()
                    drain_until = now + DRAIN_SECONDS
                if ended is not None and (not pipes_open or now >= (drain_until or now)):
                    break
                if status and ended is None and now >= (killed_at or now) + KILLED_SECONDS:
                    break  # killed, and its end never said: ``tracked.wait`` decides
                wait = min(deadline, drain_until or deadline) - now
                if status:  # killed: only its end (and the pipes' last bytes) to wait for
                    killed_at = killed_at or now
                    wait = DRAIN_SECONDS if ended is None else max(0.0, wait)
                for key, _ in selector.select(timeout=max(0.0, min(wait, 0.05))):
                    if key.data is None:
                        ended = tracked.ended()
                        if ended is not None:
                            selector.unregister(tracked.end)
                        continue
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    buffer: bytearray = key.data
                    buffer += chunk
                    if buffer is err and len(err) > 2 * STDERR_TAIL:
                        del err[:-STDERR_TAIL]
                    if buffer is out and len(out) > cap:
                        del out[cap:]
                        stop("output-limit")
        finally:
            tracked.close()
    tracked.kill()
    wait_status, cpu = ended or tracked.wait()
    returncode = os.waitstatus_to_exitcode(wait_status)
    if signal_in_status and 128 < returncode < 128 + signal.NSIG:
        returncode = 128 - returncode
    seconds = time.monotonic() - started
    if group is not None:
        cpu = max(cpu, group.cpu_seconds() or 0.0)
    out_of_memory = group is not None and group.out_of_memory()
    if status is None and out_of_memory:
        status = "memory-limit"
    if status is None:
        status = "exited" if returncode >= 0 else "signal"
        # The CPU limit ends a run with SIGXCPU, or SIGKILL a second later: that is running
        # out of time, like the wall clock (which a busy machine can let the CPU limit beat).
        if returncode == -signal.SIGXCPU or (
            returncode == -signal.SIGKILL
            and not out_of_memory
            and cpu >= 0.9 * max(1, int(limits.cpu + 0.999))
        ):
            status = "cpu-limit"
    if status in ("exited", "signal") and watch is not None and watch():
        # Measured once more as it ended: a folder filled faster than the measures come is
        # past its bound all the same (as a sized folder would have refused the writes).
        status = "folder-limit"
    return Run(status, returncode, bytes(out), bytes(err[-STDERR_TAIL:]), seconds, cpu,
               out_of_memory=out_of_memory)  # fmt: skip
