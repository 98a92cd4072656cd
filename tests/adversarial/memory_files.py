"""Attempt: hold memory that the address-space limit does not count. Memory files
(``memfd_create``) written with ``write`` and kept open, System V shared-memory segments
filled and detached, and files in ``/dev/shm`` take memory outside the process's address
space, and more processes multiply it. Each process reports on standard error how much it
holds after every step (its last line before it is stopped is what it got).

The grader must hold it to the run's memory limit: a control group's ceiling counts all of
these (the run is killed and reported as out of memory) where the machine gives the grader
one; elsewhere few open files (``RLIMIT_NOFILE``) and a small largest file bound what memory
files can hold (README, "Threat model"). Either way nothing of it outlives the run."""

import ctypes
import json
import os
import sys
import time

CONFIG = {}  # the test writes its settings here
KINDS = CONFIG.get("kinds", ["memfd"])
TARGET_MB = CONFIG.get("target_mb", 1536)
PROCESSES = CONFIG.get("processes", 1)
CHUNK = 1 << 20
held = {"memfd": 0, "shm": 0, "devshm": 0}
kept = []
libc = ctypes.CDLL(None, use_errno=True)


def report(**more):
    found = {"held_mb": sum(held.values()), "kinds": held, "pid": os.getpid(), **more}
    sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
    sys.stderr.flush()


def fill(fd, megabytes):
    for _ in range(megabytes):
        os.write(fd, b"m" * CHUNK)


def memfd():
    fd = os.memfd_create("hoard")
    fill(fd, 16)
    kept.append(fd)
    return 16


def shm():
    ident = libc.shmget(0, 64 << 20, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    if ident < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    address = libc.shmat(ident, None, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "shmat")
    ctypes.memset(ctypes.c_void_p(address), 0x6D, 64 << 20)
    libc.shmdt(ctypes.c_void_p(address))  # out of its address space, still in memory
    return 64


def devshm():
    fd = os.open(f"/dev/shm/hoard-{os.getpid()}-{len(kept)}", os.O_CREAT | os.O_RDWR, 0o600)
    fill(fd, 16)
    kept.append(fd)
    return 16


children = []
for _ in range(PROCESSES - 1):
    child = os.fork()
    if child == 0:
        children = []  # (a child's siblings are not its own)
        break
    children.append(child)
libc.shmat.restype = ctypes.c_void_p
for kind in KINDS:
    while sum(held.values()) < TARGET_MB // PROCESSES:
        try:
            held[kind] += {"memfd": memfd, "shm": shm, "devshm": devshm}[kind]()
        except OSError as err:
            report(stopped=f"{kind}: {type(err).__name__} {err.errno}")
            break
        report()
if CONFIG.get("exit_when_done"):
    # Where the test only reads the reports: each process ends once it has reported, the
    # first one after the others, rather than holding on until the time limit.
    for child in children:
        os.waitpid(child, 0)
    sys.exit(0)
time.sleep(3600)
