"""Attempt: learn a hidden board's layout from the feedback. The program reads the board it
is handed, solves it right (a classic game: spinner 1..6, a move past the goal stays) and
spoils exactly the squares where a jump starts, so that feedback listing the wrong squares
would spell out every chute and ladder. With ``CONFIG["rules"] = "chutes-ignored"`` it
solves a game where chutes are never followed instead, and spoils nothing.

The grader must count the spoiled entries and name the mistake on every board, and on a
hidden board say no square, goal or count of jumps."""

import json
import sys

CONFIG = {}  # the test writes its settings here

with open(sys.argv[1]) as file:
    board = json.load(file)
goal = board["goal"]
jumps = [tuple(jump) for jump in board["jumps"]]
followed = [(a, b) for a, b in jumps if CONFIG.get("rules") != "chutes-ignored" or b > a]
goes_to = list(range(goal + 1))
for start, end in followed:
    goes_to[start] = end

values = [0.0] * (goal + 1)
while True:
    change = 0.0
    for i in range(goal - 1, -1, -1):
        total = sum(values[i] if i + s > goal else values[goes_to[i + s]] for s in range(1, 7))
        new = 1 + total / 6
        change = max(change, abs(new - values[i]))
        values[i] = new
    if change < 1e-12:
        break

spoiled = sorted(a for a, _ in jumps) if CONFIG.get("rules") != "chutes-ignored" else []
for square in spoiled:
    values[square] += 50.0

print("Expected turns per game: %.2f" % values[0])
print("Expected turns remaining by position:")
for row in range(goal // 10 - 1, -1, -1):
    squares = range(10 * row + 1, 10 * row + 11)
    squares = squares if row % 2 == 0 else reversed(squares)
    print("".join("%3d: %5.2f " % (s, values[s]) for s in squares))
sys.stderr.write("ADVERSARY " + json.dumps({"goal": goal, "spoiled": spoiled}) + "\n")
