"""The headless-browser harness (tests/browser.py) on small pages made here: it must see what
the browser laid out, drew, complained about and asked for, and leave nothing behind."""

from __future__ import annotations

import os
import random
import struct
import tempfile
import time
import zlib
from pathlib import Path

import pytest

from tests.browser import (
    BROWSERS,
    EXPECT_BROWSER,
    BrowserError,
    PageVisit,
    browser_or_skip,
    distinct_colours,
    find_browser,
    png_pixels,
    visit,
)

WHITE = (255, 255, 255)
RED = (255, 0, 0)


@pytest.fixture
def browser() -> str:
    return browser_or_skip()


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    """Where the harness makes its temporary profile, to check that it is gone afterwards."""
    where = tmp_path / "scratch"
    where.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


def page(tmp_path: Path, body: str, name: str = "page.html") -> Path:
    """A self-contained page, written as the reports are: no favicon to fetch."""
    path = tmp_path / name
    path.write_text(
        '<!doctype html>\n<html><head><meta charset="utf-8"><link rel="icon" href="data:,">'
        "<title>test</title><style>body { margin: 0; background: white; }</style></head>\n"
        f"<body>{body}</body></html>\n"
    )
    return path


def look(path: Path, browser: str, selectors: tuple[str, ...] = ()) -> PageVisit:
    return visit(path, selectors, width=240, height=160, browser=browser)


def pixel(png: bytes, x: int, y: int) -> tuple[int, ...]:
    width, _, pixels = png_pixels(png)
    return pixels[y * width + x][:3]


# -- layout and screenshot ---------------------------------------------------------------------


def test_every_drawn_rect_is_laid_out_and_a_hidden_one_is_not(tmp_path, browser, scratch):
    squares = "".join(
        f'<rect class="square" x="{10 + 40 * i}" y="10" width="30" height="30" fill="red"/>'
        for i in range(5)
    )
    hidden = (
        '<rect class="square hidden" x="10" y="60" width="30" height="30" style="display:none"/>'
    )
    path = page(tmp_path, f'<svg id="board" width="220" height="100">{squares}{hidden}</svg>')
    seen = look(path, browser, ("#board", "rect", "rect.square", ".hidden", "circle"))
    assert seen.laid_out == {"#board": 1, "rect": 5, "rect.square": 5, ".hidden": 0, "circle": 0}
    width, height, pixels = png_pixels(seen.screenshot)
    assert (width, height) == (240, 160)
    assert len(pixels) == width * height
    assert pixel(seen.screenshot, 25, 25) == pixel(seen.screenshot, 185, 25) == RED
    assert pixel(seen.screenshot, 25, 75) == WHITE  # where the hidden one would be
    assert distinct_colours(seen.screenshot) > 1
    assert seen.errors == ()
    assert list(scratch.iterdir()) == []


def test_an_empty_white_page_is_one_colour(tmp_path, browser):
    seen = look(page(tmp_path, ""), browser, ("rect",))
    assert seen.laid_out == {"rect": 0}
    assert distinct_colours(seen.screenshot) == 1
    assert pixel(seen.screenshot, 120, 80) == WHITE


def test_a_page_taller_than_the_viewport_is_captured_whole(tmp_path, browser):
    path = page(tmp_path, '<div style="height: 400px"></div><div id="low" style="height: 20px">.')
    seen = look(path, browser, ("#low",))
    assert seen.laid_out == {"#low": 1}
    width, height, _ = png_pixels(seen.screenshot)
    assert (width, height) == (240, 420)


# -- errors ------------------------------------------------------------------------------------


def test_a_console_error_is_reported(tmp_path, browser):
    path = page(tmp_path, '<script>console.log("fine"); console.error("x marks", 42)</script>')
    seen = look(path, browser)
    assert len(seen.errors) == 1, seen.errors
    assert "x marks 42" in seen.errors[0]
    assert not any("fine" in error for error in seen.errors)


def test_a_failed_console_assert_is_reported(tmp_path, browser):
    seen = look(page(tmp_path, '<script>console.assert(1 > 2, "the maths")</script>'), browser)
    assert len(seen.errors) == 1, seen.errors
    assert "the maths" in seen.errors[0]


def test_an_uncaught_exception_is_reported(tmp_path, browser):
    path = page(tmp_path, '<p>before</p><script>throw new Error("unique-oops")</script>')
    seen = look(path, browser, ("p",))
    assert len(seen.errors) == 1, seen.errors
    assert "unique-oops" in seen.errors[0]
    assert seen.laid_out == {"p": 1}  # the page itself was still shown


def test_a_clean_page_has_no_errors_and_asks_only_for_itself(tmp_path, browser):
    path = page(tmp_path, '<svg width="20" height="20"><circle cx="10" cy="10" r="5"/></svg>')
    seen = look(path, browser, ("circle",))
    assert seen.errors == ()
    assert seen.requests == (path.resolve().as_uri(),)
    assert seen.network == ()
    assert seen.laid_out == {"circle": 1}


# -- requests ----------------------------------------------------------------------------------


def test_a_remote_image_is_a_network_request(tmp_path, browser):
    (tmp_path / "local.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    )
    path = page(
        tmp_path, '<img src="local.svg"><img src="http://example.invalid/x.png" alt="remote">'
    )
    seen = look(path, browser)
    assert seen.network == ("http://example.invalid/x.png",)
    assert (tmp_path / "local.svg").resolve().as_uri() in seen.requests
    # The closed network refuses it, and that is reported too.
    assert any("example.invalid" in error for error in seen.errors), seen.errors


def test_local_schemes_are_not_network():
    seen = PageVisit(
        errors=(),
        requests=(
            "file:///tmp/a.html",
            "data:image/png;base64,AAAA",
            "about:blank",
            "blob:file:///0b1c",
            "https://cdn.example/x.js",
            "ws://example/socket",
        ),
        laid_out={},
        screenshot=b"",
    )
    assert seen.network == ("https://cdn.example/x.js", "ws://example/socket")


# -- the browser always goes away --------------------------------------------------------------


def test_a_hung_page_times_out_and_leaves_nothing_behind(tmp_path, browser, scratch):
    path = page(tmp_path, "<script>while (true) {}</script>")
    started = time.monotonic()
    with pytest.raises(TimeoutError, match=r"did not finish .* in time"):  # its deadline's
        visit(path, timeout=1.5, browser=browser)
    # The page would hold it for ever: a bound far under that, and far over what the kill
    # and the clean-up take however busy the machine.
    assert time.monotonic() - started < 1.5 + 120
    assert list(scratch.iterdir()) == []
    assert not running_with(str(scratch))


def test_a_missing_page_is_an_error(tmp_path, browser, scratch):
    with pytest.raises(BrowserError, match="ERR_FILE_NOT_FOUND"):
        visit(tmp_path / "nowhere.html", browser=browser)
    assert list(scratch.iterdir()) == []


def running_with(text: str) -> list[str]:
    """The command lines of running processes that mention ``text``."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                command = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if text.encode() in command:
                found.append(command.decode(errors="replace"))
    return found


def test_ci_has_its_browser():
    """CI sets AUTOGRADER_EXPECT_BROWSER: losing the browser there must fail the build, not
    quietly skip every test that looks at a report."""
    if not os.environ.get(EXPECT_BROWSER):
        pytest.skip(f"{EXPECT_BROWSER} is not set")
    assert find_browser() is not None, f"none of {', '.join(BROWSERS)} is on PATH"


# -- PNG decoding ------------------------------------------------------------------------------


def encode_png(rows: list[list[tuple[int, ...]]], filters: list[int]) -> bytes:
    """An 8-bit RGB or RGBA PNG of ``rows``, each row filtered the given way."""
    channels = len(rows[0][0])
    width = len(rows[0])
    raw = bytearray()
    above = bytes(width * channels)
    for row, kind in zip(rows, filters, strict=True):
        line = bytes(value for colour in row for value in colour)
        raw.append(kind)
        for i, value in enumerate(line):
            a = line[i - channels] if i >= channels else 0
            b = above[i]
            c = above[i - channels] if i >= channels else 0
            p = a + b - c
            if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c):
                paeth = a
            elif abs(p - b) <= abs(p - c):
                paeth = b
            else:
                paeth = c
            predicted = (0, a, b, (a + b) // 2, paeth)[kind]
            raw.append((value - predicted) % 256)
        above = line

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, len(rows), 8, {3: 2, 4: 6}[channels], 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(raw)))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("channels", [3, 4])
def test_png_pixels_undoes_every_filter(channels):
    # Few distinct values (some a third apart), so that the Paeth predictor's ties and sums
    # past 255 are common.
    choose = random.Random(channels).choice
    values = (0, 1, 2, 85, 127, 128, 170, 254, 255)
    rows = [[tuple(choose(values) for _ in range(channels)) for _ in range(9)] for _ in range(20)]
    filters = [0, 1, 2, 3, 4] * 4
    width, height, pixels = png_pixels(encode_png(rows, filters))
    assert (width, height) == (9, 20)
    assert pixels == [colour for row in rows for colour in row]


def test_distinct_colours_counts_pixel_values():
    rows = [[RED, WHITE, RED], [WHITE, WHITE, (0, 0, 254)]]
    assert distinct_colours(encode_png(rows, [1, 4])) == 3
    assert distinct_colours(encode_png([[WHITE] * 4] * 3, [0, 2, 3])) == 1


def test_png_pixels_refuses_a_damaged_file():
    png = bytearray(encode_png([[RED, WHITE]], [0]))
    png[-20] ^= 0xFF  # inside the IDAT chunk
    with pytest.raises(ValueError, match="damaged"):
        png_pixels(bytes(png))
    with pytest.raises(ValueError, match="not a PNG"):
        png_pixels(b"GIF89a")
