"""Property tests of ``parse_output``: random and mutated outputs.

The parser raises only its own error type (:class:`OutputError`), never hangs, and never
accepts an incomplete table. Every output shape of docs/contracts.md ("Output formats") is
covered: plain values (classic, boosted), values-actions (aimed, efron), the token-boosted
tables and the trap-lane rows.

What a correct parse must hold is worked out here from the format rules (two decimals on
jump boards, four in the trap-lane rows) and from independently drawn answers rendered by
``render``; nothing is taken from ``parse_output``'s own output.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from autograder import Answer, Expected, render
from autograder._parse import OutputError, Printed, parse_output

SHAPES = ("values", "values-actions", "token-values", "trap-lane")
AIMS = tuple("123456")
DIE_NAMES = ("Blue", "Black", "Red", "Green")
TRAP_DICE = ("1", "2", "3")

# Quick settings for the many cheap properties; the whole module stays well under 20 s on
# two cores. A deadline on every test: a parse that takes seconds is a hang in the making.
QUICK = settings(max_examples=60, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
MORE = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])

# --- answers of every shape --------------------------------------------------------------

modest = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)
# The format prints "%5.2f" / "%8.4f": a field width, not a limit, so any finite value
# prints (a minus sign, or as many digits as it needs) and must read back.
any_finite = st.floats(allow_nan=False, allow_infinity=False)


@st.composite
def expecteds(draw, shapes=SHAPES, numbers=modest, max_tens: int = 10) -> Expected:
    """An expected answer of one of ``shapes``, with random goal, values and actions."""
    shape = draw(st.sampled_from(shapes))
    start = draw(numbers)
    if shape == "trap-lane":
        values = tuple(draw(st.lists(numbers, min_size=14, max_size=14)))
        dice = tuple(draw(st.lists(st.sampled_from(TRAP_DICE), min_size=14, max_size=14)))
        accepted = tuple(frozenset({d}) for d in dice)
        return Expected(Answer(shape, start, values, dice), accepted)
    goal = 10 * draw(st.integers(1, max_tens))
    objective = draw(st.sampled_from(("turns", "discounted")))
    table = st.lists(numbers, min_size=goal + 1, max_size=goal + 1).map(tuple)
    if shape == "token-values":
        layers = draw(st.integers(1, 4))
        values = tuple(draw(table) for _ in range(layers))
        return Expected(Answer(shape, start, values, None, objective))
    values = draw(table)
    if shape == "values":
        return Expected(Answer(shape, start, values, None, objective))
    names = draw(st.sampled_from((AIMS, DIE_NAMES)))
    chosen = draw(st.lists(st.sampled_from(names), min_size=goal, max_size=goal))
    actions = (*chosen, "-")
    accepted = tuple(frozenset({a}) for a in actions)
    return Expected(Answer(shape, start, values, actions, objective), accepted)


def printed_numbers(expected: Expected) -> dict[str, float]:
    """Every number a correct program prints, as the format rounds it."""
    answer = expected.answer
    out = {"start": float(f"{answer.start_value:.2f}")}
    if answer.output == "trap-lane":
        out.update({str(s): float(f"{v:.4f}") for s, v in enumerate(answer.values, 1)})
    elif answer.output == "token-values":
        for tokens, table in enumerate(answer.values):
            out.update({f"{s}@{tokens}": float(f"{v:.2f}") for s, v in enumerate(table) if s})
    else:
        out.update({str(s): float(f"{v:.2f}") for s, v in enumerate(answer.values) if s})
    return out


def printed_actions(expected: Expected) -> dict[str, str]:
    answer = expected.answer
    if answer.output == "trap-lane":
        return {f"{s}:die": d for s, d in enumerate(answer.actions, 1)}
    if answer.output == "values-actions":
        return {f"{s}:action": a for s, a in enumerate(answer.actions) if s}
    return {}


def assert_complete(printed: Printed, expected: Expected) -> None:
    """An accepted output holds every entry: every square of every table, every action."""
    graded = expected.entries(0.01)
    numbers, actions = printed_numbers(expected), printed_actions(expected)
    # The table keys of the format cover every graded entry (a check on this test itself).
    assert {e.key for e in graded if not e.is_action} <= numbers.keys()
    assert {e.key for e in graded if e.is_action} <= actions.keys()
    missing = (numbers.keys() - printed.numbers.keys()) | (actions.keys() - printed.actions.keys())
    assert not missing, f"an incomplete table was accepted: no {sorted(missing)[:8]}"


def parse_or_error(text: str, expected: Expected, quote: bool = True) -> Printed | OutputError:
    """The parse, or its OutputError. Any other exception fails the test; so does an
    accepted output that lacks an entry."""
    try:
        printed = parse_output(text, expected, quote=quote)
    except OutputError as err:
        n_lines = text.replace("\r\n", "\n").count("\n") + 1
        assert isinstance(err.message, str) and err.message
        assert err.line is None or 1 <= err.line <= n_lines + 1, err
        return err
    assert isinstance(printed, Printed)
    assert all(isinstance(w, str) for w in printed.warnings)
    assert_complete(printed, expected)
    return printed


def must_fail(text: str, expected: Expected, quote: bool = True) -> OutputError:
    result = parse_or_error(text, expected, quote)
    assert isinstance(result, OutputError), f"accepted:\n{text}"
    return result


def assert_reads_back(printed: Printed | OutputError, expected: Expected) -> None:
    assert isinstance(printed, Printed), printed
    assert printed.numbers == printed_numbers(expected)
    assert printed.actions == printed_actions(expected)


CELL = re.compile(r" *\d+: +\S+ ")  # one rendered grid entry, "%3d: %5.2f " or "%3d: %5s "


def is_grid_row(line: str) -> bool:
    return bool(re.fullmatch(r"(?: *\d+: +\S+ )+", line))


# --- 1. random text ----------------------------------------------------------------------

# Pieces of the formats, so random text also reaches the table readers.
FRAGMENTS = (
    "Expected turns per game: 1.00\n",
    "Expected discounted reward per game: 1.00\n",
    "Expected turns remaining by position:\n",
    "Expected discounted reward by position:\n",
    "Expected turns remaining by position with 0 tokens:\n",
    "Expected turns remaining by position with 1 tokens:\n",
    "Optimal action by position:\n",
    "Expected cost from square 1: 6.67\n",
    "square expected dice\n",
    " 1   6.6674 3\n",
    "  1:  0.10 ",
    " 10:  1.00 ",
    "100:  0.00 ",
    "  7:  Blue ",
    " 10:     - ",
    "1:",
    ": ",
    "1",
    "0.5",
    "-",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "nan",
    "1e400",
    "\u00a0",
    "\u0661",  # ARABIC-INDIC DIGIT ONE: a \d that is not ASCII
)

structured_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=120
).map("".join)


@MORE
@given(expecteds(), st.text(max_size=2000))
def test_random_text_is_read_or_refused_with_output_error(expected, text):
    parse_or_error(text, expected)


@MORE
@given(expecteds(), st.binary(max_size=2000))
def test_random_bytes_are_read_or_refused_with_output_error(expected, data):
    parse_or_error(data.decode("utf-8", errors="replace"), expected)


@MORE
@given(expecteds(max_tens=3), structured_text, st.booleans())
def test_random_pieces_of_the_format_are_read_or_refused(expected, text, quote):
    parse_or_error(text, expected, quote)


@QUICK
@given(expecteds(max_tens=3), st.data())
def test_random_lines_inside_a_correct_output(expected, data):
    lines = render(expected.answer).split("\n")
    at = data.draw(st.integers(0, len(lines)), label="at")
    junk = data.draw(st.lists(st.text(max_size=300) | structured_text, max_size=5), label="junk")
    parse_or_error("\n".join(lines[:at] + junk + lines[at:]), expected)


# --- 2. mutations of a correct output ----------------------------------------------------


@QUICK
@given(expecteds(), st.data())
def test_deleting_any_line_is_an_error(expected, data):
    lines = render(expected.answer).split("\n")
    choices = [i for i, line in enumerate(lines) if line.strip()]
    i = data.draw(st.sampled_from(choices), label="deleted line")
    must_fail("\n".join(lines[:i] + lines[i + 1 :]), expected)


@QUICK
@given(expecteds(), st.data())
def test_deleting_any_token_is_an_error(expected, data):
    # A square number, a value, an action, a die, a word of a heading: every token counts.
    text = render(expected.answer)
    spans = [m.span() for m in re.finditer(r"\S+", text)]
    start, end = data.draw(st.sampled_from(spans), label="deleted token")
    must_fail(text[:start] + text[end:], expected)


@QUICK
@given(expecteds(shapes=("values", "values-actions", "token-values")), st.data())
def test_deleting_a_table_entry_is_an_error(expected, data):
    lines = render(expected.answer).split("\n")
    rows = [i for i, line in enumerate(lines) if is_grid_row(line)]
    i = data.draw(st.sampled_from(rows), label="row")
    cells = [m.span() for m in CELL.finditer(lines[i])]
    start, end = data.draw(st.sampled_from(cells), label="entry")  # e.g. "  7:  1.23 "
    lines[i] = lines[i][:start] + lines[i][end:]
    must_fail("\n".join(lines), expected)


@QUICK
@given(expecteds(), st.data())
def test_truncated_output_is_an_error_until_the_last_entry(expected, data):
    text = render(expected.answer)
    cut = data.draw(st.integers(0, len(text)), label="cut")
    result = parse_or_error(text[:cut], expected)
    last_token = [m.start() for m in re.finditer(r"\S+", text)][-1]
    if cut <= last_token:  # something of the table is gone
        assert isinstance(result, OutputError), f"accepted a cut at {cut}:\n{text[:cut]}"
    # Cut inside the very last number, the rest reads as a shorter number ("1.2" of
    # "1.23"): the table is still complete, which parse_or_error has checked.


@QUICK
@given(expecteds(), st.data())
def test_duplicated_line_is_an_error_or_complete(expected, data):
    lines = render(expected.answer).split("\n")
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    to = data.draw(st.integers(0, len(lines)), label="copied to")
    copy = [*lines[:to], lines[i], *lines[to:]]
    result = parse_or_error("\n".join(copy), expected)
    # Repeated right next to itself, a heading or a table row is an error (a repeated
    # block), the last trap-lane row included.
    if lines[i].strip() and to in (i, i + 1):
        assert isinstance(result, OutputError), f"accepted line {i + 1} twice"


@QUICK
@given(expecteds(), st.data())
def test_swapped_lines_are_an_error_or_complete(expected, data):
    lines = render(expected.answer).split("\n")
    i = data.draw(st.integers(0, len(lines) - 1), label="i")
    j = data.draw(st.integers(0, len(lines) - 1), label="j")
    lines[i], lines[j] = lines[j], lines[i]
    parse_or_error("\n".join(lines), expected)


@QUICK
@given(expecteds(shapes=("values", "values-actions", "token-values")), st.data())
def test_rows_swapped_within_a_table_read_back_with_a_warning(expected, data):
    lines = render(expected.answer).split("\n")
    # Tables are the runs of grid rows between headings.
    block, blocks = 0, []
    for line in lines:
        block += not is_grid_row(line)
        blocks.append(block)
    rows = [i for i, line in enumerate(lines) if is_grid_row(line)]
    i = data.draw(st.sampled_from(rows), label="i")
    j = data.draw(st.sampled_from([r for r in rows if blocks[r] == blocks[i]]), label="j")
    lines[i], lines[j] = lines[j], lines[i]
    printed = parse_or_error("\n".join(lines), expected)
    assert_reads_back(printed, expected)
    assert (i == j) != any("board order" in w for w in printed.warnings)


@QUICK
@given(expecteds(), st.data())
def test_a_number_replaced_by_a_word_is_an_error(expected, data):
    text = render(expected.answer)
    numbers = [m.span() for m in re.finditer(r"-?\d+\.\d+", text)]
    start, end = data.draw(st.sampled_from(numbers), label="number")
    word = data.draw(
        st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=20).filter(
            lambda w: not any(c.isspace() for c in w)
        ),
        label="word",
    )
    try:
        float(word)
    except ValueError:
        pass
    else:
        assume(False)  # "1e5", "\u0661", "nan": still a number
    must_fail(text[:start] + word + text[end:], expected)


@QUICK
@given(expecteds(), st.data())
def test_a_number_replaced_by_any_text_is_an_error_or_complete(expected, data):
    text = render(expected.answer)
    numbers = [m.span() for m in re.finditer(r"\d+(?:\.\d+)?", text)]  # squares too
    start, end = data.draw(st.sampled_from(numbers), label="number")
    junk = data.draw(st.text(max_size=40) | st.sampled_from(FRAGMENTS), label="junk")
    parse_or_error(text[:start] + junk + text[end:], expected)


@QUICK
@given(expecteds(), st.data())
def test_inserted_junk_lines_are_an_error_or_complete(expected, data):
    lines = render(expected.answer).split("\n")
    for _ in range(data.draw(st.integers(1, 4), label="how many")):
        at = data.draw(st.integers(0, len(lines)), label="at")
        junk = data.draw(st.text(st.characters(exclude_characters="\n"), max_size=80))
        lines.insert(at, junk)
    parse_or_error("\n".join(lines), expected)


@QUICK
@given(expecteds(), st.data())
def test_blank_lines_trailing_spaces_and_crlf_read_back(expected, data):
    lines = render(expected.answer).split("\n")
    out = []
    for line in lines:
        out += data.draw(st.lists(st.sampled_from(["", " ", "\t", "  \t "]), max_size=2))
        out.append(line + data.draw(st.sampled_from(["", " ", "\t", "   "])))
    crlf = data.draw(st.booleans(), label="crlf")
    printed = parse_or_error(("\r\n" if crlf else "\n").join(out), expected)
    assert_reads_back(printed, expected)
    assert crlf == any("CRLF" in w for w in printed.warnings)


def test_repeated_last_trap_row_is_an_error():
    values = tuple(float(15 - s) for s in range(1, 15))
    dice = ("1",) * 14
    expected = Expected(Answer("trap-lane", values[0], values, dice), (frozenset("1"),) * 14)
    with pytest.raises(OutputError, match="square 14"):
        parse_output(render(expected.answer) + "14   9.9999 2\n", expected)


# --- 3. round trip -----------------------------------------------------------------------


@MORE
@given(expecteds(numbers=st.one_of(modest, any_finite)))
def test_render_reads_back_every_number_within_print_precision(expected):
    printed = parse_or_error(render(expected.answer), expected)
    assert_reads_back(printed, expected)
    assert printed.warnings == ()
    # Within half a unit of the last printed digit (a last-bit error on huge values aside).
    for entry in expected.entries(0.0):
        if entry.is_action:
            continue
        digits = 4 if expected.answer.output == "trap-lane" and entry.key != "start" else 2
        half = 0.5 * 10**-digits
        assert abs(printed.numbers[entry.key] - entry.value) <= half + 1e-15 * abs(entry.value)


# --- 4. quote=False never repeats what was printed ---------------------------------------

secrets = st.builds(
    lambda n, tail: f"SECRET{n}{tail}",
    st.integers(0, 10**6),
    st.text("xyzqwk", min_size=3, max_size=6),
)


def leaks(secret: str, said: str) -> list[str]:
    """The pieces of ``secret`` longer than three characters that ``said`` repeats."""
    pieces = {secret[i : i + 4] for i in range(len(secret) - 3)}
    return sorted(p for p in pieces if p in said and not p.isdigit())


@QUICK
@given(expecteds(), st.data(), secrets)
def test_quote_false_never_repeats_a_word_put_for_a_number(expected, data, secret):
    text = render(expected.answer)
    # Values, the per-game number, square numbers, trap-lane squares: any number.
    numbers = [m.span() for m in re.finditer(r"-?\d+(?:\.\d+)?", text)]
    start, end = data.draw(st.sampled_from(numbers), label="number")
    text = text[:start] + secret + text[end:]
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(0, 2), label="junk lines")):
        at = data.draw(st.integers(0, len(lines)), label="at")
        lines.insert(at, data.draw(st.sampled_from([secret, f"{secret} 1: {secret}"])))
    text = "\n".join(lines)
    result = parse_or_error(text, expected, quote=False)
    said = str(result) if isinstance(result, OutputError) else " ".join(result.warnings)
    assert not leaks(secret, said), said


def test_quote_true_does_show_the_word():
    # The contrast that makes the property above meaningful.
    values = tuple(float(i) for i in range(21))
    expected = Expected(Answer("values", 1.0, values))
    text = render(expected.answer).replace(" 7.00", " SECRET7xyz", 1)
    with pytest.raises(OutputError, match="SECRET7xyz"):
        parse_output(text, expected)
    with pytest.raises(OutputError) as err:
        parse_output(text, expected, quote=False)
    assert "SECRET" not in str(err.value)


# --- 5. never hangs ----------------------------------------------------------------------

TWENTY = tuple(float(v) for v in range(21))
TRAP = Expected(Answer("trap-lane", 0.0, TWENTY[:14], ("1",) * 14), (frozenset("1"),) * 14)
VALUES = Expected(Answer("values", 0.0, TWENTY))
ACTIONS = Expected(
    Answer("values-actions", 0.0, TWENTY, ("1",) * 20 + ("-",)),
    (frozenset("1"),) * 20 + (frozenset("-"),),
)
TOKENS = Expected(Answer("token-values", 0.0, (TWENTY, TWENTY)))
START = "Expected turns per game: 1.00\n"
# Where an adversarial line goes: each reader of the parser in turn.
PLACES = {
    "alone": (VALUES, ""),
    "value table": (VALUES, START + "Expected turns remaining by position:\n"),
    "token table": (TOKENS, START + "Expected turns remaining by position with 1 tokens:\n"),
    "action table": (
        ACTIONS,
        START
        + "Expected turns remaining by position:\n"
        + "".join(f"{s:3d}: {0:5.2f} " for s in range(1, 21))
        + "\nOptimal action by position:\n",
    ),
    "trap rows": (TRAP, "Expected cost from square 1: 6.67\nsquare expected dice\n"),
    "per-game number": (VALUES, "Expected turns per game: "),
    "trap start number": (TRAP, "Expected cost from square 1: "),
}
# Repeated to up to 200 000 characters: one line, or many.
UNITS = (
    "1",
    " ",
    "1:",
    "1: ",
    "1:1",
    "1 :1 ",
    "11:",
    "1: 1:",
    "1:  ",
    "1 ",
    "1 1 ",
    "a",
    "x:",
    ": ",
    "\t1",
    "1:1\n",
    "1 1 1\n",
    "\n",
    "\r\n",
    " 1:  0.10 ",
)
TAILS = ("", " x", "x", ":", " 1", "\n", " 1 x", ": 1", " 1.0 1")


# A backstop: the deadline is checked only once an example returns, and a regex stuck in C
# ignores the signal pytest-timeout uses by default, so the thread method ends the run.
@pytest.mark.timeout(60, method="thread")
@pytest.mark.parametrize("place", PLACES)
@settings(max_examples=25, deadline=2000, suppress_health_check=list(HealthCheck))
@given(
    unit=st.sampled_from(UNITS) | st.text("1: x\t", min_size=1, max_size=4),
    length=st.sampled_from([100, 5000, 200_000]) | st.integers(1, 200_000),
    tail=st.sampled_from(TAILS),
)
@example(unit="1:1", length=90, tail=" x")  # exponential backtracking in the grid regex (fixed)
@example(unit="1", length=5000, tail=": 1")  # int() of > 4300 digits: a bare ValueError (fixed)
@example(unit="1", length=5000, tail=" 1.0 1")  # the same in a trap-lane row (fixed)
@example(unit="1: ", length=200_000, tail="x")  # thousands of "1:" tokens
def test_adversarial_long_lines_finish_quickly(place, unit, length, tail):
    expected, head = PLACES[place]
    parse_or_error(head + unit * max(1, length // len(unit)) + tail, expected)


@pytest.mark.timeout(60, method="thread")
@pytest.mark.parametrize(
    "line",
    [
        "1:1" * 30 + " x",  # exponential backtracking in the grid-line regex (fixed)
        "1:1" * 66_000 + " x",
        "1: " * 66_000 + "x",
        "1:" * 100_000,
        "1" * 200_000,
        "1" * 5000 + ": 1.00",  # int() refuses > 4300 digits with a bare ValueError (fixed)
        "1" * 5000 + " 1.0 1",  # the same in a trap-lane row (fixed)
        "1 " * 100_000,
        "1" + " " * 100_000 + "1" + " " * 100_000 + "1 x",
        " " * 199_999 + "x",
    ],
    ids=lambda line: f"{line[:6]!r}x{len(line)}",
)
@pytest.mark.parametrize("place", ["value table", "trap rows"])
def test_worst_lines_are_refused_quickly(line, place):
    expected, head = PLACES[place]
    must_fail(head + line, expected)
