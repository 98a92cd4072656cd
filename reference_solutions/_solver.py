"""One generic solver for every assignment's model.

Internally everything is a minimisation: a maximising model is solved as the minimisation of
its negated values, each state by the sign the model gives it (:attr:`Model.sign`). Both
solvers first check that the goal can be reached from every state, so a hopeless board is
reported instead of iterated forever. A game of two players with opposite aims (a model
with a controller per state) is solved by strategy iteration (:func:`_game_iteration`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from autograder import GoalUnreachable

from . import _dense as _dense_module
from ._dense import DenseModel, Factors
from ._dense import fits as _fits_dense
from ._linear import rows_of as _rows
from ._linear import solve_chain
from ._model import Model

try:
    from . import _kernel as _compiled
except ImportError:  # installed where no C compiler was found: the numpy path alone
    _compiled = None  # type: ignore[assignment]

__all__ = [
    "NotConverged",
    "Solution",
    "evaluate_policy",
    "goal_distance",
    "policy_iteration",
    "proper_policy",
    "q_values",
    "solve",
    "solver_kind",
    "value_iteration",
    "visited",
]

DEFAULT_TIE_TOLERANCE = 1e-9
# Above this many states a model in stages is improved one stage at a time
# (:func:`_iterate_by_stage`): a token-boosted board of 1,000 squares and 10 tokens (77,001
# states) in 66 ms against 113 ms at once; at 12,601 states it is about even, and on the
# standard board (2,801) the whole model at once took 3.2 ms against 3.9 ms, each stage on
# the sparse path (below this size, stages of at most ``_STAGE_DENSE_MOST`` states).
STAGED_LIMIT = 20_000
# Up to this many states the distances to the goal are read off a breadth-first tree.
_TREE_LIMIT = 4_096
# At most this many sweeps of value iteration find policy iteration's start on a small
# model (``_dense``): the public boards of aimed and the trap lane settle in 13 and 6.
_LOOKAHEAD = 32
# On a model of more than ``_SWEEP_FROM`` live states (and no fold), each of the first
# ``_SWEPT_POLICIES`` improvements is chosen after up to ``_SWEEPS`` sweeps of value
# iteration (:func:`_swept`), not from one policy's values alone. Measured (2026-11-25,
# ``benchmarks/bench_compare.py``'s boards): aimed on 1,000 squares 7 policies in 3.6 ms
# against 3 in 2.9, efron on 300 squares 3 in 0.96 ms against 2 in 0.89; 8, 12 and 16 sweeps
# are alike within the noise.
_SWEEPS = 12
_SWEEP_FROM = 64
_SWEPT_POLICIES = 3
# A model in stages whose every stage has at most this many states (token-boosted up to
# about 420 squares) is solved a stage at a time on the small models' path (``_dense``,
# where it folds), each stage from the last one's policy; measured (2026-11-24, medians of
# 7): 10 tokens on 100 squares 10.0 against 17.0 ms for the whole model at once, on 150
# squares 16.2 against 36.3, on 300 28.4 against 31.7 (already staged, each stage on the
# sparse path); the standard board alike (3.8 and 3.9 ms).
_STAGE_DENSE_MOST = 3_000


# Models of up to this many states are solved by the compiled kernel (``_kernel.c``) first,
# the numpy path taking over where it declines. Its cost grows with the states times those
# moves lead back to (a board's chute tails, a tenth of its squares on the benchmarks'
# boards): measured (2026-12-01, benchmarks/bench_compare.py's boards), 1.5 to 5 times
# faster than the numpy path up to 3,001 states (classic, aimed and efron on 3,000
# squares; boosted on 300, 2,101 states), 0.6 to 0.8 times on 7,001 (boosted on 1,000).
KERNEL_STATES = 4_096


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
    """The one sign of a model chosen one way everywhere; a game's values are solved for
    unsigned (a linear solve needs none, and its choices are signed per pair)."""
    sign = model.sign
    return sign if isinstance(sign, float) else 1.0


def _state_graph(model: Model, pairs: np.ndarray | None = None) -> sp.csr_array:
    """Adjacency ``state -> next state`` over all pairs, or over one chosen pair per state.

    Pairs are grouped by state, so the transitions' own arrays are the graph's rows: nothing
    is sorted or copied but the weights (which the graph searches want as floats)."""
    P = model.transitions if pairs is None else _rows(model.transitions, pairs)
    indptr = P.indptr[model.pair_start] if pairs is None else P.indptr
    n = model.n_states
    return sp.csr_array((np.ones(P.indices.size), P.indices, indptr), shape=(n, n))


def _reversed_graph(model: Model, pairs: np.ndarray | None = None) -> sp.csr_array:
    """The state graph reversed, with an extra node ``n`` joined to every terminal state,
    in the types the graph searches work in (int32 indices, float weights), so they search
    it as it is rather than a copy. Its rows are the edges sorted by where they lead (a
    stable counting sort, as ``tocsc`` would do, without the graph it would start from)."""
    P = model.transitions if pairs is None else _rows(model.transitions, pairs)
    n = model.n_states
    states = model.state_of_pair if pairs is None else np.arange(n, dtype=P.indices.dtype)
    source = np.repeat(states, np.diff(P.indptr))
    order = np.argsort(P.indices, kind="stable")
    terminals = np.flatnonzero(model.terminal).astype(P.indices.dtype)
    indices = np.concatenate((source[order], terminals))
    del source, order
    indptr = np.zeros(n + 2, dtype=P.indptr.dtype)
    np.cumsum(np.bincount(P.indices, minlength=n), out=indptr[1:-1])
    indptr[-1] = indptr[-2] + terminals.size
    return sp.csr_array((np.ones(indices.size), indices, indptr), shape=(n + 1, n + 1))


def goal_distance(model: Model, pairs: np.ndarray | None = None) -> np.ndarray:
    """Fewest moves from each state to a terminal state (``inf`` where none is reachable).

    With ``pairs`` the moves follow that policy; otherwise any action may be taken.
    """
    n = model.n_states
    graph = _reversed_graph(model, pairs)
    if n > _TREE_LIMIT:
        dist = csgraph.shortest_path(graph, unweighted=True, directed=True, indices=n,
                                     overwrite=True)  # fmt: skip
        return dist[:n] - 1.0
    # A breadth-first tree's depths are the distances; found by pointer jumping (each
    # round doubles the hops counted, so a board's 7 to 20 moves take 3 to 5 rounds),
    # where the general search's checks alone cost a small board three times as much.
    _, parent = csgraph.breadth_first_order(graph, n, directed=True, return_predecessors=True)
    depth = np.where(parent >= 0, 1.0, np.inf)
    depth[n] = 0.0
    hop = np.where(parent >= 0, parent, n)
    while True:
        far = hop[hop]
        depth += depth[hop]
        if np.array_equal(far, hop):
            return depth[:n] - 1.0
        hop = far


def visited(model: Model, pairs: np.ndarray) -> np.ndarray:
    """The states the policy ``pairs`` can visit from the start, in breadth-first order."""
    graph = _state_graph(model, pairs)
    return csgraph.breadth_first_order(graph, model.start, directed=True, return_predecessors=False)


def _refuse_hopeless(model: Model, hopeless: np.ndarray) -> None:
    if hopeless.size:
        shown = "; ".join(model.label(int(s)) for s in hopeless[:5])
        more = f"; ... ({hopeless.size} states in all)" if hopeless.size > 5 else ""
        raise GoalUnreachable(
            "", f"no policy can reach the goal from {shown}{more}, so no value is finite"
        )


def _reaching(model: Model, pairs: np.ndarray | None = None) -> np.ndarray:
    """Per state, whether a terminal state can be reached from it (by ``pairs`` if given):
    a breadth-first search, a fifth of :func:`goal_distance`'s cost (a million-square
    boosted board: 0.08 s against 0.4 s)."""
    n = model.n_states
    order = csgraph.breadth_first_order(
        _reversed_graph(model, pairs), n, directed=True, return_predecessors=False
    )
    reached = np.zeros(n + 1, dtype=bool)
    reached[order] = True
    return reached[:n]


def _check_reachable(model: Model) -> None:
    _refuse_hopeless(model, np.flatnonzero(~_reaching(model)))


def _reachable_distances(model: Model) -> np.ndarray:
    """:func:`goal_distance`, once every state is known to have a route to the goal."""
    dist = goal_distance(model)
    _refuse_hopeless(model, np.flatnonzero(~np.isfinite(dist)))
    return dist


def proper_policy(model: Model, dist: np.ndarray | None = None) -> np.ndarray:
    """A policy that reaches the goal with probability 1 from every state.

    Each state takes an action that can step to a state one move closer to the goal, so
    from everywhere the goal is reached within ``n_states`` moves with positive probability.
    """
    if dist is None:
        dist = _reachable_distances(model)
    P = model.transitions
    nearest = np.minimum.reduceat(dist[P.indices], P.indptr[:-1])
    closer = nearest == dist[model.state_of_pair] - 1
    return _first_per_state(model, closer)


def _first_per_state(model: Model, mask: np.ndarray) -> np.ndarray:
    """For each non-terminal state, its first pair where ``mask`` holds (``-1`` if none)."""
    policy = np.full(model.n_states, -1, dtype=model.transitions.indices.dtype)
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
    other states alone: a board with 3 tokens solves 400 equations instead of 2,801; the
    terminal states, whose values are known, are left out too.
    ``guess`` (values near the answer: the last policy's) may start an iterative solve.
    """
    sign = _sign(model)
    T = model.transitions
    n = model.n_states
    terminal = model.terminal
    # The arrays here have a value per state (7 million on a boosted board of a million
    # squares): each is made once and changed in place.
    chosen = np.where(policy >= 0, policy, 0)
    rhs = model.pair_cost[chosen]
    rhs[terminal] = model.terminal_value[terminal]
    if sign < 0:
        np.negative(rhs, out=rhs)
    fold = None
    if model.discount == 1.0 and model.has_sure_moves:
        after = model.sure_next[chosen]
        after[policy < 0] = -1
        fold = after >= 0
        reached = np.zeros(n, dtype=bool)
        reached[after[fold]] = True
        fold &= ~reached  # the state reached is not folded itself
        del reached
        if fold.sum() * 2 < n:
            fold = None
    del chosen
    if fold is None:
        start = None if guess is None else sign * np.asarray(guess, dtype=float)
        return sign * _solve(_rows(T, policy), rhs, model.discount, start, model.stage)
    keep = np.flatnonzero(~(fold | terminal))
    # J[f] = rhs[f] + J[after[f]] for a folded state f: each kept row's entry on f moves to
    # after[f] and brings rhs[f] with it. A terminal state's value is known (rhs there):
    # an entry on it leaves the system for the right-hand side. (A stage's model has as
    # many terminal states, the moves out of it, as states of its own.)
    rows = _rows(T, policy[keep])
    cols, data = rows.indices, rows.data
    hit = fold[cols]
    owner = np.repeat(np.arange(keep.size), np.diff(rows.indptr))
    cols = np.where(hit, after[cols], cols)
    known = terminal[cols]
    moved = data * (np.where(hit, rhs[rows.indices], 0.0) + np.where(known, rhs[cols], 0.0))
    extra = np.bincount(owner, weights=moved, minlength=keep.size)
    del hit, moved
    index = np.full(n, -1, dtype=cols.dtype)
    index[keep] = np.arange(keep.size, dtype=cols.dtype)
    if known.any():
        unknown = ~known
        indptr = np.zeros(keep.size + 1, dtype=rows.indptr.dtype)
        np.cumsum(np.bincount(owner[unknown], minlength=keep.size), out=indptr[1:])
        cols, data = cols[unknown], data[unknown]
    else:
        indptr = rows.indptr
    del owner, known
    P_keep = sp.csr_array((data, index[cols], indptr), shape=(keep.size, keep.size))
    del rows, cols, data, index
    J = rhs.copy()  # the terminal states' values, and room for the rest
    J[keep] = _solve(
        P_keep,
        rhs[keep] + extra,
        1.0,
        None if guess is None else sign * np.asarray(guess, dtype=float)[keep],
        None if model.stage is None else model.stage[keep],
    )
    del P_keep, extra, keep
    J[fold] = rhs[fold] + J[after[fold]]
    if sign < 0:
        np.negative(J, out=J)
    return J


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
    if stage is None:
        return solve_chain(P, rhs, discount, guess)
    stages = _by_stage(stage)
    if len(stages) == 1:
        return solve_chain(P, rhs, discount, guess)
    J = np.zeros(n)
    local = np.full(n, -1, dtype=np.int64)
    for states in stages:
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


def _by_stage(stage: np.ndarray) -> list[np.ndarray]:
    """The states of each stage, earliest stage first, each in increasing order."""
    order = np.argsort(stage, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(stage[order])) + 1)


def q_values(model: Model, values: np.ndarray) -> np.ndarray:
    """``Q[p] = cost(p) + discount * E[V(next)]`` for every pair."""
    return model.pair_cost + model.discount * (model.transitions @ values)


def _signed_q(model: Model, values: np.ndarray) -> np.ndarray:
    """:func:`q_values` signed for minimisation, in one array (13 million on a boosted
    board of a million squares)."""
    q = model.transitions @ values
    if model.discount != 1.0:
        q *= model.discount
    q += model.pair_cost
    sign = model.pair_sign
    if isinstance(sign, float):
        if sign < 0:
            np.negative(q, out=q)
    else:
        q *= sign
    return q


def _block_pairs(width: int, first: np.ndarray) -> slice | np.ndarray:
    """Where the pairs of a block of states (``width`` pairs each, the first ones
    ``first``) lie: one slice when they lie side by side (then a table of them is a view,
    not a copy), else a ``len(first) x width`` array of pair indices."""
    m = first.size
    if first[-1] - first[0] == width * (m - 1):
        return slice(int(first[0]), int(first[0]) + width * m)
    return first[:, None] + np.arange(width)


def _greedy(model: Model, q_min: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per state, the smallest (minimisation-signed) Q-value and the first pair that has
    it; terminal states get 0 and ``-1``."""
    best = np.zeros(model.n_states)
    policy = np.full(model.n_states, -1, dtype=model.transitions.indices.dtype)
    for width, states, first in model.choice_blocks:
        if width == 1:
            best[states] = q_min[first]
            policy[states] = first
            continue
        table = q_min[_block_pairs(width, first)].reshape(states.size, width)
        pick = table.argmin(axis=1)  # the first of equal minima, as the policy promises
        best[states] = np.take_along_axis(table, pick[:, None], axis=1)[:, 0]
        policy[states] = first + pick
    return best, policy


def _choices(
    model: Model, q_min: np.ndarray, tie_tolerance: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per state, the smallest (minimisation-signed) Q-value (0 on terminal states); per
    pair, whether its Q-value is within ``tie_tolerance`` of that (:func:`_near`); and per
    state the first such pair (``-1`` on terminal states), one pass over each block of
    states. That first pair is the policy a solution gives: where two pairs are equally
    good, rounding in the last bit cannot tip it from one to the other (efron's public
    board has such ties)."""
    best = np.zeros(model.n_states)
    within = np.zeros(q_min.size, dtype=bool)
    policy = np.full(model.n_states, -1, dtype=model.transitions.indices.dtype)
    for width, states, first in model.choice_blocks:
        if width == 1:
            only = q_min[first]
            best[states] = only
            within[first] = only <= _near(only, tie_tolerance)  # (false only for NaN)
            policy[states] = first
            continue
        where = _block_pairs(width, first)
        table = q_min[where].reshape(states.size, width)
        least = table.min(axis=1)
        best[states] = least
        hits = table <= _near(least, tie_tolerance)[:, None]
        del least
        within[where] = hits.ravel() if isinstance(where, slice) else hits
        pick = hits.argmax(axis=1)
        del hits, table
        pick += first
        policy[states] = pick
    return best, within, policy


def _finish(
    model: Model,
    values: np.ndarray,
    iterations: int,
    error_bound: float | None,
    method: str,
    tie_tolerance: float,
) -> Solution:
    sign = model.sign
    # A linear solve can leave -4e-16 on a terminal state, which prints as "-0.00".
    values = np.where(model.terminal, model.terminal_value, values)
    q = q_values(model, values)
    q_min = model.signed_pairs(q)
    best, optimal, policy = _choices(model, q_min, tie_tolerance)
    del q_min
    live = ~model.terminal
    residual = float(np.max(np.abs(best[live] - (sign * values)[live]), initial=0.0))
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
    warm_start: np.ndarray | None = None,
) -> Solution:
    """Howard's policy iteration from a proper policy, each policy evaluated exactly.

    A model of up to ``KERNEL_STATES`` states is solved by the compiled kernel
    (``_kernel.c``: the same rules, and the same solution to rounding), a model in stages
    a stage at a time by it; the numpy path below serves the rest, and where the kernel
    declines or is not built.

    A model with stages (:class:`Model`) is solved one stage at a time when it is large, or
    when its stages are small enough for the small models' path (``iterations`` then
    counts the evaluations of all stages together). A small model
    (:mod:`._dense`) starts from the policy a few sweeps of value iteration choose (one,
    where its sure moves fold out of each solve), once its own solve proves it proper; one
    of up to ``MID_STATES`` from a policy toward the goal, and its first improvements
    follow a few sweeps each (:func:`_swept`). ``iterations`` counts the policies, not the
    sweeps.

    ``warm_start``, a policy of ``model`` (a pair per state, ``-1`` where terminal), is
    tried first where it fits and is proven proper: the solution of the same board under
    other rules, say, as the catalogue of mistakes solves a dozen games per board. It
    changes where the iteration starts, never where it ends."""
    if not max_iterations >= 1:  # (every path counts a first policy, then improvements)
        raise ValueError(f"max_iterations must be at least 1, not {max_iterations!r}")
    if model.mixed:
        return _game_iteration(model, max_iterations, tie_tolerance, warm_start)
    if model.stage is None and (
        solved := _kernel_solution(model, max_iterations, tie_tolerance, warm_start)
    ):
        return solved
    hint = _fitting(model, warm_start)
    if model.stage is not None and (model.n_states > STAGED_LIMIT or _small_stages(model)):
        values, iterations = _iterate_by_stage(model, max_iterations, hint)
    elif _fits_dense(model) and (dense := DenseModel.of(model)) is not None:
        return _dense_policy_iteration(dense, max_iterations, tie_tolerance, hint)
    else:
        first = hint if hint is not None and _proper(model, hint) else _first_policy(model)
        values, iterations, _ = _iterate(model, first, max_iterations)
    return _finish(model, values, iterations, None, "policy_iteration", tie_tolerance)


def solver_kind() -> str:
    """Which solver this installation runs, in words (``autograder --version`` says it)."""
    if _compiled is None:
        return "numpy path only (the compiled kernel was not built: no C compiler at install)"
    return "compiled kernel"


# (A C long everywhere; far more policies than any model here needs.)
_MOST_POLICIES = 2**31 - 1


def _kernel_solution(
    model: Model, max_iterations: int, tie_tolerance: float, warm_start: np.ndarray | None
) -> Solution | None:
    """:func:`policy_iteration` by the compiled kernel, or ``None`` where it declines (or
    is not built): a model it does not take, a state that cannot reach the goal, a policy
    too many, a numerical failure, a policy whose game would last over a million moves (a
    system too ill-conditioned for its solve without pivoting), too many states moved back
    to. The numpy path then solves the model as it always did, and raises what it raises.
    A ``warm_start`` that does not fit the model the kernel passes over itself."""
    if _compiled is None or model.n_states > KERNEL_STATES or model.controller is not None:
        return None
    T = model.transitions
    status, iterations, residual, values, q, policy, optimal = _compiled.solve(
        model.pair_start, T.indptr, T.indices, T.data, model.outcome_cost,
        model.terminal_value, model.discount, model.maximize, tie_tolerance,
        int(min(max_iterations, _MOST_POLICIES)), KERNEL_STATES, warm_start,
    )  # fmt: skip
    if status != _compiled.SOLVED:
        return None
    return Solution(model, values, q, policy, optimal, iterations, residual, residual,
                    "policy_iteration")  # fmt: skip


def _fitting(model: Model, policy: np.ndarray | None) -> np.ndarray | None:
    """``policy`` if it is a policy of ``model`` (one of its own pairs for every state with
    any, ``-1`` elsewhere), else ``None``: a warm start is only ever a hint."""
    if policy is None or policy.shape != (model.n_states,):
        return None
    policy = policy.astype(np.int64, copy=False)
    live = ~model.terminal
    first, end = model.pair_start[:-1], model.pair_start[1:]
    fits = np.where(live, (first <= policy) & (policy < end), policy == -1)
    return policy if fits.all() else None


def _small_stages(model: Model) -> bool:
    """Whether every stage of ``model`` is small enough for the small models' path."""
    assert model.stage is not None
    return _STAGE_DENSE_MOST > 0 and bool(np.bincount(model.stage).max() <= _STAGE_DENSE_MOST)


def _first_policy(model: Model) -> np.ndarray:
    """Policy iteration's start: the one policy there is, once it is known to be proper,
    or else :func:`proper_policy`."""
    if model.single_action:
        _check_reachable(model)
        return np.where(model.terminal, -1, model.pair_start[:-1])
    return proper_policy(model, _reachable_distances(model))


def _near(best: np.ndarray, tolerance: float) -> np.ndarray:
    """What is within ``tolerance`` of ``best``, relative (absolute below 1)."""
    return best + tolerance * np.maximum(1.0, np.abs(best))


def _settled(current: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Per state, whether policy iteration keeps its action, whose (signed) Q-value is
    ``current``: unless another is better by more than rounding noise, so that ties
    cannot make the iteration cycle."""
    return current <= _near(best, 1e-12)


def _dense_start(
    dense: DenseModel, hint: np.ndarray | None = None
) -> tuple[np.ndarray, tuple[np.ndarray, Factors]]:
    """Policy iteration's start on a small model, and its values and factors: ``hint`` (a
    policy of the model, pairs per state) if its own solve proves it proper."""
    model = dense.model
    if hint is not None and not dense.single:
        tried = hint[dense.live]
        # (discounted, no solve proves a start proper: it goes the usual way, which refuses
        # a model with a state that cannot reach the goal, as a cold solve does)
        evaluated = dense.evaluate_if_proper(tried)
        if evaluated is not None:
            return tried, evaluated
    if dense.single:
        policy = dense.table[:, 0]
    elif dense.fold is None and dense.live.size > _dense_module.MAX_STATES:
        toward = dense.toward_goal()
        if toward is not None:
            _refuse_hopeless(model, dense.live[toward < 0])
            return toward, dense.evaluate(toward)
        policy = _first_policy(model)[dense.live]
        return policy, dense.evaluate(policy)
    else:
        # With a fold, a solve (of the kept states alone) costs about what 7 sweeps of every
        # state do, and the sweeps' start is not worth them: on boosted's public board, 3
        # policies from each state's cheapest move in 0.37 ms, 2 after 18 sweeps in 0.46 ms.
        policy = dense.lookahead(1 if dense.fold is not None else _LOOKAHEAD)
    # A start whose own solve proves it proper needs no graph search (on a course's board
    # it is so); else the usual one.
    evaluated = dense.evaluate_if_proper(policy)
    if evaluated is None:
        policy = _first_policy(model)[dense.live]
        evaluated = dense.evaluate(policy)
    return policy, evaluated


def _dense_policy_iteration(
    dense: DenseModel, max_iterations: int, tie_tolerance: float, hint: np.ndarray | None = None
) -> Solution:
    """:func:`policy_iteration` on a small model's arrays (:mod:`._dense`), with the same
    rule for settling and the same solution; its start (:func:`_dense_start`, ``hint``
    where that is proper) and, past ``_SWEEP_FROM`` live states, its first improvements
    (:func:`_swept`) are its own."""
    model = dense.model
    sweeping = _SWEEPS > 0 and dense.fold is None and dense.live.size > _SWEEP_FROM
    policy, evaluated = _dense_start(dense, hint)
    live_values, factors = evaluated
    iterations = 1
    updated = False  # whether the values came from another policy's factors
    while True:
        q = dense.q_values(live_values)
        current = q[policy]
        if updated and not dense.solves(current, live_values):
            live_values, factors = dense.evaluate(policy)  # factored afresh
            q = dense.q_values(live_values)
            current = q[policy]
        best, greedy = dense.greedy(q)
        if dense.single:
            break
        keep = _settled(current, best)
        if keep.all():
            break
        if iterations == max_iterations:
            raise NotConverged(f"policy iteration did not settle in {max_iterations} iterations")
        iterations += 1
        improved = np.where(keep, policy, greedy)
        if sweeping and iterations <= 1 + _SWEPT_POLICIES:
            swept = _swept(dense, improved, best)
            if swept is not improved and (made := _evaluate_swept(dense, swept, factors)):
                policy, (live_values, factors), updated = swept, made[0], made[1]
                continue
        policy = improved
        live_values, used = dense.evaluate(policy, factors)
        updated, factors = used is factors, used
    values = model.terminal_value.astype(float)
    values[dense.live] = -live_values if model.maximize else live_values
    optimal, first = dense.within(q, _near(best, tie_tolerance))
    chosen = np.full(model.n_states, -1, dtype=model.transitions.indices.dtype)
    chosen[dense.live] = first
    residual = float(np.abs(best - live_values).max(initial=0.0))
    return Solution(
        model=model,
        values=values,
        q_values=-q[:-1] if model.maximize else q[:-1],
        policy=chosen,
        optimal=optimal,
        iterations=iterations,
        residual=residual,
        error_bound=residual,
        method="policy_iteration",
    )


def _swept(dense: DenseModel, improved: np.ndarray, best: np.ndarray) -> np.ndarray:
    """The greedy policy after up to :data:`_SWEEPS` sweeps of value iteration from
    ``best``, one sweep past the values of the policy just evaluated (``improved`` is its
    greedy policy); a state keeps its action while it stays within rounding of the best,
    and the sweeps stop once a sweep changes no action (``improved`` itself if the first
    changes none).

    Those values are an upper bound ``J`` with ``T J <= J``, so every sweep lowers them
    toward the optimum and the policy greedy for them is proper wherever an improper
    policy's cost is unbounded (each turn costs something): its cost is at most ``J``.
    Sweeps carry the goal's pull across the whole board at once, from values already close
    to it, where one more policy's exact solve only corrects what changed."""
    values = best
    chosen = improved
    for _ in range(_SWEEPS):
        q = dense.q_values(values)
        values, greedy = dense.greedy(q)
        greedy = np.where(_settled(q[chosen], values), chosen, greedy)
        if greedy.tobytes() == chosen.tobytes():
            break
        chosen = greedy
    return chosen


def _evaluate_swept(
    dense: DenseModel, policy: np.ndarray, factors: Factors
) -> tuple[tuple[np.ndarray, Factors], bool] | None:
    """The values of a policy :func:`_swept` chose, and its factors, and whether they came
    from ``factors`` (:meth:`DenseModel.update`): from them where it changed few states (the
    solver checks the residual of values made so), else factored afresh, where the same
    solve must prove it proper (as its start's does) unless every policy is (a discounted
    model); ``None`` where it does not."""
    values = dense.update(policy, factors)
    if values is not None:
        return (values, factors), True
    if dense.model.discount < 1.0:
        return dense.evaluate(policy), False
    made = dense.evaluate_if_proper(policy)
    return None if made is None else (made, False)


def _iterate_by_stage(
    model: Model, max_iterations: int, hint: np.ndarray | None = None
) -> tuple[np.ndarray, int]:
    """Policy iteration one stage at a time, earliest first. No move leads to a later
    stage, so a stage's best policy depends only on its own values and those of earlier
    stages, found already: each stage is a model of its own, whose moves out of it end in
    terminal states worth what they were found to be.

    A stage shaped like the one before it (as many states, with as many pairs each, in
    the same order: one more token) starts from that stage's policy, pair for pair, if it
    is proper there. On a token-boosted board of 10^5 squares and 10 tokens a layer then
    settles in 3 or 4 iterations (the first layer with a choice, from the usual proper
    policy, in about 20); the whole model at once needs 11 to 16 iterations over every
    layer, one for each token's worth to climb a layer. A stage of at most
    ``_STAGE_DENSE_MOST`` states goes the small models' path (``_dense``), whose start's
    solve proves that policy proper, or else starts its own way. Given ``hint`` (a policy
    of ``model``), every stage starts from its part of that instead: in the catalogue's
    games (a board under other rules, from the board's own policy) on 15 drawn
    token-boosted boards, 2,173 policies in all against 2,940 without it, and 2,241 when
    only the first stage with a choice took it and the others the stage before's.

    A stage whose start is not proven proper is searched for a route to the goal from
    each of its states (its exits lead there, the stages before it being solved), and
    refused, naming those without one, as the whole model would be; where every start is
    proper, as on a course's boards, no search is made (a token-boosted board of 100
    squares: 0.26 of 3.9 ms)."""
    assert model.stage is not None
    values = np.where(model.terminal, model.terminal_value, 0.0)
    local = np.full(model.n_states, -1, dtype=np.int64)
    total = 0
    shape, policy = None, None  # the previous stage's pairs per state, and its policy
    for states in _by_stage(model.stage):
        part = _stage_model(model, states, values, local)
        start: np.ndarray | None = None
        if hint is not None:  # its pairs, numbered as the stage numbers them
            start = np.full(part.n_states, -1, dtype=np.int64)
            own = hint[states]
            start[: states.size] = np.where(
                own < 0, -1, own - model.pair_start[states] + part.pair_start[: states.size]
            )
        elif shape is not None and np.array_equal(shape, part.pair_start[: states.size + 1]):
            start = np.full(part.n_states, -1, dtype=np.int64)
            start[: states.size] = policy
        # (The kernel's own start does as well as the stage before's policy: the standard
        # board, 3 tokens, 8 policies in 1.43 ms against 9 in 1.47; a caller's hint it takes.)
        kernel = _kernel_solution(part, max_iterations, 0.0, start if hint is not None else None)
        small = kernel is None and states.size <= _STAGE_DENSE_MOST
        dense = DenseModel.of(part) if small else None
        if kernel is not None:
            part_values, iterations, part_policy = kernel.values, kernel.iterations, kernel.policy
        elif dense is not None:  # (whose start's own solve proves it proper, or not)
            solved = _dense_policy_iteration(dense, max_iterations, 0.0, start)
            part_values, iterations, part_policy = solved.values, solved.iterations, solved.policy
        else:
            if start is None or not _proper(part, start):
                start = proper_policy(part)
            part_values, iterations, part_policy = _iterate(part, start, max_iterations)
        shape, policy = part.pair_start[: states.size + 1], part_policy[: states.size]
        values[states] = part_values[: states.size]
        total += iterations
    return values, total


def _proper(model: Model, policy: np.ndarray) -> bool:
    """Whether following ``policy`` reaches a terminal state from every state."""
    return bool(_reaching(model, policy).all())


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``starts[i] .. starts[i] + counts[i] - 1`` for every ``i``, end to end."""
    offsets = np.cumsum(counts) - counts
    return np.repeat(starts - offsets, counts) + np.arange(int(counts.sum()))


def _stage_model(model: Model, states: np.ndarray, values: np.ndarray, local: np.ndarray) -> Model:
    """The model of ``states`` alone (numbered ``0..``, in their order), where every move
    out of them ends in a terminal state worth ``values`` there. ``local`` is an all ``-1``
    scratch array of one entry per state, left so."""
    T = model.transitions
    counts = np.diff(model.pair_start)[states]
    pairs = _ranges(model.pair_start[states], counts)
    lengths = np.diff(T.indptr)[pairs]
    outcomes = _ranges(T.indptr[pairs], lengths)
    cols = T.indices[outcomes]
    local[states] = np.arange(states.size)
    outside = np.zeros(model.n_states, dtype=bool)
    outside[cols[local[cols] < 0]] = True
    exits = np.flatnonzero(outside)
    del outside
    local[exits] = states.size + np.arange(exits.size)
    cols = local[cols].astype(T.indices.dtype)
    local[states] = -1
    local[exits] = -1
    numbered = np.concatenate((states, exits))
    indptr = np.zeros(pairs.size + 1, dtype=T.indptr.dtype)
    np.cumsum(lengths, out=indptr[1:])
    return Model(
        n_states=numbered.size,
        pair_start=np.concatenate(([0], np.cumsum(counts), np.full(exits.size, pairs.size))),
        action_of_pair=model.action_of_pair[pairs],
        transitions=sp.csr_array(
            (T.data[outcomes], cols, indptr), shape=(pairs.size, numbered.size)
        ),
        outcome_cost=model.outcome_cost[outcomes],
        terminal_value=np.concatenate((model.terminal_value[states], values[exits])),
        start=0,
        action_names=model.action_names,
        label=lambda s: model.label(int(numbered[s])),
        discount=model.discount,
        maximize=model.maximize,
    )


def _iterate(
    model: Model, policy: np.ndarray, max_iterations: int
) -> tuple[np.ndarray, int, np.ndarray]:
    """Policy iteration's loop from the proper ``policy``: the values of the policy it
    settles on, the iterations it took, and that policy."""
    live = ~model.terminal
    values = None
    for iteration in range(1, max_iterations + 1):
        values = evaluate_policy(model, policy, values)
        if model.single_action:
            return values, iteration, policy
        q_min = _signed_q(model, values)
        best, greedy = _greedy(model, q_min)
        current = q_min[np.where(live, policy, 0)]
        del q_min  # a value per pair, not kept into the next evaluation
        keep = _settled(current, best)
        improved = np.where(live & ~keep, greedy, policy)
        del best, greedy, current, keep  # not kept into the next evaluation
        if np.array_equal(improved, policy):
            return values, iteration, policy
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
    if model.mixed:
        return _game_value_iteration(model, tolerance, max_sweeps, tie_tolerance)
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


def _restricted(model: Model, player: int, policy: np.ndarray) -> tuple[Model, np.ndarray]:
    """The decision problem left to the other player when ``player``'s states play
    ``policy`` (a pair per state): those states keep their chosen pair alone. Returns it
    and, per pair of it, the pair of ``model`` it is."""
    assert model.controller is not None
    fixed = model.controller == player
    keep = ~fixed[model.state_of_pair]
    chosen = policy[fixed & ~model.terminal]
    keep[chosen] = True
    pairs = np.flatnonzero(keep)
    T = model.transitions
    rows = _rows(T, pairs)
    cost = model.outcome_cost
    if cost.strides != (0,) and cost.size:
        outcome = np.repeat(keep, np.diff(T.indptr))
        cost = cost[outcome]
    else:
        cost = np.broadcast_to(cost[:1] if cost.size else np.zeros(1), (rows.nnz,))
    per_state = np.bincount(model.state_of_pair[pairs], minlength=model.n_states)
    replier = model.maximizes[1 - player]  # (two players: the other one)
    reply = Model(
        n_states=model.n_states,
        pair_start=np.concatenate(([0], np.cumsum(per_state))).astype(np.int64),
        action_of_pair=model.action_of_pair[pairs],
        transitions=rows,
        outcome_cost=cost,
        terminal_value=model.terminal_value,
        start=model.start,
        action_names=model.action_names,
        label=model.label,
        discount=model.discount,
        maximize=replier,
    )
    return reply, pairs


def _best_reply(
    model: Model, player: int, policy: np.ndarray, tie_tolerance: float
) -> tuple[np.ndarray, np.ndarray]:
    """The values of ``player`` playing ``policy`` against the other's best reply, and the
    whole policy (``player``'s and the reply), pairs of ``model``: the reply found by
    policy iteration, each policy evaluated by one linear solve."""
    assert model.controller is not None
    reply, pairs = _restricted(model, player, policy)
    back = np.full(model.n_pairs, -1, dtype=np.int64)
    back[pairs] = np.arange(pairs.size)
    start = np.where(policy >= 0, back[np.maximum(policy, 0)], -1)
    solved = policy_iteration(reply, tie_tolerance=tie_tolerance, warm_start=start)
    whole = np.where(solved.policy >= 0, pairs[np.maximum(solved.policy, 0)], -1)
    return solved.values, whole


# Rounds of improving both players of a game at once before strategy iteration proper.
_TOGETHER_ROUNDS = 20


def _game_iteration(
    model: Model, max_iterations: int, tie_tolerance: float, warm_start: np.ndarray | None
) -> Solution:
    """Strategy iteration for a game of two players with opposite aims (Hoffman and Karp,
    1966): the first player's policy is held while the other's best reply is found (a
    decision problem of its own, solved exactly), then improved where another action is
    better by more than rounding against those values. Each round the first player's
    values improve, so no policy comes back; it stops when no state changes, the values
    then exact up to the linear solves (the residual is checked in :func:`_finish`).

    Improving both players at once (Pollatschek and Avi-Itzhak) needs one solve a round
    where this needs several, but can cycle: it is tried first, for at most
    ``_TOGETHER_ROUNDS`` rounds, and where both players' policies settle together the values
    are the game's (each player's greedy against them); else the rounds go on as above from
    the first player's policy it reached.

    The first policy must end the game whatever the other player does (a piece
    that can always move): ``warm_start`` where given and fitting, else one toward the
    goal (:func:`proper_policy`)."""
    assert model.controller is not None
    hint = _fitting(model, warm_start)
    policy = hint if hint is not None else _first_policy(model)
    live = ~model.terminal
    mine = (model.controller == 0) & live
    rounds = 0
    for rounds in range(1, min(_TOGETHER_ROUNDS, max_iterations) + 1):
        try:
            values = evaluate_policy(model, policy)
        except (RuntimeError, np.linalg.LinAlgError):  # a pair of policies that never ends
            break
        if not np.all(np.isfinite(values)):
            break
        q_min = _signed_q(model, values)
        best, greedy = _greedy(model, q_min)
        improve = live & ~_settled(q_min[np.maximum(policy, 0)], best)
        if not improve.any():
            return _finish(model, values, rounds, None, "policy_iteration", tie_tolerance)
        policy = np.where(improve, greedy, policy)
    for iteration in range(rounds + 1, max_iterations + 1):
        values, policy = _best_reply(model, 0, policy, tie_tolerance)
        q_min = _signed_q(model, values)
        best, greedy = _greedy(model, q_min)
        current = q_min[np.maximum(policy, 0)]
        improve = mine & ~_settled(current, best)
        if not improve.any():
            return _finish(model, values, iteration, None, "policy_iteration", tie_tolerance)
        policy = np.where(improve, greedy, policy)
    raise NotConverged(f"strategy iteration did not settle in {max_iterations} rounds")


def _game_value_iteration(
    model: Model, tolerance: float, max_sweeps: int, tie_tolerance: float
) -> Solution:
    """:func:`value_iteration` for a game of two players with opposite aims. Once a sweep
    changes nothing by more than ``tolerance``, each player's greedy policy is held against
    the other's best reply: the maximising player's guarantee is a lower bound on the
    game's value and the minimising player's an upper one, and the sweep stops when the
    values lie within ``tolerance`` of both."""
    _check_reachable(model)
    assert model.controller is not None
    live = ~model.terminal
    sign = np.broadcast_to(model.sign, (model.n_states,))
    pair_sign = model.pair_sign
    V = np.where(model.terminal, model.terminal_value, 0.0)
    P, gamma, starts = model.transitions, model.discount, model.pair_start[:-1][live]
    next_check = 0
    error = np.inf
    sweep = 0
    for sweep in range(1, max_sweeps + 1):
        q_min = pair_sign * (model.pair_cost + gamma * (P @ V))
        new = V.copy()
        new[live] = sign[live] * np.minimum.reduceat(q_min, starts)
        change = float(np.max(np.abs(new - V)))
        V = new
        if change <= tolerance and sweep >= next_check:
            greedy = _first_per_state(model, q_min <= (sign * V)[model.state_of_pair])
            bounds = []
            for player in (0, 1):
                guaranteed, _ = _best_reply(model, player, greedy, tie_tolerance)
                bounds.append(guaranteed)
            low, high = (bounds[0], bounds[1]) if model.maximizes[0] else (bounds[1], bounds[0])
            error = float(max(np.max(V - low), np.max(high - V)))
            if error <= tolerance:
                break
            next_check = sweep + max(16, sweep // 4)
    else:
        raise NotConverged(f"value iteration: error bound {error:.3g} after {max_sweeps} sweeps")
    return _finish(model, V, sweep, max(error, 0.0), "value_iteration", tie_tolerance)


def solve(model: Model, method: str = "policy_iteration", **options: float) -> Solution:
    if method == "policy_iteration":
        return policy_iteration(model, **options)  # type: ignore[arg-type]
    if method == "value_iteration":
        return value_iteration(model, **options)  # type: ignore[arg-type]
    raise ValueError(f"unknown method {method!r}")
