"""Attempt: stand in for another student with a plausible but wrong answer (a move past
the goal wins, where the rules say it stays), the program every ``lms_*`` and
``sheet_formulas`` attack uploads under the names its ``NAMES`` table lists.

Graded under any name, the grader must give it less than full marks, and never under the
name of a student it impersonates."""

import json
import sys


def expected_turns(goal, jumps):
    """Plausible and wrong: a spin that passes the goal wins (the rules say it stays)."""
    values = [0.0] * (goal + 1)
    change = 1.0
    while change > 1e-10:
        change = 0.0
        for i in range(goal - 1, -1, -1):
            ends = [min(i + spin, goal) for spin in range(1, 7)]
            new = 1 + sum(values[jumps.get(end, end)] for end in ends) / 6
            change, values[i] = max(change, abs(new - values[i])), new
    return values


def main(argv):
    with open(argv[1], encoding="utf-8") as file:
        board = json.load(file)
    goal, jumps = board["goal"], {start: end for start, end in board["jumps"]}
    values = expected_turns(goal, jumps)
    print("Expected turns per game: %.2f" % values[0])
    print("Expected turns remaining by position:")
    rows = [list(range(10 * r + 1, 10 * r + 11)) for r in range(goal // 10)]
    for r, row in reversed(list(enumerate(rows))):
        print("".join("%3d: %5.2f " % (i, values[i]) for i in (row if r % 2 == 0 else row[::-1])))


if __name__ == "__main__":
    main(sys.argv)
