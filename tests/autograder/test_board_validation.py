"""The jump board's rules, checked on arrays for a big board, say exactly what the plain
jump-by-jump check says (its first broken rule, word for word)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from autograder._boards._jump import _first_problem, jump_board_problem

square = st.integers(-2, 24)
jump = st.one_of(
    st.tuples(square, square),
    st.lists(square, min_size=2, max_size=2),
    st.sampled_from([(1,), (1, 2, 3), ("1", 2), (True, 3), (2.0, 5), None]),
)


@settings(max_examples=500)
@given(goal=st.integers(1, 22), jumps=st.lists(jump, max_size=12))
@example(goal=10, jumps=[(3, 3)])  # goes nowhere
@example(goal=10, jumps=[(3, 5), (3, 6)])  # two start on one square
@example(goal=10, jumps=[(3, 5), (0, 6)])  # starts on the start
@example(goal=10, jumps=[(3, 5), (10, 6)])  # starts on the goal
@example(goal=10, jumps=[(3, 11)])  # ends past the goal
@example(goal=10, jumps=[(3, 0)])  # ends on the start
@example(goal=10, jumps=[(4, 3), (3, 2)])  # a chain
def test_array_checks_give_the_first_rule_broken(goal, jumps):
    assert jump_board_problem(goal, jumps) == _first_problem(goal, jumps)


@given(goal=st.integers(2, 22), data=st.data())
def test_valid_boards_stay_valid(goal, data):
    starts = data.draw(st.lists(st.integers(1, goal - 1), unique=True, max_size=goal - 1))
    free = [s for s in range(1, goal + 1) if s not in starts]
    jumps = [(s, data.draw(st.sampled_from([e for e in free if e != s] or [s])))
             for s in starts]  # fmt: skip
    assert jump_board_problem(goal, jumps) == _first_problem(goal, jumps)


def test_a_chain_is_named_by_its_first_jump_in_order():
    jumps = [(10, 20), (5, 10), (20, 3)]
    assert jump_board_problem(30, jumps) == (
        "jump 10->20 ends where another jump starts (chains are not allowed)"
    )
