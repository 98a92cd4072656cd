"""Run as a script for one submission, never imported by the grader:
``python -E -s _warm.py LAUNCHER CONTROL_FD MODULES_JSON``.

The warm interpreter: one per submission (``_warm_sandbox`` starts it: at the ``namespace``
level as root, in the submission's own sandbox; at ``user``, and at ``process`` with control
groups, as a plain process of the grader's, root), so that each board does not pay an
interpreter's start and ``import numpy`` again. It imports ``MODULES`` (heavy, well-known
libraries the program's source names, from a fixed allow-list: never the student's code),
says it is ready on the control socket ``CONTROL_FD``, and then serves one request per
board: it forks, and the child runs the program as ``python -E -s PROGRAM ARGS...`` would,
with the board's own limits, user, folder, environment and standard streams.

Why the server stays root (the sandbox's, with only ``CAP_SETUID`` and ``CAP_SETGID``, as
the limits launcher ``_launch.py`` is before it drops to the run's uid) and is the sandbox's
process 1 (``bwrap --as-pid-1``), where one could run it as the run's uid under bubblewrap's
own init: a program then cannot signal, trace or read its server (another uid, and the
init of its pid namespace), its parent is process 1 as in a fresh sandbox, each board runs
as a lent uid no other running board has (the grader kills every process of that uid when
the board ends, however it detached, as after a run today), and the server dying takes
everything in the sandbox with it (the kernel kills a pid namespace with its init).

At ``user`` there is no sandbox: the server is a plain root process of the grader's, and
each board's child becomes what the launcher makes of a run there (a session of its own, an
IPC namespace made as root, the lent uid, a user namespace where the kernel allows one) and
then drops every capability. It cannot signal, trace or read its server (root) any more than
a run can the grader; what it leaves in the machine's shared places goes with its uid when
the board ends, as after a run of its own.

At ``process`` there is no sandbox and no lent uid: the level runs a program as the grader's
own user, root, and so does a board here. The server is then a plain process of the
grader's, which a board can reach as it can reach the grader itself (that level protects
neither); a server that dies only sends its own submission's boards back the usual way.
Each board's child gets what the level gives a run there: a session of its own, an IPC
namespace of its own where the kernel allows one, the launcher's limits, and a control
group of its own (which the grader kills, with everything the board started, when it ends).

Each board's child, in order: the board's control group (on cgroup v1 it moves itself in,
through ``tasks`` files the grader opened and passed); a handshake on the board's status
socket (the kernel tells the grader the child's pid; the grader checks the child's group,
moves it there itself where it could not, and answers ``go``); its standard streams from
the request (descriptors passed over the control socket) and every other descriptor closed;
the launcher's resource limits; the board's uid, with a user namespace of its own (fresh
keyrings) and, inside it, an IPC namespace of its own (System V objects go with the board);
no capabilities left (at ``user``: the launcher's way, above; at ``process``: a session and
an IPC namespace of its own, as root); then the board's folder, environment and
``sys.argv``, fresh ``sys.stdin``/``stdout``/``stderr`` on the new descriptors, and the
program, compiled and run as ``__main__`` the way ``python PROGRAM`` runs it (not through
``runpy.run_path``, so that ``__main__`` stays the program's until the interpreter's
shutdown), at the recursion depth a fresh interpreter gives it. An uncaught exception
prints through ``sys.excepthook`` with the traceback starting at the program's own first
frame (nothing of this module), as ``python PROGRAM`` prints it, and exits 1;
``SystemExit`` exits as Python does; then non-daemon threads are waited for, ``atexit``
runs and the standard streams are flushed (120 if that fails, as Python does).

When the child ends the server reaps it (in a sandbox, every orphan of it too) and
sends its wait status and CPU time on the board's status socket. A closed control socket
ends the server, and with it the sandbox.
"""

import builtins
import contextlib
import ctypes
import importlib
import importlib.machinery
import io
import json
import os
import re
import resource
import runpy
import select
import signal
import socket
import sys
import types
from typing import Any

CLONE_NEWIPC = 0x08000000
PR_SET_DUMPABLE = 4
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CAPABILITY_VERSION_3 = 0x20080522
MAX_REQUEST = 1 << 16
MAX_FDS = 16


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def preload(names: list[str]) -> list[str]:
    """Import ``names`` (the grader sends only those of its allow-list, ``HEAVY`` in
    ``_warm_sandbox``: large libraries everyone trusts and their public subpackages, never
    anything of the submission); the ones that imported."""
    loaded = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # (not a module, or not installed: the program will say so)
            continue
        loaded.append(name)
    return loaded


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


# -- the child: one board ------------------------------------------------------------------


def _drop_capabilities(libc: Any) -> None:
    """No capability left in any set (a process in a user namespace it made has them all
    there; an ``exec`` would drop them, and this child never execs)."""
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = _CapHeader(CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        raise SystemExit("warm: could not drop capabilities")


def _become(launch: dict[str, Any], uid: int) -> None:
    """The launcher's ``_become``, for a child that will not exec: the run's uid, a user
    namespace of its own (fresh keyrings) and, inside it, an IPC namespace of its own (the
    sandbox's is the submission's); then no capabilities."""
    libc = launch["_libc"]()
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit("warm: could not drop to the run's user")
    # Both namespaces are required: without them boards would share the sandbox's IPC
    # namespace, and the grader runs the submission the usual way instead (a status
    # without "running").
    if not launch["_fresh_user_namespace"](libc, uid):
        raise SystemExit("warm: no user namespace for the board")
    if libc.unshare(CLONE_NEWIPC) != 0:  # (allowed now: this user namespace owns the new one)
        raise SystemExit("warm: no IPC namespace for the board")
    launch["_join_new_session_keyring"](libc)
    _drop_capabilities(libc)


def _leave_root(launch: dict[str, Any], uid: int) -> None:
    """What the launcher gives a run at ``user`` (a plain server, no sandbox), for a child
    that will not exec: a session of its own, as ``subprocess`` gives a run there; an IPC
    namespace made as root, the run's uid, a user namespace of its own where the kernel
    allows one (else the uid's keyrings are cleared) and a fresh session keyring (the
    launcher's ``_become``); then no capabilities."""
    os.setsid()
    launch["_become"](uid)
    _drop_capabilities(launch["_libc"]())


def _stay_root(launch: dict[str, Any]) -> None:
    """What the ``process`` level gives a run as root (a plain server, no sandbox): a
    session of its own, as ``subprocess`` gives it there (the grader kills it when the
    board ends), and, as the launcher does, an IPC namespace of its own where the kernel
    allows one (its System V objects go with it)."""
    os.setsid()
    launch["_unshare"](launch["_libc"](), CLONE_NEWIPC)


def _limits(launch: dict[str, Any], limits: dict[str, Any]) -> None:
    """The launcher's limits (``_launch.main``), on this process."""
    limit = launch["_limit"]
    limit(resource.RLIMIT_CPU, max(1, int(limits["cpu"] + 0.999)))
    limit(resource.RLIMIT_AS, limits["memory_mb"] * 1024 * 1024)
    limit(resource.RLIMIT_FSIZE, limits["file_mb"] * 1024 * 1024)
    limit(resource.RLIMIT_CORE, 0)
    if limits.get("files"):
        limit(resource.RLIMIT_NOFILE, limits["files"])
    if limits.get("nproc"):
        limit(resource.RLIMIT_NPROC, limits["nproc"])


def _stdio() -> None:
    """Fresh standard streams on descriptors 0, 1 and 2, made as Python makes them at
    start-up (the server's own were made the same way, from the same environment)."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        old = getattr(sys, f"__{name}__")
        buffered: Any = open(fd, mode + "b", -1, closefd=False)  # noqa: SIM115
        buffered.raw.name = f"<{name}>"
        stream = io.TextIOWrapper(
            buffered,
            encoding=old.encoding,
            errors=old.errors,
            newline="\n",
            line_buffering=old.line_buffering,
            write_through=old.write_through,
        )
        stream.mode = mode  # type: ignore[misc]  # (as Python sets it)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _reset_state(request: dict[str, Any]) -> None:
    """What a fresh interpreter has: default signal handlers, the board's environment,
    folder and command line, unseeded random generators."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # (ignored in a grader started in the background, as SIGINT is: ``_launch``)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    argv = request["argv"]
    sys.argv = list(argv)
    sys.orig_argv = [sys.executable, "-E", "-s", *argv]
    sys.path[0] = os.path.dirname(argv[0])
    tempfile: Any = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile.tempdir = None
    # (random reseeds itself after a fork; numpy's legacy generator does not)
    numpy_random = sys.modules.get("numpy.random")
    if numpy_random is not None and hasattr(numpy_random, "seed"):
        numpy_random.seed()


def _exit_code(exit: SystemExit) -> int:
    """The status ``python PROGRAM`` exits with on ``SystemExit`` (Python's own rules)."""
    code = exit.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    with contextlib.suppress(Exception):
        sys.stderr.write(f"{code}\n")
    return 1


def _shutdown(code: int) -> int:
    """What Python does before it exits: wait for non-daemon threads, run ``atexit``, flush
    the standard streams (standard output failing, it says so through
    ``sys.unraisablehook``; either failing, the exit status is 120)."""
    threading: Any = sys.modules.get("threading")
    if threading is not None:
        with contextlib.suppress(BaseException):
            threading._shutdown()
    import atexit

    atexit._run_exitfuncs()
    failed = False
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        if stream is None:
            continue
        try:
            stream.flush()
        except BaseException as err:
            failed = True
            if name == "stdout":
                with contextlib.suppress(BaseException):
                    _unraisable(err, stream)
    return 120 if failed else code


def _unraisable(err: BaseException, stream: object) -> None:
    """Report ``err`` as Python reports an error it cannot raise (``sys.unraisablehook``,
    whose argument type Python does not expose)."""
    if sys.unraisablehook is not sys.__unraisablehook__:
        args = types.SimpleNamespace(exc_type=type(err), exc_value=err, exc_traceback=None,
                                     err_msg=None, object=stream)  # fmt: skip
        sys.unraisablehook(args)
        return
    import traceback

    sys.stderr.write(f"Exception ignored in: {stream!r}\n")
    sys.stderr.write("".join(traceback.format_exception_only(type(err), err)))


# At a fresh interpreter's module level, a call is at recursion depth 2 (the module's frame
# and the call); the probe, run where the program will be, says how much deeper that is.
_FRESH_DEPTH = 2
_PROBE = compile(
    "import sys\ntry:\n    sys.setrecursionlimit(1)\nexcept RecursionError as err:\n"
    "    message = str(err)\n",
    "<depth probe>",
    "exec",
)


def _same_recursion_depth(probe: dict[str, Any]) -> None:
    """Give the program the recursion depth a fresh interpreter gives it: the limit is
    raised by the frames of this module below the program's, and ``sys.getrecursionlimit``
    and ``sys.setrecursionlimit`` read and set it as if they were not there."""
    found = re.search(r"recursion depth (\d+)", str(probe.get("message", "")))
    offset = int(found.group(1)) - _FRESH_DEPTH if found else 0
    if offset <= 0:
        return
    get, put = sys.getrecursionlimit, sys.setrecursionlimit
    put(get() + offset)

    def getrecursionlimit() -> int:
        return get() - offset

    def setrecursionlimit(limit: int) -> None:
        if not isinstance(limit, int):
            kind = type(limit).__name__
            raise TypeError(f"'{kind}' object cannot be interpreted as an integer")
        if limit < 1:
            raise ValueError("recursion limit must be greater or equal than 1")
        put(limit + offset)

    getrecursionlimit.__doc__, setrecursionlimit.__doc__ = get.__doc__, put.__doc__
    sys.getrecursionlimit = getrecursionlimit
    sys.setrecursionlimit = setrecursionlimit


def _null_byte_error(source: bytes, path: str) -> SyntaxError:
    """The error ``python PROGRAM`` gives a program holding a null byte (``compile`` words
    it otherwise)."""
    line = source[: source.index(b"\0")].count(b"\n") + 1
    return SyntaxError("source code cannot contain null bytes", (path, line, None, ""))


def run_program(path: str) -> int:
    """Run ``path`` as ``__main__``, as ``python path`` does: its exit status."""
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None  # type: ignore[attr-defined]
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    code_object = None
    try:
        with open(path, "rb") as file:
            source = file.read()
        try:
            code_object = compile(source, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            if b"\0" in source:
                raise _null_byte_error(source, path) from None
            raise
        probe: dict[str, Any] = {}
        exec(_PROBE, probe)  # (at the depth the program's code is run at, just below)
        _same_recursion_depth(probe)
        exec(code_object, main.__dict__)
    except SystemExit as exit:
        return _shutdown(_exit_code(exit))
    except BaseException as err:
        tb = err.__traceback__
        # The program's own frames only: from its module's code on.
        while tb is not None and tb.tb_frame.f_code is not code_object:
            tb = tb.tb_next
        with contextlib.suppress(BaseException):
            # (Python's own hook prints the traceback the exception carries)
            sys.excepthook(type(err), err.with_traceback(tb), tb)
        code = _shutdown(1)
        if isinstance(err, KeyboardInterrupt):  # (Python ends by the signal itself)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        return code
    return _shutdown(0)


def _close_others(keep: int) -> None:
    """Close every descriptor but 0, 1, 2 and ``keep``: the server's, other boards'."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd != keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _child(launch: dict[str, Any], request: dict[str, Any], fds: list[int]) -> None:
    """One board's process (see the module's docstring); never returns. The board's status
    socket says ``started`` (the grader learns this process's pid from its credentials),
    waits for ``go``, and says ``running`` once all is set, just before it is closed and
    the program runs: a status without ``running`` is a failure of the server's, not of the
    program."""
    code = 1
    try:
        stdin, stdout, stderr, status, *groups = fds
        for group in groups:  # its control group's ``tasks`` files (cgroup v1), if given
            os.write(group, b"0")
            os.close(group)
        board = socket.socket(fileno=status)
        board.sendall(b"started")
        if board.recv(16) != b"go":
            os._exit(1)
        for target, fd in ((0, stdin), (1, stdout), (2, stderr)):
            os.dup2(fd, target)
        _close_others(keep=board.fileno())
        _limits(launch, request["limits"])
        uid = request["limits"].get("uid")
        if uid is None:
            _stay_root(launch)
        elif request["sandboxed"]:
            _become(launch, uid)
        else:
            _leave_root(launch, uid)
        os.umask(0o077)
        launch["_libc"]().prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # (an exec would set it too)
        _reset_state(request)
        _stdio()
        board.sendall(b"running")
        board.close()
    except BaseException as err:
        try:
            os.write(2, f"autograder: the warm server could not start it: {err!r}\n".encode())
        finally:
            os._exit(125)
    try:
        code = run_program(request["argv"][0])
    finally:
        os._exit(code & 0xFF)


# -- the server ----------------------------------------------------------------------------


class Server:
    """The loop: requests on the control socket, children reaped on ``SIGCHLD``."""

    def __init__(self, launch: dict[str, Any], control: socket.socket) -> None:
        self.launch = launch
        self.control = control
        self.boards: dict[int, int] = {}  # child pid -> its board's status socket
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        signal.set_wakeup_fd(self.wake_write)
        signal.signal(signal.SIGCHLD, lambda number, frame: None)

    def serve(self) -> None:
        while True:
            ready, _, _ = select.select([self.control.fileno(), self.wake_read], [], [])
            if self.wake_read in ready:
                try:
                    while os.read(self.wake_read, 512):
                        pass
                except BlockingIOError:
                    pass
            self.reap()
            if self.control.fileno() in ready and not self.request():
                return

    def request(self) -> bool:
        """Serve one request; false when the grader is gone."""
        try:
            message, fds, _flags, _address = socket.recv_fds(self.control, MAX_REQUEST, MAX_FDS)
        except OSError:
            return False
        if not message:
            return False
        try:
            request = json.loads(message)
        except ValueError:
            request = None
        if not isinstance(request, dict) or len(fds) < 4:
            for fd in fds:
                os.close(fd)
            return True
        pid = os.fork()
        if pid == 0:
            _child(self.launch, request, fds)
        for fd in fds[:3] + fds[4:]:
            os.close(fd)
        self.boards[pid] = fds[3]
        return True

    def reap(self) -> None:
        """Reap every child that has ended; tell each board's grader how its program did."""
        while True:
            try:
                pid, wait_status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            status = self.boards.pop(pid, None)
            if status is None:
                continue  # an orphan of some board: its grader kills it and needs no word
            report = {"status": wait_status, "cpu": usage.ru_utime + usage.ru_stime}
            with contextlib.suppress(OSError):
                os.write(status, json.dumps(report).encode())
            os.close(status)


def main() -> None:
    launcher, control_fd, modules = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    # No signal from a program (another uid) reaches this process at ``namespace`` or
    # ``user`` (at ``process`` one may: the server is then given up); these would, from the
    # grader, and must not raise in the middle of the loop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    launch = runpy.run_path(launcher, run_name="autograder_launch")
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    control = socket.socket(fileno=control_fd)
    loaded = preload(modules)
    ready = {"ready": True, "loaded": loaded, "threads": _threads(),
             "version": list(sys.version_info[:3])}  # fmt: skip
    control.sendall(json.dumps(ready).encode())
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    Server(launch, control).serve()


if __name__ == "__main__":
    main()
