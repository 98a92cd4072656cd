"""Run as a script, never imported: ``python _launch.py LIMITS_JSON PROGRAM ARGS...``.

It sets the resource limits of the process it runs in, then replaces itself with the
submission. Doing this in a small program of its own (rather than a ``preexec_fn`` in the
grader) keeps the grader's threads out of the forked child.
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


def main() -> None:
    limits = json.loads(sys.argv[1])
    # SIGXCPU at the soft CPU limit, SIGKILL one second later.
    _limit(resource.RLIMIT_CPU, max(1, int(limits["cpu"] + 0.999)))
    _limit(resource.RLIMIT_AS, limits["memory_mb"] * 1024 * 1024)
    _limit(resource.RLIMIT_FSIZE, limits["file_mb"] * 1024 * 1024)
    _limit(resource.RLIMIT_CORE, 0)
    os.execv(sys.argv[2], sys.argv[2:])


if __name__ == "__main__":
    main()
