"""One generic solver for every assignment's model.

Internally everything is a minimisation: a maximising model is solved as the minimisation of
its negated values. Both solvers first check that the goal can be reached from every state,
so a hopeless board is reported instead of iterated forever.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from autograder import GoalUnreachable

from ._linear import DENSE_LIMIT, solve_chain
from ._linear import rows_of as _rows
from ._model import Model

__all__ = [
    "NotConverged",
    "Solution",
    "evaluate_policy",
    "goal_distance",
    "policy_iteration",
    "proper_policy",
    "q_values",
    "solve",
    "value_iteration",
    "visited",
]

DEFAULT_TIE_TOLERANCE = 1e-9


class NotConverged(RuntimeError):
    """Value or policy iteration ran out of sweeps before meeting its error bound."""


@dataclass(frozen=True, eq=False)
class Solution:
    """Values, Q-values and the optimal actions of a solved model.

    ``optimal[p]`` is true when pair ``p`` is within the tie tolerance of the best pair of its
    state; ``policy[s]`` is one such pair (``-1`` on terminal states). ``error_bound`` is a
    proven bound on ``max |values - V*|`` for value iteration, and the final Bellman residual
    for policy iteration (whose values are exact up to the linear solve's rounding).
    """

    model: Model
    values: np.ndarray
    q_values: np.ndarray
    policy: np.ndarray
    optimal: np.ndarray
    iterations: int
    residual: float
    error_bound: float
    method: str

    @property
    def start_value(self) -> float:
        return float(self.values[self.model.start])

    def optimal_actions(self, state: int) -> list[str]:
        pairs = self.model.pairs_of(state)
        return [
            self.model.action_names[self.model.action_of_pair[p]] for p in pairs if self.optimal[p]
        ]

    def action(self, state: int) -> str | None:
        pair = int(self.policy[state])
        if pair < 0:
            return None
        return self.model.action_names[self.model.action_of_pair[pair]]


def _sign(model: Model) -> float:
    return -1.0 if model.maximize else 1.0


def _state_graph(model: Model, pairs: np.ndarray | None = None) -> sp.csr_array:
    """Adjacency ``state -> next state`` over all pairs, or over one chosen pair per state.

    Pairs are grouped by state, so the transitions' own arrays are the graph's rows: nothing
    is sorted or copied but the weights (which the graph searches want as floats)."""
    P = model.transitions if pairs is None else _rows(model.transitions, pairs)
    indptr = P.indptr[model.pair_start] if pairs is None else P.indptr
    n = model.n_states
    return sp.csr_array((np.ones(P.indices.size), P.indices, indptr), shape=(n, n))


def goal_distance(model: Model, pairs: np.ndarray | None = None) -> np.ndarray:
    """Fewest moves from each state to a terminal state (``inf`` where none is reachable).

    With ``pairs`` the moves follow that policy; otherwise any action may be taken.
    """
    # A breadth-first search on the reversed graph (its columns: one linear pass) from an
    # extra node joined to every terminal.
    reverse = _state_graph(model, pairs).tocsc()
    n = model.n_states
    terminals = np.flatnonzero(model.terminal)
    indices = np.concatenate((reverse.indices, terminals))
    indptr = np.append(reverse.indptr, reverse.indptr[-1] + terminals.size)
    augmented = sp.csr_array((np.ones(indices.size), indices, indptr), shape=(n + 1, n + 1))
    dist = csgraph.shortest_path(augmented, unweighted=True, directed=True, indices=n)
    return dist[:n] - 1.0


def visited(model: Model, pairs: np.ndarray) -> np.ndarray:
    """The states the policy ``pairs`` can visit from the start, in breadth-first order."""
    graph = _state_graph(model, pairs)
    return csgraph.breadth_first_order(graph, model.start, directed=True, return_predecessors=False)


def _check_reachable(model: Model) -> np.ndarray:
    dist = goal_distance(model)
    hopeless = np.flatnonzero(~np.isfinite(dist))
    if hopeless.size:
        shown = "; ".join(model.label(int(s)) for s in hopeless[:5])
        more = f"; ... ({hopeless.size} states in all)" if hopeless.size > 5 else ""
        raise GoalUnreachable(
            "", f"no policy can reach the goal from {shown}{more}, so no value is finite"
        )
    return dist


def proper_policy(model: Model, dist: np.ndarray | None = None) -> np.ndarray:
    """A policy that reaches the goal with probability 1 from every state.

    Each state takes an action that can step to a state one move closer to the goal, so
    from everywhere the goal is reached within ``n_states`` moves with positive probability.
    """
    if dist is None:
        dist = _check_reachable(model)
    P = model.transitions
    nearest = np.minimum.reduceat(dist[P.indices], P.indptr[:-1])
    closer = nearest == dist[model.state_of_pair] - 1
    return _first_per_state(model, closer)


def _first_per_state(model: Model, mask: np.ndarray) -> np.ndarray:
    """For each non-terminal state, its first pair where ``mask`` holds (``-1`` if none)."""
    policy = np.full(model.n_states, -1, dtype=np.int64)
    hits = np.flatnonzero(mask)
    states = model.state_of_pair[hits]
    first = np.ones(hits.size, dtype=bool)
    first[1:] = states[1:] != states[:-1]
    policy[states[first]] = hits[first]
    return policy


def evaluate_policy(
    model: Model, policy: np.ndarray, guess: np.ndarray | None = None
) -> np.ndarray:
    """Exact values of a proper policy (one pair per state) by a linear solve.

    A state whose chosen pair leads to one next state for sure (a boosted game's choice
    after the spin) is folded into the states that reach it, so the solve is over the
    other states alone: a board with 3 tokens solves 401 equations instead of 2,801.
    ``guess`` (values near the answer: the last policy's) may start an iterative solve.
    """
    sign = _sign(model)
    T = model.transitions
    chosen = np.where(policy >= 0, policy, 0)
    rhs = np.where(model.terminal, sign * model.terminal_value, sign * model.pair_cost[chosen])
    start = None if guess is None else sign * np.asarray(guess, dtype=float)
    n = model.n_states
    after = np.where(policy >= 0, model.sure_next[chosen], -1)
    fold = after >= 0
    reached = np.zeros(n, dtype=bool)
    reached[after[fold]] = True
    fold &= ~reached  # the state reached is not folded itself
    if fold.sum() * 2 < n or model.discount < 1.0:
        return sign * _solve(_rows(T, policy), rhs, model.discount, start, model.stage)
    keep = np.flatnonzero(~fold)
    folded = np.flatnonzero(fold)
    # J[f] = rhs[f] + J[after[f]] for a folded state f: each kept row's entry on f moves to
    # after[f] and brings rhs[f] with it.
    rows = _rows(T, policy[keep])
    cols, data = rows.indices, rows.data
    hit = fold[cols]
    owner = np.repeat(np.arange(keep.size), np.diff(rows.indptr))
    extra = np.bincount(owner[hit], weights=data[hit] * rhs[cols[hit]], minlength=keep.size)
    index = np.full(n, -1, dtype=cols.dtype)
    index[keep] = np.arange(keep.size)
    cols = index[np.where(hit, after[cols], cols)]
    P_keep = sp.csr_array((data, cols, rows.indptr), shape=(keep.size, keep.size))
    J = np.empty(n)
    J[keep] = _solve(
        P_keep,
        rhs[keep] + extra,
        1.0,
        None if start is None else start[keep],
        None if model.stage is None else model.stage[keep],
    )
    J[folded] = rhs[folded] + J[after[folded]]
    return sign * J


def _solve(
    P: sp.csr_array,
    rhs: np.ndarray,
    discount: float,
    guess: np.ndarray | None,
    stage: np.ndarray | None,
) -> np.ndarray:
    """``J = rhs + discount * P J``; with stages (no entry leads to a later stage), one
    stage at a time, earliest first, the earlier stages' values moved to the right-hand
    side: a solve per stage instead of one whose entries across stages lie far apart."""
    n = P.shape[0]
    if stage is None or n <= DENSE_LIMIT:
        return solve_chain(P, rhs, discount, guess)
    order = np.argsort(stage, kind="stable")
    cuts = np.flatnonzero(np.diff(stage[order])) + 1
    if not cuts.size:
        return solve_chain(P, rhs, discount, guess)
    J = np.zeros(n)
    local = np.full(n, -1, dtype=np.int64)
    for states in np.split(order, cuts):
        block = _rows(P, states)
        cols, data = block.indices, block.data
        local[states] = np.arange(states.size)
        inside = local[cols] >= 0
        owner = np.repeat(np.arange(states.size), np.diff(block.indptr))
        known = np.bincount(owner[~inside], weights=data[~inside] * J[cols[~inside]],
                            minlength=states.size)  # fmt: skip
        lengths = np.bincount(owner[inside], minlength=states.size)
        indptr = np.concatenate(([0], np.cumsum(lengths)))
        own = sp.csr_array((data[inside], local[cols[inside]], indptr), shape=(states.size,) * 2)
        J[states] = solve_chain(own, rhs[states] + discount * known, discount,
                                None if guess is None else guess[states])  # fmt: skip
        local[states] = -1
    return J


def q_values(model: Model, values: np.ndarray) -> np.ndarray:
    """``Q[p] = cost(p) + discount * E[V(next)]`` for every pair."""
    return model.pair_cost + model.discount * (model.transitions @ values)


def _best(model: Model, q_min: np.ndarray) -> np.ndarray:
    """Per state, the smallest (minimisation-signed) Q-value; terminal states get 0."""
    best = np.zeros(model.n_states)
    live = ~model.terminal
    best[live] = np.minimum.reduceat(q_min, model.pair_start[:-1][live])
    return best


def _finish(
    model: Model,
    values: np.ndarray,
    iterations: int,
    error_bound: float | None,
    method: str,
    tie_tolerance: float,
) -> Solution:
    sign = _sign(model)
    # A linear solve can leave -4e-16 on a terminal state, which prints as "-0.00".
    values = np.where(model.terminal, model.terminal_value, values)
    q = q_values(model, values)
    q_min = sign * q
    best = _best(model, q_min)
    slack = tie_tolerance * np.maximum(1.0, np.abs(best))
    optimal = q_min <= (best + slack)[model.state_of_pair]
    policy = _first_per_state(model, q_min <= best[model.state_of_pair])
    live = ~model.terminal
    residual = float(np.max(np.abs(best[live] - sign * values[live]), initial=0.0))
    return Solution(
        model=model,
        values=values,
        q_values=q,
        policy=policy,
        optimal=optimal,
        iterations=iterations,
        residual=residual,
        error_bound=residual if error_bound is None else error_bound,
        method=method,
    )


def policy_iteration(
    model: Model,
    *,
    max_iterations: int = 10_000,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Solution:
    """Howard's policy iteration from a proper policy, each policy evaluated exactly."""
    dist = _check_reachable(model)
    values, iterations = _iterate(model, dist, max_iterations)
    return _finish(model, values, iterations, None, "policy_iteration", tie_tolerance)


def _iterate(model: Model, dist: np.ndarray, max_iterations: int) -> tuple[np.ndarray, int]:
    """Policy iteration's loop: the values of the policy it settles on, and its iterations."""
    sign = _sign(model)
    policy = proper_policy(model, dist)
    live = ~model.terminal
    values = None
    for iteration in range(1, max_iterations + 1):
        values = evaluate_policy(model, policy, values)
        if model.single_action:
            return values, iteration
        q_min = sign * q_values(model, values)
        best = _best(model, q_min)
        greedy = _first_per_state(model, q_min <= best[model.state_of_pair])
        # Keep the current action unless another is better by more than rounding noise, so
        # ties cannot make the iteration cycle.
        current = q_min[np.where(live, policy, 0)]
        keep = current <= best + 1e-12 * np.maximum(1.0, np.abs(best))
        improved = np.where(live & ~keep, greedy, policy)
        if np.array_equal(improved, policy):
            return values, iteration
        policy = improved
    raise NotConverged(f"policy iteration did not settle in {max_iterations} iterations")


def value_iteration(
    model: Model,
    *,
    tolerance: float = 1e-9,
    max_sweeps: int = 2_000_000,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Solution:
    """Value iteration that stops only when its values are provably within ``tolerance``.

    Sweeps start below the optimum (costs are non-negative), so every iterate ``J_k`` is a
    lower bound on the optimal cost ``J*``, and ``J_{k+1} - J_k`` never exceeds the error. A
    small change is therefore necessary but not sufficient: on an undiscounted board the
    values can creep for thousands of sweeps after the change looks negligible. Once the
    change is under ``tolerance``, the greedy policy is evaluated exactly; its cost ``J_mu``
    is an upper bound, and the sweep stops when ``max(J_mu - J_k) <= tolerance``.
    """
    _check_reachable(model)
    sign = _sign(model)
    live = ~model.terminal
    term = sign * model.terminal_value
    cost = sign * model.pair_cost
    floor = min(0.0, float(term[model.terminal].min(initial=0.0)))
    J = np.where(model.terminal, term, floor)
    P, gamma, starts = model.transitions, model.discount, model.pair_start[:-1][live]
    next_check = 0
    error = np.inf
    sweep = 0
    for sweep in range(1, max_sweeps + 1):
        q_min = cost + gamma * (P @ J)
        new = J.copy()
        new[live] = q_min if model.single_action else np.minimum.reduceat(q_min, starts)
        change = float(np.max(np.abs(new - J)))
        J = new
        if change <= tolerance and sweep >= next_check:
            greedy = _first_per_state(model, q_min <= J[model.state_of_pair])
            if gamma < 1.0 or np.all(np.isfinite(goal_distance(model, greedy))):
                upper = sign * evaluate_policy(model, greedy)
                error = float(np.max(upper - J))
                if error <= tolerance:
                    break
            next_check = sweep + max(16, sweep // 4)
    else:
        raise NotConverged(f"value iteration: error bound {error:.3g} after {max_sweeps} sweeps")
    return _finish(model, sign * J, sweep, max(error, 0.0), "value_iteration", tie_tolerance)


def solve(model: Model, method: str = "policy_iteration", **options: float) -> Solution:
    if method == "policy_iteration":
        return policy_iteration(model, **options)  # type: ignore[arg-type]
    if method == "value_iteration":
        return value_iteration(model, **options)  # type: ignore[arg-type]
    raise ValueError(f"unknown method {method!r}")
