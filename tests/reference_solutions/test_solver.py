"""The generic solver: value iteration against policy iteration, and its error bound."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder import GoalUnreachable
from reference_solutions import (
    build_model,
    make_problem,
    policy_iteration,
    value_iteration,
)
from tests.strategies import JUMP_GAMES, OVERSHOOTS, jump_boards, jump_game_settings, trap_boards


def agree(problem) -> None:
    """Value iteration (its own error bound at 1e-10) matches policy iteration to 1e-9."""
    model = problem.game.model
    try:
        exact = policy_iteration(model)
    except GoalUnreachable:
        with pytest.raises(GoalUnreachable):
            value_iteration(model)
        return
    swept = value_iteration(model, tolerance=1e-10)
    assert np.max(np.abs(exact.values - swept.values)) <= 1e-9
    assert swept.error_bound <= 1e-10
    # Whatever either solver picks must be optimal by the other's Q-values.
    for chosen in (exact.policy, swept.policy):
        live = chosen >= 0
        assert np.all(exact.optimal[chosen[live]])


@pytest.mark.parametrize("name", [*JUMP_GAMES, "trap-lane"])
def test_public_boards_agree(name):
    agree(make_problem(name))


@settings(max_examples=250)
@given(
    name=st.sampled_from(JUMP_GAMES),
    board=jump_boards(max_goal=50, tens=False),
    faces=st.integers(2, 6),
    overshoot=OVERSHOOTS,
)
def test_random_jump_boards_agree(name, board, faces, overshoot):
    settings_ = jump_game_settings(name, faces, overshoot)
    agree(make_problem(name, board, settings_))


@settings(max_examples=150)
@given(board=trap_boards, circle_overshoot=st.sampled_from(["wrap", "restart"]))
def test_random_trap_layouts_agree(board, circle_overshoot):
    # (the overshoot's reading exists on the circle only)
    settings_ = [f"circle_overshoot={circle_overshoot}"] if board.get("circle") else []
    agree(make_problem("trap-lane", board, settings_))


@settings(max_examples=30)
@given(board=jump_boards(max_goal=40), discount=st.sampled_from([0.5, 0.9, 0.99]))
def test_discounted_aimed_agrees(board, discount):
    agree(make_problem("aimed", board, ["objective=discounted", f"discount={discount}"]))


def slow_board():
    """A board whose game lasts hundreds of turns: the sweeps creep long after small changes."""
    return make_problem("classic", {"goal": 60, "jumps": [[58, 1], [55, 2], [52, 3]]}, ["faces=2"])


def test_small_change_between_sweeps_hides_a_large_error():
    # The trap the stopping rule exists for: stop at the first sweep whose change is under
    # the tolerance and the values are still far off.
    problem = slow_board()
    model = problem.game.model
    exact = policy_iteration(model).values
    P, cost = model.transitions, model.pair_cost
    values = np.zeros(model.n_states)
    live = ~model.terminal
    while True:
        new = values.copy()
        new[live] = cost + P @ values
        change = np.max(np.abs(new - values))
        values = new
        if change <= 1e-6:
            break
    assert np.max(np.abs(values - exact)) > 1e-4  # a hundred times the tolerance


@pytest.mark.parametrize("tolerance", [1e-3, 1e-6, 1e-9])
def test_value_iteration_error_is_within_its_tolerance(tolerance):
    model = slow_board().game.model
    exact = policy_iteration(model).values
    swept = value_iteration(model, tolerance=tolerance)
    error = np.max(np.abs(swept.values - exact))
    assert error <= tolerance
    # (up to the exact solve's own rounding: this game lasts 1,600 turns, and its values'
    # last bits differ by a few 1e-12 between the solver's two paths)
    assert error <= swept.error_bound + 1e-14 * np.max(np.abs(exact))


def hopeless_model():
    # State 0 can only loop on itself; state 1 reaches the goal (state 2).
    return build_model(
        n_states=3,
        pair_state=np.array([0, 1]),
        pair_action=np.array([0, 0]),
        outcome_pair=np.array([0, 1]),
        outcome_state=np.array([0, 2]),
        outcome_prob=np.array([1.0, 1.0]),
        outcome_cost=1.0,
        action_names=("go",),
    )


@pytest.mark.timeout(10)
@pytest.mark.parametrize("solver", [policy_iteration, value_iteration])
def test_a_goal_no_policy_reaches_is_reported_not_iterated(solver):
    with pytest.raises(GoalUnreachable, match=r"reach the goal from 0\b"):
        solver(hopeless_model())


@pytest.mark.timeout(10)
def test_unreachable_board_is_reported_with_its_squares():
    # A one-square spinner can never pass the chute on 9: squares 0..8 never finish.
    problem = make_problem("classic", {"goal": 10, "jumps": [[9, 1]]}, ["faces=1"])
    with pytest.raises(GoalUnreachable, match="square 0"):
        policy_iteration(problem.game.model)


def test_ties_are_all_reported_optimal():
    # Efron from 2 of a 3-square board: three dice always finish (see the hand checks).
    problem = make_problem("efron", {"goal": 3, "jumps": []})
    solution = policy_iteration(problem.game.model)
    assert solution.optimal_actions(2) == ["Blue", "Red", "Green"]
    assert solution.residual < 1e-12


@pytest.mark.parametrize("solver", [policy_iteration, value_iteration])
@pytest.mark.parametrize("name", [*JUMP_GAMES, "trap-lane"])
def test_the_policy_given_is_each_states_first_optimal_action(name, solver):
    # docs/rules.md, "Ties": so rounding cannot tip the printed action between equal ones.
    model = make_problem(name).game.model
    solution = solver(model)
    for state in range(model.n_states):
        optimal = [p for p in model.pairs_of(state) if solution.optimal[p]]
        assert solution.policy[state] == (optimal[0] if optimal else -1)


def test_efrons_exact_ties_print_the_first_die():
    # Square 94, 6 from the goal: Blue (all 3s) takes 2 turns, and so does Red (two 6s,
    # four 2s) in expectation: a 6 wins at once, a third of the time, else the piece is on
    # 96, 1.5 turns from the end (1 + 2/3 x 1.5 = 2). Blue comes first in the dice table.
    problem = make_problem("efron")
    solution = policy_iteration(problem.game.model)
    state = next(s for s in range(problem.game.model.n_states)
                 if problem.game.model.label(s) == "square 94")  # fmt: skip
    assert solution.optimal_actions(state)[:1] == ["Blue"]
    assert "Red" in solution.optimal_actions(state)
    assert solution.action(state) == "Blue"


@pytest.mark.parametrize("name", ["boosted", "efron", "trap-lane"])
def test_proper_policy_steps_closer_on_every_state(name):
    """``proper_policy``: on every state with a move, the chosen pair can step to a state
    one move nearer a terminal state, the distances counted here by a plain breadth-first
    search over the model's own rows."""
    from collections import deque

    from reference_solutions import proper_policy

    model = make_problem(name).game.model
    P = model.transitions
    before: list[set[int]] = [set() for _ in range(model.n_states)]
    for s in range(model.n_states):
        for p in model.pairs_of(s):
            for t in P.indices[P.indptr[p] : P.indptr[p + 1]]:
                before[int(t)].add(s)
    dist = {int(t): 0 for t in np.flatnonzero(model.terminal)}
    queue = deque(dist)
    while queue:
        t = queue.popleft()
        for s in before[t]:
            if s not in dist:
                dist[s] = dist[t] + 1
                queue.append(s)
    policy = proper_policy(model)
    for s in range(model.n_states):
        if model.terminal[s]:
            assert policy[s] == -1
            continue
        p = int(policy[s])
        assert p in model.pairs_of(s)
        nexts = P.indices[P.indptr[p] : P.indptr[p + 1]]
        assert min(dist[int(t)] for t in nexts) == dist[s] - 1
