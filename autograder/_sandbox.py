"""How strongly a submission is kept apart from the grader, and the command that does it.

Three levels, weakest first (README, "Threat model"):

``process``
    Resource limits, a session of its own, a clean environment and a fresh temporary folder.
    The program runs as the grader's own user: it can read what the grader can.
``user``
    When the grader is root: the program also runs as an unprivileged user of its own (one
    uid per concurrent run), the answer material is closed to that user, and every process
    left with that uid is killed when the run ends.
``namespace``
    bubblewrap: no network, its own process tree (all of it dies with the run), a read-only
    view of only the system and the Python installation, with the answer material hidden and
    only its temporary folder writable. As root, combined with the unprivileged user.

Which level a machine allows is found by running a trivial program at each
(``_isolation.detect_isolation``); this module only builds what each level needs.

How a run's limits are set: by the launcher ``_launch.py``, a Python script that sets them
on itself and ``exec``s the program; or, at ``process``, where the run keeps the grader's
user and needs nothing but limits, a umask and (as root) an IPC namespace of its own, by the
direct launch (``direct_launch``): the shell that joins the run's control groups sets the
umask and ignores the launcher's signals, then waits while the grader sets its limits from
outside (``prlimit(2)``), then ``exec``s the program. As root, the grader's thread starts
that shell from an IPC namespace made for it (``fresh_ipc``) and goes back to its own. The
same values, the same umask and signals, a fresh IPC namespace as root, without a second
Python start-up per board (the launcher costs about 8 ms a board more than this). Where
the namespace cannot be made (a container that refuses ``unshare(2)``), or the check
``direct_ready`` finds anything amiss, the launcher does it.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import os
import resource
import signal
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from ._assignments import assignment_folders, course_settings_file
from ._cgroups import Cgroups, join_command, kill_until_gone
from ._errors import UsageError
from ._files import libc, remove_tree
from ._launch import DEFAULT_SIGNALS, IGNORED_SIGNALS, UMASK, bounded, rlimits
from ._resources import package_copies

__all__ = ["LEVELS", "Isolation", "IsolationLevel", "protected_paths"]

IsolationLevel = Literal["process", "user", "namespace"]
LEVELS: tuple[IsolationLevel, ...] = get_args(IsolationLevel)  # weakest first
LAUNCHER = Path(__file__).resolve().parent / "_launch.py"
LAUNCHER_INSIDE = "/run/grader/launch.py"
# The warm interpreter a submission's sandbox runs (``_warm_sandbox``), and where it sees it.
WARM = Path(__file__).resolve().parent / "_warm.py"
WARM_INSIDE = "/run/grader/warm.py"
FIRST_UID = 61000  # uids FIRST_UID .. FIRST_UID + UIDS - 1 are lent to runs, one at a time
UIDS = 256
TMP_MB = 16  # the private /tmp of a namespace run lives in memory: keep it small
# System folders a Python program needs, mounted read-only at the namespace level.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
       "/etc/alternatives", "/etc/ssl/certs")  # fmt: skip
# Further system paths, read-only, that a kind of program declares it needs (a JDK's
# /etc/java-17-openjdk): ``add_system_paths``, called as the kinds are registered.
_EXTRA_SYSTEM: list[str] = []


def add_system_paths(*paths: str) -> None:
    """Show ``paths`` (absolute, existing or not) read-only to namespace runs too."""
    _EXTRA_SYSTEM.extend(p for p in paths if p not in _EXTRA_SYSTEM)


@dataclass(frozen=True)
class Isolation:
    """The level runs get, with why each stronger level was not used."""

    level: IsolationLevel
    bwrap: str | None = None
    drop_user: bool = False  # run as a lent unprivileged uid (the grader is root)
    unavailable: tuple[str, ...] = ()
    # Each run's own control group (CPU share, memory, processes), at every level; or why
    # there is none (then a timeout beside other runs is run again alone: ``_submission``).
    cgroups: Cgroups | None = None
    no_cgroups: str = ""

    def describe(self) -> str:
        why = "; ".join(self.unavailable)
        text = self.level + (f" (stronger levels unavailable: {why})" if why else "")
        if self.cgroups is not None:
            return f"{text}; each run in its own {self.cgroups.describe()}"
        if self.no_cgroups:
            alone = "a timeout beside other runs is run again alone"
            return f"{text}; no control groups ({self.no_cgroups}): {alone}"
        return text


def is_root() -> bool:
    return os.geteuid() == 0


def protected_paths(*extra: str | Path | None) -> tuple[Path, ...]:
    """What a submission must never read: the assignments, shipped and the course's, and
    the course's settings (their seeds rebuild the hidden boards), a checkout's tests,
    benchmarks and history, plus ``extra`` (the answer source's material, submissions,
    results, manifests)."""
    paths = [folder.resolve() for folder in assignment_folders()]
    paths += package_copies("autograder", "assignments")
    # The course's settings: its [tests] seed rebuilds its hidden boards too.
    settings = course_settings_file()
    paths += [settings.resolve()] if settings is not None else []
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file():
        paths += [root / name for name in ("tests", "benchmarks", ".git")]
    paths += [Path(p).resolve() for p in extra if p]
    return tuple(dict.fromkeys(p for p in paths if p.exists()))


# -- lending uids ---------------------------------------------------------------------------


def _lock_folder() -> Path:
    """Root's own folder for the uid locks: a run's user must not be able to touch it."""
    for base in ("/run/lock", "/run", tempfile.gettempdir()):
        if os.path.isdir(base) and os.access(base, os.W_OK):
            folder = Path(base) / "autograder-uids"
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=0o700)
            info = folder.lstat()
            if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & 0o077:
                return folder
    raise UsageError("isolation", "no private folder for uid locks (tried /run/lock, /run, /tmp)")


_held: set[int] = set()
_held_lock = threading.Lock()


@contextlib.contextmanager
def lent_uid() -> Iterator[int]:
    """A uid no other run (in this or another grader process) is using, for one run: one
    with no processes left, zombies included, if there is one."""
    folder = _lock_folder()
    for clean in (True, False):
        for k in range(UIDS):
            uid = FIRST_UID + k
            with _held_lock:
                if uid in _held:
                    continue
                _held.add(uid)
            handle = os.open(folder / str(uid), os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                usable = False
            else:
                # A grader killed in mid-run could not clean up after this uid: do it now.
                # Killed processes not reaped yet by whoever adopted them still count in
                # its process limit (run_limited adds them) and would stop counting if
                # reaped in mid-run: a uid without any is better.
                try:
                    kill_user(uid)
                    usable = not clean or not processes_of(uid, zombies=True)
                except BaseException:
                    os.close(handle)
                    with _held_lock:
                        _held.discard(uid)
                    raise
            if not usable:
                os.close(handle)
                with _held_lock:
                    _held.discard(uid)
                continue
            try:
                yield uid
            finally:
                os.close(handle)
                with _held_lock:
                    _held.discard(uid)
            return
    raise UsageError("isolation", f"all {UIDS} run uids from {FIRST_UID} are in use")


def processes_of(uid: int, *, zombies: bool = False) -> list[int]:
    """Processes of ``uid``. Zombies only if asked: they are dead already (whoever adopted
    them reaps them when it will), though RLIMIT_NPROC still counts them."""
    pids = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if entry.stat().st_uid != uid:
                    continue
                if not zombies:
                    with open(f"/proc/{entry.name}/stat", "rb") as file:
                        state = file.read().rsplit(b")", 1)[1].split()[0]
                    if state in (b"Z", b"X"):
                        continue
                pids.append(int(entry.name))
    return pids


# Where any user may leave files: these, and whatever else is found writable by all
# (``world_writable``).
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue")
_NOT_SEARCHED = ("/proc", "/sys")


@functools.cache
def world_writable(depth: int = 4) -> tuple[str, ...]:
    """Folders any user may write to, once per process: the usual ones and those found
    within ``depth`` levels of ``/`` (not inside such a folder: its own entries are swept
    by owner). About 0.15 s on a typical system."""
    found: dict[str, None] = {}
    for path in SHARED_TMP:
        with contextlib.suppress(OSError):
            info = os.stat(path)
            if stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_IWOTH:
                found[os.path.realpath(path)] = None
    folders = [("/", depth)]
    while folders:
        folder, left = folders.pop()
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.path in _NOT_SEARCHED or not entry.is_dir(follow_symlinks=False):
                        continue
                    if entry.stat(follow_symlinks=False).st_mode & stat.S_IWOTH:
                        found[entry.path] = None
                    elif left > 1:
                        folders.append((entry.path, left - 1))
    return tuple(found)


def _sysv_objects(uid: int) -> list[tuple[str, int]]:
    """System V IPC objects (``shm``, ``msg``, ``sem``) that ``uid`` owns or made."""
    objects = []
    for kind, id_column in (("shm", "shmid"), ("msg", "msqid"), ("sem", "semid")):
        with contextlib.suppress(OSError, ValueError), open(f"/proc/sysvipc/{kind}") as file:
            header = file.readline().split()
            columns = [header.index(id_column), header.index("uid"), header.index("cuid")]
            for line in file:
                fields = line.split()
                ident, owner, maker = (int(fields[c]) for c in columns)
                if uid in (owner, maker):
                    objects.append((kind, ident))
    return objects


def remove_ipc(uid: int) -> None:
    """Remove the System V shared memory, message queues and semaphores of ``uid`` (a run
    outside a namespace of its own could leave them, holding memory, for the next)."""
    objects = _sysv_objects(uid)
    if not objects:
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    ipc_rmid = 0
    for kind, ident in objects:
        if kind == "shm":
            libc.shmctl(ident, ipc_rmid, None)
        elif kind == "msg":
            libc.msgctl(ident, ipc_rmid, None)
        else:
            libc.semctl(ident, 0, ipc_rmid)


def kill_user(uid: int, keep: Path | None = None) -> None:
    """Kill every process of ``uid``: whatever a run left behind, however it detached. A
    process may fork while the signals go round, so look again until nobody is left. Then
    remove what it left in the places any user may write to and its IPC objects, so the
    next run with this uid starts clean (all but ``keep``, the run's own folder, which its
    caller removes). Called when a uid is lent and when it is handed back."""
    kill_until_gone(lambda: processes_of(uid))
    for shared in world_writable():
        remove_owned(shared, uid, keep)
    remove_ipc(uid)


def remove_owned(folder: str | Path, uid: int, keep: Path | None = None) -> None:
    """Remove what ``uid`` owns directly in ``folder`` (all but ``keep``), links not
    followed."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.stat(follow_symlinks=False).st_uid != uid or (
                    keep is not None and entry.path == os.fspath(keep)
                ):
                    continue
                remove_tree(entry.path)


def hand_over(folder: Path, uid: int) -> None:
    """Give the run's folder to its user (the grader, as root, keeps full access)."""
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, uid, uid)


def close_to_others(paths: Sequence[Path]) -> None:
    """Take every permission from "others" on the answer material: a lent uid is always an
    "other" (its group is its own)."""
    for path in paths:
        with contextlib.suppress(OSError):
            mode = path.lstat().st_mode
            if not stat.S_ISLNK(mode) and mode & 0o007:
                path.chmod(stat.S_IMODE(mode) & ~0o007)


# -- the direct launch ---------------------------------------------------------------------

# The probe's PATH: the system's own folders, whatever the grader's PATH says.
TOOLS_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
DIRECT_ENV = "AUTOGRADER_DIRECT_LAUNCH"  # "off": always the Python launcher
CLONE_NEWIPC = 0x08000000
# What the check runs, directly launched: what a run would get of what the launch sets.
_LOOK_DIRECT = (
    "import os, resource\n"
    "print(os.readlink('/proc/self/ns/ipc'))\n"
    "print(*resource.getrlimit(resource.RLIMIT_CORE), *resource.getrlimit(resource.RLIMIT_CPU))\n"
    "print(oct(os.umask(0)))\n"
)


def _ipc_error(what: str) -> OSError:
    number = ctypes.get_errno()
    return OSError(number, f"{what}: {os.strerror(number)}")


@contextlib.contextmanager
def fresh_ipc() -> Iterator[None]:
    """The calling thread in an IPC namespace of its own while the ``with`` lasts, then
    back in the one it had. A process it starts meanwhile keeps the new namespace, and its
    System V objects and message queues go with it, as under ``unshare --ipc``, without
    that program's exec per run. A namespace belongs to a thread, not to the process: the
    grader's other threads, and the runs they start meanwhile, keep their own. (Both moves
    also give the thread an empty list of System V semaphore undos: the grader keeps
    none.) It takes root over both namespaces (root in a user namespace that does not own
    the grader's IPC namespace may make one and not go back: ``direct_ready`` finds that
    out on a thread of its own). ``OSError`` if the namespace cannot be made, or left: then
    this thread stays in it, and ``direct_launch`` gives every later run to the launcher,
    which makes a namespace of its own."""
    global _stranded
    own = os.open("/proc/thread-self/ns/ipc", os.O_RDONLY | os.O_CLOEXEC)
    try:
        if libc().unshare(CLONE_NEWIPC) != 0:
            raise _ipc_error("a fresh IPC namespace")
        try:
            yield
        except BaseException as err:
            if libc().setns(own, CLONE_NEWIPC) != 0:
                _stranded = True
                err.add_note(str(_ipc_error("and back to the grader's IPC namespace")))
            raise
        if libc().setns(own, CLONE_NEWIPC) != 0:
            _stranded = True
            raise _ipc_error("back to the grader's IPC namespace")
    finally:
        os.close(own)


_stranded = False  # a thread could not leave a run's IPC namespace: no more direct launches


@dataclass(frozen=True)
class DirectLaunch:
    """A run started without the launcher: ``prefix``, a shell that sets the umask and
    the ignored signals, joins the run's control groups and waits on its standard input
    (``join_command``); the resource limits, ``(RLIMIT_*, soft, hard)``, that
    :meth:`release` sets on that shell meanwhile; and (as root) ``fresh_ipc``: the shell is
    started inside :func:`fresh_ipc`. The program it ``exec``s in the end inherits them all.
    Start ``prefix + argv`` with a pipe as standard input, then call :meth:`release`."""

    prefix: tuple[str, ...]
    limits: tuple[tuple[int, int, int], ...]
    fresh_ipc: bool

    def starting(self) -> contextlib.AbstractContextManager[None]:
        """Where to start the shell: inside :func:`fresh_ipc` as root."""
        return fresh_ipc() if self.fresh_ipc else contextlib.nullcontext()

    def release(self, process: subprocess.Popen[bytes]) -> bool:
        """Set the limits on the waiting shell, then let it go on. False if they could not
        be set: then it is not let go, and it ends without starting the program."""
        assert process.stdin is not None
        try:
            for kind, soft, hard in self.limits:
                resource.prlimit(process.pid, kind, (soft, hard))
            os.write(process.stdin.fileno(), b"go\n")  # (unbuffered: nothing left to flush)
        except (ProcessLookupError, BrokenPipeError):
            pass  # gone already, having failed to join its group: its status says so
        except (OSError, ValueError):
            return False
        finally:
            process.stdin.close()
            process.stdin = None  # (nothing more goes there: ``communicate`` must not try)
        return True


def _direct(limits: dict[str, float | None], joins: Sequence[Path]) -> DirectLaunch:
    # (without groups to join, the launcher's run has no shell before it, so no PWD)
    join = join_command(joins, itself=True, umask=UMASK, ignore=IGNORED_SIGNALS, hold=True,
                        no_pwd=not joins)  # fmt: skip
    values = tuple((kind, *bounded(kind, value)) for kind, value in rlimits(limits))
    return DirectLaunch(tuple(join), values, fresh_ipc=is_root())


@functools.cache
def direct_ready() -> bool:
    """Whether the direct launch works here, tried once per process on a program that
    reports what it got: its limits, its umask and, as root, an IPC namespace of its own,
    with the thread that started it back in its own (a container may refuse a root
    ``unshare(2)``: then the launcher does what it can, as before). The try runs on a
    thread of its own, thrown away after it, so that it leaves the caller's thread as it
    found it, whatever happens."""
    found: list[bool] = []
    probe = threading.Thread(target=lambda: found.append(_try_direct()), name="autograder-probe")
    probe.start()
    probe.join()
    return found == [True]


def _try_direct() -> bool:
    launch = _direct({"cpu": 7, "memory_mb": 1024, "file_mb": 1}, ())
    argv = [sys.executable, "-I", "-S", "-c", _LOOK_DIRECT]
    try:
        before = os.readlink("/proc/thread-self/ns/ipc")
        with launch.starting():
            process = subprocess.Popen([*launch.prefix, *argv], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       env={"PATH": TOOLS_PATH})  # fmt: skip
        back = os.readlink("/proc/thread-self/ns/ipc")
    except OSError:
        return False
    released = launch.release(process)
    try:
        out, _ = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return False
    soft, hard = bounded(resource.RLIMIT_CPU, 7)
    lines = out.decode("ascii", "replace").splitlines()
    if not released or process.returncode != 0 or lines[1:] != [f"0 0 {soft} {hard}",
                                                                 oct(UMASK)]:  # fmt: skip
        return False
    if back != before:
        return False  # (the thread was left in the run's namespace)
    return not launch.fresh_ipc or lines[0] != before


def direct_launch(
    limits: dict[str, float | None], joins: Sequence[Path] = ()
) -> DirectLaunch | None:
    """How to start a run with exactly what ``_launch.py`` would set for ``limits`` (its
    resource limits, its umask, the signals a Python start-up ignores, which a program
    started from it inherits ignored, and as root a fresh IPC namespace), after joining the
    control group files ``joins``, without a second Python start-up; ``None`` where the
    launcher must do it: a run as another user (``limits["uid"]``), a direct launch that
    does not work here (``direct_ready``) or left a thread in a run's namespace
    (``fresh_ipc``), a grader that ignores SIGINT or SIGQUIT (started in the background),
    or ``$AUTOGRADER_DIRECT_LAUNCH=off``."""
    turned_off = os.environ.get(DIRECT_ENV, "").lower() in ("0", "off", "no", "false")
    if limits.get("uid") is not None or turned_off or _ignoring_defaults() or _stranded:
        return None
    if not direct_ready():
        return None
    return _direct(limits, joins)


def _ignoring_defaults() -> bool:
    """Whether this process ignores a signal a program should get at its default
    (``_launch.DEFAULT_SIGNALS``: a grader started in the background). A shell cannot undo
    what it was started ignoring; the launcher can."""
    return any(
        signal.getsignal(getattr(signal, name)) == signal.SIG_IGN for name in DEFAULT_SIGNALS
    )


# -- the bubblewrap command -----------------------------------------------------------------


def _ancestors(path: str) -> list[str]:
    parts = Path(path).parts[1:-1]
    return ["/" + "/".join(parts[: k + 1]) for k in range(len(parts))]


class _Mounts:
    """bubblewrap arguments; parent folders it creates are 0755, not its default 0700, so a
    dropped uid can walk to what is mounted."""

    def __init__(self) -> None:
        self.args: list[str] = []
        self.made: set[str] = {"/"}
        self.sources: list[tuple[str, str]] = []  # (host folder, resolved; where mounted)
        self.covered: set[str] = set()

    def _parents(self, path: str) -> None:
        for parent in _ancestors(path):
            if parent not in self.made:
                self.args += ["--perms", "0755", "--dir", parent]
                self.made.add(parent)

    def read_only(self, source: str, target: str | None = None) -> None:
        target = target or source
        self._parents(target)
        self.args += ["--ro-bind", source, target]
        self.made.add(target)
        self.sources.append((os.path.realpath(source), target))

    def symlink(self, link_target: str, path: str) -> None:
        self._parents(path)
        self.args += ["--symlink", link_target, path]
        self.made.add(path)

    def writable(self, path: str) -> None:
        self._parents(path)
        self.args += ["--bind", path, path]
        self.made.add(path)

    def scratch(self, path: str, megabytes: int) -> None:
        """A folder in memory, private to the run, that anyone in it may write to (as
        ``/tmp`` is: sticky, mode 1777)."""
        self._parents(path)
        self.args += ["--perms", "1777", "--size", str(megabytes << 20), "--tmpfs", path]
        self.made.add(path)

    def hide(self, path: Path) -> None:
        """Cover ``path`` wherever a mount shows it: a tree mounted under two names (a
        link and its target, as a virtual environment reached through a link is) shows
        it twice. Elsewhere it is not there."""
        real = os.path.realpath(path)
        for source, target in self.sources:
            if real != source and not real.startswith(source.rstrip("/") + "/"):
                continue
            alias = target.rstrip("/") + real[len(source.rstrip("/")) :]
            if alias in self.covered:
                continue
            self.covered.add(alias)
            if os.path.isdir(real):
                self.args += ["--perms", "0000", "--tmpfs", alias]
            else:
                self.args += ["--ro-bind", "/dev/null", alias]

    def aliases(self, path: Path) -> list[str]:
        """Every path at which a run would find ``path`` if it were not covered."""
        real = os.path.realpath(path)
        return [
            target.rstrip("/") + real[len(source.rstrip("/")) :]
            for source, target in self.sources
            if real == source or real.startswith(source.rstrip("/") + "/")
        ]


def _python_trees() -> list[str]:
    """Folders the submission's Python needs: its installation and this environment's
    packages (numpy, scipy)."""
    paths = sysconfig.get_paths()
    interpreter_home = str(Path(sys.executable).resolve().parent.parent)
    trees = {sys.base_prefix, sys.prefix, paths["purelib"], paths["platlib"], interpreter_home}
    real = sorted({os.path.realpath(t) for t in trees} | trees)
    kept: list[str] = []
    for tree in real:
        if os.path.isdir(tree) and not any(tree.startswith(k.rstrip("/") + "/") for k in kept):
            kept = [k for k in kept if not k.startswith(tree.rstrip("/") + "/")] + [tree]
    return kept


def _read_only_view(hidden: Sequence[Path]) -> _Mounts:
    """What a namespace run sees of the machine: the system and Python, read-only, with
    ``hidden`` covered under every name it is mounted at."""
    mounts = _Mounts()
    # First: whatever is mounted later under /tmp (a venv, the run's folder) goes on top.
    mounts.scratch("/tmp", TMP_MB)
    # bubblewrap's own /dev (--dev) is there already; its shared memory folder is the
    # run's own too (Python's multiprocessing keeps its semaphores there).
    mounts.made.add("/dev")
    mounts.scratch("/dev/shm", TMP_MB)
    for path in SYSTEM:
        if os.path.islink(path):
            mounts.symlink(os.readlink(path), path)
        elif os.path.isdir(path):
            mounts.read_only(path)
    for path in (*ETC, *_EXTRA_SYSTEM):
        if os.path.exists(path):
            mounts.read_only(path)
    for tree in _python_trees():
        mounts.read_only(tree)
    for secret in hidden:
        mounts.hide(secret)
    return mounts


def sandbox_aliases(path: Path) -> list[str]:
    """The names under which a namespace run would reach ``path`` (were it not hidden)."""
    return _read_only_view(()).aliases(path)


def bwrap_command(
    isolation: Isolation, work: Path, cwd: Path, hidden: Sequence[Path], *, server: bool = False
) -> list[str]:
    """The bubblewrap prefix for a run in ``work`` (its only writable folder). ``server``:
    for a submission's warm interpreter (``_warm_sandbox``), which is the sandbox's process
    1 and is shown at ``WARM_INSIDE``; the view is the same."""
    assert isolation.bwrap
    mounts = _read_only_view(hidden)
    mounts.read_only(str(LAUNCHER), LAUNCHER_INSIDE)
    command = [isolation.bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net",
               "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox",
               "--die-with-parent", "--new-session",
               "--proc", "/proc", "--dev", "/dev"]  # fmt: skip
    if server:
        mounts.read_only(str(WARM), WARM_INSIDE)
        command.append("--as-pid-1")
    if isolation.drop_user:
        # Root sets up the mounts, then the launcher inside drops to the lent uid (losing
        # these two capabilities with it).
        command += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        command += ["--unshare-user"]
    mounts.writable(str(work))
    return [*command, *mounts.args, "--chdir", str(cwd), "--"]
