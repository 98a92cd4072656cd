"""Policy iteration for a small model, on dense arrays.

A course's own board has 15 to a few hundred states. There a solve is a handful of
policies, each a dense linear solve of 33 microseconds on 100 states, and what the sparse
path spends around them (building sparse matrices, scipy's checks of them, one pass per
group of states with as many actions) costs more than the arithmetic. Here the model is one
``pairs x live states`` array, made once per solve; evaluating a policy is one gather and one
LU factorisation (or, for a policy that changed few states since the last factorisation, a
solve with that factorisation's LU factors and a small correction), the Q-values one
product, choosing among a state's actions one row-wise minimum over a table padded with
``inf``. The factorisation is LAPACK's ``gesv`` up to ``DENSE_LIMIT`` unknowns (or, from
``TRIANGLE_FROM`` unknowns, a triangle and a few columns where few states are reached
backwards: :class:`Triangle`); past it the dense LU's cubic cost overtakes SuperLU's set-up
(a board of 300 squares: 0.5 to 1 ms against 0.18), so SuperLU factors the system as
:mod:`._linear` does, from rows gathered out of :class:`PairRows`. Models of up to
``MID_STATES`` states (without a fold) come this way too, for the fewer policies the
solver's sweeps leave them (:func:`._solver._swept`).

Everything is signed for minimisation, as in :mod:`._solver`; the terminal states, whose
values are known, are folded into each pair's cost once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
import scipy.sparse.linalg as spla
from scipy.linalg import lapack

from ._linear import DENSE_LIMIT, FACTOR_ALL, factor_chain, factor_rows, gathered
from ._model import Model

try:
    # The kernel behind ``csr_array @ x``, without the checks and dispatch around it, which
    # cost more than the product on a course's board (efron's public board: 1.5 against
    # 3.5 microseconds a sweep). It trusts its caller with the sizes: :func:`_add_product`.
    from scipy.sparse._sparsetools import csr_matvec as _csr_matvec
except ImportError:  # a scipy that moved it: the public product
    _csr_matvec = None

__all__ = [
    "Chain",
    "DenseModel",
    "Factors",
    "Fold",
    "PairRows",
    "PolicyRows",
    "Triangle",
    "fits",
]

# Up to this many live states a model goes this way with every start of its own: the
# public boards of classic, aimed, efron and the trap lane, and boosted's (701 states) once
# its sure moves fold out of its solves (FOLD_MAX_STATES). Past it, up to ``MID_STATES``, a
# model without a fold goes this way too, but starts from :meth:`DenseModel.toward_goal`,
# since the lookahead's sweeps cost more there than they save.
MAX_STATES = 400
_EPS = float(np.finfo(float).eps)
# Values solved from another policy's factors are kept only when they solve their own system
# to within this, relative to the largest value (a factorisation's own rounding is about
# ``m`` eps, 1e-13 on 400 states): Woodbury's identity loses accuracy when the factored
# policy was close to improper, however well its successor is conditioned.
EXACT = 1e-12
# A policy that differs in at most this share of the states from one already factored is
# solved from those factors (:meth:`DenseModel.update`), on models of at least
# ``UPDATE_FROM`` live states. Measured on efron boards (µs, a factorisation against an
# update of k states): 100 states 45 against 27 (k = 1), 35 (10) and 45 (20); 200 states
# 175 against 44 (1), 88 (20) and 136 (40); 390 states 933 against 96 (1), 333 (39) and
# 684 (78); but 15 states 12 against 22, and 50 states 31 against 24 (1) and 28 (10).
FEW = 0.15
UPDATE_FROM = 64
# With SuperLU's factors (past ``DENSE_LIMIT`` unknowns), a factorisation grows about with
# the unknowns and an update with their number times the states changed: at most this many.
# Measured (µs, 2026-11-25, a fresh factorisation against an update of k states): efron on
# 300 squares 114 against 35 (k = 1), 67 (8), 108 (16); on 1,000 squares 340 against 76, 148,
# 261 and 378 (24); aimed on 1,000 squares 279 against 59, 168, 293; efron on 2,000 squares
# 490 against 83, 259, 465. Even near 16 states.
SPARSE_UPDATE_MOST = 12
# A larger model goes this way too when its sure moves fold out of each solve (:class:`Fold`)
# and leave at most ``MAX_STATES`` unknowns, as on boosted's public board (701 states, 100
# unknowns). Measured (ms, 2026-11-25, against the sparse path): boosted on 150 squares
# (1,051 states) 0.96 against 1.77 to 2.79, on 300 (2,101) 2.1 to 2.3 against 2.6, with jumps
# anywhere 0.93 to 1.07 against 1.7 and 2.3 to 2.4 against 3.2; token-boosted's public board
# (2,801) 5.0 against 5.3.
FOLD_MAX_STATES = 3_000
# Up to this many live states a model whose sure moves do not fold out (aimed, efron) goes
# this way with SuperLU's factors: its policies are fewer here (:func:`._solver._swept`) and
# each cheaper to set up (:class:`PairRows`). As far as the sparse path factorises every
# entry too: past it, jumps anywhere are iterated on there. Efron on 2,900 squares: 4
# policies in 6.8 to 8.6 ms against 9 in 12.7 to 13.8; classic on 1,000: 0.85 against 1.07 ms.
MID_STATES = FACTOR_ALL
# A system of at least ``TRIANGLE_FROM`` unknowns is solved as a triangle and a few columns
# (:class:`Triangle`) where at most this share of the states are reached backwards.
BACK_SHARE = 0.25
TRIANGLE_FROM = 64


def fits(model: Model) -> bool:
    """Whether :class:`DenseModel` may be the quicker way to solve ``model`` (a larger model
    only if :meth:`DenseModel.of` takes it)."""
    if model.n_pairs == 0 or model.controller is not None:  # (a game: see _solver)
        return False
    n = model.n_states
    return n <= max(MAX_STATES, MID_STATES) or (model.has_sure_moves and n <= FOLD_MAX_STATES)


@dataclass(frozen=True, eq=False)
class Fold:
    """The live states whose every pair is a sure move (one outcome, to another state: a
    boosted game's choice of move after the spin), left out of each policy's linear system.
    A state that moves into one moves on at once: its entry goes to where the folded state's
    chosen move leads, and the move's cost joins the right-hand side. One step suffices, since
    no folded state's move leads to another folded state.

    ``kept`` and ``moved`` are the live states that stay in the system and those folded
    (indices among the live states); ``is_moved`` marks the latter per live state, and
    ``place`` numbers the kept ones ``0..k-1`` (0 for a folded one, whose entries are always
    moved on, or weigh nothing).
    """

    kept: np.ndarray
    moved: np.ndarray
    is_moved: np.ndarray
    place: np.ndarray

    @classmethod
    def of(cls, model: Model, live: np.ndarray, is_moved: np.ndarray | None = None) -> Fold | None:
        """The fold of ``model``, or ``None`` when it leaves no unknowns or more than
        ``MAX_STATES``, or some folded state's move leads to a folded state. ``is_moved``:
        :func:`_sure_states`, if known."""
        if is_moved is None:
            is_moved = _sure_states(model, live)
        kept = np.flatnonzero(~is_moved)
        if not 0 < kept.size <= MAX_STATES:
            return None
        folded = np.zeros(model.n_states, dtype=bool)
        folded[live[is_moved]] = True
        if folded[model.sure_next[folded[model.state_of_pair]]].any():
            return None
        place = np.zeros(live.size, dtype=np.intp)
        place[kept] = np.arange(kept.size)
        return cls(kept=kept, moved=np.flatnonzero(is_moved), is_moved=is_moved, place=place)


def _sure_states(model: Model, live: np.ndarray) -> np.ndarray:
    """Per live state, whether its every pair is a sure move."""
    return np.logical_and.reduceat(model.sure_next >= 0, model.pair_start[live])


@dataclass(frozen=True, eq=False)
class Chain:
    """``P`` of one policy over ``m`` unknowns (the live states, or a fold's kept ones):
    row ``i`` holds the next ``lengths[i]`` entries, at ``column`` and of ``weight``."""

    lengths: np.ndarray
    column: np.ndarray
    weight: np.ndarray

    @property
    def m(self) -> int:
        return self.lengths.size

    def dense_system(self) -> np.ndarray:
        """``I - P``, dense."""
        m = self.m
        flat = np.arange(0, m * m, m).repeat(self.lengths)
        flat += self.column
        return _identity_minus(flat, self.weight, m)

    def triangle(self) -> Triangle | None:
        """:class:`Triangle` factors of ``I - P``, or ``None`` when more than a
        :data:`BACK_SHARE` of the states are reached backwards or ``I - P`` is singular."""
        m = self.m
        row = np.arange(m).repeat(self.lengths)
        backwards = self.column < row
        back = np.unique(self.column[backwards])
        k = back.size
        if k > BACK_SHARE * m:
            return None
        forwards = ~backwards
        # T column by column (Fortran order, as LAPACK reads it): entry (i, j) at j m + i.
        flat = self.column[forwards] * m
        flat += row[forwards]
        upper = _identity_minus(flat, self.weight[forwards], m).T
        # B's columns at ``back``, one row per state: entry (i, back[c]) at i k + c.
        spots = row[backwards] * k
        spots += np.searchsorted(back, self.column[backwards])
        lower = np.bincount(spots, weights=self.weight[backwards], minlength=m * k)
        lower = -lower.reshape(m, k)
        return Triangle.of(upper, back, lower)

    def sparse(self) -> sp.csr_array:
        """``P``, sparse."""
        indptr = np.zeros(self.m + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=indptr[1:])
        return sp.csr_array((self.weight, self.column, indptr), shape=(self.m, self.m))

    def factor(self) -> tuple[spla.SuperLU, Callable[[np.ndarray], np.ndarray]] | None:
        """SuperLU's factors of ``I - P`` (:func:`._linear.factor_chain`), and a function
        that multiplies by ``I - P`` made from ``P`` itself; ``None`` for a pivot exactly 0."""
        P = self.sparse()
        try:
            lu = factor_chain(P)
        except RuntimeError:
            return None
        return lu, lambda x: x - P @ x


@dataclass(frozen=True, eq=False)
class Triangle:
    """``I - P = T + B E^T`` and what solves it. Numbered along the board, a move forward
    leads to a later state, so ``T`` (the diagonal and every entry of a move forward) is
    upper triangular, and the entries of moves backward (a chute, a bounce off the goal)
    lie in the few columns ``back`` of the states they lead to: ``B`` is those columns
    (``m x k``) and ``E`` the same columns of the identity. By Woodbury's identity
    ``(I - P)^-1 c = y - Z (I + E^T Z)^-1 E^T y`` with ``y = T^-1 c`` and ``Z = T^-1 B``:
    a triangular solve for ``k + 1`` right-hand sides in place of an LU factorisation,
    ``m^2 (k + 1)`` operations against ``2 m^3 / 3`` (classic on 150 squares, 12 columns
    back: 30 against 130 microseconds).

    ``T`` is nonsingular when no state stays put for sure, and ``I + E^T Z`` whenever
    ``I - P`` is (``det (I - P) = det T det (I + E^T Z)``)."""

    upper: np.ndarray  # T, Fortran order
    back: np.ndarray
    lower: np.ndarray  # B
    spread: np.ndarray  # Z
    small: np.ndarray  # I + E^T Z in LU factors
    pivots: np.ndarray

    @classmethod
    def of(cls, upper: np.ndarray, back: np.ndarray, lower: np.ndarray) -> Triangle | None:
        spread, info = lapack.dtrtrs(upper, lower)
        if info != 0:
            return None
        capacitance = spread[back]
        capacitance.flat[:: back.size + 1] += 1.0
        small, pivots, info = lapack.dgetrf(capacitance, overwrite_a=1)
        if info != 0:
            return None
        return cls(upper, back, lower, spread, small, pivots)

    def solve(self, rhs: np.ndarray) -> np.ndarray | None:
        """``(I - P)^-1 rhs``, one right-hand side or several (columns)."""
        columns = rhs.reshape(rhs.shape[0], -1)
        y, info = lapack.dtrtrs(self.upper, columns)
        if info != 0:
            return None
        if self.back.size:
            correction, info = lapack.dgetrs(self.small, self.pivots, y[self.back])
            if info != 0:
                return None
            y -= self.spread @ correction
        return y.reshape(rhs.shape)

    def times(self, x: np.ndarray) -> np.ndarray:
        """``(I - P) x``."""
        return self.upper @ x + self.lower @ x[self.back]


@dataclass(frozen=True, eq=False)
class PairRows:
    """Every pair's row of ``I - P`` over the live states numbered backwards (live state
    ``i`` is ``m - 1 - i``, as :func:`._linear.factor_chain` numbers them): a 1 on the
    diagonal, then minus each outcome's weight (a self-loop's entry is summed with the 1 by
    SuperLU). A policy's system is then its pairs' rows gathered, with nothing to insert
    or renumber: on aimed's boards of 300 and 1,000 squares, 25 against 60 and 110
    microseconds a policy."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray

    @classmethod
    def of(cls, dense: DenseModel) -> PairRows:
        m = dense.live.size
        counts = np.diff(dense.model.pair_start)[dense.live]
        state = np.arange(m, dtype=np.intc).repeat(counts)  # each pair's live state
        indptr = np.zeros(state.size + 1, dtype=np.intc)
        np.cumsum(dense.n_outcomes + 1, out=indptr[1:])
        diagonal = indptr[:-1]
        entries = np.ones(int(indptr[-1]), dtype=bool)
        entries[diagonal] = False
        data = np.empty(entries.size)
        data[diagonal] = 1.0
        data[entries] = -dense.weight
        indices = np.empty(entries.size, dtype=np.intc)
        indices[diagonal] = (m - 1) - state
        indices[entries] = (m - 1) - dense.column
        return cls(indptr=indptr, indices=indices, data=data)


@dataclass(frozen=True, eq=False)
class PolicyRows:
    """``I - P`` of ``policy`` (a pair per live state) as rows of :class:`PairRows`, for
    SuperLU's factors; ``times`` gives ``P x`` for every pair."""

    rows: PairRows
    policy: np.ndarray
    times: Callable[[np.ndarray], np.ndarray]

    @property
    def m(self) -> int:
        return self.policy.size

    def factor(self) -> tuple[spla.SuperLU, Callable[[np.ndarray], np.ndarray]] | None:
        """As :meth:`Chain.factor`."""
        pairs = self.policy[::-1]
        starts = self.rows.indptr[pairs]
        gather, indptr = gathered(starts, self.rows.indptr[pairs + 1] - starts, np.intc)
        try:
            lu = factor_rows(self.rows.data[gather], self.rows.indices[gather], indptr)
        except RuntimeError:
            return None
        return lu, lambda x: x - self.times(x)[self.policy]


@dataclass(frozen=True, eq=False)
class Factors:
    """``I - P`` of ``policy`` factored: up to ``DENSE_LIMIT`` unknowns as a triangle and a
    few columns (``triangle``) where few states are reached backwards, else in LAPACK's LU
    factors (``lu`` and ``pivots``); past it in SuperLU's (``sparse``)."""

    policy: np.ndarray
    lu: np.ndarray | None = None
    pivots: np.ndarray | None = None
    sparse: spla.SuperLU | None = None
    triangle: Triangle | None = None

    def solve(self, rhs: np.ndarray) -> np.ndarray | None:
        """``(I - P)^-1 rhs`` for one right-hand side or several (columns), or ``None`` if
        LAPACK finds the factors singular. ``rhs`` may be overwritten."""
        if self.sparse is not None:
            return self.sparse.solve(rhs[::-1], trans="T")[::-1]
        if self.triangle is not None:
            return self.triangle.solve(rhs)
        solved, info = lapack.dgetrs(self.lu, self.pivots, rhs, overwrite_b=1)
        return solved if info == 0 else None

    @classmethod
    def of(
        cls, policy: np.ndarray, chain: Chain | PolicyRows, rhs: np.ndarray, keep: bool = False
    ) -> tuple[Factors, np.ndarray, Callable[[np.ndarray], np.ndarray]] | None:
        """The factors of ``chain``, ``(I - P)^-1 rhs``, and a function that multiplies by
        ``I - P``, to check a solution with; ``None`` when the factorisation finds the
        system singular. ``keep``: that function is wanted (else LAPACK factors the dense
        system in place)."""
        if isinstance(chain, Chain) and chain.m <= DENSE_LIMIT:
            if chain.m >= TRIANGLE_FROM and (triangle := chain.triangle()) is not None:
                x = triangle.solve(rhs)
                return None if x is None else (cls(policy, triangle=triangle), x, triangle.times)
            system = chain.dense_system()
            lu, pivots, x, info = lapack.dgesv(system, rhs, overwrite_a=not keep)
            if info != 0:
                return None
            return cls(policy, lu=lu, pivots=pivots), x, system.__matmul__
        made = chain.factor()
        if made is None:
            return None
        sparse, times = made
        return cls(policy, sparse=sparse), sparse.solve(rhs[::-1], trans="T")[::-1], times


@dataclass(frozen=True, eq=False)
class DenseModel:
    """A model's arrays over its live (non-terminal) states, numbered ``0..m-1`` in order.

    ``cost[p]`` is pair ``p``'s signed cost, plus what its moves into terminal states are
    worth, and ``cost[n_pairs]`` is ``inf``; ``n_outcomes[p]`` how many outcomes it has;
    ``owner[e]``, ``column[e]`` and ``weight[e]`` are the pair of the model's outcome ``e``,
    where it leads among the live states and its probability times the discount (0 when it
    leads to a terminal state); ``table[i]`` the pairs of live state ``i``, padded with
    ``n_pairs`` (whose Q-value is ``inf``), and ``row_start[i]`` where row ``i`` of the
    table starts in its flat layout. ``fold``: the states left out of each solve, if any.
    ``P`` (the pairs' rows over the live states) is ``weight`` and ``column`` by the
    transitions' ``indptr``.
    """

    model: Model
    live: np.ndarray
    cost: np.ndarray
    n_outcomes: np.ndarray
    owner: np.ndarray
    column: np.ndarray
    weight: np.ndarray
    table: np.ndarray
    row_start: np.ndarray
    fold: Fold | None = None
    pair_rows: PairRows | None = field(default=None, init=False, repr=False)  # made when needed
    matrix: sp.csr_array | None = field(default=None, init=False, repr=False)  # likewise
    flat_table: np.ndarray = field(init=False, repr=False)
    indptr: np.ndarray = field(init=False, repr=False)
    single: bool = field(init=False)  # every live state has one pair (as in classic)
    # Every live state has as many pairs (aimed; efron away from the goal): the table, no
    # longer padded, is ``0..n_pairs-1`` (pairs are numbered state after state, and a
    # terminal state has none), and the Q-values need no gathering into it.
    regular: bool = field(init=False)

    def __post_init__(self) -> None:
        # Fields, not properties: read a few dozen times a solve.
        object.__setattr__(self, "flat_table", self.table.ravel())
        # Of the columns' type, so that the product (:meth:`q_values`) converts neither.
        indptr = self.model.transitions.indptr.astype(self.column.dtype, copy=False)
        object.__setattr__(self, "indptr", indptr)
        object.__setattr__(self, "single", self.table.shape[1] == 1)
        object.__setattr__(self, "regular", self.table.size == self.cost.size - 1)

    @classmethod
    def of(cls, model: Model) -> DenseModel | None:
        """The arrays of ``model``; ``None`` when it is larger than ``MAX_STATES`` and does
        not fold to as few unknowns (:class:`Fold`), unless it has at most ``MID_STATES``
        and most of its states choose among more than sure moves (which the sparse path
        folds out of its solves, as on token-boosted's public board)."""
        T = model.transitions
        terminal = model.terminal
        live = np.flatnonzero(~terminal)
        fold = None
        if live.size > MAX_STATES:
            sure = _sure_states(model, live) if model.has_sure_moves else None
            if sure is not None and live.size <= FOLD_MAX_STATES:
                fold = Fold.of(model, live, sure)
            mostly_sure = sure is not None and sure.mean() >= 0.5
            if fold is None and (live.size > MID_STATES or mostly_sure):
                return None
        n_pairs = model.n_pairs
        n_outcomes = T.indptr[1:] - T.indptr[:-1]
        owner = np.repeat(np.arange(n_pairs), n_outcomes)
        paid = T.data * model.outcome_cost
        if model.terminal_value.any():  # (0 on every live state)
            # A move into a terminal state brings that state's value along.
            paid += model.discount * T.data * model.terminal_value[T.indices]
        cost = np.bincount(owner, weights=paid, minlength=n_pairs + 1)
        if model.maximize:
            np.negative(cost, out=cost)
        cost[n_pairs] = np.inf
        # Gathers by the outcomes' states, converted once (each gather would convert them).
        to = T.indices.astype(np.intp)
        weight = np.where(terminal[to], 0.0, T.data)
        if model.discount != 1.0:
            weight *= model.discount
        local = np.zeros(model.n_states, dtype=np.intp)
        local[live] = np.arange(live.size)
        first = model.pair_start[live]
        counts = model.pair_start[live + 1] - first
        widest = int(counts.max(initial=1))
        if counts.min(initial=1) == widest:  # (no pairs for a terminal state: they are all)
            table = np.arange(n_pairs).reshape(live.size, widest)
        else:
            reach = np.arange(widest)
            table = first[:, None] + reach
            np.copyto(table, n_pairs, where=reach >= counts[:, None])
        column = local[to]
        return cls(model=model, live=live, cost=cost, n_outcomes=n_outcomes, owner=owner,
                   column=column, weight=weight, table=table,
                   row_start=np.arange(0, table.size, table.shape[1]), fold=fold)  # fmt: skip

    def evaluate(
        self, policy: np.ndarray, near: Factors | None = None
    ) -> tuple[np.ndarray, Factors]:
        """The live states' values under ``policy`` (a pair per live state), which must be
        proper: ``I - P`` is then a nonsingular M-matrix. With ``near``, the factors of a
        policy that differs from ``policy`` in few states, those states alone are solved
        for (:meth:`update`); the factors returned are those the values came from."""
        if near is not None:
            values = self.update(policy, near)
            if values is not None:
                return values, near
        chain, rhs = self._chain(policy)
        made = Factors.of(policy, chain, rhs)
        if made is None:
            raise np.linalg.LinAlgError("singular chain: the policy is not proper")
        factors, values, _ = made
        return self._unfold(policy, values), factors

    def evaluate_if_proper(self, policy: np.ndarray) -> tuple[np.ndarray, Factors] | None:
        """:meth:`evaluate` for a policy not known to be proper, or ``None`` when its solve
        does not prove it proper.

        The same solve also finds ``x = (I - P)^-1 1``, the expected number of moves before
        the policy ends (with a fold, of visits to the kept states). If ``x > 0`` and
        ``(I - P) x > 0`` hold beyond any rounding, the Z-matrix ``I - P`` is a nonsingular
        M-matrix, so ``P^k -> 0``: from every state the policy ends in a terminal state with
        probability 1 (Berman and Plemmons, *Nonnegative Matrices in the Mathematical
        Sciences*, 6.2.3, condition I27). The proof needs ``P`` undiscounted: a discounted
        model proves nothing here. How ``x`` was found does not matter to the proof (a
        sparse LU without pivoting of an improper policy's system may give anything): only
        the check of ``(I - P) x``, made here from ``P`` itself, does.
        """
        if self.model.discount != 1.0:
            return None
        chain, cost = self._chain(policy)
        m = cost.size
        rhs = np.ones((m, 2), order="F")
        rhs[:, 0] = cost
        made = Factors.of(policy, chain, rhs, keep=True)
        if made is None:
            return None
        factors, both, minus = made
        moves = both[:, 1]
        # (NaN fails every comparison, and an infinite x makes the slack below infinite.)
        if not (moves > 0).all():
            return None
        # Each row of P sums to at most 1, so |I - P| x <= 2 max(x) row by row, and the
        # product below is off by at most (m + 2) eps times that.
        slack = 2.0 * (m + 2) * _EPS * float(moves.max())
        product = minus(moves)
        if not (product > slack).all():
            return None
        return self._unfold(policy, both[:, 0]), factors

    @staticmethod
    def solves(current: np.ndarray, values: np.ndarray) -> bool:
        """Whether ``values`` solve a policy's system to within :data:`EXACT`, given
        ``current``, the Q-values of the policy's own pairs (the residual is their
        difference)."""
        residual = np.abs(current - values).max()
        return bool(residual <= EXACT * max(1.0, np.abs(values).max()))

    def update(self, policy: np.ndarray, near: Factors) -> np.ndarray | None:
        """:meth:`evaluate` from the factors of a policy that differs from ``policy`` in at
        most a :data:`FEW` share of the states, or ``None`` if it differs in more (or the
        model is smaller than :data:`UPDATE_FROM`).

        The policies' systems differ in the rows of the ``k`` states that changed:
        ``A' = A + E R`` with ``E`` those ``k`` columns of the identity and ``R`` the old
        rows of ``P`` minus the new ones. By Woodbury's identity
        ``A'^-1 c = y - Z (I + R Z)^-1 R y`` with ``y = A^-1 c`` and ``Z = A^-1 E``: one
        solve with ``A``'s factors for ``k + 1`` right-hand sides and a ``k x k`` one, in
        place of factoring ``A'``.
        ``I + R Z`` is nonsingular when ``A'`` is, since ``det A' = det A det(I + R Z)``.
        """
        m = policy.size
        if m < UPDATE_FROM or self.fold is not None:
            return None
        changed = np.flatnonzero(policy != near.policy)
        k = changed.size
        if k > FEW * m or (near.sparse is not None and k > SPARSE_UPDATE_MOST):
            return None
        rhs = np.zeros((m, k + 1), order="F")
        rhs[:, 0] = self.cost[policy]
        rhs[changed, np.arange(1, k + 1)] = 1.0
        solved = near.solve(rhs)
        if solved is None:
            return None
        if k == 0:
            return solved[:, 0]
        difference = self._rows(np.concatenate((near.policy[changed], policy[changed])), k)
        both = difference @ solved  # [R y, R Z]
        capacitance = both[:, 1:]
        capacitance.flat[:: k + 1] += 1.0
        _, _, small, info = lapack.dgesv(capacitance, both[:, 0], overwrite_a=1, overwrite_b=1)
        if info != 0:
            return None
        # Not checked here: the solver checks the residual of values made this way.
        return solved[:, 0] - solved[:, 1:] @ small

    def _rows(self, pairs: np.ndarray, k: int) -> np.ndarray:
        """A ``k x m`` array: the rows of ``P`` of the first ``k`` of ``pairs`` minus those of
        the next ``k``, over the live states."""
        m = self.live.size
        outcomes, lengths, ends = self._outcomes(pairs)
        flat = (np.arange(2 * k) % k * m).repeat(lengths)
        flat += self.column[outcomes]
        weight = self.weight[outcomes]
        weight[int(ends[k - 1]) :] *= -1.0
        return np.bincount(flat, weights=weight, minlength=k * m).reshape(k, m)

    def _outcomes(self, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The outcomes of ``pairs``, pair after pair; how many each pair has; and where
        each pair ends in that list."""
        first = self.model.transitions.indptr[pairs]
        lengths = self.n_outcomes[pairs]
        ends = lengths.cumsum()
        outcomes = (first - (ends - lengths)).repeat(lengths)
        outcomes += np.arange(int(ends[-1]))
        return outcomes, lengths, ends

    def _chain(self, policy: np.ndarray) -> tuple[Chain | PolicyRows, np.ndarray]:
        """``P`` of ``policy`` and its right-hand side, over the live states or, with a
        fold, over the kept ones."""
        if self.fold is None and policy.size > DENSE_LIMIT:
            if self.pair_rows is None:
                object.__setattr__(self, "pair_rows", PairRows.of(self))
            assert self.pair_rows is not None
            return PolicyRows(self.pair_rows, policy, self.times), self.cost[policy]
        if self.fold is None:
            if self.single:  # the one policy there is: every outcome, in order
                return Chain(self.n_outcomes, self.column, self.weight), self.cost[policy]
            outcomes, lengths, _ = self._outcomes(policy)
            return Chain(lengths, self.column[outcomes], self.weight[outcomes]), self.cost[policy]
        kept, place = self.fold.kept, self.fold.place
        k = kept.size
        pairs = policy[kept]
        outcomes, lengths, _ = self._outcomes(pairs)
        column = self.column[outcomes]
        weight = self.weight[outcomes]
        rhs = self.cost[pairs]
        hit = np.flatnonzero(self.fold.is_moved[column])
        through = policy[column[hit]]  # the move each folded state chose
        once = self.model.transitions.indptr[through]  # and its one outcome
        row = np.arange(k).repeat(lengths)
        rhs += np.bincount(row[hit], weights=weight[hit] * self.cost[through], minlength=k)
        column[hit] = self.column[once]
        weight[hit] *= self.weight[once]
        return Chain(lengths, place[column], weight), rhs

    def _unfold(self, policy: np.ndarray, solved: np.ndarray) -> np.ndarray:
        """The live states' values from the solution of :meth:`_chain`."""
        if self.fold is None:
            return solved
        values = np.zeros(policy.size)
        values[self.fold.kept] = solved
        through = policy[self.fold.moved]
        once = self.model.transitions.indptr[through]
        values[self.fold.moved] = self.cost[through] + self.weight[once] * values[self.column[once]]
        return values

    def toward_goal(self) -> np.ndarray | None:
        """A proper policy: each live state's first pair that can step to its parent in a
        breadth-first tree grown from the goal over the moves reversed (a state one move
        closer), so from every state the goal is reached within ``m`` moves with positive
        probability. ``-1`` where no route leads to the goal; ``None`` for a model with
        more than one terminal state (:func:`._solver.proper_policy` serves it).

        A tenth of the cost of finding every distance first, where the graph search's
        reversal is a sort of the moves: here it is one conversion to columns."""
        model = self.model
        goals = np.flatnonzero(model.terminal)
        if goals.size != 1:
            return None
        T = model.transitions
        n = model.n_states
        graph = sp.csr_array((np.ones(T.nnz), T.indices, T.indptr[model.pair_start]), shape=(n, n))
        backwards = graph.T.tocsr()  # row t: the states with a move to t
        _, parent = csgraph.breadth_first_order(
            backwards, int(goals[0]), directed=True, return_predecessors=True
        )
        # An outcome of a pair of state s that lands on s's parent (-9999 where s has none).
        towards = T.indices == parent[model.state_of_pair].repeat(self.n_outcomes)
        can = np.zeros(self.cost.size, dtype=bool)  # and False for the table's padding
        can[self.owner[towards]] = True
        options = can[self.table]
        first = options.argmax(axis=1)
        first += self.row_start
        return np.where(options.any(axis=1), self.flat_table[first], -1)

    def lookahead(self, most: int) -> np.ndarray:
        """The greedy policy of value iteration from 0, swept until a sweep leaves that
        policy as it was (or ``most`` sweeps): a start for policy iteration that is near
        the optimum, where each state's first pair needs more policies, or is not proper
        (efron's blue die runs into a chute and back)."""
        # The first sweep's policy only looks one move ahead (on a board where each move
        # costs a turn, every pair is alike and it is the first pairs): it is compared
        # from the second sweep on.
        values, policy = self.greedy(self.cost)  # the Q-values of values 0
        for _ in range(most - 1):
            values, greedy = self.greedy(self.q_values(values))
            if greedy.tobytes() == policy.tobytes():  # a tenth of ``array_equal``'s 1.2 µs
                break
            policy = greedy
        return policy

    def times(self, values: np.ndarray) -> np.ndarray:
        """``P x`` for every pair (no padding)."""
        product = np.zeros(self.cost.size - 1)
        self._add_product(values, product)
        return product

    def q_values(self, values: np.ndarray) -> np.ndarray:
        """Signed Q-values of every pair, and one ``inf`` after them for the table's padding."""
        q = self.cost.copy()
        self._add_product(values, q)
        return q

    def _add_product(self, values: np.ndarray, out: np.ndarray) -> None:
        """``out[:n_pairs] += P values``."""
        rows, m = self.cost.size - 1, self.live.size
        # The kernel reads and writes as many entries as it is told, and writes into a copy
        # of an ``out`` of another type: both are checked here, where a mistake would be
        # memory out of bounds or a product lost.
        if values.shape != (m,) or out.shape[0] < rows or out.dtype != np.float64:
            raise ValueError(f"P x: {values.shape} values into {out.shape} {out.dtype} sums; "
                             f"P is {rows} x {m}")  # fmt: skip
        if _csr_matvec is not None and out.flags.c_contiguous:
            _csr_matvec(rows, m, self.indptr, self.column, self.weight, values, out)
            return
        if self.matrix is None:
            matrix = sp.csr_array((self.weight, self.column, self.indptr), shape=(rows, m))
            object.__setattr__(self, "matrix", matrix)
        assert self.matrix is not None
        out[:rows] += self.matrix @ values

    def greedy(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per live state, the smallest Q-value and the first pair that has it."""
        if self.single:
            pairs = self.table[:, 0]
            return q[pairs], pairs
        if self.regular:
            pairs = q[:-1].reshape(self.table.shape).argmin(axis=1)
            pairs += self.row_start
            return q[pairs], pairs
        options = q[self.table]
        # Flat indices: a third of the time of indexing by rows and columns.
        flat = options.argmin(axis=1)
        flat += self.row_start
        return options.ravel()[flat], self.flat_table[flat]

    def within(self, q: np.ndarray, bound: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per pair, whether its Q-value is at most its state's ``bound``; and per live
        state the first such pair (as :func:`._solver._choices` gives them)."""
        if self.single:
            return np.ones(q.size - 1, dtype=bool), self.table[:, 0]
        inside = q[self.table] <= bound[:, None]
        hits = np.zeros(q.size, dtype=bool)
        hits[self.table[inside]] = True
        first = inside.argmax(axis=1)
        first += self.row_start
        return hits[:-1], self.flat_table[first]


def _identity_minus(flat: np.ndarray, weight: np.ndarray, m: int) -> np.ndarray:
    """``I - P`` (``m x m``), where ``P`` sums ``weight`` at the flat indices ``flat``."""
    system = np.bincount(flat, weights=weight, minlength=m * m).astype(float, copy=False)
    np.negative(system, out=system)
    system[:: m + 1] += 1.0
    return system.reshape(m, m)
