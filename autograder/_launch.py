"""Run as a script, never imported: ``python -I -S _launch.py LIMITS_JSON PROGRAM ARGS...``.

It sets the resource limits of the process it runs in, drops to the run's own user when it
is given one, then replaces itself with the submission. Doing this in a small program of its
own (rather than a ``preexec_fn`` in the grader) keeps the grader's threads out of the forked
child, and lets the same step run inside a bubblewrap sandbox.
"""

import json
import os
import resource
import sys


def _limit(kind: int, value: int) -> None:
    _soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(kind, (value, value if kind != resource.RLIMIT_CPU else value + 1))


def _become(uid: int) -> None:
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit("launcher: could not drop to the run's user")


def main() -> None:
    limits = json.loads(sys.argv[1])
    # SIGXCPU at the soft CPU limit, SIGKILL one second later.
    _limit(resource.RLIMIT_CPU, max(1, int(limits["cpu"] + 0.999)))
    _limit(resource.RLIMIT_AS, limits["memory_mb"] * 1024 * 1024)
    _limit(resource.RLIMIT_FSIZE, limits["file_mb"] * 1024 * 1024)
    _limit(resource.RLIMIT_CORE, 0)
    if limits.get("nproc"):
        _limit(resource.RLIMIT_NPROC, limits["nproc"])
    if limits.get("uid") is not None:
        _become(limits["uid"])
    os.umask(0o077)
    os.execv(sys.argv[2], sys.argv[2:])


if __name__ == "__main__":
    main()
