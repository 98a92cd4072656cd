"""Attempt: an answer of the right shape with NaN, infinities and negative values in it,
hoping a careless comparison (``not abs(a - b) > tolerance`` is true for NaN) counts them.
With ``CONFIG["values"]`` (V[0..N]) the other entries are the right values; with
``CONFIG["bad"]`` only those entries (0 = the first line) are spoiled, else all are.

The grader must count only the entries within tolerance: exactly what the numbers earn."""

import json
import math
import sys

CONFIG = {}  # the test writes its settings here

with open(sys.argv[1]) as file:
    goal = json.load(file)["goal"]
values = CONFIG.get("values") or [1.0] * (goal + 1)
bad = set(CONFIG.get("bad", range(goal + 1)))
spoilers = [math.nan, math.inf, -math.inf, -7.5]


def shown(square: int) -> float:
    return spoilers[square % 4] if square in bad else values[square]


print("Expected turns per game: %.2f" % shown(0))
print("Expected turns remaining by position:")
for row in range(goal // 10 - 1, -1, -1):
    squares = range(10 * row + 1, 10 * row + 11)
    squares = squares if row % 2 == 0 else reversed(squares)
    print("".join("%3d: %5.2f " % (s, shown(s)) for s in squares))
