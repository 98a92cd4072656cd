#!/usr/bin/env python3
"""Check your program on your own board before you submit it.

Usage:  python3 check.py            checks the program named in expected.json
        python3 check.py PROGRAM    checks another file
        python3 check.py --all      lists every wrong entry, not the first few

It runs your program on board.json (your board), and on the boards every student's check
runs as well (the trap lane's circle and fully trapped lane), reads what it prints exactly
as the grader does, and compares every number with the expected values in expected.json. It needs
only Python 3.10 or newer: no packages, no internet. It exits with status 0 when everything
is right.

The grader also runs your program on hidden boards, so a program that only prints these
numbers will not pass: solve the board you are given.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

# This file runs on the student's Python, not the project's 3.11+.
if sys.version_info < (3, 10):  # noqa: UP036
    print("check.py needs Python 3.10 or newer")
    sys.exit(2)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _check import _texts  # noqa: E402  (the grader's own sentences, parser and scorer)
from _check._cases import Expected  # noqa: E402
from _check._diagnose import diagnose, goal_value  # noqa: E402
from _check._parse import OutputError, parse_output  # noqa: E402


def _reader(stream, keep, cap, full):
    """Read ``stream`` to its end, keeping at most ``cap`` bytes; set ``full`` past it."""
    kept = 0
    while True:
        chunk = stream.read(65536)
        if not chunk:
            return
        if kept < cap:
            keep.append(chunk[: cap - kept])
            kept += len(keep[-1])
        if kept >= cap:
            full.set()


def _stop(process):
    """Kill the program and, on POSIX, everything it started (its own process group)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except OSError:
        pass


def _run(program, board, timeout, output_kb):
    """Run the program; return (stdout text, a line saying why it failed, or None).

    Output is read by threads that keep only the first ``output_kb`` (a print in an endless
    loop must not eat the memory), and a child left holding the pipes cannot hang the check.
    """
    process = subprocess.Popen(
        [sys.executable, str(program), str(board)],
        cwd=str(program.parent),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=os.name == "posix",
    )
    out: list[bytes] = []
    err: list[bytes] = []
    full = threading.Event()
    readers = [
        threading.Thread(target=_reader, args=(process.stdout, out, output_kb * 1024, full)),
        threading.Thread(target=_reader, args=(process.stderr, err, 64 * 1024, threading.Event())),
    ]
    for reader in readers:
        reader.daemon = True
        reader.start()
    deadline = time.monotonic() + timeout
    while process.poll() is None and not full.is_set() and time.monotonic() < deadline:
        time.sleep(0.02)
    timed_out = process.poll() is None and not full.is_set()
    _stop(process)
    process.wait()
    for reader in readers:
        reader.join(timeout=1.0)  # whatever is still holding the pipes is not waited for
    if full.is_set():
        return "", _texts.output_limit(output_kb)
    if timed_out:
        return "", _texts.time_limit(timeout)
    stderr = b"".join(err).decode("utf-8", errors="replace").rstrip()
    if process.returncode != 0:
        lines = stderr.splitlines()[-_texts.STDERR_LINES :]
        killed = ""
        if process.returncode < 0:
            try:
                killed = signal.Signals(-process.returncode).name
            except ValueError:
                killed = f"signal {-process.returncode}"
        why = _texts.crash_reason(process.returncode, killed, lines)
        return "", "\n".join([why, _texts.STDERR_HEADING, *lines])
    return b"".join(out).decode("utf-8", errors="replace"), None


def _check(program, board, expected, key, every, self_check=None):
    """Run the program on one board and say what is wrong, as the grader does (with the
    self-check line on the student's own board); True when everything is right."""
    text, failed = _run(program, board, float(key["timeout"]), int(key.get("output_kb", 1024)))
    if failed is not None:
        print(failed)
        return False
    try:
        printed = parse_output(text, expected)
    except OutputError as err:
        print(_texts.unreadable(err) if text.strip() else expected.format.printed_nothing)
        return False
    found = diagnose(printed, expected, float(key["value_tolerance"]))
    marked = found.mark
    print(_texts.entries_right(marked.right, marked.total))
    if self_check is not None:
        print(expected.format.self_check_line(self_check, printed.numbers))
    for line in found.lines:
        print(line)
    for warning in printed.warnings:
        print(f"warning: {warning}")
    shown = None if every else _texts.SHOWN_WRONG
    for line in marked.listing(shown=shown, nearest_goal=goal_value(expected)):
        print(line)
    return marked.right == marked.total


def main(argv):
    key = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
    every = "--all" in argv[1:]
    args = [a for a in argv[1:] if a != "--all"]
    program = Path(args[0]).resolve() if args else HERE / key["program"]
    if not program.is_file():
        print(f"no program {program.name} here; pass its path: python3 check.py PROGRAM.py")
        return 2
    expected = Expected.from_json(key["expected"])
    print(f"{key['title']}: checking {program.name} on your board ({key['board_description']})")
    right = _check(program, HERE / key["board"], expected, key, every, key["self_check"])
    # The boards every student's check runs as well (the trap lane's circle and a fully
    # trapped lane): what a program may ignore on its own board and still get wrong.
    for also in key.get("also", []):
        shared = Expected.from_json(also["expected"])
        print(f"\n{also['title']}:")
        right = _check(program, HERE / also["board"], shared, key, every) and right
    if right:
        print("\n" + _texts.OWN_BOARD_RIGHT)
        return 0
    print("\n" + _texts.NOT_YET)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
