"""One generic solver for every assignment's model.

Internally everything is a minimisation: a maximising model is solved as the minimisation of
its negated values. Both solvers first check that the goal can be reached from every state,
so a hopeless board is reported instead of iterated forever.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
import scipy.sparse.linalg as spla

from autograder import GoalUnreachable

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

# Below this many states a dense LU factorisation beats SuperLU's set-up cost (measured in
# benchmarks/bench_solve.py: the standard board's 101 states solve about 2x faster dense).
_DENSE_LIMIT = 400
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
    """Adjacency ``state -> next state`` over all pairs, or over one chosen pair per state."""
    P = model.transitions
    if pairs is None:
        rows = np.repeat(model.state_of_pair, np.diff(P.indptr))
        cols = P.indices
    else:
        sub = _rows(P, pairs)
        rows = np.repeat(np.arange(model.n_states), np.diff(sub.indptr))
        cols = sub.indices
    data = np.ones(rows.size, dtype=np.int8)
    return sp.csr_array((data, (rows, cols)), shape=(model.n_states, model.n_states))


def _rows(P: sp.csr_array, pairs: np.ndarray) -> sp.csr_array:
    """A matrix whose row ``s`` is row ``pairs[s]`` of ``P`` (empty where ``pairs[s] < 0``)."""
    pairs = np.asarray(pairs, dtype=np.int64)
    chosen = np.where(pairs >= 0, pairs, 0)
    lengths = np.where(pairs >= 0, P.indptr[chosen + 1] - P.indptr[chosen], 0)
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    gather = np.repeat(P.indptr[chosen] - indptr[:-1], lengths) + np.arange(indptr[-1])
    return sp.csr_array((P.data[gather], P.indices[gather], indptr), shape=(pairs.size, P.shape[1]))


def goal_distance(model: Model, pairs: np.ndarray | None = None) -> np.ndarray:
    """Fewest moves from each state to a terminal state (``inf`` where none is reachable).

    With ``pairs`` the moves follow that policy; otherwise any action may be taken.
    """
    graph = _state_graph(model, pairs)
    n = model.n_states
    terminals = np.flatnonzero(model.terminal)
    # A breadth-first search on the reversed graph from an extra node joined to every terminal.
    reverse = graph.T.tocoo()
    rows = np.concatenate((reverse.row, np.full(terminals.size, n)))
    cols = np.concatenate((reverse.col, terminals))
    augmented = sp.csr_array(
        (np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(n + 1, n + 1)
    )
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


def evaluate_policy(model: Model, policy: np.ndarray) -> np.ndarray:
    """Exact values of a proper policy (one pair per state) by a linear solve.

    A state whose chosen pair leads to one next state for sure (a boosted game's choice
    after the spin) is folded into the states that reach it, so the solve is over the
    other states alone: a board with 3 tokens solves 401 equations instead of 2,801.
    """
    sign = _sign(model)
    P_mu = _rows(model.transitions, policy)
    rhs = np.where(
        model.terminal,
        sign * model.terminal_value,
        sign * model.pair_cost[np.where(policy >= 0, policy, 0)],
    )
    n = model.n_states
    sure = np.diff(P_mu.indptr) == 1
    after = np.full(n, -1, dtype=np.int64)
    after[sure] = P_mu.indices[P_mu.indptr[:-1][sure]]
    fold = sure & ~model.terminal & (P_mu.data[np.minimum(P_mu.indptr[:-1], P_mu.nnz - 1)] == 1.0)
    fold &= ~np.isin(np.arange(n), after[fold])  # the state reached is not folded itself
    fold &= after != np.arange(n)
    if fold.sum() * 2 < n or model.discount < 1.0:
        return sign * _solve(model, P_mu, rhs)
    keep = np.flatnonzero(~fold)
    folded = np.flatnonzero(fold)
    # J[f] = rhs[f] + J[after[f]] for a folded state f: each kept row's entry on f moves to
    # after[f] and brings rhs[f] with it.
    rows = np.repeat(np.arange(n), np.diff(P_mu.indptr))
    cols, data = P_mu.indices, P_mu.data
    mine = ~fold[rows]
    rows, cols, data = rows[mine], cols[mine], data[mine]
    hit = fold[cols]
    extra = np.zeros(n)
    np.add.at(extra, rows[hit], data[hit] * rhs[cols[hit]])
    cols = np.where(hit, after[cols], cols)
    index = np.full(n, -1, dtype=np.int64)
    index[keep] = np.arange(keep.size)
    P_keep = sp.csr_array((data, (index[rows], index[cols])), shape=(keep.size, keep.size))
    small = dataclasses.replace(model, n_states=keep.size)
    J = np.empty(n)
    J[keep] = _solve(small, P_keep, rhs[keep] + extra[keep])
    J[folded] = rhs[folded] + J[after[folded]]
    return sign * J


def _solve(model: Model, P: sp.csr_array, rhs: np.ndarray) -> np.ndarray:
    """``J = rhs + discount * P J``, dense when small."""
    n = P.shape[0]
    if n <= _DENSE_LIMIT:
        return np.linalg.solve(np.eye(n) - model.discount * P.toarray(), rhs)
    A = (sp.eye_array(n, format="csc") - model.discount * sp.csc_array(P)).tocsc()
    return spla.spsolve(A, rhs)


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
    sign = _sign(model)
    policy = proper_policy(model, dist)
    live = ~model.terminal
    for iteration in range(1, max_iterations + 1):
        values = evaluate_policy(model, policy)
        if model.single_action:
            return _finish(model, values, iteration, None, "policy_iteration", tie_tolerance)
        q_min = sign * q_values(model, values)
        best = _best(model, q_min)
        greedy = _first_per_state(model, q_min <= best[model.state_of_pair])
        # Keep the current action unless another is better by more than rounding noise, so
        # ties cannot make the iteration cycle.
        current = q_min[np.where(live, policy, 0)]
        keep = current <= best + 1e-12 * np.maximum(1.0, np.abs(best))
        improved = np.where(live & ~keep, greedy, policy)
        if np.array_equal(improved, policy):
            return _finish(model, values, iteration, None, "policy_iteration", tie_tolerance)
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
