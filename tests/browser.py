"""Open a self-contained HTML file in a real headless browser and report what it did.

No driver library: the browser is driven through the Chrome DevTools Protocol over
``--remote-debugging-pipe``, where chromium reads NUL-terminated JSON messages from its fd 3
and writes its own to its fd 4. One call to ``visit`` starts a fresh browser with an empty
profile, loads the page from disk, collects its console errors, its requests and the layout
of the elements the caller names, takes a screenshot, and always kills the browser and
removes the profile before it returns or raises. Screenshots are decoded with numpy (a
dependency of the project already).

What chromium 156 (Debian's ``chromium-headless-shell``) was seen to do with a ``file://``
page, so that nothing here is filtered silently:

* it asks for no favicon (the headless shell has no tab strip to show one in): no request,
  no console error. Reports carry ``<link rel="icon" href="data:,">`` all the same, so a
  full ``chromium`` cannot go looking for ``/favicon.ico`` either;
* a resource it cannot load (here, any ``http:`` one) is reported twice: as a request, and
  as a ``Log.entryAdded`` error "Failed to load resource: net::ERR_NAME_NOT_RESOLVED". Both
  are kept: a report that tries to fetch something has two things wrong with it;
* an ``<img>``'s ``data:`` URL shows up as a request (local, so not in ``network``); the
  ``data:,`` icon does not;
* the network is not quite closed: without ``--host-resolver-rules`` an ``https:`` image at
  a bare IP address got as far as a TLS handshake (net::ERR_CERT_AUTHORITY_INVALID, from
  something that intercepts connections). With the rule below no name or address resolves,
  so nothing a page asks for leaves the machine, and a failed request fails at once;
* the browser's stderr is full of harmless D-Bus complaints; it goes to a file that is
  quoted (its end) only when a visit fails.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

BROWSERS = ("chromium-headless-shell", "chromium")

# CI sets this: there a missing browser fails the tests that need one instead of skipping them.
EXPECT_BROWSER = "AUTOGRADER_EXPECT_BROWSER"

# Schemes that never leave the machine. Any other URL a page requests is a network fetch.
LOCAL_SCHEMES = ("file:", "data:", "about:", "blob:")

FLAGS = (
    "--headless",
    # The tests run as root, where chromium refuses to start with its sandbox.
    "--no-sandbox",
    # The machine's network is closed: without these chromium keeps trying to reach Google's
    # services (updates, sync, field trials, safe browsing) in the background.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-gpu",
    "--disable-breakpad",
    "--disable-crash-reporter",
    # Every host name and IP address fails to resolve at once: nothing leaves the machine even
    # where the network is open, a page that asks for a remote resource still gets its load
    # event in milliseconds, and the request is still seen by Network.requestWillBeSent.
    "--host-resolver-rules=MAP * ~NOTFOUND",
    # /dev/shm is small in some containers, and chromium crashes when it runs out.
    "--disable-dev-shm-usage",
    # Screenshots are of the page only, the same size on every machine.
    "--hide-scrollbars",
    "--mute-audio",
    "--remote-debugging-pipe",
)


class BrowserError(RuntimeError):
    """The browser failed, crashed, or answered with an error."""


@dataclass(frozen=True)
class PageVisit:
    """What one page did in the browser."""

    errors: tuple[str, ...]  # console errors, uncaught exceptions, error log entries
    requests: tuple[str, ...]  # every URL requested (file: included), in order
    laid_out: dict[str, int]  # selector -> number of elements with a non-empty box
    screenshot: bytes  # PNG of the whole page

    @property
    def network(self) -> tuple[str, ...]:
        """The requests that would have left the machine."""
        return tuple(url for url in self.requests if not url.startswith(LOCAL_SCHEMES))


def find_browser() -> str | None:
    """The path of the first of ``BROWSERS`` on PATH, or None."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_or_skip() -> str:
    """The browser's path. Where none is installed: pytest.skip with the reason, unless the
    environment variable AUTOGRADER_EXPECT_BROWSER is set (CI sets it), in which case
    pytest.fail."""
    found = find_browser()
    if found is not None:
        return found
    reason = f"no headless browser on PATH (looked for {', '.join(BROWSERS)})"
    if os.environ.get(EXPECT_BROWSER):
        pytest.fail(f"{reason}, and {EXPECT_BROWSER} is set")
    pytest.skip(reason)


# For each selector, the elements the browser gave a box of some width and height: those not
# laid out (display:none, or inside such an element) have an empty one.
_COUNT_LAID_OUT = """(selectors => selectors.map(selector =>
    Array.from(document.querySelectorAll(selector)).filter(element => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
    }).length))(%s)"""


def visit(
    path: Path,
    selectors: Sequence[str] = (),
    *,
    width: int = 1280,
    height: int = 900,
    timeout: float = 60.0,
    browser: str | None = None,
) -> PageVisit:
    """Load ``path`` in a fresh headless browser with a ``width`` x ``height`` viewport.

    ``laid_out`` counts, for each CSS selector, the matching elements whose bounding box has
    a width and a height: an element that is not displayed (or is inside one that is not)
    has none, while ``visibility: hidden`` or ``opacity: 0`` still take up their room and
    are counted. The screenshot is of the whole page, at least the viewport's size.

    Raises TimeoutError when the whole visit takes longer than ``timeout`` seconds (the
    browser is killed all the same), and BrowserError when the browser fails or the page
    cannot be loaded."""
    browser = browser or find_browser()
    if browser is None:
        raise BrowserError(f"no headless browser on PATH (looked for {', '.join(BROWSERS)})")
    url = Path(path).resolve().as_uri()
    deadline = time.monotonic() + timeout
    with tempfile.TemporaryDirectory(prefix="autograder-browser-") as scratch:
        log = Path(scratch, "browser.log")
        with _Browser(browser, Path(scratch, "profile"), log, deadline) as cdp:
            try:
                return _visit(cdp, url, list(selectors), width, height)
            except (BrowserError, TimeoutError) as error:
                tail = _tail(log)
                if tail:
                    error.add_note(f"the browser's own log ends:\n{tail}")
                raise


def _visit(cdp: _Connection, url: str, selectors: list[str], width: int, height: int) -> PageVisit:
    target = cdp.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = cdp.call("Target.attachToTarget", {"targetId": target, "flatten": True})
    cdp.session = session["sessionId"]
    for domain in ("Inspector", "Runtime", "Log", "Network", "Page"):
        cdp.call(f"{domain}.enable")
    cdp.call(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    # Only what happens from here on is the page's: about:blank made its own events.
    cdp.events.clear()
    navigated = cdp.call("Page.navigate", {"url": url})
    if navigated.get("errorText"):
        raise BrowserError(f"could not load {url}: {navigated['errorText']}")
    # The page's load event is the first after its document replaced about:blank (a late
    # one from about:blank itself would come before).
    committed = cdp.wait_for(
        "Page.frameNavigated",
        lambda params: params["frame"].get("loaderId") == navigated.get("loaderId"),
    )
    cdp.wait_for("Page.loadEventFired", after=committed)
    counted = cdp.call(
        "Runtime.evaluate",
        {"expression": _COUNT_LAID_OUT % json.dumps(selectors), "returnByValue": True},
    )
    if "exceptionDetails" in counted:
        raise BrowserError(f"counting {selectors}: {_exception_text(counted['exceptionDetails'])}")
    counts = counted["result"]["value"]
    size = cdp.call("Page.getLayoutMetrics")["cssContentSize"]
    shot = cdp.call(
        "Page.captureScreenshot",
        {
            "format": "png",
            # Zlib's fastest level and the "up" filter on every row: the same pixels, with
            # less time spent encoding here and decoding in ``png_pixels``.
            "optimizeForSpeed": True,
            "captureBeyondViewport": True,
            "clip": {
                "x": 0,
                "y": 0,
                "width": max(width, size["width"]),
                "height": max(height, size["height"]),
                "scale": 1,
            },
        },
    )
    # The screenshot's round trip came after everything the page did while it loaded and
    # while it was measured: the events are complete.
    errors: list[str] = []
    requests: list[str] = []
    for event in cdp.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            words = " ".join(_remote_text(arg) for arg in params.get("args", ()))
            errors.append(f"console.{params['type']}: {words}")
        elif method == "Runtime.exceptionThrown":
            errors.append(f"uncaught: {_exception_text(params['exceptionDetails'])}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            where = f" ({entry['url']})" if entry.get("url") else ""
            errors.append(f"log {entry['source']}: {entry['text']}{where}")
        elif method == "Network.requestWillBeSent":
            requests.append(params["request"]["url"])
    return PageVisit(
        errors=tuple(errors),
        requests=tuple(requests),
        laid_out=dict(zip(selectors, counts, strict=True)),
        screenshot=base64.b64decode(shot["data"]),
    )


def _remote_text(value: dict[str, Any]) -> str:
    """A console argument (a Runtime.RemoteObject) as the console would show it."""
    if "value" in value:
        return value["value"] if isinstance(value["value"], str) else json.dumps(value["value"])
    return str(value.get("description") or value.get("unserializableValue") or value["type"])


def _exception_text(details: dict[str, Any]) -> str:
    """An exception as the console shows it: an Error's description has its stack."""
    description = (details.get("exception") or {}).get("description")
    if description:
        return str(description)
    where = f"{details.get('url') or '?'}:{details.get('lineNumber', 0) + 1}"
    return f"{details.get('text', 'exception')} at {where}"


def _wait(fd: int, event: int, seconds: float) -> bool:
    """Whether ``fd`` became ready for ``event`` (or hung up) within ``seconds``."""
    poller = select.poll()
    poller.register(fd, event)
    return bool(poller.poll(max(1, round(seconds * 1000))))


def _tail(log: Path, lines: int = 20) -> str:
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


class _Connection:
    """The DevTools protocol over the two pipes, with a deadline on every wait."""

    def __init__(self, send: int, receive: int, deadline: float) -> None:
        self._send, self._receive, self._deadline = send, receive, deadline
        # A write never blocks: when the browser stops reading, the deadline still holds.
        os.set_blocking(send, False)
        self._buffer = bytearray()
        self._last_id = 0
        self.session: str | None = None
        self.events: list[dict[str, Any]] = []  # the session's events, in order

    def _remaining(self, what: str) -> float:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the browser did not finish {what} in time")
        return left

    def post(self, method: str, params: dict[str, Any] | None = None) -> int:
        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params or {}}
        if self.session is not None:
            message["sessionId"] = self.session
        data = json.dumps(message).encode() + b"\0"
        while data:
            _wait(self._send, select.POLLOUT, self._remaining(f"reading {method}"))
            try:
                data = data[os.write(self._send, data) :]
            except BlockingIOError:
                continue
            except BrokenPipeError:
                raise BrowserError(f"the browser exited before it read {method}") from None
        return self._last_id

    def _next(self, what: str) -> dict[str, Any]:
        """The next message, or TimeoutError at the deadline."""
        while (end := self._buffer.find(b"\0")) < 0:
            if _wait(self._receive, select.POLLIN, self._remaining(what)):
                chunk = os.read(self._receive, 1 << 16)
                if not chunk:
                    raise BrowserError(f"the browser exited while {what}")
                self._buffer += chunk
        message = json.loads(self._buffer[:end])
        del self._buffer[: end + 1]
        method = message.get("method")
        if method is None:
            return message
        if message.get("sessionId") == self.session:
            if method == "Inspector.targetCrashed":
                raise BrowserError("the page's renderer crashed")
            self.events.append(message)
        elif (
            method == "Target.detachedFromTarget"
            and self.session is not None
            and message.get("params", {}).get("sessionId") == self.session
        ):
            raise BrowserError("the browser closed the page")
        return message

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a command and wait for its answer, keeping the events that come first."""
        sent = self.post(method, params)
        while (message := self._next(f"waiting for {method}")).get("id") != sent:
            pass
        if "error" in message:
            raise BrowserError(f"{method} failed: {message['error']}")
        return message.get("result", {})

    def wait_for(
        self,
        event: str,
        matches: Callable[[dict[str, Any]], bool] = lambda params: True,
        *,
        after: int = -1,
    ) -> int:
        """The index in ``events`` of the session's first ``event`` whose parameters match,
        among those after index ``after``; waits for it to come."""
        seen = after + 1
        while True:
            for index in range(seen, len(self.events)):
                message = self.events[index]
                if message["method"] == event and matches(message.get("params", {})):
                    return index
            seen = len(self.events)
            self._next(f"waiting for {event}")


class _Browser(contextlib.AbstractContextManager["_Connection"]):
    """A browser process in its own process group, killed with the whole group on exit."""

    def __init__(self, executable: str, profile: Path, log: Path, deadline: float) -> None:
        self._command = [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
        self._log = log
        self._deadline = deadline
        self._process: subprocess.Popen[bytes] | None = None
        self._ours: list[int] = []

    def __enter__(self) -> _Connection:
        commands, to_browser = os.pipe()  # the browser reads what is written here
        from_browser, replies = os.pipe()  # and writes there
        self._ours = [to_browser, from_browser]
        try:
            self._process = _spawn(self._command, self._log, commands, replies)
        except BaseException:
            for fd in self._ours:
                os.close(fd)
            raise
        finally:
            # The browser's ends live on in the browser only, so its exit is seen as the end
            # of its pipe.
            os.close(commands)
            os.close(replies)
        return _Connection(to_browser, from_browser, self._deadline)

    def __exit__(self, *exc_info: object) -> None:
        process = self._process
        try:
            if process is not None:
                # The shell script that Debian installs as the command starts the real
                # browser as a child, and the browser starts its own helpers: only the
                # process group holds them all.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=30)
                # The helpers are not this process's children and cannot be waited for; they
                # must be gone before their profile is removed under them.
                gone_by = time.monotonic() + 30
                while _group_alive(process.pid) and time.monotonic() < gone_by:
                    time.sleep(0.01)
        finally:
            for fd in self._ours:
                os.close(fd)


def _group_alive(group: int) -> bool:
    """Whether a process of process group ``group`` is still running (not a zombie)."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:  # it has just exited
            continue
        # pid (command) state ppid pgrp ...: the command may itself hold spaces or brackets.
        state, _, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == group and state not in "ZX":
            return True
    return False


def _spawn(command: list[str], log: Path, read_end: int, write_end: int) -> subprocess.Popen:
    """Start ``command`` with ``read_end`` as its fd 3 and ``write_end`` as its fd 4."""

    def onto_3_and_4() -> None:
        # In the child, before exec. Either end may itself be 3 or 4, so both are first
        # copied out of the way (close-on-exec copies, above any fd in use).
        source = fcntl.fcntl(read_end, fcntl.F_DUPFD_CLOEXEC, 10)
        sink = fcntl.fcntl(write_end, fcntl.F_DUPFD_CLOEXEC, 10)
        os.dup2(source, 3)
        os.dup2(sink, 4)

    # The child runs onto_3_and_4 before it closes the fds that pass_fds does not keep, so
    # pass_fds=(3, 4) keeps the pipes. It needs 3 and 4 open in this process too, which they
    # are unless stdin, stdout or stderr is closed (the pipes just made took the lowest free
    # numbers); then placeholders fill them for the time of the spawn. Being taken, neither
    # can be the pipe through which subprocess reports a failed exec.
    placeholders: list[int] = []
    while not all(_is_open(fd) for fd in (3, 4)):
        placeholders.append(os.open(os.devnull, os.O_RDONLY))
    try:
        with open(log, "wb") as stderr:
            return subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=stderr,
                stderr=stderr,
                pass_fds=(3, 4),
                preexec_fn=onto_3_and_4,
                start_new_session=True,
            )
    finally:
        for fd in placeholders:
            os.close(fd)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def png_pixels(png: bytes) -> tuple[int, int, list[tuple[int, ...]]]:
    """Decode an 8-bit, non-interlaced greyscale, RGB or RGBA PNG (what chromium's
    screenshots are): its width, its height, and its pixels row by row."""
    width, height, channels, rows = _png_rows(png)
    pixels = [tuple(pixel) for pixel in rows.reshape(-1, channels).tolist()]
    return width, height, pixels


def _png_rows(png: bytes) -> tuple[int, int, int, np.ndarray]:
    """The PNG's width, height, channels per pixel, and its bytes unfiltered, one array row
    per image row. A whole-page screenshot has millions of pixels: a byte at a time in
    Python took seconds, so the filters that need no left-to-right pass (none, up) and the
    one that is a running sum (sub) are undone by numpy; average and Paeth, a byte at a time
    (chromium's fast encoding, which ``visit`` asks for, uses neither)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, header, data = 8, b"", bytearray()
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        body = png[position + 8 : position + 8 + length]
        (crc,) = struct.unpack(">I", png[position + 8 + length : position + 12 + length])
        if len(body) != length or zlib.crc32(kind + body) != crc:
            raise ValueError(f"damaged {kind!r} chunk at byte {position}")
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            data += body
        elif kind == b"IEND":
            break
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}")
    raw = np.frombuffer(zlib.decompress(data), dtype=np.uint8)
    stride = width * channels
    if raw.size != height * (stride + 1):
        raise ValueError("PNG data has the wrong length")
    raw = raw.reshape(height, stride + 1)
    rows = np.empty((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        kind, line = int(raw[y, 0]), raw[y, 1:]
        if kind == 0:
            rows[y] = line
        elif kind == 2:  # up (uint8 sums wrap around at 256, as the filter's do)
            np.add(line, previous, out=rows[y])
        elif kind == 1:  # sub: each channel's running sum along the row
            pixels = line.reshape(width, channels)
            rows[y] = np.cumsum(pixels, axis=0, dtype=np.uint8).reshape(stride)
        else:
            rows[y] = np.frombuffer(
                _unfilter(kind, line.tobytes(), previous.tobytes(), channels), dtype=np.uint8
            )
        previous = rows[y]
    return width, height, channels, rows


def _unfilter(kind: int, line: bytes, above: bytes, bpp: int) -> bytes:
    if kind == 0:
        return line
    if kind == 2:  # up
        return bytes((a + b) & 0xFF for a, b in zip(line, above, strict=True))
    out = bytearray(line)
    for i in range(len(out)):
        left = out[i - bpp] if i >= bpp else 0
        if kind == 1:  # sub
            out[i] = (out[i] + left) & 0xFF
        elif kind == 3:  # average
            out[i] = (out[i] + ((left + above[i]) >> 1)) & 0xFF
        elif kind == 4:  # paeth
            corner = above[i - bpp] if i >= bpp else 0
            guess = left + above[i] - corner
            near_left, near_up, near_corner = (
                abs(guess - left),
                abs(guess - above[i]),
                abs(guess - corner),
            )
            if near_left <= near_up and near_left <= near_corner:
                best = left
            elif near_up <= near_corner:
                best = above[i]
            else:
                best = corner
            out[i] = (out[i] + best) & 0xFF
        else:
            raise ValueError(f"unknown PNG filter {kind}")
    return bytes(out)


def distinct_colours(png: bytes) -> int:
    """How many different pixel values the PNG has: 1 for a blank page."""
    _, _, channels, rows = _png_rows(png)
    # Each pixel as one number (its channels' bytes side by side), to count them by numpy.
    pixels = rows.reshape(-1, channels).astype(np.uint32)
    packed = np.zeros(len(pixels), dtype=np.uint32)
    for channel in range(channels):
        packed |= pixels[:, channel] << np.uint32(8 * channel)
    return len(np.unique(packed))


def colours_shown(png: bytes) -> set[str]:
    """The colours the PNG shows, as ``#rrggbb`` (alpha left out): to find a fill on screen."""
    _, _, channels, rows = _png_rows(png)
    pixels = rows.reshape(-1, channels)[:, :3].astype(np.uint32)
    packed = (pixels[:, 0] << np.uint32(16)) | (pixels[:, 1] << np.uint32(8)) | pixels[:, 2]
    return {f"#{int(value):06x}" for value in np.unique(packed)}
