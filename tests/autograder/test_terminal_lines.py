"""``check``'s lines on a terminal: broken at the terminal's width between words, the lines
they go on to indented 4 more than their own; left whole in a file or a pipe, or where the
terminal is wide enough; a number never cut in two."""

from __future__ import annotations

import io
import re
import sys

import pytest

from autograder._check import fit_to_width, terminal_width
from autograder.cli import main

FEEDBACK = (
    "PART  public board: 0.50 / 25.00\n"
    "      self-check does not hold: printed 21.84, expected 39.60\n"
    "      your answer matches a game where chutes are never followed (ladders are): re-read "
    "the jump rule: a move that ends on a chute or ladder follows it, within the same turn.\n"
    "      square 96: printed 6.00, expected 10.82\n"
)


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("width", [30, 40, 57, 80])
def test_a_long_line_is_broken_between_words_and_goes_on_indented(width):
    fitted = fit_to_width(FEEDBACK, width)
    # Nothing lost, nothing cut: the same words in the same order (a number is a word).
    assert words(fitted) == words(FEEDBACK)
    for line in FEEDBACK.splitlines():  # each line is fitted on its own
        own = len(line) - len(line.lstrip(" "))
        first, *more = fit_to_width(line, width).split("\n")
        assert first.startswith(line[: own + 1]) and len(first) <= max(width, len(line[:own]))
        for part in more:
            # 4 more than its own line's indent (half the width at most), then a word.
            hanging = min(own + 4, width // 2)
            assert part[:hanging] == " " * hanging and part[hanging] != " ", part
            assert len(part) <= width or " " not in part.strip(), part
    assert fit_to_width(FEEDBACK, width).count("\n") >= FEEDBACK.count("\n")


def test_no_number_is_cut_in_two():
    line = "      " + ", ".join(
        f"square {k}: printed {k * 1.37:.4f}, expected 1e-9" for k in range(9)
    )
    numbers = re.findall(r"\d[\d.e-]*", line)
    for width in range(12, 90):
        fitted = fit_to_width(line, width)
        assert re.findall(r"\d[\d.e-]*", fitted) == numbers, width
        # (no line ends on a hyphen: 1e-9 stays whole, as does every other word)
        for part in fitted.splitlines():
            assert not part.endswith("-")


def test_lines_are_left_whole_off_a_terminal_or_on_a_wide_one():
    assert fit_to_width(FEEDBACK, None) == FEEDBACK
    widest = max(map(len, FEEDBACK.splitlines()))
    assert fit_to_width(FEEDBACK, widest) == FEEDBACK
    assert fit_to_width(FEEDBACK, widest - 1) != FEEDBACK


def test_a_word_longer_than_the_line_stays_whole():
    path = "/home/student/" + "a" * 60 + "/classic.py"
    fitted = fit_to_width(f"problem: no program in {path} here", 30)
    assert path in fitted.splitlines() or f"    {path}" in fitted.splitlines()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_width_is_the_terminals_and_none_off_one(monkeypatch):
    monkeypatch.setenv("COLUMNS", "52")
    assert terminal_width(_Terminal()) == 52
    assert terminal_width(io.StringIO()) is None
    closed = io.StringIO()
    closed.close()  # (its isatty raises)
    assert terminal_width(closed) is None


def test_check_fits_its_lines_to_the_terminal_and_not_to_a_file(tmp_path, monkeypatch, capsys):
    from reference_solutions import reference_program

    # The reference with a spinner of 1..5: wrong everywhere, named at length.
    program = tmp_path / "classic.py"
    text = reference_program("classic")
    assert "for s in range(1, faces + 1)" in text
    program.write_text(text.replace("for s in range(1, faces + 1)", "for s in range(1, faces)"))
    args = ["check", "classic", str(program), "--isolation", "process"]
    assert main(args) == 1
    whole = capsys.readouterr().out
    assert max(map(len, whole.splitlines())) > 50, "lines longer than the terminal below"
    monkeypatch.setenv("COLUMNS", "50")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(args) == 1
    fitted = capsys.readouterr().out
    assert words(fitted) == words(whole)
    assert all(len(line) <= 50 or " " not in line.strip() for line in fitted.splitlines())
    assert fitted == fit_to_width(whole.rstrip("\n"), 50) + "\n"
