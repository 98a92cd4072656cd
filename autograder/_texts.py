"""The sentences a student reads about a run, in one place: the grader's feedback and the
bundled ``check.py`` both say them. Standard library only: a student bundle carries this
module, and it runs there on Python 3.10.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterable, Sequence

__all__ = [
    "GENERIC_MISTAKES",
    "NOT_IMPLEMENTED",
    "NOT_YET",
    "OWN_BOARD_RIGHT",
    "PRINTED_NOTHING",
    "PUBLIC_PASS",
    "SHOWN_WRONG",
    "STDERR_HEADING",
    "crash_reason",
    "exception_name",
    "hidden_unreadable",
    "hidden_warnings",
    "listing",
    "output_limit",
    "self_check_line",
    "time_limit",
    "unreadable",
]

SHOWN_WRONG = 10  # wrong entries listed, then a count
STDERR_LINES = 12  # lines of standard error shown after a crash, where it may be shown
NOT_IMPLEMENTED = "the solving function still raises NotImplementedError"
PRINTED_NOTHING = "printed nothing"


def right_but_stopped(status: str) -> str:
    """A failed run (``status``) whose output was the whole answer, all of it right."""
    how = "within the time limit" if status == "timeout" else "normally (exit status 0)"
    return f"what it printed before that was all right: it must also end {how}"


def printed_nothing(call: str | None) -> str:
    """What a program that printed nothing is told; ``call``: how the grader calls the
    entry a module may define instead of printing (the trap lane's ``markovDecision(layout,
    circle)``), whose name, misspelt, is the likeliest cause."""
    if call is None:
        return PRINTED_NOTHING
    return (f"{PRINTED_NOTHING} (a program that only defines functions is run through "
            f"{call}, which must be defined under that name)")  # fmt: skip


STDERR_HEADING = "standard error (last lines):"
NOT_YET = "not yet: fix what is listed above and run the check again."

_EXCEPTION = re.compile(r"([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit))\b")
# A program names its own exception classes, so on a hidden board only Python's own names
# are repeated: anything else could spell out the board the program was handed.
_BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


def time_limit(seconds: float) -> str:
    return f"stopped after {seconds:g} s: the time limit for one board"


def cpu_limit(seconds: float) -> str:
    return f"used up its CPU time limit of {seconds:g} s for one board"


def output_limit(kilobytes: int) -> str:
    return f"printed more than {kilobytes} KB; stopped"


def out_of_memory(megabytes: int) -> str:
    return f"ran out of memory (limit {megabytes} MB)"


def folder_limit(megabytes: int, files: int) -> str:
    return f"wrote more than {megabytes} MB or {files} files into its folder; stopped"


def unreadable(error: object) -> str:
    return f"output not readable: {error}"


def exception_name(stderr_lines: Sequence[str]) -> str:
    """The exception a Python traceback ends with (its last line naming one), or ``""``."""
    for line in reversed(stderr_lines):
        m = _EXCEPTION.match(line.strip())
        if m:
            return m.group(1)
    return ""


def crash_reason(
    returncode: int,
    signal_name: str,
    stderr_lines: Sequence[str],
    *,
    cpu_seconds: float | None = None,
    memory_mb: int | None = None,
    hidden: bool = False,
) -> str:
    """Why a program that ran ended without an answer: the signal that killed it, else the
    exception it raised, else its exit status. ``cpu_seconds`` and ``memory_mb`` are the
    limits it ran under, where there were any (not in a student's local check). On a
    ``hidden`` board the exit status is not given and an exception only when Python names
    it: both are the program's to choose, so either could carry the board out."""
    if signal_name:
        why = {"SIGSEGV": " (a crash in native code, often memory)"}
        if cpu_seconds is not None:
            why["SIGXCPU"] = f" (the CPU time limit of {cpu_seconds:g} s)"
            why["SIGKILL"] = " (a limit was reached)"
        return f"killed by {signal_name}{why.get(signal_name, '')}"
    name = exception_name(stderr_lines)
    if name == "MemoryError" and memory_mb is not None:
        return out_of_memory(memory_mb)
    if name == "NotImplementedError":
        return NOT_IMPLEMENTED
    if hidden:
        return "exited with an error" + (f" ({name})" if name in _BUILTIN_EXCEPTIONS else "")
    return f"exited with status {returncode}" + (f" ({name})" if name else "")


# What a hidden board's feedback says of output it could not read, by the kind of error.
# The parser's own messages name lines and squares, and where it stopped depends on the
# board's size, so they are shown only when they hold no number at all.
_HIDDEN_ERRORS = (
    (("not on this board", "no entry for", "no row for", "is missing", "not one of",
      "digits is not"), "the answer does not have exactly one entry for each square of this "
     "board (the board file says how many squares there are)"),
    (("appears twice", "printed again"), "part of the answer is printed twice"),
    (("comes before",), "the parts of the answer are not in the order the handout prints them"),
    # (never "from square 100 on": that would tell the board's size)
    (("run together",), "two entries of a table run together: end each value with a space, as "
     "the handout's rows do"),
    (("not a number", "not a row"), "a line of the answer cannot be read as the handout shows it"),
)  # fmt: skip
_HIDDEN_ERROR = "the answer is not printed as the handout shows it"


def hidden_unreadable(message: str) -> str:
    """:func:`unreadable` for a hidden board: ``message`` (an output error's, without its
    line) as it is when it holds no number, else only the kind of error."""
    if not re.search(r"\d", message):
        return unreadable(message)
    for needles, said in _HIDDEN_ERRORS:
        if any(needle in message for needle in needles):
            return unreadable(said)
    return unreadable(_HIDDEN_ERROR)


def hidden_warnings(warnings: Iterable[str]) -> list[str]:
    """The parser's ``warnings`` as a hidden board may give them: their kind only. Their
    counts and line numbers are what a program prints (so it could spell out the board in
    them: as many lines of chatter as the goal has squares) or where the grader found the
    answer to end (the board's size)."""
    said: list[str] = []
    for warning in warnings:
        where = re.search(r"\b(before|inside|after) the answer", warning)
        if "CRLF" in warning:
            kind = "the output has Windows (CRLF) line ends"
        elif "not printed in board order" in warning:
            kind = "squares are not printed in board order"
        elif "blank line" in warning:
            kind = "blank lines inside the answer"
        elif warning.startswith("ignored") and where:
            kind = f"ignored lines {where.group(1)} the answer"
        else:
            kind = "the output is not laid out exactly as the handout shows"
        if kind not in said:
            said.append(kind)
    return said


def entries_right(right: int, total: int) -> str:
    return f"{right} of {total} entries right"


def hidden_entries_right(right: int, total: int) -> str:
    """How much of a hidden board's answer is right, as a tenth of the entries: ``total``
    is the board's size (the goal, on a jump board), and ``right`` a count the program
    chooses, which could spell that size or anything else of the board out. "All" and
    "none" stay exact, since they are what a student acts on; a band in between says
    about how far off the answer is and leaves only a few bits for a program to steer."""
    if right >= total:
        return "all entries right"
    if right <= 0:
        return "none of the entries right"
    tenth = 10 * right // total  # 0 .. 9: never "all" when one is wrong
    if tenth == 0:
        return "under 10% of the entries right"
    return f"{10 * tenth}-{10 * tenth + 9}% of the entries right"


def self_check_line(check: str, value: float | None) -> str:
    """Whether ``value`` (what the program printed where the self-check is read) rounds to
    the self-check ``check``, to the decimals ``check`` is written with."""
    places = len(check.partition(".")[2])
    shown = "nothing" if value is None else f"{value:.{places}f}"
    verdict = "holds" if shown == check else "does not hold"
    return f"self-check {verdict}: printed {shown}, expected {check}"


def listing(wrong: Iterable[tuple[str, str, str]], shown: int = SHOWN_WRONG) -> list[str]:
    """``label: printed X, expected Y`` for the first ``shown`` wrong entries, then a count."""
    lines = [f"{label}: printed {printed or 'nothing'}, expected {expected}"
             for label, printed, expected in wrong]  # fmt: skip
    more = len(lines) - shown
    return lines[:shown] + ([f"... and {more} more"] if more > 0 else [])


# The diagnoses the grader makes without a catalogue: name -> what the feedback calls it.
GENERIC_MISTAKES = {
    "stopped-early": "stopped iterating before the values converged",
    "off-by-one": "every value off by exactly one turn",
    "too-few-decimals": "values printed with too few decimals",
    "rounded-before-printing": "values rounded before they are printed",
    "hard-coded": "the same output on every board",
}

HIDDEN_TOO = "graded on hidden boards (see the handout)."
# The total ``check`` shows: that of the boards it ran, not of the grade, which adds the
# hidden boards (each board's score is on the same scale in both: points of its points).
CHECKED_SCORE = "score on the boards checked here"
PUBLIC_PASS = f"all public tests pass. Your program is also {HIDDEN_TOO}"
OWN_BOARD_RIGHT = f"all right on your board. You are also {HIDDEN_TOO}"
