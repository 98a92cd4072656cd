"""What a printed answer says about the program behind it: which accepted reading it
follows, and, when it is wrong, which known mistake it matches.

The answers of the readings and of the catalogued mistakes come with the expected answer
(``Expected.readings``, ``Expected.mistakes``), computed on the grading side; here they are
only compared. Three mistakes need no catalogue: a value iteration stopped too early (every
error on one side, growing with the distance to the goal), values off by one turn, and
values rounded to fewer decimals than the format prints.

Readings. An answer *follows* a reading when it matches it on at least half (``FOLLOWS``)
of the entries where the reading and the rules' own answer differ, and on more of them
than the rules' own; it is then marked against that reading (of several, the one it gets
the most entries right under). A reading the rules accept square by square (a jump
square's value, ``Variation.by_square``) may also be mixed: an entry still wrong is right
when it shows, on its square, the value of such a reading or of the rules' own. The
feedback says "convention: ...; accepted." only when a reading followed accounts for
entries and the answer is otherwise mostly right (``FIT`` of the entries that depend on no
reading), or when a mix makes the whole answer right; a wrong program that meets a reading
on a square or two by chance is neither told it follows one nor shown that reading's values.

Standard library only: a student bundle carries this module (its ``check.py`` names the
mistake too), and it runs there on Python 3.10.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._answer import Entry
from ._cases import Expected, Variation
from ._formats import OutputFormat, Printed, output_format
from ._score import Mark, Wrong, mark_entries
from ._texts import GENERIC_MISTAKES

__all__ = ["Diagnosis", "Explanation", "diagnose", "goal_value", "mistake_fit", "printed_places"]

# A mistake is named when the printed answer matches its answer on this share of the
# entries that do not depend on a reading, and more of them than the right answer; and a
# convention is said to be accepted only when this share of those entries is right.
FIT = 0.9
# A whole reading is followed when the printed answer matches it on this share of the
# entries where it differs from the rules' own answer (and on more of them than the rules').
FOLLOWS = 0.5
# A mistake is named only when every other candidate that gives another answer on this
# board disagrees with the printed answer on more entries, by this share of the wrong
# entries (one entry at least): two explanations about as good are no explanation, none is
# named, and the feedback says where the error starts.
MARGIN = 0.1
# A printed start value lies on a course of value iteration when it is this close to the
# start value after some sweep (values print with two decimals).
ON_COURSE = 0.005
# The courses value iteration from 0 takes (``Expected``'s fields), and how the feedback
# tells their sweeps apart (where the answer key has only the first, it needs no words).
COURSES = (
    ("sweeps", "each from the last sweep's values"),
    ("sweeps_up", "updating the values in place, from the lowest square up"),
    ("sweeps_down", "updating the values in place, from the highest square down"),
)
# How the feedback calls the rules' own reading when it mixes readings square by square.
RULES_OWN = "the handout's own reading"


@dataclass(frozen=True)
class Explanation:
    """What the grading side, which can solve the game under any change of its rules, makes
    of a wrong answer on one board.

    ``candidates``: answers of changed games, weighed with the answer key's own catalogue
    of mistakes (``Expected.mistakes``) by how much of the printed answer each explains: a
    number of the rules with the value fitted to what was printed (a discount, a noise
    weight, a die's face), two catalogued mistakes at once. ``courses_checked``: value
    iteration's courses from 0 were compared with the printed answer entry by entry, and
    ``stopped_early`` says whether it is one of them after some sweeps: the engine's own
    guess, from the start value alone, then only words it. ``where``: where the error
    starts and what that square depends on, for a visible board's feedback when nothing is
    named."""

    candidates: tuple[Variation, ...] = ()
    courses_checked: bool = False
    stopped_early: bool = False
    where: str = ""


@dataclass(frozen=True)
class Diagnosis:
    """``mark``: the answer marked against the reading it follows (the rules' own when
    ``reading`` is ``None``), readings taken square by square mixed in (``mixed``: the keys
    right only so). ``mistakes``: the names of the mistakes it matches.
    ``lines``: what the feedback says about both. ``hidden_lines``: the same for a hidden
    board, which names the reading and the mistake but gives no count that comes from the
    board or from what the program chose to print (sweeps, squares per table)."""

    mark: Mark
    reading: Variation | None
    mistakes: tuple[str, ...]
    lines: tuple[str, ...]
    hidden_lines: tuple[str, ...] = ()
    # The entries right under another reading, taken square by square, than ``reading``.
    mixed: tuple[str, ...] = ()


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


def printed_places(text: str) -> int | None:
    """The most decimals any number in ``text`` is printed with (``None``: no decimals)."""
    places = [len(m) for m in re.findall(r"\d\.(\d+)", text)]
    return max(places) if places else None


def _too_few_decimals(
    pairs: Sequence[tuple[Entry, float]],
    wrong: Sequence[tuple[Entry, float]],
    places_printed: int | None = None,
) -> tuple[str, str] | None:
    """``(name, sentence)`` for values right but rounded to fewer decimals than the
    tolerance needs: printed so (``"%.2f"`` where the trap lane's table has four), or
    rounded before a print that shows enough decimals (``places_printed``: the most any
    number was printed with), or ``None``."""
    tolerance = min(e.tolerance for e, _ in wrong)
    needed = max(0, round(-math.log10(tolerance)))
    # The decimals a format prints are what its tolerance is one unit of (0.01: two); any
    # other tolerance (0.05, or none) says nothing of them.
    if needed > 6 or not math.isclose(tolerance, 10.0**-needed, rel_tol=1e-3):
        return None
    for places in range(needed):
        step = 10.0**-places

        def rounded(entry: Entry, error: float, step: float = step) -> bool:
            value = (entry.value or 0.0) + error  # what was printed
            on_grid = abs(value / step - round(value / step)) < 1e-6
            return on_grid and abs(error) <= step / 2 + 1e-9

        if all(rounded(e, d) for e, d in wrong) and sum(
            rounded(e, d) or abs(d) <= e.tolerance for e, d in pairs
        ) >= FIT * len(pairs):
            have = f"{places} decimal{'s' if places != 1 else ''}" if places else "a whole number"
            if places_printed is not None and places_printed >= needed:
                return "rounded-before-printing", (
                    f"every wrong value is the right one rounded to {have} before it is "
                    f"printed: keep each value as it is computed, and let the print "
                    f"('%.{needed}f') round it"
                )
            return "too-few-decimals", (f"every wrong value is the right one rounded to "
                                        f"{have}: print {needed} decimals, as the format does "
                                        f"('%.{needed}f')")  # fmt: skip
    return None


def _generic(
    printed: Printed,
    expected: Expected,
    entries: Sequence[Entry],
    loose: set[str],
    stopped: bool | None = None,
    places_printed: int | None = None,
) -> tuple[str, str, str] | None:
    """``(name, sentence, sentence for a hidden board)`` for a value iteration stopped early,
    values off by one or values rounded to too few decimals. ``stopped``: whether the
    grading side found the printed answer on a course of value iteration, entry by entry
    (``None``: not known, and guessed here from the start value and the errors' shape)."""
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
            # (after "every value off by exactly one turn: ", GENERIC_MISTAKES's words)
            sentence = (
                f"one turn {more} than it should be; the goal's value is 0, and each turn, "
                "the last one included, counts exactly once."
            )
            return "off-by-one", sentence, sentence
    wrong = [(e, d) for e, d in pairs if abs(d) > e.tolerance]
    if len(wrong) < 2:
        return None
    if (rounded := _too_few_decimals(pairs, wrong, places_printed)) is not None:
        return rounded[0], rounded[1], rounded[1]
    # Value iteration from 0 approaches the answer from below; values above it everywhere
    # are rather a policy that is not the best (its own cost, evaluated).
    if stopped is False or not all(d <= e.tolerance for e, d in pairs):
        return None
    goal = goal_value(expected)
    distance = [abs((e.value or 0.0) - goal) for e, _ in pairs]
    start = printed.numbers.get("start")
    # Values below the right ones and growing with the distance also come from rules that
    # end the game early (a face counted as a win), so the start value must also lie on a
    # course value iteration from 0 takes, sweep by sweep: from the last sweep's values, or
    # in place up or down the board (as most loops over a list go).
    in_place = bool(expected.sweeps_up or expected.sweeps_down)
    # (sweeps done, sweeps needed) -> the kinds of sweep whose course the start is on
    near: dict[tuple[int, int], list[str]] = {}
    for field, kind in COURSES:
        course: tuple[float, ...] = getattr(expected, field)
        if start is None or not course:
            continue
        gap, k = min((abs(v - start), k) for k, v in enumerate(course))
        if gap <= ON_COURSE + 1e-9:
            near.setdefault((k + 1, len(course)), []).append(kind)
    if stopped is None and (not near or _correlation(distance, [abs(d) for _, d in pairs]) < 0.5):
        return None
    sentence = "every value is below the right one, and more so far from the goal"
    advice = ". Iterate until the largest change is below 1e-9."
    # The sweeps a board needs are a fact about it, and the sweeps a program stopped after
    # are its own choice: neither is told on a hidden board. Two courses can pass by one
    # start value after different counts (in place up the board is only a little faster
    # than from the last sweep's values), and the rest of the answer cannot tell them apart:
    # each is told.
    # The course counts sweeps until the first value alone is within the tolerance: a
    # program stopped there has it right and other values not yet, and is told so.
    told = [
        f"about {done} sweep{'s' if done > 1 else ''} from 0"
        + (", " + " or ".join(kinds) if in_place else "")
        + (
            f", where the first value alone comes within the tolerance after about {needed}"
            if done < needed
            else ", enough for the first value to come within the tolerance but not for every value"
        )
        for (done, needed), kinds in near.items()
    ]
    counted = f"{sentence} (your values look like {'; or '.join(told)})" if told else sentence
    return "stopped-early", counted + advice, sentence + advice


def _tables(mark: Mark, entries: Sequence[Entry], fmt: OutputFormat, counted: bool = True) -> str:
    """Which tables are right and which are wrong (as the format groups its entries), or
    ``""`` for an answer of one table; ``counted``: with the wrong squares of each."""
    tables = {t for e in entries if (t := fmt.table_of(e.key)) is not None}
    if not tables:
        return ""
    bad: dict[str, int] = {}
    for w in mark.wrong:
        table = fmt.table_of(w.key)
        if table is not None:
            bad[table] = bad.get(table, 0) + 1
    order = sorted(tables, key=lambda t: -int(t) if t.isdigit() else 0)
    right = [t for t in order if t not in bad]
    parts = []
    if right:
        parts.append("right with " + fmt.table_words(", ".join(right)))
    if bad:
        shown = [fmt.table_words(t) + (f" ({_squares(bad[t])})" if counted else "")
                 for t in order if t in bad]  # fmt: skip
        parts.append("wrong with " + ", ".join(shown))
    return "; ".join(parts)


def _squares(count: int) -> str:
    return f"{count} square" + ("" if count == 1 else "s")


def _follows(printed: Printed, expected: Expected, reading: Variation, tolerance: float) -> bool:
    """Whether ``printed`` follows ``reading`` where it differs from the rules' answer: on
    ``FOLLOWS`` of those entries, and on more of them than the rules' own answer."""
    differing = expected.differing(reading, tolerance)
    theirs = sum(_matches(printed, e) for _, e in differing)
    mine = sum(_matches(printed, e) for e, _ in differing)
    return bool(differing) and theirs >= FOLLOWS * len(differing) and theirs > mine


def _mixed(
    printed: Printed, expected: Expected, mark: Mark, tolerance: float
) -> tuple[Mark, dict[Variation | None, list[str]]]:
    """``mark`` with each wrong entry made right that shows, on its square, the value of a
    reading taken square by square or the rules' own (``None``); and the keys of those
    entries, by the reading each shows."""
    squares = expected.by_square(tolerance)
    wrong: list[Wrong] = []
    mixed: dict[Variation | None, list[str]] = {}
    for w in mark.wrong:
        shown = [r for r, e in squares.get(w.key, ()) if _matches(printed, e)]
        if shown:
            mixed.setdefault(shown[0], []).append(w.key)
        else:
            wrong.append(w)
    if not mixed:
        return mark, {}
    return Mark(mark.total - len(wrong), mark.total, tuple(wrong)), mixed


def _convention(
    reading: Variation | None,
    mixed: dict[Variation | None, list[str]],
    labels: dict[str, str],
    counted: bool = True,
) -> str:
    """The line that says which convention the answer follows; ``counted``: naming the
    squares of each reading mixed in (a hidden board's line names none)."""
    base = RULES_OWN if reading is None else reading.says
    if not mixed:
        return f"convention: {base}; accepted."
    parts = [f"mostly: {base}"]
    for other, keys in mixed.items():
        names = [labels.get(k, k) for k in keys]
        where = " and ".join(names) if len(names) <= 3 else f"{len(names)} squares"
        said = RULES_OWN if other is None else other.says
        parts.append(f"on {where if counted else 'some squares'}: {said}")
    return (
        f"convention: the accepted readings mixed square by square ({'; '.join(parts)}); accepted."
    )


@dataclass(frozen=True)
class _Weighed:
    mistake: Variation
    fit: float  # the share of the entries it matches (those that depend on no reading)
    explains: float  # the share of the wrong entries it matches
    hits: frozenset[str]  # the entries it matches
    misses: int  # the entries it does not match


def _weigh(
    printed: Printed, expected: Expected, mistake: Variation, loose: set[str], wrong: set[str],
    tolerance: float,
) -> _Weighed:  # fmt: skip
    theirs = [e for e in expected.entries_of(mistake.answer, mistake.accepted, tolerance)
              if e.key not in loose]  # fmt: skip
    hits = frozenset(e.key for e in theirs if _matches(printed, e))
    fit = len(hits) / len(theirs) if theirs else 0.0
    explains = len(hits & wrong) / len(wrong) if wrong else 0.0
    return _Weighed(mistake, fit, explains, hits, len(theirs) - len(hits))


def mistake_fit(
    printed: Printed,
    expected: Expected,
    mistake: Variation,
    tolerance: float,
    wrong: set[str] | None = None,
) -> tuple[float, float]:
    """How well ``mistake`` explains ``printed``: the share of the entries it matches (of
    those that depend on no reading), and the share of the entries wrong under the rules'
    own answer that it matches (``wrong``: their keys, where already known). A mistake is
    named from about 0.9 of each (``FIT``)."""
    loose = expected.reading_dependent(tolerance)
    if wrong is None:
        wrong = {w.key for w in mark_entries(printed, expected.entries(tolerance)).wrong}
    wrong = wrong - loose
    weighed = _weigh(printed, expected, mistake, loose, wrong, tolerance)
    return weighed.fit, weighed.explains


def _best_explained(
    printed: Printed,
    expected: Expected,
    candidates: Sequence[Variation],
    loose: set[str],
    wrong: set[str],
    right_fit: float,
    tolerance: float,
) -> Variation | None:
    """The candidate that explains the answer: it matches nearly everything printed
    (``FIT``) and more than the right answer does, it accounts for nearly every error, and
    every other such candidate disagrees with the printed answer on more entries, by
    ``MARGIN`` of the errors. Two candidates that match the very same entries are one
    explanation here, the first."""
    weighed = [_weigh(printed, expected, m, loose, wrong, tolerance) for m in candidates]
    fits = [w for w in weighed if w.fit >= FIT and w.fit > right_fit and w.explains >= FIT]
    if not fits:
        return None
    # (a stable sort: of equals, the answer key's own catalogue comes first)
    fits.sort(key=lambda w: w.misses)
    top = fits[0]
    needed = max(1.0, MARGIN * len(wrong))
    for other in fits[1:]:
        if other.hits != top.hits and other.misses - top.misses < needed:
            return None
    return top.mistake


def diagnose(
    printed: Printed,
    expected: Expected,
    tolerance: float,
    explain: Callable[[], Explanation | None] | None = None,
    places_printed: int | None = None,
) -> Diagnosis:
    """Mark ``printed`` against the rules' answer, or the reading it follows, with readings
    taken square by square mixed in, and, if it is not all right, name the mistake it
    matches. ``explain``: the grading side's explanations of a wrong answer (fitted
    parameters, two mistakes at once, a stopped iteration checked entry by entry), asked
    for only when the answer is wrong and no catalogued mistake matches all of it."""
    entries = expected.entries(tolerance)
    best, reading = mark_entries(printed, entries), None
    for other in expected.readings:
        if not _follows(printed, expected, other, tolerance):
            continue
        marked = mark_entries(printed, expected.entries_of(other.answer, other.accepted, tolerance))
        if marked.right > best.right:
            best, reading = marked, other
    best, mixed = _mixed(printed, expected, best, tolerance)
    loose = expected.reading_dependent(tolerance)
    right_fit = _fit(printed, entries, loose)
    lines: list[str] = []
    hidden: list[str] = []
    # A reading followed is told where it accounts for entries of an answer otherwise
    # right; a mix only where it makes the answer all right (a wrong answer meets another
    # reading's value on a square by chance: credited, as the rules allow, but not told).
    told = mixed if best.right == best.total else {}
    if (reading is not None and right_fit >= FIT) or told:
        labels = {e.key: e.label for e in entries}
        lines.append(_convention(reading, told, labels))
        # (a reading's words come from the rules, never from the board)
        hidden.append(_convention(reading, told, labels, counted=False))
    keys = tuple(k for keys in mixed.values() for k in keys)
    if best.right == best.total:
        return Diagnosis(best, reading, (), tuple(lines), tuple(hidden), keys)
    wrong = {w.key for w in best.wrong} - loose
    candidates: list[Variation] = list(expected.mistakes)
    explanation = None
    # A catalogued mistake that matches every entry cannot be bettered, nor can values
    # off by one turn or rounded, which the output alone shows: nothing is asked.
    if (
        explain is not None
        and not any(
            _weigh(printed, expected, m, loose, wrong, tolerance).fit >= 1.0 for m in candidates
        )
        and _generic(printed, expected, entries, loose, False, places_printed) is None
    ):
        explanation = explain()
        if explanation is not None:
            candidates += explanation.candidates
    found = _best_explained(printed, expected, candidates, loose, wrong, right_fit, tolerance)
    names: tuple[str, ...] = ()
    if found is not None:
        names = (found.name,)
        lines.append(_named(found))
        hidden.append(_named(found))
    else:
        stopped = None
        if explanation is not None and explanation.courses_checked:
            stopped = explanation.stopped_early
        generic = _generic(printed, expected, entries, loose, stopped, places_printed)
        if generic is not None:
            name, sentence, hidden_sentence = generic
            names = (name,)
            lines.append(f"{GENERIC_MISTAKES[name]}: {sentence}")
            hidden.append(f"{GENERIC_MISTAKES[name]}: {hidden_sentence}")
        elif explanation is not None and explanation.where:
            # (where the error starts names squares of the board: a visible board's line)
            lines.append(explanation.where)
    fmt = output_format(expected.answer.output)
    tables = _tables(best, entries, fmt)
    if tables:
        lines.append(f"tables: {tables}.")
        hidden.append(f"tables: {_tables(best, entries, fmt, counted=False)}.")
    return Diagnosis(best, reading, names, tuple(lines), tuple(hidden), keys)
