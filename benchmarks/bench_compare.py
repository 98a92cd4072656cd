"""Our solver side by side with what a course would otherwise use.

Run from the repository root (pymdptoolbox comes with the bench extra):
    pip install -e '.[bench]'
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_compare.py [--quick] [--runs 5]
        [--families classic,boosted,...] [--sizes 1000,10000] [--cap 60] [--budget 150]

The competitors, each solving the same model to about 1e-9 (docs/benchmarks.md):

- ours: ``reference_solutions.solve(model)`` (policy iteration, each policy evaluated
  exactly by a linear solve; up to 4,096 states by the compiled kernel), on a fresh copy
  of the model each call, made before the clock starts: nothing a model caches (its
  per-pair tables) carries over from one call to the next.
- numpy path: the same without the compiled kernel (the solver where no C compiler was
  found at install), on fresh copies likewise: what the kernel gains.
- loop: a plain pure-Python value iteration, as a course's own code is written: a list of
  states, each a dict of actions, each a list of ``(probability, next state, cost)``; sweep
  the states in order, updating in place, until the largest change is below 1e-9.
- mdptoolbox VI / PI: pymdptoolbox's ``mdp.ValueIteration`` (discount 1, epsilon 1e-9) and
  ``mdp.PolicyIteration`` (discount 1 - 1e-12: with discount 1 its linear solve is
  singular), on the model converted to its input (``P[a]`` S x S sparse, ``R`` S x A).

Boards: the public board of every assignment, then random jump boards of each family in
``FAMILIES`` (every game and kind of jumps of the issue on speed at scale, and efron's game),
each at its own sizes or at ``--sizes`` squares. Only the solve is timed (every competitor
starts from the same model, already converted to its own input); pymdptoolbox's time
includes its constructor, which checks the input and computes the rewards, as a caller
pays it.

Our values are checked against the rules' own equations (the residual printed, the largest
``|min_a Q(s, a) - V(s)|``, not timed), and every competitor's values are compared with
ours (largest difference relative to max(1, |ours|), over every state); the exit status is
1 if any differs by more than 1e-6.
Timing: a first run of each competitor (also the check and the warm-up), then ``--runs``
rounds in which every competitor runs once, in an order that rotates from round to round;
a fast competitor repeats its call within a round so that a measurement lasts about 50 ms.
A slow one gets fewer rounds, so that its rounds last at most ``--budget`` seconds. A
competitor is skipped on a board where it would take more than ``--cap`` seconds: the
loop and value iteration give up when their first run passes the cap; a size whose time,
extrapolated from the previous size, is more than ten times the cap is not tried, nor is
pymdptoolbox's policy iteration where its dense S x S matrices would not fit in memory.
Figures are medians; they depend on the machine, so quote them with it.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from unittest import mock

import numpy as np
import scipy
import scipy.sparse as sp
from _boards import random_board  # benchmarks/_boards.py, beside this script
from _load import load_line
from _machine import machine

from reference_solutions import _solver as solver_module
from reference_solutions import make_problem, q_values, solve
from reference_solutions.rules import aimed, boosted, classic, efron, token_boosted

try:
    import mdptoolbox.mdp as toolbox_mdp
    import mdptoolbox.util as toolbox_util
except ImportError:  # the bench extra is not installed: the loop alone is compared
    toolbox_mdp = toolbox_util = None

ASSIGNMENTS = ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane")


@dataclass(frozen=True)
class Family:
    """Random boards of one game: its rules, their parameters, the kind of jumps
    (``benchmarks/_boards.py``) and the board sizes (squares) it is compared on."""

    rules: object
    params: object
    jumps: str
    sizes: tuple[int, ...]

    def model(self, goal: int):
        return self.rules.build(random_board(goal, self.jumps), self.params).model


# Every game and kind of board of the issue on speed at scale (docs/benchmarks.md), and
# efron's game on the same boards. Token-boosted with 10 tokens has 77 states per square.
FAMILIES = {
    "classic": Family(classic, classic.Params(), "like", (1000, 10_000, 100_000)),
    "boosted": Family(boosted, boosted.Params(), "like", (1000, 10_000, 100_000)),
    "classic anywhere": Family(classic, classic.Params(), "anywhere", (1000, 10_000, 100_000)),
    "boosted anywhere": Family(boosted, boosted.Params(), "anywhere", (1000, 10_000, 100_000)),
    "token-boosted 10": Family(token_boosted, token_boosted.Params(tokens=10), "like",
                               (100, 1000, 10_000, 100_000)),
    "aimed": Family(aimed, aimed.Params(), "like", (1000, 10_000, 100_000)),
    "efron": Family(efron, efron.Params(), "like", (1000, 10_000, 100_000)),
}  # fmt: skip
QUICK = {name: (300,) for name in FAMILIES} | {"token-boosted 10": (100,)}
TOLERANCE = 1e-9  # the loop's and pymdptoolbox's stopping tolerance
AGREE = 1e-6  # largest accepted difference, relative to max(1, |ours|)
PI_DISCOUNT = 1 - 1e-12  # pymdptoolbox's policy iteration cannot take 1 (see the docstring)
PI_MAX_ITER = 20  # it settles within 5 wherever it settles at all
DENSE_BYTES = 12 * 2**30  # its dense matrices: about three S x S float arrays at once
SCALING = {"loop": 2.0, "mdptoolbox VI": 2.0, "mdptoolbox PI": 3.0}  # time ~ states ** x
MEASURE_S = 0.05  # a fast competitor repeats its call so that one measurement lasts this long


@contextlib.contextmanager
def numpy_solver():
    """The solver without its compiled kernel, as where no C compiler was found."""
    with mock.patch.object(solver_module, "_compiled", None):
        yield


class TooSlow(Exception):
    """A first run went past the time cap."""


# -- the plain loop ----------------------------------------------------------------------


def course_tables(model) -> tuple[list[dict[str, list[tuple[float, int, float]]]], list[float]]:
    """The model as a course's code holds it: per state, a dict from action name to its
    outcomes ``(probability, next state, cost)``; and the starting values (the terminal
    states' values, 0 elsewhere)."""
    P = model.transitions
    probs, nexts, costs = P.data.tolist(), P.indices.tolist(), model.outcome_cost.tolist()
    bounds, actions = P.indptr.tolist(), model.action_of_pair.tolist()
    starts = model.pair_start.tolist()
    states = []
    for s in range(model.n_states):
        table = {}
        for pair in range(starts[s], starts[s + 1]):
            lo, hi = bounds[pair], bounds[pair + 1]
            outcomes = list(zip(probs[lo:hi], nexts[lo:hi], costs[lo:hi], strict=True))
            table[model.action_names[actions[pair]]] = outcomes
        states.append(table)
    return states, model.terminal_value.tolist()


def plain_value_iteration(states, start_values, discount=1.0, tolerance=TOLERANCE,
                          minimise=True, deadline=math.inf):  # fmt: skip
    """Value iteration as a course writes it (Sutton and Barto's in-place sweep)."""
    V = list(start_values)
    sweeps = 0
    while True:
        sweeps += 1
        change = 0.0
        for s, actions in enumerate(states):
            if not actions:  # the goal: its value never changes
                continue
            best = None
            for outcomes in actions.values():
                q = 0.0
                for p, t, c in outcomes:
                    q += p * (c + discount * V[t])
                if best is None or (q < best if minimise else q > best):
                    best = q
            change = max(change, abs(best - V[s]))
            V[s] = best
        if change < tolerance:
            return V, sweeps
        if time.perf_counter() > deadline:
            raise TooSlow(f"gave up after {sweeps} sweeps (change {change:.1e})")


# -- pymdptoolbox ------------------------------------------------------------------------


def _is_stochastic(matrix) -> bool:
    """``util.isStochastic`` as it means it: for a sparse matrix, ``matrix.sum(axis=1)`` is
    an S x 1 ``np.matrix``, and the original subtracts a length-S array from it, which
    broadcasts to an S x S dense array (36.5 GiB at 70,001 states)."""
    sums = np.asarray(matrix.sum(axis=1)).ravel()
    return bool(np.abs(sums - 1.0).max() <= 10 * np.spacing(np.float64(1)))


def _is_non_negative(matrix) -> bool:
    """``util.isNonNegative`` without ``matrix >= 0``, which on a sparse matrix builds a
    sparse matrix of S x S True values (scipy warns: SparseEfficiencyWarning)."""
    data = matrix.data if sp.issparse(matrix) else np.asarray(matrix)
    return bool((data >= 0).all())


PATCHES = (
    "util.isStochastic: the row sums of a sparse matrix are flattened before 1 is "
    "subtracted (the original broadcasts S x 1 against S into an S x S array)",
    "util.isNonNegative: a sparse matrix's stored values are tested, not `matrix >= 0` "
    "(an S x S sparse matrix of True)",
)


def patch_toolbox() -> None:
    """Replace pymdptoolbox's two input checks that are quadratic in the number of states
    on sparse input (same tests, same tolerance); its algorithms are left as they are."""
    toolbox_util.isStochastic = _is_stochastic
    toolbox_util.isNonNegative = _is_non_negative


def toolbox_input(model) -> tuple[list[sp.csr_matrix], np.ndarray]:
    """``P[a]`` (S x S, ``scipy.sparse.csr_matrix``: the toolbox uses the matrix API) and
    ``R`` (S x A) for pymdptoolbox, which maximises reward and needs every action in every
    state. Rewards are costs negated. An action a state does not have is a copy of the
    state's first action, which can never beat the best real one; a terminal state loops
    to itself at reward 0 under every action, and its value (0 on every board here) is
    paid on the way in: folded into the rewards of the moves that reach it."""
    S, A = model.n_states, len(model.action_names)
    live = np.flatnonzero(~model.terminal)
    goal = np.flatnonzero(model.terminal)
    table = np.repeat(model.pair_start[:-1, None], A, axis=1)
    table[model.state_of_pair, model.action_of_pair] = np.arange(model.n_pairs)
    sign = 1.0 if model.maximize else -1.0
    P, R = [], np.zeros((S, A))
    for a in range(A):
        pairs = table[live, a]
        rows = model.transitions[pairs].tocoo()
        r = np.concatenate((live[rows.row], goal))
        c = np.concatenate((rows.col, goal))
        d = np.concatenate((rows.data, np.ones(goal.size)))
        P.append(sp.csr_matrix((d, (r, c)), shape=(S, S)))  # repeated entries are summed
        paid = model.discount * (P[a] @ model.terminal_value)
        R[live, a] = sign * (model.pair_cost[pairs] + paid[live])
    return P, R


def from_toolbox(model, V) -> np.ndarray:
    values = np.asarray(V, dtype=float) * (1.0 if model.maximize else -1.0)
    return np.where(model.terminal, model.terminal_value, values)


def toolbox_vi(model, P, R, deadline=math.inf):
    """``mdp.ValueIteration``; with a deadline, run 1,000 sweeps at a time, so a first run
    can give up at the cap (the timed runs call ``run()`` once)."""
    with contextlib.redirect_stdout(io.StringIO()):  # its warning about discount 1
        sweeps = 10**9 if deadline == math.inf else 1000
        vi = toolbox_mdp.ValueIteration(P, R, model.discount, epsilon=TOLERANCE, max_iter=sweeps)
    vi.run()
    while deadline != math.inf and vi.iter == vi.max_iter:
        if time.perf_counter() > deadline:
            raise TooSlow(f"gave up after {vi.iter} sweeps")
        vi.V, vi.max_iter = np.array(vi.V), vi.max_iter + 1000
        vi.run()
    return from_toolbox(model, vi.V), f"{vi.iter} sweeps"


def toolbox_pi(model, P, R):
    discount = model.discount if model.discount < 1 else PI_DISCOUNT
    with contextlib.redirect_stdout(io.StringIO()):
        pi = toolbox_mdp.PolicyIteration(P, R, discount, max_iter=PI_MAX_ITER)
    pi.run()
    note = f"{pi.iter} iterations"
    if pi.iter >= PI_MAX_ITER:  # still changing its policy: see docs/benchmarks.md
        note = f"did not settle in {PI_MAX_ITER} iterations"
    return from_toolbox(model, pi.V), note


# -- boards and measuring ----------------------------------------------------------------


@dataclass
class Cell:
    """One competitor on one board."""

    name: str
    times: list[float] = field(default_factory=list)
    note: str = ""  # sweeps or iterations
    skipped: str = ""  # why it was not measured
    difference: float = math.nan
    settled: bool = True

    @property
    def median(self) -> float:
        return statistics.median(self.times) if self.times else math.nan


def difference(values: np.ndarray, ours: np.ndarray) -> float:
    return float(np.max(np.abs(np.asarray(values) - ours) / np.maximum(1.0, np.abs(ours))))


def measure(label: str, model, runs: int, cap: float, budget: float,
            previous: dict[str, tuple[int, float]]) -> dict[str, Cell]:  # fmt: skip
    """Run every competitor on ``model``; ``previous``: per competitor, (states, median s)
    on the last board of this family, for the extrapolation (updated here)."""
    n = model.n_states
    calls: dict[str, Callable[..., object]] = {}
    first: dict[str, Callable[[], tuple[np.ndarray, str]]] = {}
    # Per competitor that takes one, what each call is given, made before the clock starts.
    fresh: dict[str, Callable[[], object]] = {}
    cells = {name: Cell(name) for name in ("ours", "numpy path", "loop", "mdptoolbox VI",
                                           "mdptoolbox PI")}  # fmt: skip

    def copy():
        # A fresh copy for each call (the same arrays, none of the per-pair tables a model
        # caches once asked), so that no call is helped by the one before; made outside the
        # timed calls, as every other competitor's input is.
        return dataclasses.replace(model)

    def ours():
        solution = solve(copy())
        return solution.values, f"{solution.iterations} iterations"

    def numpy_path():
        with numpy_solver():
            return ours()

    def timed_numpy_path(fresh_model):
        with numpy_solver():
            solve(fresh_model)

    calls["ours"], first["ours"], fresh["ours"] = solve, ours, copy
    calls["numpy path"], first["numpy path"] = timed_numpy_path, numpy_path
    fresh["numpy path"] = copy
    known = solve(copy())
    # Our values against the rules' own equations (not timed): the largest |min Q - V|.
    live = ~model.terminal
    best_of = np.maximum.reduceat if model.maximize else np.minimum.reduceat
    q = q_values(copy(), known.values)
    residual = float(np.max(np.abs(best_of(q, model.pair_start[:-1][live]) - known.values[live]),
                            initial=0.0))  # fmt: skip
    planned = ["loop"] + (["mdptoolbox VI", "mdptoolbox PI"] if toolbox_mdp else [])
    if toolbox_mdp is None:
        cells["mdptoolbox VI"].skipped = cells["mdptoolbox PI"].skipped = "not installed"
    for name in planned:
        if name in previous:
            states, seconds = previous[name]
            guess = seconds * (n / states) ** SCALING[name]
            if guess > 10 * cap:
                cells[name].skipped = f"not tried: ~{guess:,.0f} s extrapolated"
                previous[name] = (n, guess)
        if name == "mdptoolbox PI" and 8 * n * n * 3 > DENSE_BYTES:
            cells[name].skipped = f"not tried: dense S x S needs ~{24 * n * n / 2**30:,.0f} GiB"
    if not cells["loop"].skipped:
        tables, start_values = course_tables(model)
        minimise = not model.maximize

        def loop(deadline=math.inf):
            V, sweeps = plain_value_iteration(tables, start_values, model.discount,
                                              TOLERANCE, minimise, deadline)  # fmt: skip
            return np.array(V), f"{sweeps} sweeps"

        calls["loop"] = loop
        first["loop"] = lambda: loop(time.perf_counter() + cap)
    if toolbox_mdp is not None and not (cells["mdptoolbox VI"].skipped
                                        and cells["mdptoolbox PI"].skipped):  # fmt: skip
        P, R = toolbox_input(model)
        if not cells["mdptoolbox VI"].skipped:
            calls["mdptoolbox VI"] = lambda: toolbox_vi(model, P, R)
            first["mdptoolbox VI"] = lambda: toolbox_vi(model, P, R, time.perf_counter() + cap)
        if not cells["mdptoolbox PI"].skipped:
            calls["mdptoolbox PI"] = first["mdptoolbox PI"] = lambda: toolbox_pi(model, P, R)

    # The first run of each: the warm-up, its values to compare, and how long a call takes.
    reference = known.values
    probe: dict[str, float] = {}
    for name, call in first.items():
        start = time.perf_counter()
        try:
            values, note = call()
        except TooSlow as err:
            cells[name].skipped = f"> {cap:.0f} s: {err}"
            previous[name] = (n, cap)
            continue
        probe[name] = time.perf_counter() - start
        cells[name].note = note if name != "ours" else f"{note}, residual {residual:.1e}"
        if name != "ours":
            cells[name].difference = difference(values, reference)
        cells[name].settled = not note.startswith("did not settle")
        if not cells[name].settled:  # timing a run cut short says nothing: the first run only
            cells[name].times = [probe[name]]
    timed = [name for name in probe if cells[name].settled]
    reps = {name: max(1, min(1000, round(MEASURE_S / max(probe[name], 1e-6)))) for name in timed}
    rounds = {name: min(runs, max(1, int(budget / max(probe[name], 1e-9)))) for name in timed}
    for k in range(runs):
        order = timed[k % len(timed):] + timed[:k % len(timed)]  # fmt: skip
        for name in order:
            if k >= rounds[name]:
                continue
            given = [fresh[name]() for _ in range(reps[name])] if name in fresh else None
            start = time.perf_counter()
            if given is None:
                for _ in range(reps[name]):
                    calls[name]()
            else:
                for argument in given:
                    calls[name](argument)
            cells[name].times.append((time.perf_counter() - start) / reps[name])
            del given
    for name in timed:
        if name not in ("ours", "numpy path"):
            previous[name] = (n, cells[name].median)
    return cells


def fmt_ms(seconds: float) -> str:
    ms = 1000 * seconds
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}" if ms < 1000 else f"{ms:,.0f}"


def report(label: str, n: int, cells: dict[str, Cell]) -> tuple[float, float, float]:
    """Print one board's row; return (loop / ours, mdptoolbox best / ours, numpy path /
    ours) (nan: none)."""
    ours = cells["ours"].median
    shown = []
    for name in ("ours", "numpy path", "loop", "mdptoolbox VI", "mdptoolbox PI"):
        cell = cells[name]
        if cell.skipped:
            shown.append(f"{'-':>10} {'':>7}")
        elif not cell.settled:
            shown.append(f"{'>' + fmt_ms(cell.median):>10} {'(cut)':>7}")
        elif name == "ours":
            shown.append(f"{fmt_ms(ours):>10}")
        else:
            shown.append(f"{fmt_ms(cell.median):>10} {cell.median / ours:6.1f}x")
    best = [cells[x].median for x in ("mdptoolbox VI", "mdptoolbox PI")
            if cells[x].times and cells[x].settled]  # fmt: skip
    loop_ratio = cells["loop"].median / ours if cells["loop"].times else math.nan
    best_ratio = min(best) / ours if best else math.nan
    kernel_ratio = cells["numpy path"].median / ours if cells["numpy path"].times else math.nan
    best_shown = "-" if math.isnan(best_ratio) else f"{best_ratio:.1f}x"
    print(f"  {label:<30} {n:>9,} {' '.join(shown)} {best_shown:>9}")
    return loop_ratio, best_ratio, kernel_ratio


def details(cells: dict[str, Cell]) -> None:
    parts = []
    for cell in cells.values():
        if cell.skipped:
            parts.append(f"{cell.name}: {cell.skipped}")
            continue
        diff = "" if cell.name == "ours" else f", differs by {cell.difference:.1e}"
        parts.append(f"{cell.name}: {cell.note}, {len(cell.times)} runs{diff}")
    print("      " + "; ".join(parts))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="public boards and one random board of each family (300 "
                             "squares; token-boosted 100), 3 rounds: a few minutes")  # fmt: skip
    parser.add_argument("--runs", type=int, help="timed rounds per board (default 5; quick 3)")
    parser.add_argument(
        "--families",
        default=",".join(FAMILIES),
        help=f"families of random boards, comma-separated: {', '.join(FAMILIES)}",
    )
    parser.add_argument("--sizes",
                        help="squares of every family's random boards, comma-separated "
                             "(default: each family's own, in docs/benchmarks.md)")  # fmt: skip
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a first run may take")
    parser.add_argument("--budget", type=float, default=150.0,
                        help="most seconds of a slow competitor's rounds, per board")  # fmt: skip
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 5)
    families = [x.strip() for x in args.families.split(",") if x.strip()]
    unknown = [x for x in families if x not in FAMILIES]
    if unknown:
        parser.error(f"--families: unknown {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
    try:
        sizes = [int(x) for x in args.sizes.split(",") if x] if args.sizes else None
    except ValueError:
        parser.error(f"--sizes: not a comma-separated list of whole numbers: {args.sizes!r}")
    if sizes is not None and min(sizes, default=0) < 10:
        parser.error(f"--sizes: each board needs 10 squares or more: {args.sizes!r}")
    print(f"machine: {machine()}")
    print(load_line("at the start"))
    version = "not installed (pip install -e '.[bench]')"
    if toolbox_mdp is not None:
        from importlib.metadata import version as package_version

        patch_toolbox()
        version = package_version("pymdptoolbox") + " (patched: see docs/benchmarks.md)"
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, pymdptoolbox {version}")
    print(f"median of up to {runs} interleaved rounds; every competitor solves to ~{TOLERANCE:g};"
          f" ratio = its time / ours\n")  # fmt: skip
    head = "".join(f"{x:>10} {'x':>7} " for x in ("numpy", "loop", "mdp VI", "mdp PI"))
    print(f"  {'board':<30} {'states':>9} {'ours ms':>10} {head}{'mdp best':>7}")

    rows: list[tuple[str, float, float, float]] = []
    worst = 0.0
    failures = []

    def one(label: str, model, previous: dict) -> None:
        nonlocal worst
        cells = measure(label, model, runs, args.cap, args.budget, previous)
        loop_ratio, best_ratio, kernel_ratio = report(label, model.n_states, cells)
        details(cells)
        rows.append((label, loop_ratio, best_ratio, kernel_ratio))
        for cell in cells.values():
            # A run cut short (pymdptoolbox's policy iteration swapping tied actions for ever)
            # gives the values of whatever policy it stopped at: not an answer to check.
            if cell.settled and not math.isnan(cell.difference):
                worst = max(worst, cell.difference)
                if cell.difference > AGREE:
                    failures.append(f"{label}: {cell.name} differs by {cell.difference:.2e}")

    for name in ASSIGNMENTS:
        one(f"{name} (public)", make_problem(name).game.model, {})
    for name in families:
        family, previous = FAMILIES[name], {}
        chosen = sizes or (QUICK[name] if args.quick else family.sizes)
        for goal in chosen:
            one(f"{name} {goal:,} sq.", family.model(goal), previous)

    print(load_line("at the end"))
    print("\ntargets: ours at least 50x faster than the loop, at least 3x faster than "
          "pymdptoolbox's best, on every board")  # fmt: skip
    for label, target, column in (("loop", 50, 1), ("pymdptoolbox best", 3, 2)):
        measured = [(r[0], r[column]) for r in rows if not math.isnan(r[column])]
        missed = [f"{b} ({x:.1f}x)" for b, x in measured if x < target]
        if not measured:
            print(f"  vs {label}: not measured")
            continue
        low = min(x for _, x in measured)
        verdict = "met on every board measured" if not missed else "NOT met on " + ", ".join(missed)
        print(f"  vs {label}: {len(measured)} boards, lowest {low:.1f}x; {verdict}")
    gains = [r[3] for r in rows if not math.isnan(r[3])]
    if gains:
        print(f"  the compiled kernel against the numpy path alone (the solver where no C "
              f"compiler was found): {min(gains):.2f}x to {max(gains):.2f}x")  # fmt: skip
    if failures:
        for failure in failures:
            print(f"DISAGREE: {failure}")
        return 1
    print(f"values: every competitor agrees with ours within {AGREE:g} relative on every board "
          f"(largest difference {worst:.1e})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
