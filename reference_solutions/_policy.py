"""A printed policy evaluated exactly: what it costs from the start, against the best.

The grader reads the action a program prints on each square; here that policy's Markov
chain is built from the board's model and solved (one linear solve), so a policy that is
as good as the optimum in a way per-square tolerances cannot see still gets its due, and a
policy that never finishes is told so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache

import numpy as np
from scipy.sparse import csgraph

from autograder import PolicyCost, TestCase

from ._model import Model
from ._problem import Problem, make_problem, solve_problem
from ._solver import Solution, _state_graph, evaluate_policy, goal_distance, q_values, visited

__all__ = ["policy_cost", "solved_board"]


@lru_cache(maxsize=256)
def _solved(name: str, board: str) -> tuple[Problem, Solution]:
    problem = make_problem(name, json.loads(board))
    return problem, solve_problem(problem)


def solved_board(name: str, board: Mapping[str, object]) -> tuple[Problem, Solution]:
    """Assignment ``name``'s game on ``board`` (its file data) and its solution, solved
    once per board and kept: a batch evaluates hundreds of policies on the same boards."""
    return _solved(name, json.dumps(board, sort_keys=True))


def _caught_in_loop(model: Model, pairs: np.ndarray, caught: list[int]) -> int:
    """Of ``caught`` (the states ``pairs`` can visit, nearest the start first, from which it
    never reaches the goal), the first on a loop the policy never leaves: where a student
    can see it go round (the start, square 0 on a jump board, is not printed, and is named
    only when it lies on such a loop itself).

    The states that cannot reach the goal are closed under the policy's moves, so each of
    its strongly connected parts that no move leaves is such a loop."""
    graph = _state_graph(model, pairs)[caught][:, caught].tocoo()
    _, part = csgraph.connected_components(graph, directed=True, connection="strong")
    leaves = np.unique(part[graph.row[part[graph.row] != part[graph.col]]])
    on_loop = ~np.isin(part, leaves)
    return int(caught[int(np.argmax(on_loop))])


def policy_cost(name: str, case: TestCase, actions: Mapping[int, str]) -> PolicyCost | None:
    """What the policy ``actions`` (square -> printed action name) costs on ``case``'s board.

    Squares the format does not print (the start, square 0, on jump boards) and those where
    no game asks for an action (a jump square) take the action that is best given the
    printed policy everywhere else, as the program's own greedy choice would. ``None`` when
    the assignment prints no policy."""
    if case.expected.answer.actions is None:
        return None
    problem, solution = solved_board(name, case.board)
    model = solution.model
    game = problem.game
    first = game.first_square
    ungraded = {int(key.partition(":")[0]) for key in case.expected.ungraded}
    pairs = solution.policy.copy()
    names = model.action_names
    best = solution.start_value
    free = np.ones(model.n_states, dtype=bool)
    for square, action in sorted(actions.items()):
        state = square - first
        if square in ungraded or not 0 <= state < model.n_states or model.terminal[state]:
            continue
        chosen = [p for p in model.pairs_of(state) if names[model.action_of_pair[p]] == action]
        if not chosen:
            legal = ", ".join(names[model.action_of_pair[p]] for p in model.pairs_of(state))
            return PolicyCost(
                best, None, model.maximize, problem=f"{action!r} is not a choice on square "
                f"{square} (the choices there: {legal}), so the policy cannot be evaluated",
            )  # fmt: skip
        pairs[state] = chosen[0]
        free[state] = False
    if model.discount >= 1.0:
        reach = goal_distance(model, pairs)
        caught = [s for s in visited(model, pairs) if not np.isfinite(reach[s])]
        if caught:
            stuck = model.label(_caught_in_loop(model, pairs, caught))
            return PolicyCost(best, None, model.maximize, stuck=stuck)
        # States the policy never visits may be stuck; they cannot change the start's cost.
        hopeless = ~np.isfinite(reach)
        pairs[hopeless] = solution.policy[hopeless]
    values = _free_choices(model, pairs, free & ~model.terminal)
    return PolicyCost(best, float(values[model.start]), model.maximize)


def _free_choices(model: Model, pairs: np.ndarray, free: np.ndarray) -> np.ndarray:
    """The values of ``pairs`` once every ``free`` state takes its best action given the
    rest (policy iteration over those states alone; they are a handful)."""
    for _ in range(100):
        values = evaluate_policy(model, pairs)
        if not free.any():
            return values
        q = model.signed_pairs(q_values(model, values))
        changed = False
        for state in np.flatnonzero(free):
            options = model.pairs_of(int(state))
            better = min(options, key=lambda p: q[p])
            if q[better] < q[pairs[state]] - 1e-12 * max(1.0, abs(q[pairs[state]])):
                pairs[state] = better
                changed = True
        if not changed:
            return values
    return values
