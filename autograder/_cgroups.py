"""A control group of its own for every run, where the machine lends the grader one.

Resource limits (``RLIMIT_*``) bind one process at a time: a program that starts many
processes, each within its own CPU limit, can still take every core from a neighbour graded
beside it, and memory held in memory files or shared memory is not counted by the address
space limit. A control group counts all the processes of a run together:

``cpu``
    a quota of one core per run (and equal weights), so ``grade -j N`` runs cannot starve
    one another; the run's total CPU time, all its processes together, is read from it.
``memory``
    a ceiling on everything the run holds, shared memory and memory files included.
``pids``
    a cap on the run's processes and threads, which binds root too (``RLIMIT_NPROC`` does
    not) and never counts the grader's own.

Every run's group sits in the grader's own (``<own group>/autograder-<pid>/run-<n>``), so
the grader needs only a group delegated to it: root on a machine with cgroup v1 or v2, or a
user given a delegated cgroup v2 subtree (``systemd-run --user -p Delegate=yes``). What is
not available is said once (``Cgroups.describe``) and the grader falls back: per-process
limits, and a timeout is judged against the run's own CPU time (``_submission``).

``$AUTOGRADER_CGROUPS=off`` turns them off (tests of the fallback use it).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import itertools
import os
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ._tidy import Tidy

__all__ = [
    "CONTROLLERS",
    "Cgroups",
    "RunGroup",
    "detect_cgroups",
    "join_command",
    "kill_until_gone",
]

Controller = Literal["cpu", "memory", "pids"]
CONTROLLERS: tuple[Controller, ...] = ("cpu", "memory", "pids")
ENV = "AUTOGRADER_CGROUPS"
PREFIX = "autograder-"
PERIOD_US = 100_000  # the CPU quota's period: a run gets this much CPU time per period
EXTRA_PROCESSES = 4  # the launcher, bubblewrap and its init come on top of a run's own
_counter = itertools.count(1)
# What the join prefix says (then exits 125) when it cannot join, or (``hold``) was not let
# go: the grader's fault.
JOIN_FAILED = "autograder: cannot join the run's control group"
HOLD_FAILED = "autograder: the run's limits were not set"


@dataclass(frozen=True)
class Cgroups:
    """Where run groups are made: for each controller, the grader's own folder for them
    (cgroup v1 has a hierarchy per controller; v2 one folder for all). ``cpuacct`` is the
    v1 hierarchy that counts CPU time, when it is not the ``cpu`` one."""

    version: int
    folders: tuple[tuple[str, Path], ...]
    unavailable: str = ""  # controllers missing, and why

    def folder(self, controller: str) -> Path | None:
        return next((path for name, path in self.folders if name == controller), None)

    def has(self, controller: Controller) -> bool:
        return self.folder(controller) is not None

    @property
    def controllers(self) -> tuple[Controller, ...]:
        return tuple(c for c in CONTROLLERS if self.has(c))

    def describe(self) -> str:
        missing = f"; {self.unavailable}" if self.unavailable else ""
        return f"cgroup v{self.version} ({', '.join(self.controllers)}){missing}"


# -- finding the grader's own groups -----------------------------------------------------


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """``(root within the hierarchy, mount point, type, super options)`` of every cgroup
    file system mounted here."""
    found = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8") as file:
        for line in file:
            fields = line.split()
            dash = fields.index("-")
            kind = fields[dash + 1]
            if kind in ("cgroup", "cgroup2"):
                options = set(fields[dash + 3].split(","))
                found.append((_unescape(fields[3]), _unescape(fields[4]), kind, options))
    return found


def _unescape(path: str) -> str:
    """mountinfo writes spaces and a few other characters as octal escapes."""
    return path.encode().decode("unicode_escape")


def _own_groups() -> dict[str, str]:
    """The grader's own group in each hierarchy: controller (or ``""`` for v2) -> path."""
    own: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup", encoding="utf-8") as file:
        for line in file:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                own[controller] = path
    return own


def _inside(mount_root: str, mount_point: str, path: str) -> Path | None:
    """The folder of group ``path`` under a mount of its hierarchy rooted at ``mount_root``
    (``None`` when the mount does not show it, as in a cgroup namespace seen from outside)."""
    if path != mount_root and not path.startswith(mount_root.rstrip("/") + "/"):
        return None
    folder = Path(mount_point, path[len(mount_root) :].lstrip("/"))
    return folder if folder.is_dir() else None


def _write(path: Path, text: str) -> None:
    # (os.open, not open(): a run's group takes several of these, and a text file object
    # costs more than the write to a control file itself)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    try:
        os.write(fd, text.encode("ascii"))
    finally:
        os.close(fd)


def _make_own(parent: Path) -> Path:
    """The grader's folder for its runs' groups under ``parent``, made afresh."""
    folder = parent / f"{PREFIX}{os.getpid()}"
    with contextlib.suppress(FileExistsError):
        folder.mkdir()
    return folder


def _dead_grader(name: str) -> bool:
    pid = name[len(PREFIX) :]
    if not (name.startswith(PREFIX) and pid.isdigit()) or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _sweep(parent: Path) -> None:
    """Remove the groups of graders that were killed before they could."""
    with contextlib.suppress(OSError), os.scandir(parent) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and _dead_grader(entry.name):
                _remove(Path(entry.path))


def _remove(folder: Path) -> None:
    """Kill what is left in ``folder`` (a group, with its run groups) and remove it."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                _remove(Path(entry.path))
    _kill_members(folder)
    _rmdir(folder)


def _v2(mounts: list, own: dict[str, str]) -> tuple[Cgroups | None, str]:
    mount = next((m for m in mounts if m[2] == "cgroup2"), None)
    if mount is None or "" not in own:
        return None, "cgroup v2 is not mounted"
    home = _inside(mount[0], mount[1], own[""])
    if home is None:
        return None, "cgroup v2: the grader's own group is not visible"
    try:
        offered = set((home / "cgroup.controllers").read_text().split())
    except OSError as err:
        return None, f"cgroup v2: cannot read {home}/cgroup.controllers ({err.strerror})"
    wanted = [c for c in CONTROLLERS if c in offered]
    if not wanted:
        return None, f"cgroup v2: {home} offers none of {', '.join(CONTROLLERS)}"
    enable = " ".join(f"+{c}" for c in wanted)
    try:
        # Passing controllers down needs a group without processes of its own (the root
        # excepted): a delegated group the grader does not sit in itself.
        _write(home / "cgroup.subtree_control", enable)
        _sweep(home)
        own_folder = _make_own(home)
        _write(own_folder / "cgroup.subtree_control", enable)
    except OSError as err:
        why = "it holds processes" if err.errno == errno.EBUSY else err.strerror
        return None, f"cgroup v2: cannot pass controllers down from {home} ({why})"
    missing = sorted(set(CONTROLLERS) - set(wanted))
    note = f"no {', '.join(missing)} controller" if missing else ""
    return Cgroups(2, tuple((c, own_folder) for c in wanted), note), ""


def _v1(mounts: list, own: dict[str, str]) -> tuple[Cgroups | None, str]:
    folders: list[tuple[str, Path]] = []
    missing: list[str] = []
    for controller in (*CONTROLLERS, "cpuacct"):
        mount = next((m for m in mounts if m[2] == "cgroup" and controller in m[3]), None)
        path = own.get(controller)
        home = _inside(mount[0], mount[1], path) if mount and path is not None else None
        if home is None:
            missing.append(controller)
            continue
        try:
            _sweep(home)
            folder = _make_own(home)
            if controller == "memory":
                # Children count towards their parents (the default on most kernels).
                with contextlib.suppress(OSError):
                    _write(folder / "memory.use_hierarchy", "1")
        except OSError:
            missing.append(controller)
            continue
        folders.append((controller, folder))
    if not any(name in CONTROLLERS for name, _ in folders):
        return None, "cgroup v1: no cpu, memory or pids hierarchy the grader may write to"
    shown = [m for m in missing if m != "cpuacct"]
    note = f"no {', '.join(shown)} controller" if shown else ""
    return Cgroups(1, tuple(folders), note), ""


@functools.cache
def detect_cgroups() -> tuple[Cgroups | None, str]:
    """The control groups this grader may make for its runs, or ``None`` and why not."""
    if os.environ.get(ENV, "").lower() in ("0", "off", "no", "false"):
        return None, f"cgroups turned off (${ENV})"
    mounts, own = _mounts(), _own_groups()
    if not mounts:
        return None, "no cgroup file system is mounted"
    found, why_v2 = _v2(mounts, own)
    if found is None:
        found, why_v1 = _v1(mounts, own)
        if found is None:
            return None, f"{why_v2}; {why_v1}"
    atexit.register(_remove_own, found)
    return found, ""


def _remove_own(cgroups: Cgroups) -> None:
    for folder in {path for _, path in cgroups.folders}:
        _remove(folder)


# -- one run's group ----------------------------------------------------------------------


def _members(folder: Path) -> list[int]:
    try:
        fd = os.open(folder / "cgroup.procs", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return []
    chunks = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        return [int(pid) for pid in b"".join(chunks).split()]
    except (OSError, ValueError):
        return []
    finally:
        os.close(fd)


def _kill_members(folder: Path, seconds: float = 10.0, v1: bool = False) -> None:
    """Kill every process in the group: it may fork while the signals go round (up to its
    process cap), so look again until nobody is left. ``v1``: a cgroup v1 group, which has
    no ``cgroup.kill`` to look for."""
    kill = folder / "cgroup.kill"  # cgroup v2, Linux 5.14 and later: all at once
    if not v1 and kill.exists():
        with contextlib.suppress(OSError):
            _write(kill, "1")
    kill_until_gone(lambda: _members(folder), seconds)


def kill_until_gone(find: Callable[[], list[int]], seconds: float = 10.0) -> None:
    """SIGKILL every process ``find`` lists, and look again, until it lists none (or
    ``seconds`` have gone): a process may fork while the signals go round."""
    deadline = time.monotonic() + seconds
    while (pids := find()) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.002)


def _rmdir(folder: Path) -> None:
    # A group whose last process has just died can be busy for a moment.
    for _ in range(200):
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError as err:
            if err.errno != errno.EBUSY:
                return
        time.sleep(0.005)


class RunGroup:
    """The group (one per hierarchy on cgroup v1) of one run, limited as ``make`` says.
    A process joins it by writing its pid (or ``0``, itself) to each of ``joins`` (or
    ``self_joins``) before it starts the program, so that everything the program starts
    is in it too. ``extra``: processes it
    may hold besides the program's own (the launcher, bubblewrap and its init; one for a
    board of a warm interpreter in its sandbox, its own process)."""

    def __init__(
        self, cgroups: Cgroups, memory_mb: int, processes: int, extra: int = EXTRA_PROCESSES
    ) -> None:
        self.cgroups = cgroups
        name = f"run-{next(_counter)}"
        self.folders: dict[str, Path] = {}
        self._open: dict[Path, int] = {}  # files read while the run goes on (``_read``)
        for controller, parent in cgroups.folders:
            folder = parent / name
            if folder not in self.folders.values():
                folder.mkdir()
            self.folders[controller] = folder
        try:
            self._limit(memory_mb, processes + extra)
        except OSError:
            self.remove()
            raise

    def _limit(self, memory_mb: int, processes: int) -> None:
        v2 = self.cgroups.version == 2
        if cpu := self.folders.get("cpu"):
            if v2:
                _write(cpu / "cpu.max", f"{PERIOD_US} {PERIOD_US}")
            else:
                _write(cpu / "cpu.cfs_period_us", str(PERIOD_US))
                _write(cpu / "cpu.cfs_quota_us", str(PERIOD_US))
        if memory := self.folders.get("memory"):
            ceiling = str(memory_mb << 20)
            if v2:
                _write(memory / "memory.max", ceiling)
                for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                    with contextlib.suppress(OSError):  # (no swap accounting, an old kernel)
                        _write(memory / name, value)
            else:
                _write(memory / "memory.limit_in_bytes", ceiling)
                with contextlib.suppress(OSError):  # (no swap accounting)
                    _write(memory / "memory.memsw.limit_in_bytes", ceiling)
        if pids := self.folders.get("pids"):
            _write(pids / "pids.max", str(processes))

    @property
    def joins(self) -> list[Path]:
        return [folder / "cgroup.procs" for folder in dict.fromkeys(self.folders.values())]

    def join(self, pid: int) -> None:
        """Move process ``pid`` (which has started nothing yet) into the group."""
        for path in self.joins:
            _write(path, str(pid))

    @property
    def self_joins(self) -> list[Path]:
        """Files a single-threaded process may move itself into the group through, by
        writing ``0`` to each: cgroup v1's ``tasks``, which moves the writing thread
        without the kernel's lock on every thread group (a move through ``cgroup.procs``,
        or of a thread named by its pid, waits for an RCU grace period: 10 to 20 ms on a
        busy machine). None on cgroup v2."""
        if self.cgroups.version != 1:
            return []
        return [folder / "tasks" for folder in dict.fromkeys(self.folders.values())]

    def holds(self, pid: int) -> bool:
        """Whether process ``pid`` is in the group, in each of its hierarchies."""
        try:
            with open(f"/proc/{pid}/cgroup", encoding="utf-8") as file:
                lines = file.read().splitlines()
        except OSError:
            return False
        where: dict[str, str] = {}
        for line in lines:
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                where[controller] = path
        for controller, folder in self.folders.items():
            key = "" if self.cgroups.version == 2 else controller
            if not where.get(key, "").endswith(f"/{folder.parent.name}/{folder.name}"):
                return False
        return True

    def _read(self, path: Path) -> str:
        """The file's text now. A run's watch reads two files at every wake-up (every chunk
        of its output): each is opened once and read again from its start, one system call
        instead of three."""
        fd = self._open.get(path)
        if fd is None:
            fd = self._open[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        return os.pread(fd, 65536, 0).decode("ascii", "replace")

    def cpu_seconds(self) -> float | None:
        """CPU time all the run's processes used so far, if a hierarchy counts it."""
        with contextlib.suppress(OSError, ValueError, StopIteration):
            if self.cgroups.version == 2:
                folder = self.folders.get("cpu") or next(iter(self.folders.values()))
                for line in self._read(folder / "cpu.stat").splitlines():
                    key, _, value = line.partition(" ")
                    if key == "usage_usec":
                        return int(value) / 1e6
            elif "cpuacct" in self.folders:
                return int(self._read(self.folders["cpuacct"] / "cpuacct.usage")) / 1e9
        return None

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the run for going over its ceiling."""
        memory = self.folders.get("memory")
        if memory is None:
            return False
        name = "memory.events" if self.cgroups.version == 2 else "memory.oom_control"
        with contextlib.suppress(OSError, ValueError):
            for line in self._read(memory / name).splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and int(value) > 0:
                    return True
        return False

    def kill(self) -> None:
        v1 = self.cgroups.version == 1
        for folder in dict.fromkeys(self.folders.values()):
            _kill_members(folder, v1=v1)

    def remove(self, tidy: Tidy | None = None) -> None:
        """Kill what is left of the run, then remove the group: at once, or (emptied, it
        holds nothing that matters any more) on ``tidy``'s thread."""
        self.kill()
        for fd in self._open.values():
            os.close(fd)
        self._open.clear()
        folders = list(dict.fromkeys(self.folders.values()))
        if tidy is None:
            _rmdirs(folders)
        else:
            tidy.add(functools.partial(_rmdirs, folders))


def _rmdirs(folders: Iterable[Path]) -> None:
    for folder in folders:
        _rmdir(folder)


def join_command(
    joins: Iterable[Path],
    *,
    itself: bool = False,
    umask: int | None = None,
    ignore: Sequence[str] = (),
    hold: bool = False,
    no_pwd: bool = False,
) -> list[str]:
    """A prefix that moves the process into the groups ``joins`` and then runs the rest of
    the command: ``/bin/sh`` starts in a millisecond, is single-threaded, and nothing forks
    before it joins. ``itself``: it writes ``0`` (the writer) rather than its pid, which
    ``RunGroup.self_joins`` needs.

    For the direct launch (``_sandbox.DirectLaunch``), which has no launcher: ``umask``
    and ``ignore`` (signal names, ``SIGPIPE``) are set first; with ``hold``, once joined it
    waits for the line ``go`` on its standard input (the grader sets the run's resource
    limits on it meanwhile), then puts ``/dev/null`` there (read and write, as
    ``subprocess.DEVNULL`` does); without that line it exits 125 saying ``HOLD_FAILED``.
    ``no_pwd``: the ``PWD`` a shell exports is unset (where the launcher would have run
    without a shell before it, its program has none)."""
    setup = f"umask {umask:04o}; " if umask is not None else ""
    if no_pwd:
        setup += "unset PWD; "
    if ignore:
        # (dash knows signals by their names without the SIG)
        setup += "trap '' " + " ".join(name.removeprefix("SIG") for name in ignore) + "; "
    # ``0`` tells the kernel that the shell moves itself: a move through ``tasks`` then
    # skips the wait for an RCU grace period that a move of another thread (named by its
    # pid, though it is the writer's) has: 10 to 20 ms per run on a busy machine.
    who = "0" if itself else "$$"
    script = setup + (
        f'while [ "$1" != -- ]; do echo {who} 2>/dev/null > "$1" || {{ echo "$JOIN_FAILED $1"'
        " >&2; exit 125; }; shift; done; shift; "
    ).replace("$JOIN_FAILED", JOIN_FAILED)
    if hold:
        script += (
            f'read go && [ "$go" = go ] || {{ echo "{HOLD_FAILED}" >&2; exit 125; }}; '
            "exec 0<>/dev/null; "
        )
    return ["/bin/sh", "-c", script + 'exec "$@"', "sh", *map(str, joins), "--"]
