# BUG: solves the linear system with the transition matrix transposed, (I - P^T) V = 1 instead of (I - P) V = 1
#!/usr/bin/env python3
"""Chutes and Ladders: the classic game.

Usage:  python3 classic.py              solves the board written in below
        python3 classic.py BOARD.json   solves a board file {"goal": 100, "jumps": [[1, 38], ...]}

Everything is written for you except the function under "YOUR PART": it prints the table
the autograder reads. Check your work with:  autograder check classic classic.py
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
FACES = 6  # the spinner shows 1..FACES, each equally likely
OVERSHOOT = 'stay'  # a move that would pass the goal: see the handout


# ------------------------------------------------------------------------------ YOUR PART
def expected_turns(goal, goes_to, faces, overshoot):
    """Expected number of turns still to play from each square, ``V[0..goal]``.

    States: the squares ``0..goal``; 0 is the start, off the board, and the game ends on
    ``goal``, so ``V[goal] = 0``. There is one action: spin ``1..faces`` (each equally
    likely) and move that far. A move that would pass the goal follows ``overshoot``
    ("stay": the piece does not move and the turn is spent; "win": it wins; "bounce": it
    walks back the excess; "land:K": it lands on square K). Then, where the move ends on
    another square, ``goes_to`` applies the chute or ladder of that square (``goes_to[i] ==
    i`` on a plain square); a piece that does not move (a "stay") takes no jump.

    Return the list ``V`` with ``V[i] = 1 + (1/faces) * sum over spins s of V[next(i, s)]``
    for every ``i < goal``, including squares where a chute or ladder starts (computed as if
    the piece stood there). Value iteration: start from zeros and sweep until the values
    stop changing (a change below 1e-9 is plenty).
    """
    import numpy as np
    n = goal  # unknowns V[0..goal-1]; V[goal] = 0
    P = np.zeros((n, n))
    for i in range(n):
        for s in range(1, faces + 1):
            t = i + s
            t = i if t > goal else goes_to[t]
            if t < goal:
                P[i, t] += 1.0 / faces
    V = np.linalg.solve(np.eye(n) - P.T, np.ones(n))
    return [float(v) for v in V] + [0.0]
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


def main(argv):
    goal, jumps = read_board(argv[1]) if len(argv) > 1 else (GOAL, JUMPS)
    values = expected_turns(goal, goes_to_table(goal, jumps), FACES, OVERSHOOT)
    print("Expected turns per game: %.2f" % values[0])
    print_values(values, "Expected turns remaining by position")


if __name__ == "__main__":
    main(sys.argv)
