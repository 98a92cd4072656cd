"""Running one untrusted program with limits, in a process group of its own.

The grader never imports student code: every run is a separate process, started through
``_launch.py`` (which sets the resource limits), in its own session so that a timeout kills
the program and everything it started.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._assignments import Limits

__all__ = ["Run", "clean_environment", "run_limited"]

LAUNCHER = Path(__file__).resolve().parent / "_launch.py"
STDERR_TAIL = 4096  # bytes of standard error kept for feedback
FILE_MB = 64  # largest file a submission may write
DRAIN_SECONDS = 1.0  # how long to wait for pipes after the program is gone


@dataclass(frozen=True)
class Run:
    """How a run ended. ``status``: ``exited``, ``timeout``, ``output-limit`` or ``signal``."""

    status: str
    returncode: int | None
    stdout: bytes
    stderr_tail: bytes
    seconds: float

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


def run_limited(argv: Sequence[str], cwd: Path, env: Mapping[str, str], limits: Limits) -> Run:
    """Run ``argv`` (``argv[0]`` an absolute path) under ``limits``; read at most
    ``limits.output_kb`` of standard output, then stop the program."""
    payload = json.dumps({"cpu": limits.cpu, "memory_mb": limits.memory_mb, "file_mb": FILE_MB})
    command = [sys.executable, "-I", "-S", str(LAUNCHER), payload, *argv]
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
    status = ""
    deadline = started + limits.timeout
    assert process.stdout is not None and process.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        drain_until: float | None = None
        while selector.get_map():
            now = time.monotonic()
            if not status and now >= deadline:
                status = "timeout"
                _kill_group(process.pid)
            if drain_until is None and (status or process.poll() is not None):
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
    returncode = process.wait()
    seconds = time.monotonic() - started
    if not status:
        status = "exited" if returncode >= 0 else "signal"
    return Run(status, returncode, bytes(out), bytes(err[-STDERR_TAIL:]), seconds)
