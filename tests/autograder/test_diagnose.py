"""The diagnosis on hand-made answers: when a mistake is named, when it is not, and the two
generic diagnoses. The numbers are made up here; nothing is solved."""

from __future__ import annotations

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
