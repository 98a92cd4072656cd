"""The diagnosis on hand-made answers: when a mistake is named, when it is not, the two
generic diagnoses, and which reading an answer follows. The numbers are made up here;
nothing is solved."""

from __future__ import annotations

import json
import pickle

from autograder import Answer, Expected, Printed, Variation, diagnose

TOL = 0.01
RIGHT = (10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0)  # V[0..10], goal 10
WINS = (8.0, 7.5, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.5, 1.0, 0.0)


def answer(values: tuple[float, ...]) -> Answer:
    return Answer("values", values[0], values)


def printed(values: tuple[float, ...]) -> Printed:
    numbers = {"start": values[0], **{str(i): v for i, v in enumerate(values) if 0 < i < 10}}
    return Printed(numbers, {}, ())


def expected(**extra) -> Expected:
    mistake = Variation("overshoot-wins", "a move past the goal wins", answer(WINS), None,
                        "the overshoot rule")  # fmt: skip
    return Expected(answer(RIGHT), mistakes=(mistake,), **extra)


def test_an_answer_matching_a_mistake_is_named_with_the_rule_to_reread():
    found = diagnose(printed(WINS), expected(), TOL)
    assert found.mistakes == ("overshoot-wins",)
    assert found.lines == (
        "your answer matches a game where a move past the goal wins: re-read the overshoot rule.",
    )


def test_a_right_answer_and_an_unrelated_wrong_one_are_named_as_nothing():
    assert diagnose(printed(RIGHT), expected(), TOL).mistakes == ()
    # Right but for two squares: not the mistake, whose values it does not print.
    odd = (*RIGHT[:3], 1.0, 1.0, *RIGHT[5:])
    assert diagnose(printed(odd), expected(), TOL).mistakes == ()


def test_a_mistake_must_explain_nearly_every_wrong_entry():
    # A mistake that changes square 8 only. A program right but for square 8 (as the
    # mistake) and square 3 (garbage) matches the mistake on 9 entries of 10, more than the
    # right answer's 8, but explains only 1 of its 2 wrong entries: not named.
    near = (*RIGHT[:8], 5.0, *RIGHT[9:])
    small = Variation("small", "square 8 is off", answer(near), None, "square 8")
    key = Expected(answer(RIGHT), mistakes=(small,))
    both = (*near[:3], 99.0, *near[4:])
    assert diagnose(printed(both), key, TOL).mistakes == ()
    assert diagnose(printed(near), key, TOL).mistakes == ("small",)


def test_values_one_turn_too_many_are_off_by_one():
    found = diagnose(printed(tuple(v + 1 for v in RIGHT)), expected(), TOL)
    assert found.mistakes == ("off-by-one",)
    # Said once, not twice over ("every value off by one turn: every value is one turn...").
    assert found.lines == (
        "every value off by exactly one turn: one turn more than it should be; the goal's "
        "value is 0, and each turn, the last one included, counts exactly once.",
    )


def test_values_rounded_to_too_few_decimals_are_named_with_the_decimals_to_print():
    # Values that need four decimals (a tolerance of 1e-4, as on the trap lane) printed with
    # two: each is the right one rounded, so the advice is the format, not the method.
    fine = tuple(v + k / 3 for k, v in enumerate(RIGHT))
    key = Expected(answer(fine))
    found = diagnose(printed(tuple(round(v, 2) for v in fine)), key, 1e-4)
    assert found.mistakes == ("too-few-decimals",)
    assert "rounded to 2 decimals: print 4 decimals" in found.lines[0]
    assert (
        diagnose(printed(tuple(round(v, 1) for v in fine)), key, 1e-4)
        .lines[0]
        .count("rounded to 1 decimal:")
    )
    # Wrong by more than rounding could make them: no such name.
    off = tuple(round(v, 2) + 0.01 for v in fine)
    assert "too-few-decimals" not in diagnose(printed(off), key, 1e-4).mistakes
    # A tolerance that is no unit of a decimal place says nothing of the decimals printed.
    assert (
        "too-few-decimals"
        not in diagnose(printed(tuple(round(v, 1) for v in fine)), key, 0.03).mistakes
    )
    # With two decimals needed, two decimals printed are never "too few".
    assert (
        diagnose(printed(tuple(round(v, 2) for v in fine)), Expected(answer(fine)), TOL).mistakes
        == ()
    )


def test_stopped_early_needs_the_start_value_on_the_sweeps_course():
    early = tuple(v * 0.5 for v in RIGHT)  # below, and more so far from the goal
    on_course = expected(sweeps=(2.0, 5.0, 7.5, 9.0, 9.995))
    found = diagnose(printed(early), on_course, TOL)
    assert found.mistakes == ("stopped-early",)
    assert "about 2 sweeps from 0" in found.lines[0] and "after about 5" in found.lines[0]
    off_course = expected(sweeps=(2.0, 4.0, 7.5, 9.0, 9.995))
    assert diagnose(printed(early), off_course, TOL).mistakes == ()


def test_a_copy_of_an_expected_answer_lists_its_own_entries():
    original = expected()
    original.entries_of(original.mistakes[0].answer, None, TOL)  # fills the cache
    copy = pickle.loads(pickle.dumps(original))
    fresh = expected()
    for held, new in ((copy.answer, fresh.answer), (copy.mistakes[0].answer, WINS)):
        values = new.values if isinstance(new, Answer) else new
        listed = copy.entries_of(held, None, TOL)
        assert [e.value for e in listed[1:]] == list(values[1:10])


# --- readings: followed, mixed square by square, told only where they explain ------------

# Readings of squares 3 and 8 (as a jump square's value): two taken square by square, and
# one taken for the whole answer or not at all (as the trap lane's circle).
B = Variation("b", "reading b", answer((*RIGHT[:8], 5.0, *RIGHT[9:])), by_square=True)
C = Variation("c", "reading c", answer((*RIGHT[:3], 4.0, *RIGHT[4:8], 2.5, *RIGHT[9:])),
              by_square=True)  # fmt: skip
WHOLE = Variation("whole", "reading w", C.answer)


def test_readings_taken_square_by_square_may_be_mixed():
    mixed = (*RIGHT[:3], 4.0, *RIGHT[4:8], 5.0, *RIGHT[9:])  # c on square 3, b on square 8
    found = diagnose(printed(mixed), Expected(answer(RIGHT), readings=(B, C)), TOL)
    assert found.mark.right == found.mark.total and not found.mark.wrong
    # It follows both where each differs from the rules (b on its one square, c on one of
    # its two), and is marked against the first it gets as many entries right under.
    assert found.mistakes == () and found.reading is B and found.mixed == ("3",)
    assert found.lines == (
        "convention: the accepted readings mixed square by square (mostly: reading b; "
        "on square 3: reading c); accepted.",
    )
    assert found.hidden_lines == (
        "convention: the accepted readings mixed square by square (mostly: reading b; "
        "on some squares: reading c); accepted.",
    )
    # The rules' own value on one square, b's on the other: right too.
    own = (*RIGHT[:8], 5.0, *RIGHT[9:])
    alone = diagnose(printed(own), Expected(answer(RIGHT), readings=(C, B)), TOL)
    assert alone.mark.right == alone.mark.total


def test_a_reading_of_the_whole_answer_is_not_mixed():
    half = (*RIGHT[:3], 4.0, *RIGHT[4:])  # w on square 3, the rules' own on square 8
    found = diagnose(printed(half), Expected(answer(RIGHT), readings=(WHOLE,)), TOL)
    assert [w.key for w in found.mark.wrong] == ["3"] and found.reading is None
    assert found.lines == ()
    full = diagnose(printed(C.answer.values), Expected(answer(RIGHT), readings=(WHOLE,)), TOL)
    assert full.reading is WHOLE and full.lines == ("convention: reading w; accepted.",)


def test_a_reading_met_on_a_square_by_chance_is_not_followed_or_told():
    # d differs from the rules on squares 2..9; an answer wrong everywhere meets it on one.
    d_values = (RIGHT[0], RIGHT[1], *(v + 0.5 for v in RIGHT[2:10]), 0.0)
    d = Variation("d", "reading d", answer(d_values), by_square=True)
    wrong = (10.0, 3.0, 3.0, d_values[3], 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 0.0)
    found = diagnose(printed(wrong), Expected(answer(RIGHT), readings=(d,)), TOL)
    assert found.reading is None and found.lines == ()
    assert found.mixed == ("3",)  # (the value of a reading on its square is right all the same)
    for w in found.mark.wrong:
        assert w.truth == RIGHT[int(w.key)]


def test_a_mix_met_by_chance_in_a_mostly_right_answer_is_not_told():
    # Right but for square 6 (a mistake), and on square 3 c's value where the rules' own
    # is expected: 90% right, so a followed reading would be told; a mix is credited on
    # its square but told only when it makes the whole answer right.
    right = tuple(float(20 - i) for i in range(21))  # goal 20: 18 entries depend on none
    c = Variation("c", "reading c", answer((*right[:3], 4.0, *right[4:8], 2.5, *right[9:])),
                  by_square=True)  # fmt: skip
    values = (*right[:3], 4.0, *right[4:6], 9.9, *right[7:])
    seen = Printed({"start": values[0], **{str(i): values[i] for i in range(1, 20)}}, {}, ())
    found = diagnose(seen, Expected(answer(right), readings=(c,)), TOL)
    assert found.mixed == ("3",) and [w.key for w in found.mark.wrong] == ["6"]
    assert not any(line.startswith("convention") for line in found.lines + found.hidden_lines)


def test_a_reading_followed_is_told_only_when_the_rest_is_right():
    # c in full on squares 3 and 8, but squares 1, 2, 4 and 5 wrong: marked against c, and
    # no convention told.
    values = (C.answer.values[0], 0.0, 0.0, 4.0, 0.0, 0.0, *C.answer.values[6:])
    found = diagnose(printed(values), Expected(answer(RIGHT), readings=(C,)), TOL)
    assert found.reading is C and found.mark.right == 6
    assert not any(line.startswith("convention") for line in found.lines)


def test_the_reading_flags_and_in_place_courses_survive_json():
    key = Expected(answer(RIGHT), readings=(B, WHOLE), sweeps=(1.0, 2.0),
                   sweeps_up=(1.5, 2.5), sweeps_down=(3.0,))  # fmt: skip
    back = Expected.from_json(json.loads(json.dumps(key.to_json())))
    assert [r.by_square for r in back.readings] == [True, False]
    assert (back.sweeps, back.sweeps_up, back.sweeps_down) == ((1.0, 2.0), (1.5, 2.5), (3.0,))
    assert back == key
    # An answer key written before them reads as one without.
    old = key.to_json()
    for name in ("sweeps_up", "sweeps_down"):
        del old[name]
    for reading in old["readings"]:
        reading.pop("by_square", None)
    plain = Expected.from_json(old)
    assert plain.sweeps_up == plain.sweeps_down == () and not plain.readings[0].by_square


def test_stopped_early_is_told_on_the_in_place_courses_too():
    early = tuple(v * 0.5 for v in RIGHT)  # start 5.0
    up = expected(sweeps=(2.0, 4.0, 7.5, 9.0, 9.995), sweeps_up=(3.0, 5.0, 8.0, 9.995))
    found = diagnose(printed(early), up, TOL)
    assert found.mistakes == ("stopped-early",)
    assert (
        "about 2 sweeps from 0, updating the values in place, from the lowest square up, "
        "where the first value alone comes within the tolerance after about 4)" in found.lines[0]
    )
    down = expected(sweeps=(2.0, 4.0, 7.5, 9.995), sweeps_down=(5.001, 9.0, 9.995))
    assert (
        "about 1 sweep from 0, updating the values in place, from the highest square down"
        in (diagnose(printed(early), down, TOL).lines[0])
    )
    # On two courses after different counts: both are told.
    both = expected(sweeps=(2.0, 4.0, 5.0, 9.995), sweeps_up=(3.0, 5.0, 8.0, 9.995))
    line = diagnose(printed(early), both, TOL).lines[0]
    assert "about 3 sweeps from 0, each from the last sweep's values" in line
    assert "; or about 2 sweeps from 0, updating the values in place" in line
    # Two courses that agree are told once.
    same = expected(sweeps=(2.0, 5.0, 9.995), sweeps_up=(2.0, 5.0, 9.995))
    assert (
        "(your values look like about 2 sweeps from 0, each from the last sweep's values or "
        "updating the values in place, from the lowest square up, where the first value "
        "alone comes within the tolerance after about 3)"
        in diagnose(printed(early), same, TOL).lines[0]
    )


def test_stopped_where_the_first_value_is_right_is_not_told_to_sweep_as_often_as_it_did():
    """A program that stops once its first value is within the tolerance has the rest
    below theirs: its count is not the one it is told it needed."""
    # Squares 1..3 lie behind a chute: more turns to go than from the start.
    right = (10.0, 14.0, 13.0, 12.0, 8.0, 6.0, 5.0, 4.0, 3.0, 2.0, 0.0)
    early = (9.995, 11.0, 11.0, 10.5, 8.0, 6.0, 5.0, 4.0, 3.0, 2.0, 0.0)
    key = Expected(answer(right), sweeps=(2.0, 5.0, 9.995))
    found = diagnose(printed(early), key, TOL)
    assert found.mistakes == ("stopped-early",)
    assert (
        "(your values look like about 3 sweeps from 0, enough for the first value to come "
        "within the tolerance but not for every value)" in found.lines[0]
    )
    assert "after about 3" not in found.lines[0]


def test_the_token_tables_are_summed_up_in_words_that_agree_with_their_counts():
    """Goal 10, tables for 2, 1 and 0 tokens: the 1-token table wrong on one square."""
    tables = tuple((*(v + k for v in RIGHT[:-1]), 0.0) for k in range(3))
    right = Answer("token-values", tables[2][0], tables)
    numbers = {"start": tables[2][0]}
    numbers |= {f"{s}@{k}": tables[k][s] for k in range(3) for s in range(1, 10)}
    numbers["4@1"] += 1.0
    found = diagnose(Printed(numbers, {}, ()), Expected(right), TOL)
    assert found.lines[-1] == "tables: right with 2, 0 tokens; wrong with 1 token (1 square)."
    assert found.hidden_lines[-1] == "tables: right with 2, 0 tokens; wrong with 1 token."
    numbers["4@0"] += 1.0
    numbers["5@0"] += 1.0
    numbers["4@2"] += 1.0
    numbers["5@2"] += 1.0
    found = diagnose(Printed(numbers, {}, ()), Expected(right), TOL)
    assert found.lines[-1] == (
        "tables: wrong with 2 tokens (2 squares), 1 token (1 square), 0 tokens (2 squares)."
    )
