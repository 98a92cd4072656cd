"""Attempt: carry a hidden board out through what the feedback says of the output rather
than of its numbers. ``CONFIG["mode"]``:

* ``chatter``: a right answer, with the board echoed around it: as many lines before it as
  the goal has squares, a blank line inside the table after as many rows as there are
  jumps, the jumps after it;
* ``crash``: standard error ending in an exception named after the board, and an exit
  status equal to the goal;
* ``size``: the values one square a line, from square 1 up past the goal, so that the
  first square the grader refuses is the goal plus one.

The grader must grade each as usual, and on a hidden board repeat none of it: no line
number, count, exit status or exception name the program chose."""

import json
import sys

CONFIG = {}  # the test writes its settings here
MODE = CONFIG.get("mode", "chatter")

with open(sys.argv[1]) as file:
    board = json.load(file)
goal = board["goal"]
jumps = [tuple(jump) for jump in board["jumps"]]
starts = sorted(a for a, _ in jumps)
sys.stderr.write("ADVERSARY " + json.dumps({"goal": goal, "starts": starts}) + "\n")

if MODE == "crash":
    name = "Goal%dJumps%sError" % (goal, "_".join(map(str, starts)))
    sys.stderr.write("Traceback (most recent call last):\n%s: %s\n" % (name, json.dumps(board)))
    sys.exit(goal % 256 or 1)

goes_to = list(range(goal + 1))
for start, end in jumps:
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

if MODE == "size":
    print("Expected turns per game: %.2f" % values[0])
    print("Expected turns remaining by position:")
    for square in range(1, goal + 11):
        print("%3d: %5.2f" % (square, values[min(square, goal)]))
    sys.exit(0)

for k in range(goal):
    print(
        "goal %d, jump %d of %d: %s"
        % (goal, k, len(jumps), jumps[k % len(jumps)] if jumps else "-")
    )
print("Expected turns per game: %.2f" % values[0])
print("Expected turns remaining by position:")
for count, row in enumerate(range(goal // 10 - 1, -1, -1), 1):
    squares = range(10 * row + 1, 10 * row + 11)
    squares = squares if row % 2 == 0 else reversed(squares)
    print("".join("%3d: %5.2f " % (s, values[s]) for s in squares))
    if count == len(jumps) % (goal // 10 - 1) + 1:
        print()
print(json.dumps(board))
