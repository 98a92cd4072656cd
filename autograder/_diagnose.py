"""What a printed answer says about the program behind it: which accepted reading it
follows, and, when it is wrong, which known mistake it matches.

The answers of the readings and of the catalogued mistakes come with the expected answer
(``Expected.readings``, ``Expected.mistakes``), computed on the grading side; here they are
only compared. Two mistakes need no catalogue: a value iteration stopped too early (every
error on one side, growing with the distance to the goal) and values off by one turn.

Standard library only: a student bundle carries this module (its ``check.py`` names the
mistake too), and it runs there on Python 3.10.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ._answer import Entry
from ._cases import Expected, Variation
from ._formats import Printed
from ._score import Mark, mark_entries
from ._texts import GENERIC_MISTAKES

__all__ = ["Diagnosis", "diagnose", "goal_value"]

# A mistake is named when the printed answer matches its answer on this share of the
# entries that do not depend on a reading, and more of them than the right answer.
FIT = 0.9


@dataclass(frozen=True)
class Diagnosis:
    """``mark``: the answer marked against the reading it follows best (the rules' own when
    ``reading`` is ``None``). ``mistakes``: the names of the mistakes it matches.
    ``lines``: what the feedback says about both. ``hidden_lines``: the same for a hidden
    board, which names the reading and the mistake but gives no count that comes from the
    board or from what the program chose to print (sweeps, squares per table)."""

    mark: Mark
    reading: Variation | None
    mistakes: tuple[str, ...]
    lines: tuple[str, ...]
    hidden_lines: tuple[str, ...] = ()


def _matches(printed: Printed, entry: Entry) -> bool:
    if entry.accepted is not None:
        return printed.actions.get(entry.key, "") in entry.accepted
    value = printed.numbers.get(entry.key, math.nan)
    return entry.value is not None and abs(value - entry.value) <= entry.tolerance


def _fit(printed: Printed, entries: Sequence[Entry], loose: set[str]) -> float:
    kept = [e for e in entries if e.key not in loose]
    return sum(_matches(printed, e) for e in kept) / len(kept) if kept else 0.0


def _explains(printed: Printed, entries: Sequence[Entry], wrong: set[str]) -> float:
    """The share of the wrong entries (``wrong``: their keys) that ``entries`` match."""
    hits = [e for e in entries if e.key in wrong]
    return sum(_matches(printed, e) for e in hits) / len(wrong) if wrong else 0.0


def _named(mistake: Variation) -> str:
    line = f"your answer matches a game where {mistake.says}"
    return line + (f": re-read {mistake.reread}." if mistake.reread else ".")


def goal_value(expected: Expected) -> float:
    """The value of the goal itself: 0 turns, or the reward of a discounted game."""
    values = expected.answer.values
    flat = values[0] if values and isinstance(values[0], tuple) else values
    if expected.answer.objective == "discounted" and flat:
        return max(float(v) for v in flat)
    return 0.0


def _correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    n = len(xs)
    if n < 3:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else 0.0


def _generic(
    printed: Printed, expected: Expected, entries: Sequence[Entry], loose: set[str]
) -> tuple[str, str, str] | None:
    """``(name, sentence, sentence for a hidden board)`` for a value iteration stopped early
    or values off by one."""
    pairs = []
    for e in entries:
        if e.accepted is not None or e.value is None or e.key in loose:
            continue
        value = printed.numbers.get(e.key, math.nan)
        if not math.isfinite(value):
            return None
        pairs.append((e, value - e.value))
    if len(pairs) < 3:
        return None
    for shift in (1.0, -1.0):
        if sum(abs(d - shift) <= e.tolerance for e, d in pairs) >= FIT * len(pairs):
            more = "more" if shift > 0 else "less"
            sentence = (
                f"every value is one turn {more} than the right one: the goal's value is 0, "
                "and each turn, the last one included, counts exactly once."
            )
            return "off-by-one", sentence, sentence
    wrong = [(e, d) for e, d in pairs if abs(d) > e.tolerance]
    if len(wrong) < 2:
        return None
    # Value iteration from 0 approaches the answer from below; values above it everywhere
    # are rather a policy that is not the best (its own cost, evaluated).
    if not all(d <= e.tolerance for e, d in pairs):
        return None
    goal = goal_value(expected)
    distance = [abs((e.value or 0.0) - goal) for e, _ in pairs]
    sweeps = expected.sweeps
    start = printed.numbers.get("start")
    # Values below the right ones and growing with the distance also come from rules that
    # end the game early (a face counted as a win), so the start value must also lie on
    # the course value iteration from 0 takes, sweep by sweep.
    on_course = start is not None and any(abs(v - start) <= 0.005 + 1e-9 for v in sweeps)
    if not on_course or _correlation(distance, [abs(d) for _, d in pairs]) < 0.5:
        return None
    sentence = "every value is below the right one, and more so far from the goal"
    advice = ". Iterate until the largest change is below 1e-9."
    # The sweeps a board needs are a fact about it, and the sweeps a program stopped after
    # are its own choice: neither is told on a hidden board.
    counted = sentence
    if sweeps and start is not None:
        done = min(range(len(sweeps)), key=lambda k: abs(sweeps[k] - start)) + 1
        counted += (
            f" (your values look like about {done} sweep{'s' if done > 1 else ''} from 0; "
            f"they settle within the tolerance after about {len(sweeps)})"
        )
    return "stopped-early", counted + advice, sentence + advice


def _tables(mark: Mark, entries: Sequence[Entry], counted: bool = True) -> str:
    """Which token tables are right and which are wrong (keys ``square@tokens``), or
    ``""`` for an answer of one table; ``counted``: with the wrong squares of each."""
    tables = {e.key.partition("@")[2] for e in entries if "@" in e.key}
    if not tables:
        return ""
    bad: dict[str, int] = {}
    for w in mark.wrong:
        if "@" in w.key:
            tokens = w.key.partition("@")[2]
            bad[tokens] = bad.get(tokens, 0) + 1
    order = sorted(tables, key=lambda t: -int(t) if t.isdigit() else 0)
    right = [t for t in order if t not in bad]
    parts = []
    if right:
        parts.append("right with " + ", ".join(right) + " tokens")
    if bad:
        shown = [f"{t} tokens ({bad[t]} squares)" if counted else f"{t} tokens"
                 for t in order if t in bad]  # fmt: skip
        parts.append("wrong with " + ", ".join(shown))
    return "; ".join(parts)


def diagnose(printed: Printed, expected: Expected, tolerance: float) -> Diagnosis:
    """Mark ``printed`` against the rules' answer and every accepted reading, keep the best,
    and, if it is not all right, name the mistake it matches."""
    entries = expected.entries(tolerance)
    best, reading = mark_entries(printed, entries), None
    for other in expected.readings:
        marked = mark_entries(printed, expected.entries_of(other.answer, other.accepted, tolerance))
        if marked.right > best.right:
            best, reading = marked, other
    lines: list[str] = []
    if reading is not None:
        lines.append(f"convention: {reading.says}; accepted.")
    hidden = list(lines)  # (a reading's words come from the rules, never from the board)
    if best.right == best.total:
        return Diagnosis(best, reading, (), tuple(lines), tuple(hidden))
    loose = expected.reading_dependent(tolerance)
    right_fit = _fit(printed, entries, loose)
    wrong = {w.key for w in best.wrong} - loose
    fits = []
    for mistake in expected.mistakes:
        theirs = expected.entries_of(mistake.answer, mistake.accepted, tolerance)
        fit = _fit(printed, theirs, loose)
        # It must match nearly everything printed, and account for nearly every error.
        if fit >= FIT and fit > right_fit and _explains(printed, theirs, wrong) >= FIT:
            fits.append((fit, mistake))
    names: tuple[str, ...] = ()
    if fits:
        top = max(fit for fit, _ in fits)
        named = [m for fit, m in fits if fit >= top - 1e-12]
        names = tuple(m.name for m in named)
        lines += [_named(m) for m in named]
        hidden += [_named(m) for m in named]
    else:
        generic = _generic(printed, expected, entries, loose)
        if generic is not None:
            name, sentence, hidden_sentence = generic
            names = (name,)
            lines.append(f"{GENERIC_MISTAKES[name]}: {sentence}")
            hidden.append(f"{GENERIC_MISTAKES[name]}: {hidden_sentence}")
    tables = _tables(best, entries)
    if tables:
        lines.append(f"tables: {tables}.")
        hidden.append(f"tables: {_tables(best, entries, counted=False)}.")
    return Diagnosis(best, reading, names, tuple(lines), tuple(hidden))
