"""Run as a script: ``python -I -S _launch.py LIMITS PROGRAM ARGS...`` (``LIMITS`` as
:func:`encode` writes them).

It sets the resource limits of the process it runs in, drops to the run's own user when it
is given one, then replaces itself with the submission. Doing this in a small program of its
own (rather than a ``preexec_fn`` in the grader) keeps the grader's threads out of the forked
child, and lets the same step run inside a bubblewrap sandbox.

The grader imports it too (:func:`encode`, :func:`rlimits`, :func:`bounded`, ``UMASK``,
``IGNORED_SIGNALS``): where a run needs no more than limits, a umask and an IPC namespace
(the ``process`` level), the grader gives it exactly what this script would, without it
(``_sandbox.direct_launch``: the limits set from outside on a shell that waits for them,
started as root in a fresh IPC namespace), and saves this interpreter's start-up. Where
this script does run, it imports nothing slow to import (``json`` costs as much as the
interpreter's start-up: the limits come as ``key=value`` words).

A lent uid is the same kernel user from one run to the next, and the kernel keeps some state
per user: its keyrings, and (outside a sandbox) System V shared memory, semaphores and
message queues. So a run with a lent uid gets namespaces of its own for both, which go with
its last process: a fresh IPC namespace (made as root, before the uid is dropped) and a
fresh user namespace mapping only that uid (made after, which any user may), in which its
keyrings start empty. Where the kernel refuses a user namespace, the uid's keyrings are
cleared instead.
"""

from __future__ import annotations

import os
import resource
import signal
import sys

CLONE_NEWUSER = 0x10000000
CLONE_NEWIPC = 0x08000000
PR_SET_DUMPABLE = 4
# keyctl(2) operations and special keyring ids (linux/keyctl.h)
KEYCTL_JOIN_SESSION_KEYRING = 1
KEYCTL_CLEAR = 7
KEY_SPEC_USER_KEYRING = -4
KEY_SPEC_USER_SESSION_KEYRING = -5
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219, "i686": 288, "armv7l": 311}


# What the grader asks for, by name: integers, but ``cpu`` (seconds, possibly fractional)
# and ``uid`` (absent: the grader's own user).
LIMIT_KEYS = ("cpu", "memory_mb", "file_mb", "files", "nproc", "uid")
# Python ignores these two at start-up, and an ignored signal stays ignored across exec: the
# program started by this script inherits them ignored (a file-size limit then fails a write
# with EFBIG instead of killing the program). The direct launch ignores them too.
IGNORED_SIGNALS = ("SIGPIPE", "SIGXFSZ")
# A shell starts a background job (``autograder grade ... &``, a CI script) with these two
# ignored, which would reach the program the same way: it gets them at their default, as
# from a terminal (Python then installs its KeyboardInterrupt handler).
DEFAULT_SIGNALS = ("SIGINT", "SIGQUIT")
UMASK = 0o077  # what the run creates is its own


def encode(limits: dict[str, float | None]) -> str:
    """``limits`` as this script's first argument (``None`` values left out)."""
    return " ".join(f"{key}={limits[key]}" for key in LIMIT_KEYS if limits.get(key) is not None)


def decode(text: str) -> dict[str, float | None]:
    words = (word.partition("=") for word in text.split())
    return {key: float(value) for key, _, value in words}


def rlimits(limits: dict[str, float | None]) -> list[tuple[int, int]]:
    """The resource limits a run asks for, ``(RLIMIT_*, value)``, in the order they are set."""

    def whole(key: str) -> int:
        return int(limits.get(key) or 0)

    megabyte = 1024 * 1024
    # SIGXCPU at the soft CPU limit, SIGKILL one second later (``bounded``).
    wanted = [
        (resource.RLIMIT_CPU, max(1, int((limits.get("cpu") or 0) + 0.999))),
        (resource.RLIMIT_AS, whole("memory_mb") * megabyte),
        (resource.RLIMIT_FSIZE, whole("file_mb") * megabyte),
        (resource.RLIMIT_CORE, 0),
    ]
    if whole("files"):
        wanted.append((resource.RLIMIT_NOFILE, whole("files")))
    if whole("nproc"):
        wanted.append((resource.RLIMIT_NPROC, whole("nproc")))
    return wanted


def bounded(kind: int, value: int) -> tuple[int, int]:
    """``(soft, hard)`` for ``kind`` at ``value``, within the hard limit this process has
    (which a process it starts inherits); the CPU limit's hard one a second later."""
    _soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    return value, value if kind != resource.RLIMIT_CPU else value + 1


def _limit(kind: int, value: int) -> None:
    # (_warm.py calls it by this name, on each board's process)
    resource.setrlimit(kind, bounded(kind, value))


def _libc():
    import ctypes  # only as root: the other runs start faster without it

    return ctypes.CDLL(None, use_errno=True)


def _unshare(libc, flags: int) -> bool:
    return libc.unshare(flags) == 0


def _write(path: str, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


def _fresh_user_namespace(libc, uid: int) -> bool:
    """Enter a user namespace of its own in which ``uid`` is itself and nobody else is."""
    # After the uid change the process is not dumpable, so its /proc files belong to root
    # and it could not write its own maps.
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    try:
        if not _unshare(libc, CLONE_NEWUSER):
            return False
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{uid} {uid} 1")
        return True
    finally:
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _clear_keyrings(libc) -> None:
    number = SYS_KEYCTL.get(os.uname().machine)
    if number is None:
        return
    for keyring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING):
        libc.syscall(number, KEYCTL_CLEAR, keyring)


def _join_new_session_keyring(libc) -> None:
    number = SYS_KEYCTL.get(os.uname().machine)
    if number is not None:
        libc.syscall(number, KEYCTL_JOIN_SESSION_KEYRING, None)


def _become(uid: int) -> None:
    libc = _libc()
    # As root this always works, unless a sandbox already gave the run an IPC namespace
    # (bubblewrap: it then drops the right to make another).
    _unshare(libc, CLONE_NEWIPC)
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit("launcher: could not drop to the run's user")
    if not _fresh_user_namespace(libc, uid):
        _clear_keyrings(libc)
    _join_new_session_keyring(libc)


def main() -> None:
    limits = decode(sys.argv[1])
    for kind, value in rlimits(limits):
        _limit(kind, value)
    uid = limits.get("uid")
    if uid is not None:
        _become(int(uid))
    elif os.geteuid() == 0:
        # Root running a program as itself (the ``process`` level): its System V objects
        # still go with it.
        _unshare(_libc(), CLONE_NEWIPC)
    os.umask(UMASK)
    for name in DEFAULT_SIGNALS:
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    os.execv(sys.argv[2], sys.argv[2:])


if __name__ == "__main__":
    main()
