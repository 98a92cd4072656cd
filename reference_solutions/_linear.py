"""The linear solve behind every exact policy evaluation: ``x = rhs + discount * P x``.

``P`` is the chain of one policy (each row a distribution, or less where the row's mass
leaves for a terminal state). The matrix ``I - discount * P`` is then a nonsingular
M-matrix for a proper policy: Gaussian elimination needs no pivoting, in any order.

The chains the assignments give are long and thin. A jump board's moves go a few squares
forward and its chutes and ladders a few dozen squares either way, so numbered by square
the matrix is almost banded. Eliminated from the goal backwards without pivoting
(SuperLU with its ``NATURAL`` order on the reversed numbering), the factors of a
million-square board hold little more than the matrix itself, where SuperLU's default
column ordering spends twice the time for more fill. Entries far from the diagonal (a
board whose jumps cross it anywhere) would fill the factors in; they are left out of the
factorisation, which then preconditions BiCGSTAB on the whole matrix instead: its
iterations count the long jumps that matter, not the squares. Anything that does not
converge is solved again directly with SuperLU's defaults.

Figures and the choice of constants: ``benchmarks/bench_scale.py``.
"""

from __future__ import annotations

import warnings

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.linalg import lapack

__all__ = ["factor_chain", "factor_rows", "gathered", "solve_chain"]

# Up to this many unknowns a dense LU beats SuperLU's set-up (the standard board: 2x), past
# it the dense LU's cubic cost does not: a printed-like board's chain of 151 squares in 95
# against 103 microseconds, 201 in 175 against 155, 301 in 470 to 1,050 against 180
# (``benchmarks/bench_compare.py``'s boards, 2026-11-24).
DENSE_LIMIT = 180
# Entries at most this far from the diagonal are factorised; the rest are iterated on.
# A printed board's jumps are at most ~60 squares long, plus a move of up to 10.
NEAR = 128
# Up to this many unknowns every entry is factorised, far ones too: their fill-in costs less
# than the iterations would (jumps anywhere, 1,000 squares: classic 1.2 against 1.7 ms,
# boosted 5.4 against 7.7; at 5,000 squares the iterations win, 6.4 against 13.5 ms).
FACTOR_ALL = 2_000
# SuperLU's supernode relaxation and panel size: on these thin matrices small supernodes
# factorise about twice as fast as the defaults (relax 8, panel 12).
_RELAX, _PANEL = 2, 1
# The iteration stops when the residual is below this, relative to the right-hand side
# (2-norm). For a chain costing at least c per step, |x - x*| <= |r| max(x) / c, so the
# values are good to about this, relative, far below the 1e-9 the answer keys promise.
RESIDUAL = 1e-13
MAX_ITERATIONS = 500
# Past this share of the entries left out of the band, the chain's moves run far across its
# numbering in both directions at once: a game of two pieces, numbered pair of
# squares by pair of squares, where one piece's move goes a hundred states on. Every entry
# toward the goal end then joins the band in the factors (the moves up the board: a forward
# sweep's worth, little fill), and GMRES iterates on the rest (the chutes): 15 iterations on
# the standard board's two-piece game where the band alone took some 90 of BiCGSTAB, when it did not
# break down on a right-hand side that is 0 but at the goal. Chains of one piece leave out
# a tenth at most (jumps anywhere on a million squares).
FAR_SHARE = 0.2
_RESTART = 50


def solve_chain(
    P: sp.csr_array | sp.csr_matrix,
    rhs: np.ndarray,
    discount: float = 1.0,
    guess: np.ndarray | None = None,
) -> np.ndarray:
    """``x = rhs + discount * P x`` for a square ``P``; ``guess`` may start an iteration."""
    n = P.shape[0]
    rhs = np.asarray(rhs, dtype=float)
    if n == 0:
        return np.zeros(0)
    if n <= DENSE_LIMIT:
        # LAPACK's gesv straight: numpy's wrapper costs a sixth of a 101-square solve.
        _, _, x, info = lapack.dgesv(_dense_system(P, discount), rhs, overwrite_a=1)
        if info != 0:
            raise np.linalg.LinAlgError(f"singular chain (gesv: {info})")
        return x
    A = _reversed_system(sp.csr_array(P), discount)
    row = np.repeat(np.arange(n, dtype=A.indices.dtype), np.diff(A.indptr))
    gap = row - A.indices
    np.abs(gap, out=gap)
    near = gap <= NEAR
    del gap
    banded = n <= FACTOR_ALL or bool(near.all())
    if banded:  # the factors are most of the memory: nothing else is kept alongside
        del row, near
    b = rhs[::-1].copy()
    if not banded and near.mean() < 1.0 - FAR_SHARE:
        return _swept_and_iterated(A, b, row, near, guess, P, rhs, discount)
    try:
        lu = _factor(A if banded else _entries(A, row, near))
    except RuntimeError:  # singular where the far entries were left out
        return _direct(P, rhs, discount)
    if banded:
        x = lu.solve(b, trans="T")
    else:
        x0 = None if guess is None else np.asarray(guess, dtype=float)[::-1].copy()
        preconditioner = spla.LinearOperator(
            (n, n), matvec=lambda v: lu.solve(v, trans="T"), dtype=float
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a breakdown is handled below
            x, info = spla.bicgstab(
                A, b, x0=x0, M=preconditioner, rtol=RESIDUAL, atol=0.0, maxiter=MAX_ITERATIONS
            )
        del row, near
        if info != 0 or not np.all(np.isfinite(x)):
            return _direct(P, rhs, discount)
    return x[::-1].copy()


def _swept_and_iterated(
    A: sp.csr_array,
    b: np.ndarray,
    row: np.ndarray,
    near: np.ndarray,
    guess: np.ndarray | None,
    P: sp.csr_array | sp.csr_matrix,
    rhs: np.ndarray,
    discount: float,
) -> np.ndarray:
    """:func:`solve_chain` for a chain whose moves run far across its numbering (see
    ``FAR_SHARE``): the band and the entries toward the goal end factorised, GMRES on the
    whole; SuperLU's own way where it does not converge."""
    n = A.shape[0]
    try:
        lu = _factor(_entries(A, row, near | (A.indices <= row)))
    except RuntimeError:
        return _direct(P, rhs, discount)
    del row, near
    x0 = None if guess is None else np.asarray(guess, dtype=float)[::-1].copy()
    preconditioner = spla.LinearOperator(
        (n, n), matvec=lambda v: lu.solve(v, trans="T"), dtype=float
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x, info = spla.gmres(A, b, x0=x0, M=preconditioner, rtol=RESIDUAL, atol=0.0,
                             restart=_RESTART, maxiter=MAX_ITERATIONS // _RESTART)  # fmt: skip
    scale = float(np.linalg.norm(b)) or 1.0
    if info != 0 or not np.all(np.isfinite(x)) or np.linalg.norm(b - A @ x) > 10 * RESIDUAL * scale:
        return _direct(P, rhs, discount)
    return x[::-1].copy()


def _dense_system(P: sp.csr_array | sp.csr_matrix | np.ndarray, discount: float) -> np.ndarray:
    """``I - discount * P`` as a dense array. Entries are summed straight into it (a row may
    list one column twice): on the standard board that is a third of the time of
    ``P.toarray()`` and two more arrays."""
    n = P.shape[0]
    if isinstance(P, np.ndarray):
        A = -discount * np.asarray(P, dtype=float)
    else:
        rows = np.repeat(np.arange(n), np.diff(P.indptr))
        flat = np.bincount(rows * n + P.indices, weights=P.data, minlength=n * n)
        A = flat.reshape(n, n).astype(float, copy=False)  # empty: bincount gives ints
        A *= -discount
    A.flat[:: n + 1] += 1.0
    return A


def _reversed_system(P: sp.csr_array, discount: float) -> sp.csr_array:
    """``I - discount * P`` numbered backwards (the goal end of a board is eliminated
    first), built row by row: each row's diagonal first, then its entries."""
    n = P.shape[0]
    lengths = np.diff(P.indptr)[::-1]  # row s of the result is row n - 1 - s of P
    indptr = np.zeros(n + 1, dtype=P.indptr.dtype)
    np.cumsum(lengths + 1, out=indptr[1:])
    entries = np.ones(indptr[-1], dtype=bool)
    entries[indptr[:-1]] = False
    # Where each entry of the result comes from in P: row by row, backwards.
    source = np.repeat(P.indptr[-2::-1] - (indptr[:-1] - np.arange(n, dtype=indptr.dtype)),
                       lengths)  # fmt: skip
    source += np.arange(source.size, dtype=source.dtype)
    data = np.ones(indptr[-1])
    data[entries] = P.data[source]
    data[entries] *= -discount
    indices = np.arange(n, dtype=P.indices.dtype).repeat(lengths + 1)
    indices[entries] = (n - 1) - P.indices[source]
    del source, entries
    A = sp.csr_array((data, indices, indptr), shape=(n, n))
    A.sum_duplicates()  # a self-loop meets the diagonal; SuperLU wants each entry once
    return A


def rows_of(P: sp.csr_array, pairs: np.ndarray) -> sp.csr_array:
    """A matrix whose row ``s`` is row ``pairs[s]`` of ``P`` (empty where ``pairs[s] < 0``)."""
    pairs = np.asarray(pairs, dtype=np.int64)
    chosen = np.where(pairs >= 0, pairs, 0)
    starts = P.indptr[chosen]
    lengths = np.where(pairs >= 0, P.indptr[chosen + 1] - starts, 0)
    gather, indptr = gathered(starts, lengths, P.indptr.dtype)
    return sp.csr_array((P.data[gather], P.indices[gather], indptr), shape=(pairs.size, P.shape[1]))


def gathered(
    starts: np.ndarray, lengths: np.ndarray, dtype: npt.DTypeLike
) -> tuple[np.ndarray, np.ndarray]:
    """Where the entries of rows that start at ``starts`` and hold ``lengths`` entries lie,
    row after row, and the ``indptr`` (of ``dtype``) of those rows put end to end."""
    indptr = np.zeros(lengths.size + 1, dtype=dtype)
    np.cumsum(lengths, out=indptr[1:])
    gather = (starts - indptr[:-1]).astype(dtype, copy=False).repeat(lengths)
    gather += np.arange(int(indptr[-1]), dtype=gather.dtype)
    return gather, indptr


def _entries(A: sp.csr_array, row: np.ndarray, keep: np.ndarray) -> sp.csr_array:
    """``A`` with only the entries ``keep``."""
    indptr = np.concatenate(([0], np.cumsum(np.bincount(row[keep], minlength=A.shape[0]))))
    return sp.csr_array((A.data[keep], A.indices[keep], indptr), shape=A.shape)


def factor_chain(P: sp.csr_array) -> spla.SuperLU:
    """LU factors of ``I - P``, numbered backwards as :func:`solve_chain` numbers it, without
    pivoting: ``P`` must be the chain of a proper policy, or the factors may be anything
    (``RuntimeError`` where a pivot is exactly 0). ``(I - P) x = b`` is then
    ``lu.solve(b[::-1], trans="T")[::-1]``, for ``b`` of one column or several."""
    return _factor(_reversed_system(P, 1.0))


def factor_rows(data: np.ndarray, indices: np.ndarray, indptr: np.ndarray) -> spla.SuperLU:
    """LU factors, without pivoting, of the square matrix whose rows are given (numbered
    backwards already, as :func:`factor_chain` numbers ``I - P``; a row may list a column
    twice, the entries are summed). Solves go as with :func:`factor_chain`."""
    n = indptr.size - 1
    return _factor_transposed(sp.csc_array((data, indices, indptr), shape=(n, n)))


def _factor(A: sp.csr_array) -> spla.SuperLU:
    """LU of ``A`` in its own order, without pivoting."""
    return _factor_transposed(sp.csc_array((A.data, A.indices, A.indptr), shape=A.shape))


def _factor_transposed(transposed: sp.csc_array) -> spla.SuperLU:
    """LU of the matrix whose transpose is given, without pivoting. SuperLU takes columns:
    it is given the rows of ``A`` as the columns of its transpose, so nothing is converted,
    and the solves ask for the transpose back (``trans="T"``)."""
    return spla.splu(
        transposed,
        permc_spec="NATURAL",
        diag_pivot_thresh=0.0,
        relax=_RELAX,
        panel_size=_PANEL,
        options={"SymmetricMode": True},
    )


def _direct(P: sp.csr_array | sp.csr_matrix, rhs: np.ndarray, discount: float) -> np.ndarray:
    """SuperLU with its own ordering and pivoting: slower, but asks nothing of the matrix."""
    n = P.shape[0]
    A = sp.csc_array(sp.eye_array(n, format="csc") - discount * sp.csc_array(P))
    return np.asarray(spla.spsolve(A, rhs))
