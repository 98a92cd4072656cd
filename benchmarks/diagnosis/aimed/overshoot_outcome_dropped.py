# BUG: outcomes that would pass the goal are skipped instead of leaving the piece in place, so near the goal the probabilities no longer add up to 1
#!/usr/bin/env python3
"""Chutes and Ladders with an aimed, noisy move.

Usage:  python3 aimed.py              solves the board written in below
        python3 aimed.py BOARD.json   solves a board file {"goal": 100, "jumps": [[1, 38], ...]}

Everything is written for you except the function under "YOUR PART": it prints the tables
the autograder reads. Check your work with:  autograder check aimed aimed.py
"""

import json
import sys

# The board: squares 0..GOAL, where 0 is the start (off the board) and GOAL wins.
# JUMPS maps the square a move ends on to where the chute or ladder takes the piece.
GOAL = 100
JUMPS = {
    1: 38, 4: 14, 9: 31, 16: 6, 21: 42, 28: 84, 36: 44, 48: 26, 49: 11, 51: 67, 56: 53,
    62: 19, 64: 60, 71: 91, 80: 100, 87: 24, 93: 73, 95: 75, 98: 78,
}


def read_board(path):
    """``(goal, jumps)`` from a board file ``{"goal": 100, "jumps": [[1, 38], ...]}``."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        goal = data["goal"]
        jumps = {int(start): int(end) for start, end in data["jumps"]}
    except (OSError, ValueError, KeyError, TypeError) as err:
        sys.exit(f"{path}: not a board file ({err})")
    if not isinstance(goal, int) or goal < 1:
        sys.exit(f"{path}: goal must be a positive integer")
    return goal, jumps


def goes_to_table(goal, jumps):
    """``goes_to[i]``: where a move that ends on square ``i`` leaves the piece."""
    goes_to = list(range(goal + 1))
    for start, end in jumps.items():
        goes_to[start] = end
    return goes_to


# The rules of this assignment (see the handout).
FACES = 6  # the aims are 1..FACES
NOISE = [0.25, 0.5, 0.25]  # probabilities of moving aim-1, aim, aim+1
OVERSHOOT = 'stay'  # a move that would pass the goal: see the handout
OBJECTIVE = 'turns'  # "turns" or "discounted"
DISCOUNT = 0.9  # discounted objective: factor per move
REWARD = 100.0  # discounted objective: value of the goal


# ------------------------------------------------------------------------------ YOUR PART
def optimal_aims(goal, goes_to, faces, noise, overshoot, objective, discount, reward):
    """Value of each square under optimal play, ``V[0..goal]``, and the best aim per square.

    States: the squares ``0..goal``; 0 is the start, off the board, and the game ends on
    ``goal``. Actions: on every square ``i < goal`` the player names an aim ``k`` in
    ``1..faces``; the piece then moves ``k - 1``, ``k`` or ``k + 1`` squares with
    probabilities ``noise[0]``, ``noise[1]``, ``noise[2]``. A move of 0 leaves the piece on
    ``i`` (the turn is spent). A move that would pass the goal follows ``overshoot``
    ("stay": the piece does not move and the turn is spent; "win": it wins; "bounce": it
    walks back the excess; "land:K": it lands on square K). Then, where the move ends on
    another square, ``goes_to`` applies the chute or ladder of that square (``goes_to[i] ==
    i`` on a plain square); a piece that does not move (a move of 0, a "stay") takes no
    jump.

    Objectives (``next`` is where the move and the jump leave the piece, ``E`` the average
    over the three moves weighted by ``noise``):

    - ``"turns"``: ``V[goal] = 0`` and ``V[i] = 1 + min over aims k of E[V(next)]``, the
      expected number of turns still to play; the best aim is the one that minimises.
    - ``"discounted"``: ``V[goal] = reward`` and
      ``V[i] = discount * max over aims k of E[V(next)]``; the best aim maximises.

    Every ``i < goal`` gets a value, including squares where a chute or ladder starts
    (computed as if the piece stood there). Value iteration: start from ``V[goal]`` and
    zeros elsewhere and sweep until the values stop changing (a change below 1e-9 is
    plenty).

    Return ``(values, aims)``: the list ``values`` of ``goal + 1`` numbers and the list
    ``aims`` of ``goal`` integers, the best aim on each square ``0..goal-1`` (when several
    aims are equally good, any of them).
    """
    def move(i, m):
        t = i + m
        if t > goal:
            return i  # must land exactly on the goal: stay put
        if t == i:
            return i  # a move of 0: no jump
        return goes_to[t]

    def expected(V, i, k):
        return sum(p * V[move(i, k - 1 + d)] for d, p in enumerate(noise) if i + k - 1 + d <= goal)

    V = [0.0] * (goal + 1)
    if objective == "discounted":
        V[goal] = reward
    while True:
        delta = 0.0
        for i in range(goal - 1, -1, -1):
            options = [expected(V, i, k) for k in range(1, faces + 1)]
            if objective == "discounted":
                new = discount * max(options)
            else:
                new = 1 + min(options)
            delta = max(delta, abs(new - V[i]))
            V[i] = new
        if delta < 1e-10:
            break
    aims = []
    for i in range(goal):
        options = [expected(V, i, k) for k in range(1, faces + 1)]
        if objective == "discounted":
            aims.append(options.index(max(options)) + 1)
        else:
            aims.append(options.index(min(options)) + 1)
    return V, aims
# ------------------------------------------------------------------------- END OF YOUR PART


def board_rows(goal):
    """Squares 1..goal in rows of 10 as on the board: top row first, alternating direction."""
    rows = []
    for r in range(goal // 10):
        row = list(range(10 * r + 1, 10 * r + 11))
        rows.append(row if r % 2 == 0 else row[::-1])
    return rows[::-1]


def print_grid(goal, cell):
    for row in board_rows(goal):
        print("".join(cell(square) for square in row))


def print_values(values, heading):
    print(heading + ":")
    print_grid(len(values) - 1, lambda i: "%3d: %5.2f " % (i, values[i]))


def print_actions(actions, heading):
    print(heading + ":")
    labels = [str(action) for action in actions] + ["-"]  # the goal has no action
    print_grid(len(actions), lambda i: "%3d: %5s " % (i, labels[i]))


def main(argv):
    goal, jumps = read_board(argv[1]) if len(argv) > 1 else (GOAL, JUMPS)
    values, aims = optimal_aims(
        goal, goes_to_table(goal, jumps), FACES, NOISE, OVERSHOOT, OBJECTIVE, DISCOUNT, REWARD
    )
    if OBJECTIVE == "discounted":
        print("Expected discounted reward per game: %.2f" % values[0])
        print_values(values, "Expected discounted reward by position")
    else:
        print("Expected turns per game: %.2f" % values[0])
        print_values(values, "Expected turns remaining by position")
    print_actions(aims, "Optimal action by position")


if __name__ == "__main__":
    main(sys.argv)
