# The compiled kernel's interface (reference_solutions/_kernel.c), for the type checker. Where
# the status is not SOLVED the four arrays are None.
import numpy as np

SOLVED: int
DECLINED: int
HOPELESS: int
NOT_SETTLED: int
NUMERICAL: int

def solve(
    pair_start: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    data: np.ndarray,
    outcome_cost: np.ndarray,
    terminal_value: np.ndarray,
    discount: float,
    maximize: bool,
    tie_tolerance: float,
    max_iterations: int,
    most_states: int,
    hint: np.ndarray | None,
    /,
) -> tuple[int, int, float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
