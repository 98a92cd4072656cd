"""Removing a run's folder when a program filled it with empty folders: ``remove_tree`` as it
is, against the version before it was made linear (commit 3584060, which read the folder
again from its start each time it came back from a subfolder).

Run from the repository root (the old version is read with ``git show``):
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_remove_tree.py [--folders 5000] [--runs 5]
        [--dir /tmp] [--stuck 0]

For N and 4N empty folders side by side in one folder, each function removes a fresh tree
(made before the clock starts) once per run, in turn, the order reversed every other run so
that drift hits all alike. Medians. ``floor`` is the kernel's own share: the folder listed
once and each name removed, nothing else. A linear removal takes about 4 times as long for
4N as for N, a quadratic one about 16 times (the kernel's own cost also grows a little
faster than the count in one large folder). With ``--stuck P``, P% of the folders refuse
to go (``rmdir`` fails as on a mount point, for every function alike), which the old walk
read again on every climb. Figures depend on the machine and its file system: quote them
with it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _machine import machine  # noqa: E402  benchmarks/_machine.py, beside this script

from autograder._files import remove_tree  # noqa: E402

BEFORE = "3584060"


def old_remove_tree() -> Callable[[str], None]:
    """``remove_tree`` of commit ``BEFORE``, loaded from its text into a module of its own."""
    text = subprocess.run(
        ["git", "show", f"{BEFORE}:autograder/_files.py"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    module = types.ModuleType("old_files")
    exec(compile(text, f"{BEFORE}:autograder/_files.py", "exec"), module.__dict__)
    return module.remove_tree


def floor(top: str) -> None:
    """The least any removal of ``top`` costs: one listing, one ``rmdir`` per folder."""
    here = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in os.listdir(here):
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=here)
    finally:
        os.close(here)
    with contextlib.suppress(OSError):
        os.rmdir(top)


def wide(base: Path, folders: int) -> Path:
    """A fresh folder holding ``folders`` empty folders."""
    top = Path(tempfile.mkdtemp(prefix="wide-", dir=base))
    here = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for k in range(folders):
            os.mkdir(f"d{k}", dir_fd=here)
    finally:
        os.close(here)
    return top


@contextlib.contextmanager
def refusing(every: int) -> Iterator[None]:
    """``os.rmdir`` refuses one folder in ``every`` (none when 0), as a mount point would."""
    rmdir = os.rmdir

    def refuse(path, *args, **kwargs):
        name = os.path.basename(path)
        if every and name[1:].isdigit() and int(name[1:]) % every == 0:
            raise OSError(errno.EBUSY, "refused by the benchmark")
        return rmdir(path, *args, **kwargs)

    os.rmdir = refuse
    try:
        yield
    finally:
        os.rmdir = rmdir


def timed(remove: Callable[[str], None], base: Path, folders: int, every: int) -> float:
    top = wide(base, folders)
    try:
        with refusing(every):
            start = time.perf_counter()
            remove(str(top))
            seconds = time.perf_counter() - start
        left = len(os.listdir(top)) if top.exists() else 0
        assert left == ((folders + every - 1) // every if every else 0), f"{left} left in {top}"
        return seconds
    finally:
        shutil.rmtree(top, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, default=5000, help="N (4N is also timed)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where the trees are made")
    parser.add_argument("--stuck", type=float, default=0.0, help="%% of folders that stay")
    args = parser.parse_args()
    every = round(100 / args.stuck) if args.stuck else 0
    functions = {"new": remove_tree, "old": old_remove_tree(), "floor": floor}
    sizes = (args.folders, 4 * args.folders)
    base = Path(tempfile.mkdtemp(prefix="bench-remove-tree-", dir=args.dir))
    print(f"machine: {machine()}")
    stuck = f", one folder in {every} refusing to go" if every else ""
    print(f"trees in {args.dir}{stuck}; median of {args.runs} runs each\n")
    times: dict[tuple[str, int], list[float]] = {(f, n): [] for f in functions for n in sizes}
    try:
        for k in range(args.runs):
            order = list(functions) if k % 2 == 0 else list(functions)[::-1]
            for size in sizes:
                for name in order:
                    times[name, size].append(timed(functions[name], base, size, every))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    median = {key: statistics.median(values) for key, values in times.items()}
    print(f"{'folders':>8} {'new (s)':>9} {'old (s)':>9} {'floor (s)':>10} {'old / new':>10} "
          f"{'new / floor':>12}")  # fmt: skip
    for size in sizes:
        new, old, least = (median[f, size] for f in ("new", "old", "floor"))
        print(f"{size:8d} {new:9.3f} {old:9.3f} {least:10.3f} {old / new:10.1f} "
              f"{new / least:12.2f}")  # fmt: skip
    growth = {f: median[f, sizes[1]] / median[f, sizes[0]] for f in functions}
    print(
        f"\n4N / N: new {growth['new']:.1f}, old {growth['old']:.1f}, floor "
        f"{growth['floor']:.1f} (linear: 4, quadratic: 16)"
    )


if __name__ == "__main__":
    main()
