"""One sandbox per submission, with a warm interpreter that starts each board's run: the
grader's side (the interpreter itself is ``_warm.py``).

A fresh sandbox and a fresh interpreter for every board cost a numpy program most of its
time per board (start-up and ``import numpy``). So, where it keeps students apart exactly
as before, a Python submission (the ``.py`` kind: notebooks and built kinds such as Java
keep a sandbox per run) is graded in one sandbox of its own:

* **What is shared, within one student only.** One bubblewrap sandbox, with the same view
  of the machine as a run's (the same read-only system and Python, the same hidden paths,
  its own pid, IPC, network and UTS namespaces), whose process 1 is the warm interpreter:
  ours, root in the sandbox with only the capabilities to change uid, as the limits
  launcher is before it drops to the run's uid. It imports the heavy, well-known modules
  the program's source names among an allow-list (numpy, scipy: found by reading the text,
  never by importing the student's code) and waits. The sandbox's private ``/tmp`` and
  ``/dev/shm`` (16 MB each, in memory) are the submission's: what a board leaves there is
  removed when the board ends. The folder all boards' folders lie in is one sized tmpfs
  (as root: ``FOLDER_MB``, ``FOLDER_FILES``) for the submission, not one per board. Other
  students never share any of it: a sandbox serves one ``grade_submission`` call.
* **What each board still gets of its own.** A fresh process, forked from the warm one; a
  fresh folder with its own copy of the submission and its board (``0700``, its uid's: one
  board never sees another's files); a lent uid that no other board running at the same
  time has (a submission keeps its lent uids until it is done, one per board running at a
  time: a board's uid goes to the next board only once every process of it is killed and
  all it left removed, as a uid lent again to the next run is today), with a user
  namespace (its keyrings) and an IPC namespace of its own; the launcher's limits (CPU
  time, address space, file size, open files, processes); its own control group, as every
  run has (memory ceiling, CPU quota and time, process cap), which it joins before the
  program starts (through ``tasks`` files the grader opened, on cgroup v1, whose moves
  through ``cgroup.procs`` can wait milliseconds for the kernel; moved by the grader
  otherwise, checked either way); the same environment, ``sys.argv``, standard streams,
  ``__main__``, recursion depth, exit status and traceback as ``python -E -s PROGRAM
  BOARD`` run in that folder; the same ``Run`` at the end (status, exit status, output,
  standard error's tail, times), so verdicts do not change.
* **How a board ends.** On its wall clock, its CPU time, its output cap, its memory or its
  folder, or once its program has exited, every process of its uid is killed (however it
  detached: a new session, a double fork), its control group with them, and the uid's
  files in the sandbox's ``/tmp`` and ``/dev/shm`` and its folder removed (it could reach
  no other place: the machine's shared folders are not in the sandbox). After the
  submission its uids are handed back as after any run (``kill_user``). A program cannot
  signal, trace or read its server (another uid, and the init of its pid namespace), so
  the server survives whatever a board does.
* **When the server fails** (it died, or would not start, or cannot fork a board's
  process), the board it was running runs again and the remaining boards run the way other
  kinds do, a run (at ``namespace`` a sandbox) each; so does everything where the warm
  path does not apply: a grader that is not root (no lent uids: its boards could not be
  told apart), and the ``process`` level without control groups. ``$AUTOGRADER_WARM=off``
  turns the warm path off. A board whose program the server's interpreter would not run as
  ``python PROGRAM`` does (a zip archive, which ``python`` runs as an application; a null
  byte in its source, before Python 3.11.4: ``runs_as_python_does``) runs the usual way,
  and the server stays for the others. A uid whose killed processes are not all reaped yet is not
  given to the next board (as ``lent_uid`` passes it over): the submission keeps it until
  it is done.

**At ``user``** (as root, where bubblewrap cannot make namespaces) there is no sandbox
either: the server is a plain root process of the grader's, and each board's process
becomes what the launcher makes of a run there before the program starts (a session of its
own, an IPC namespace, a lent uid no other running board has, a user namespace where the
kernel allows one, no capabilities). The lent uid keeps it from its server as it keeps a run
from the grader: it cannot signal, trace or read it. When the board ends every process of
its uid is killed and what the uid left in the machine's shared places and its IPC objects
are removed (``kill_user``), as after a run of its own, before the uid is another board's.

**At ``process``** (as root, with control groups) a Python submission gets a warm server
too, without a sandbox: that level runs every program as the grader's own user, root, in
the machine's own view, and keeps students apart only by their limits, folders, sessions,
IPC namespaces and control groups. A board there gets just that: a fresh folder of its
own, a session and an IPC namespace of its own, the launcher's limits and its own control
group (which holds, and at the end kills, every process it started, however it
detached). It can reach its server, as it can reach the grader at that level: a server it
kills sends the submission's remaining boards the usual way, and no other student ever
shares that server.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import re
import select
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from ._assignments import Limits
from ._cgroups import EXTRA_PROCESSES, RunGroup, kill_until_gone
from ._files import remove_tree
from ._languages import IGNORED_NAMES, PYTHON_FLAGS, Language
from ._run import FILE_MB, OPEN_FILES, Run, _kill_group, clean_environment, follow
from ._run_folder import measure, run_folder
from ._sandbox import (
    LAUNCHER,
    LAUNCHER_INSIDE,
    WARM,
    WARM_INSIDE,
    Isolation,
    bwrap_command,
    hand_over,
    kill_user,
    lent_uid,
    processes_of,
    remove_owned,
)

__all__ = ["ENV", "HEAVY", "WarmSandbox", "heavy_modules", "warm_sandbox"]

ENV = "AUTOGRADER_WARM"
# What a warm interpreter may import ahead of a program (the only names it is sent):
# numpy, scipy and their public subpackages by name, nothing else of theirs (their tests,
# conftest, private modules: the server is root, and imports only what is needed).
HEAVY = (
    "numpy",
    "numpy.fft",
    "numpy.linalg",
    "numpy.ma",
    "numpy.polynomial",
    "numpy.random",
    "scipy",
    "scipy.fft",
    "scipy.integrate",
    "scipy.interpolate",
    "scipy.linalg",
    "scipy.ndimage",
    "scipy.optimize",
    "scipy.signal",
    "scipy.sparse",
    "scipy.sparse.csgraph",
    "scipy.sparse.linalg",
    "scipy.spatial",
    "scipy.special",
    "scipy.stats",
)
MOST_MODULES = 16  # modules named in a submission that are imported ahead, at most
SCANNED_BYTES = 1 << 20  # of each Python file of a submission, read for its imports
SCANNED_FILES = 50
READY_SECONDS = 120.0  # for the server to import what it was asked (a busy machine)
HANDSHAKE_SECONDS = 30.0  # for the server to fork a board's process
END_SECONDS = 10.0  # for the server to report a killed board's end
# Places in the sandbox where every board may write besides its folder (its private /tmp).
SCRATCH = ("tmp", "dev/shm")
# A wait status of death by SIGKILL, for a board whose end the server never reported.
_KILLED = signal.SIGKILL
_CREDENTIALS = struct.Struct("iII")  # struct ucred: pid, uid, gid

_IMPORT = re.compile(
    r"^[ \t]*(?:import[ \t]+([\w. \t,]+)|from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w \t,]*))",
    re.M,
)


def heavy_modules(sources: Iterable[str]) -> list[str]:
    """The modules of the allow-list (``HEAVY``) that ``sources`` import, in order, read
    from the text of ``import`` statements (never by importing anything); ``from numpy
    import linalg`` names ``numpy`` and ``numpy.linalg``."""
    found: dict[str, None] = {}
    for text in sources:
        for match in _IMPORT.finditer(text):
            if match.group(1):
                names = [part.split()[0] for part in match.group(1).split(",") if part.split()]
            else:
                base = match.group(2)
                names = [base] + [
                    f"{base}.{part.split()[0]}"
                    for part in (match.group(3) or "").split(",")
                    if part.split()
                ]
            for name in names:
                if name in HEAVY:
                    found[name] = None
    return list(found)[:MOST_MODULES]


def _sources(folder: Path, program: Path) -> Iterator[str]:
    """The program's text, then the other Python files of a folder submission (bounded)."""
    paths = [program]
    if folder.is_dir():
        for path in sorted(folder.rglob("*.py"))[:SCANNED_FILES]:
            parts = set(path.relative_to(folder).parts)
            if path != program and not parts & IGNORED_NAMES and not path.is_symlink():
                paths.append(path)
    for path in paths:
        try:  # (regular files only: a fifo named like a program must not hold the grader)
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        except OSError:
            continue
        with open(fd, "rb") as file:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                yield file.read(SCANNED_BYTES).decode("utf-8", "replace")


# ``python PROGRAM`` runs a zip archive (by its content, whatever its name) as an
# application, its ``__main__.py``; the archive's end record lies in its last 64 KiB + 22.
_ZIP_END = b"PK\x05\x06"
_ZIP_TAIL = 65536 + 22
# From 3.11.4 on, ``python PROGRAM`` refuses a null byte in the source as a syntax error, as
# the server does; before, it read each line as a C string, dropping what follows the byte
# on that line (gh-96670), which ``compile`` cannot do.
_NULL_IS_AN_ERROR = (3, 11, 4)


def runs_as_python_does(program: Path, version: tuple[int, ...]) -> bool:
    """Whether a server on Python ``version`` runs ``program`` as ``python PROGRAM`` would:
    not a zip archive, nor (before 3.11.4) a source holding a null byte. (A source that
    merely holds the bytes of a zip's end record runs the usual way too: harmless.)"""
    try:
        fd = os.open(program, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return True  # (the server fails to read it as well)
    with open(fd, "rb") as file:
        source = file.read()
    if _ZIP_END in source[-_ZIP_TAIL:]:
        return False
    return version >= _NULL_IS_AN_ERROR or b"\0" not in source


def warm_path(language: Language, isolation: Isolation) -> bool:
    """Whether a submission of ``language`` is graded through a warm interpreter at
    ``isolation`` (see the module's docstring)."""
    if os.environ.get(ENV, "").lower() in ("0", "off", "no", "false") or not language.warm:
        return False
    if isolation.level == "process":
        return os.geteuid() == 0 and isolation.cgroups is not None
    if isolation.level == "user":
        return isolation.drop_user and os.geteuid() == 0
    return isolation.level == "namespace" and isolation.drop_user and isolation.bwrap is not None


@contextlib.contextmanager
def warm_sandbox(
    language: Language,
    isolation: Isolation,
    hidden: Sequence[Path],
    folder: Path,
    program: Path,
    *,
    sized: bool,
) -> Iterator[WarmSandbox | None]:
    """A started warm sandbox for the submission in ``folder`` (its program ``program``),
    for as long as the ``with`` lasts, then killed and removed; ``None`` where the warm
    path does not apply or the sandbox did not start. ``sized``: its boards' folders lie in
    one sized tmpfs (else each is measured while its board runs)."""
    if not warm_path(language, isolation):
        yield None
        return
    with run_folder(sized) as (root, watch):
        root.chmod(0o711)  # boards reach their own folders in it, and list nothing
        sandbox = WarmSandbox(isolation, hidden, root, heavy_modules(_sources(folder, program)),
                              measured=watch is not None)  # fmt: skip
        try:
            sandbox.start()
        except OSError:
            sandbox.close()
            yield None
            return
        try:
            yield sandbox
        finally:
            sandbox.close()


class WarmSandbox:
    """One submission's sandbox and its warm interpreter (see the module's docstring).
    ``run`` is called for each board, from several threads at once with ``workers > 1``."""

    def __init__(
        self,
        isolation: Isolation,
        hidden: Sequence[Path],
        root: Path,
        modules: Sequence[str],
        *,
        measured: bool = False,
    ) -> None:
        self.isolation = isolation
        self.hidden = tuple(hidden)
        self.root = root
        self.modules = list(modules)
        self.measured = measured
        self.loaded: list[str] = []
        self.version: tuple[int, ...] = ()  # the server's Python
        self._like_python: bool | None = None  # (``runs_as_python_does``, on the first board)
        self.broken = ""  # why the server is no longer used ("": it is)
        self.server_pid: int | None = None  # as the grader sees it
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._log = tempfile.TemporaryFile()  # noqa: SIM115  (the server's standard error)
        self._ready: bool | None = None
        self._ready_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._uid_lock = threading.Lock()
        self._free_uids: list[int] = []
        self._uids = contextlib.ExitStack()  # the uids lent to the submission
        self._server: int | None = None  # a pidfd of the server

    @property
    def sandboxed(self) -> bool:
        """At ``namespace`` the server is a bubblewrap sandbox's process 1; at ``user`` and
        ``process`` (as root) it is a plain process of the grader's."""
        return self.isolation.level == "namespace"

    @property
    def lends_uids(self) -> bool:
        """At ``namespace`` and ``user`` each board runs as a lent uid; at ``process`` as
        root, in a session, an IPC namespace and a control group of its own."""
        return self.isolation.drop_user

    # -- the server -----------------------------------------------------------------------

    def start(self) -> None:
        """Start the server (it imports its modules while the first board is made ready)."""
        control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._control = control
        control.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        with theirs:
            if self.sandboxed:
                prefix = bwrap_command(self.isolation, self.root, self.root, self.hidden,
                                       server=True)  # fmt: skip
                scripts = [WARM_INSIDE, LAUNCHER_INSIDE]
            else:
                prefix, scripts = [], [str(WARM), str(LAUNCHER)]
            command = [*prefix, sys.executable, *PYTHON_FLAGS, *scripts,
                       str(theirs.fileno()), json.dumps(self.modules)]  # fmt: skip
            self._process = subprocess.Popen(
                command,
                cwd=self.root,
                env=clean_environment(self.root),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._log,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
            )

    def _await_ready(self) -> bool:
        """Whether the server has started and imported its modules (waited for once)."""
        with self._ready_lock:
            if self._ready is None:
                self._ready = self._read_ready()
            return self._ready and not self.broken

    def _read_ready(self) -> bool:
        assert self._control is not None
        try:
            self._control.settimeout(READY_SECONDS)
            message, pid = _receive(self._control)
            self._control.settimeout(None)
            ready = json.loads(message)
        except (OSError, ValueError) as err:
            return self._fail(f"the server did not start ({err})")
        if not isinstance(ready, dict) or ready.get("ready") is not True or pid is None:
            return self._fail("the server did not start")
        if ready.get("threads", 0) > 1:
            # Forking a process with other threads is not safe (their locks stay held).
            return self._fail(f"the server has {ready['threads']} threads after its imports")
        try:
            self._server = os.pidfd_open(pid)
        except OSError as err:
            return self._fail(f"the server is gone ({err.strerror})")
        self.server_pid = pid
        self.loaded = list(ready.get("loaded", []))
        self.version = tuple(ready.get("version", ()))
        return True

    def _fail(self, why: str) -> bool:
        if not self.broken:
            self._log.seek(0)
            tail = self._log.read()[-500:].decode("utf-8", "replace").strip().splitlines()
            self.broken = why + (f": {tail[-1]}" if tail else "")
        return False

    def close(self) -> None:
        """End the server and everything in its sandbox (the kernel kills a pid namespace
        with its init), then hand the submission's uids back (``kill_user``). At ``user``
        and ``process`` every board has ended already, and every process of its uid (or its
        control group) with it."""
        if self._control is not None:
            self._control.close()
        if self._server is not None:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self._server, signal.SIGKILL)
            os.close(self._server)
        if self._process is not None:
            if self._server is None:  # (never ready: bubblewrap takes the server along)
                self._kill_started()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._kill_started()
                self._process.wait()
        self._log.close()
        self._uids.close()

    def _kill_started(self) -> None:
        """Kill what the grader started: bubblewrap, or (at ``user`` and ``process``) the
        server."""
        assert self._process is not None
        if self._process.returncode is None:
            with contextlib.suppress(OSError):
                os.killpg(self._process.pid, signal.SIGKILL)

    # -- one board ------------------------------------------------------------------------

    def run(
        self,
        place: Place,
        argv: Sequence[str],
        cwd: Path,
        env: Mapping[str, str],
        limits: Limits,
    ) -> Run | None:
        """Run ``argv`` (``[sys.executable, *PYTHON_FLAGS, SCRIPT, ARGS...]``) in ``cwd``
        (in the board's folder, ``place``: see ``board``) under ``limits``, as
        ``run_limited`` would in a sandbox of its own. ``None``: the server could not run it
        (the caller runs it the usual way, and so do later boards)."""
        python = [sys.executable, *PYTHON_FLAGS]
        if list(argv[: len(python)]) != python or not self._await_ready():
            return None
        if self._like_python is None:  # (every board's program is a copy of the same one)
            self._like_python = runs_as_python_does(Path(argv[len(python)]), self.version)
        if not self._like_python:
            return None  # (the usual way, board by board: the server stays usable)
        uid = place.uid
        nproc = limits.processes  # (root: RLIMIT_NPROC does not bind it; the group's cap does)
        if self.sandboxed or self.isolation.cgroups is not None:
            # (bubblewrap sets it for a program it starts, and so does the shell that joins
            # a run's control groups elsewhere; a run the launcher starts alone has none)
            env = {**env, "PWD": str(cwd)}
        if uid is not None:
            hand_over(place.work, uid)
            # (its zombies not reaped yet count in its process limit: see run_limited)
            nproc += len(processes_of(uid, zombies=True))
        payload = {"cpu": limits.cpu, "memory_mb": limits.memory_mb, "file_mb": FILE_MB,
                   "files": OPEN_FILES, "uid": uid, "nproc": nproc}  # fmt: skip
        request = {"argv": list(argv[len(python) :]), "cwd": str(cwd), "env": env,
                   "limits": payload, "sandboxed": self.sandboxed}  # fmt: skip
        with contextlib.ExitStack() as stack:
            group = None
            if self.isolation.cgroups is not None:
                # (its own process besides: a lent uid's process limit stops a fork first,
                # as in a run of its own; at ``process`` root has none, and the group's cap
                # is the one a run of its own gets there, whose shell ``exec``s the program)
                extra = 1 if uid is not None else EXTRA_PROCESSES
                group = RunGroup(self.isolation.cgroups, limits.memory_mb, limits.processes,
                                 extra=extra)  # fmt: skip
                stack.callback(group.remove)
            started = time.monotonic()
            board = _Board(uid)
            stack.callback(board.release)
            if group is not None:
                board.join(group)
            if not self._send(request, board) or not self._started(board, group):
                return None
            run = follow(board, limits, started, group=group, watch=place.watch)
            if board.lost and run.status in ("exited", "signal", "memory-limit"):
                # The server, not the program, ended it: run it again the usual way.
                self._fail("the server stopped in the middle of a board")
                return None
        return dataclasses.replace(run, isolation=self.isolation.level)

    @contextlib.contextmanager
    def board(self) -> Iterator[Place]:
        """A board's place: a fresh folder in the submission's writable folder and a uid of
        the submission's (one per board running at a time), for as long as the ``with``
        lasts. Afterwards every process of the uid is killed, what it left in the places it
        could write to (the sandbox's scratch places; at ``user`` the machine's, as after a
        run of its own: ``kill_user``) and the folder removed, and only then is the uid
        another board's. At ``process`` there is no uid (``None``): the board's session and
        control group are killed when it ends (``run``), and its folder is removed here."""
        uid = self._take_uid() if self.lends_uids else None
        try:
            work = Path(tempfile.mkdtemp(prefix=f"board-{next(self._numbers)}-", dir=self.root))
            try:
                yield Place(work, uid, measure(work) if self.measured else None)
            finally:
                if uid is not None:
                    self._clear(uid)
                remove_tree(work)
        finally:
            # A uid whose killed processes are not reaped yet (at ``user`` the machine's init
            # adopts them) is not another board's: the kernel counts them in its process
            # limit, which would loosen as they go (``lent_uid`` passes such a uid over too).
            # It stays the submission's, and is handed back with the others.
            if uid is not None and not processes_of(uid, zombies=True):
                with self._uid_lock:
                    self._free_uids.append(uid)

    def _clear(self, uid: int) -> None:
        """Kill every process of ``uid`` and remove what it left where it could write: in
        the sandbox, its scratch places; at ``user``, the machine's shared places and its
        IPC objects, as after a run of its own (``kill_user``)."""
        if not self.sandboxed:
            kill_user(uid)
            return
        kill_until_gone(lambda: processes_of(uid))
        if self.server_pid is not None:
            for scratch in SCRATCH:
                remove_owned(Path(f"/proc/{self.server_pid}/root", scratch), uid)

    def _take_uid(self) -> int:
        """A uid of the submission's no board is using: lent (``lent_uid``) when the
        submission needs one more, handed back (``kill_user``) when it is done."""
        with self._uid_lock:
            if self._free_uids:
                return self._free_uids.pop()
            uid = self._uids.enter_context(lent_uid())
            self._uids.callback(kill_user, uid)
            return uid

    def _send(self, request: dict, board: _Board) -> bool:
        """Hand the server a board's request with its descriptors."""
        assert self._control is not None
        message = json.dumps(request).encode()
        devnull = os.open(os.devnull, os.O_RDONLY)
        try:
            with self._send_lock:
                socket.send_fds(self._control, [message], [devnull, *board.theirs])
        except OSError as err:
            return self._fail(f"the server is gone ({err.strerror})")
        finally:
            os.close(devnull)
            board.sent()
        return True

    def _started(self, board: _Board, group: RunGroup | None) -> bool:
        """The handshake: the board's process says it started (its credentials give its
        pid), is in the board's control group (moved there now if it could not move
        itself), and is told to go on."""
        try:
            board.socket.settimeout(HANDSHAKE_SECONDS)
            message, pid = _receive(board.socket)
            if message != b"started" or pid is None:
                return self._fail("the server did not start a board's process")
            board.attach(pid)
            if group is not None and not group.holds(pid):
                group.join(pid)
            board.socket.settimeout(None)
            board.socket.sendall(b"go")
        except OSError as err:
            board.kill()
            return self._fail(f"a board's process could not be started ({err})")
        return True


@dataclasses.dataclass(frozen=True)
class Place:
    """Where a board runs: its fresh folder, its uid, and the check to make while it runs
    and as it ends (where the folder is not sized: see ``_run_folder``)."""

    work: Path
    uid: int | None  # (``None`` at ``process``: the board runs as root)
    watch: Callable[[], bool] | None = None


class _Board:
    """One board's program as ``follow`` watches it: the grader's ends of its pipes, and
    its status socket, on which the server says it is running and, when it has ended, its
    wait status and CPU time."""

    def __init__(self, uid: int | None) -> None:
        self.uid = uid
        self.stdout, out_w = os.pipe()
        self.stderr, err_w = os.pipe()
        self.socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.end = self.socket.fileno()
        self.theirs = [out_w, err_w, theirs.detach()]
        self.pid: int | None = None
        self.pidfd: int | None = None
        self.running = False  # the server said the program starts
        self.lost = False  # the server's report never came, or came without "running"

    def join(self, group: RunGroup) -> None:
        """Let the board's process move itself into ``group`` (where it can)."""
        for path in group.self_joins:
            with contextlib.suppress(OSError):
                self.theirs.append(os.open(path, os.O_WRONLY | os.O_CLOEXEC))

    def sent(self) -> None:
        for fd in self.theirs:
            os.close(fd)
        self.theirs = []

    def attach(self, pid: int) -> None:
        self.pid = pid
        self.pidfd = os.pidfd_open(pid)

    def ended(self) -> tuple[int, float] | None:
        try:
            message = self.socket.recv(4096, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return None
        except OSError:
            message = b""
        if message == b"running":
            self.running = True
            return None
        try:
            report = json.loads(message)
            ended = (int(report["status"]), float(report["cpu"]))
        except (ValueError, KeyError, TypeError):
            self.lost = True  # the server is gone (or said something it never says)
            return (_KILLED, 0.0)
        if not self.running:
            self.lost = True  # its process ended before the program started
        return ended

    def kill(self) -> None:
        if self.pidfd is not None:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        if (uid := self.uid) is not None:
            kill_until_gone(lambda: processes_of(uid))
        elif self.pid is not None:
            # At ``process`` (no uid) its session goes with it, as a run's process group
            # does there (``_run._Child.kill``); its control group, removed when the board
            # ends, holds whatever left the session.
            _kill_group(self.pid)

    def wait(self) -> tuple[int, float]:
        deadline = time.monotonic() + END_SECONDS
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.socket], [], [], left)
            if not ready:
                break
            ended = self.ended()
            if ended is not None:
                return ended
        self.lost = True
        return (_KILLED, 0.0)

    def close(self) -> None:
        """The pipes (``follow`` is done with them)."""
        for fd in (self.stdout, self.stderr):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.stdout = self.stderr = -1

    def release(self) -> None:
        """Everything of the grader's."""
        self.close()
        self.sent()
        self.socket.close()
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None


def _receive(channel: socket.socket) -> tuple[bytes, int | None]:
    """A message and the pid (as the grader sees it) of the process that sent it."""
    message, ancillary, _flags, _address = channel.recvmsg(
        1 << 16, socket.CMSG_SPACE(_CREDENTIALS.size)
    )
    pid = None
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = _CREDENTIALS.unpack(data[: _CREDENTIALS.size])[0] or None
    return message, pid
