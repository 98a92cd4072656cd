"""Text from students made safe for where a teaching assistant reads it.

File names, ids and display names come from students (an LMS download names files after
what they uploaded and who they say they are). Shown raw, they reach two interpreters:

* a terminal, which runs escape sequences: ``\\x1b]0;...\\x07`` sets the window title,
  ``\\x1b[2J`` clears the screen, a carriage return draws over the line, and an
  undecodable byte in a file name (a lone surrogate in Python) makes printing it fail;
* a spreadsheet, which runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a
  formula (``=HYPERLINK(...)`` can send data away or mislead whoever clicks).

:func:`printable` is for the first, :func:`cell` for both (a CSV file is also read with
``cat``).
"""

from __future__ import annotations

import re

__all__ = ["cell", "printable", "printable_lines"]

# C0 controls but tab (a tab moves the cursor and nothing else), DEL and C1 controls (a
# terminal takes 0x9b as ESC [), lone surrogates (bytes of a name that are not UTF-8, which
# no strict encoder writes), and the characters that reorder or break lines on screen
# (bidirectional overrides and isolates, the line and paragraph separators): with them a
# name can show as another.
_UNSAFE = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)
# What makes a spreadsheet read a cell as a formula (OWASP, "CSV injection"), with the
# full-width forms some spreadsheets turn into them on import. (A carriage return, also on
# OWASP's list, never reaches a cell: printable() writes it as \r.)
_FORMULA = ("=", "+", "-", "@", "\t", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _escaped(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]  # \x1b, \n, \u202e, \udcff: as Python spells them


def printable(text: str) -> str:
    """``text`` with every character that a terminal would act on, or that would show the
    text as something else, written as its Python escape (``\\x1b``, ``\\r``, ``\\n``,
    ``\\u202e``). Newlines are escaped too, so one line stays one line."""
    return _UNSAFE.sub(_escaped, text)


def printable_lines(text: str) -> list[str]:
    """``text`` line by line, each :func:`printable`: a compiler's message keeps its lines
    (the caret under the column at fault) and no line can act on a terminal."""
    return [printable(line) for line in text.split("\n")]


def cell(text: str) -> str:
    """A text cell for a CSV file: :func:`printable` but for its newlines (the csv module
    quotes a cell that holds one, and a spreadsheet shows it as one cell of two lines),
    and with a ``'`` in front when a spreadsheet would take it for a formula. Only for
    text: a number written by the grader (a score) goes in as it is, so it stays a number."""
    text = "\n".join(printable(line) for line in text.split("\n"))
    # Leading white space does not stop every spreadsheet, nor every tool that trims.
    formula = text.startswith(_FORMULA) or text.lstrip().startswith(_FORMULA)
    return "'" + text if formula else text
