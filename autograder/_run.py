"""Running one untrusted program with limits, in a process group of its own.

The grader never imports student code: every run is a separate process, started through
``_launch.py`` (which sets the resource limits), in its own session so that a timeout kills
the program and everything it started.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import resource
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ._assignments import Limits
from ._sandbox import (
    LAUNCHER,
    LAUNCHER_INSIDE,
    Isolation,
    bwrap_command,
    hand_over,
    kill_user,
    lent_uid,
    processes_of,
)

__all__ = ["Run", "RunStatus", "clean_environment", "run_limited"]

# How a run ended: on its own, or stopped by the wall clock, its CPU time or its output cap,
# or killed by a signal.
RunStatus = Literal["exited", "timeout", "cpu-limit", "output-limit", "signal"]

STDERR_TAIL = 4096  # bytes of standard error kept for feedback
FILE_MB = 64  # largest file a submission may write
DRAIN_SECONDS = 1.0  # how long to wait for pipes after the program is gone


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
) -> Run:
    """Run ``argv`` (``argv[0]`` an absolute path) under ``limits``; read at most
    ``limits.output_kb`` of standard output, then stop the program.

    With an ``isolation`` stronger than ``process``, ``work`` (the run's own folder, holding
    ``cwd``) is the only place it may write, ``hidden`` paths are kept from it, and at the
    ``user`` level or as root it runs as a lent uid whose every process is killed afterwards.
    """
    isolation = isolation or Isolation("process")
    work = work or cwd
    with contextlib.ExitStack() as stack:
        uid = stack.enter_context(lent_uid()) if isolation.drop_user else None
        payload = {"cpu": limits.cpu, "memory_mb": limits.memory_mb, "file_mb": FILE_MB,
                   "uid": uid, "nproc": limits.processes}  # fmt: skip
        if uid is not None:
            hand_over(work, uid)
            stack.callback(kill_user, uid, work)
        elif os.getuid() != 0:
            # RLIMIT_NPROC counts all of this user's processes, not just the run's.
            payload["nproc"] = limits.processes + len(processes_of(os.getuid(), zombies=True))
        launcher = [sys.executable, "-I", "-S"]
        if isolation.level == "namespace":
            prefix = bwrap_command(isolation, work, cwd, hidden)
            command = [*prefix, *launcher, LAUNCHER_INSIDE, json.dumps(payload), *argv]
        else:
            command = [*launcher, str(LAUNCHER), json.dumps(payload), *argv]
        # bubblewrap reports a program killed by signal N as exit status 128 + N.
        run = _run(command, cwd, env, limits, signal_in_status=isolation.level == "namespace")
    return dataclasses.replace(run, isolation=isolation.level)


def _reap(pid: int, options: int) -> tuple[int, resource.struct_rusage] | None:
    """The wait status and resource use of ``pid`` once it has ended (``os.wait4``, not
    ``Popen.poll``, because the CPU time it used tells a CPU limit from other kills)."""
    got, wait_status, usage = os.wait4(pid, options)
    return (wait_status, usage) if got == pid else None


def _run(
    command: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    limits: Limits,
    signal_in_status: bool = False,
) -> Run:
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        close_fds=True,
    )
    cap = limits.output_kb * 1024
    out = bytearray()
    err = bytearray()
    status: RunStatus | None = None
    deadline = started + limits.timeout
    assert process.stdout is not None and process.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        drain_until: float | None = None
        ended: tuple[int, resource.struct_rusage] | None = None
        while selector.get_map():
            now = time.monotonic()
            if not status and now >= deadline:
                status = "timeout"
                _kill_group(process.pid)
            if ended is None:
                ended = _reap(process.pid, os.WNOHANG)
            if drain_until is None and (status or ended is not None):
                # The program is gone (or killed): whatever it started goes too, and the
                # pipes get a moment to deliver what is left.
                _kill_group(process.pid)
                drain_until = now + DRAIN_SECONDS
            if drain_until is not None and now >= drain_until:
                break
            wait = min(deadline, drain_until or deadline) - now
            for key, _ in selector.select(timeout=max(0.0, min(wait, 0.05))):
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
                    if not status:
                        status = "output-limit"
                        _kill_group(process.pid)
    process.stdout.close()
    process.stderr.close()
    _kill_group(process.pid)
    wait_status, usage = ended or _reap(process.pid, 0) or (0, None)
    returncode = process.returncode = os.waitstatus_to_exitcode(wait_status)
    if signal_in_status and 128 < returncode < 128 + signal.NSIG:
        returncode = 128 - returncode
    seconds = time.monotonic() - started
    cpu = usage.ru_utime + usage.ru_stime if usage else 0.0
    if status is None:
        status = "exited" if returncode >= 0 else "signal"
        # The CPU limit ends a run with SIGXCPU, or SIGKILL a second later: that is running
        # out of time, like the wall clock (which a busy machine can let the CPU limit beat).
        if returncode == -signal.SIGXCPU or (
            returncode == -signal.SIGKILL and cpu >= 0.9 * max(1, int(limits.cpu + 0.999))
        ):
            status = "cpu-limit"
    return Run(status, returncode, bytes(out), bytes(err[-STDERR_TAIL:]), seconds, cpu)
