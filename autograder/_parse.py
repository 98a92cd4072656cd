"""Reading what a submission printed, in its assignment's print format (``_formats``).

Standard library only: a student bundle carries this module.
"""

from __future__ import annotations

from ._cases import Expected
from ._formats import OutputError, Printed

__all__ = ["OutputError", "Printed", "parse_output"]


def parse_output(text: str, expected: Expected, *, quote: bool = True) -> Printed:
    """Read ``text`` as the answer to the board ``expected`` is for. With ``quote`` false,
    no warning or error repeats what the program printed (hidden boards, Gradescope)."""
    return expected.format.parse(text, expected.answer, quote=quote)
