"""Attempt: leave state in the kernel for a later run of the same lent uid, or find what an
earlier one left: a key in the user's keyring and in its session keyring, a System V
shared-memory segment, and files in ``/run/lock`` and ``/dev/shm``. With ``plant`` it
leaves them, holding the board it was given (a hidden board's layout, for a later run to
print into its visible feedback); with ``find`` it looks for them and prints what it found
as its "answer".

The grader must make every run start clean: keyrings fresh (a user namespace of its own),
IPC objects gone with the run (an IPC namespace of its own, else removed by uid), and the
places anyone may write to swept of the uid's files when it is handed back and lent."""

import ctypes
import json
import os
import sys
from pathlib import Path

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-kernel-state")
MODE = CONFIG.get("mode", "plant")
KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING = -4, -3
KEYCTL_SEARCH, KEYCTL_READ = 10, 11
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[os.uname().machine]
SHM_KEY = 0x5EC12E7
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
FILES = [f"/run/lock/{TOKEN}", f"/dev/shm/{TOKEN}", f"/tmp/{TOKEN}"]
board = b"?"
if len(sys.argv) > 1:
    with open(sys.argv[1], "rb") as given:
        board = given.read()[:4000]
found = {"uid": os.getuid()}


def attempt(label, action):
    try:
        found[label] = "ok:" + str(action())[:60]
    except Exception as err:
        found[label] = "denied:" + type(err).__name__


def check(result):
    if result < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return result


def add_key(keyring):
    return check(libc.syscall(ADD_KEY, b"user", TOKEN.encode(), board, len(board), keyring))


def read_key(keyring):
    key = check(libc.syscall(KEYCTL, KEYCTL_SEARCH, keyring, b"user", TOKEN.encode(), 0))
    buffer = ctypes.create_string_buffer(8192)
    size = check(libc.syscall(KEYCTL, KEYCTL_READ, key, buffer, 8192))
    return buffer.raw[:size].decode("utf-8", "replace")


def plant_shm():
    ident = check(libc.shmget(SHM_KEY, 64 << 20, 0o1666))
    address = libc.shmat(ident, None, 0)
    ctypes.memmove(address, board, len(board))
    return ident


def read_shm():
    ident = check(libc.shmget(SHM_KEY, 0, 0))
    address = libc.shmat(ident, None, 0)
    return ctypes.string_at(address, 200).rstrip(b"\0").decode("utf-8", "replace")


def plant_file(path):
    with open(path, "wb") as file:
        file.write(board)
    os.chmod(path, 0o644)
    return path


if MODE == "plant":
    attempt("key-user", lambda: add_key(KEY_SPEC_USER_KEYRING))
    attempt("key-session", lambda: add_key(KEY_SPEC_SESSION_KEYRING))
    attempt("shm", plant_shm)
    for path in FILES:
        attempt("file " + path, lambda path=path: plant_file(path))
else:
    attempt("key-user", lambda: read_key(KEY_SPEC_USER_KEYRING))
    attempt("key-session", lambda: read_key(KEY_SPEC_SESSION_KEYRING))
    attempt("shm", read_shm)
    for path in FILES:
        attempt("file " + path, lambda path=path: Path(path).read_text()[:60])
    print("found:", json.dumps({k: v for k, v in found.items() if str(v).startswith("ok")}))
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
