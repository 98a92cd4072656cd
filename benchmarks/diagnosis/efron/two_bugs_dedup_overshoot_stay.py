# BUG: TWO bugs: averages over the distinct faces of each die (set(faces)), and a roll past the goal leaves the piece in place instead of winning
#!/usr/bin/env python3
"""Chutes and Ladders with Efron's dice.

Usage:  python3 efron.py              solves the board written in below
        python3 efron.py BOARD.json   solves a board file {"goal": 100, "jumps": [[1, 38], ...]}

Everything is written for you except the function under "YOUR PART": it prints the tables
the autograder reads. Check your work with:  autograder check efron efron.py
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
# DICE maps each die's name to its faces; every face is equally likely.
DICE = {
    'Blue': [3, 3, 3, 3, 3, 3],
    'Black': [4, 4, 4, 4, 0, 0],
    'Red': [6, 6, 2, 2, 2, 2],
    'Green': [5, 5, 5, 1, 1, 1],
}
OVERSHOOT = 'win'  # a move that would pass the goal: see the handout


# ------------------------------------------------------------------------------ YOUR PART
def optimal_dice(goal, goes_to, dice, overshoot):
    """Expected turns still to play from each square, ``V[0..goal]``, and the best die.

    States: the squares ``0..goal``; 0 is the start, off the board, and the game ends on
    ``goal``, so ``V[goal] = 0``. Actions: on every square ``i < goal`` the player picks one
    of the dice (a name in ``dice``) and rolls it: each face of that die is equally likely
    and the piece moves that many squares (a face of 0 leaves it on ``i``). A move that would
    pass the goal follows ``overshoot`` ("win": it wins; "stay": the piece does not move and
    the turn is spent; "bounce": it walks back the excess; "land:K": it lands on square K).
    Then, where the move ends on another square, ``goes_to`` applies the chute or ladder of
    that square (``goes_to[i] == i`` on a plain square); a piece that does not move (a face
    of 0, a "stay") takes no jump.

    A die that cannot move the piece from square ``i`` (every face leaves it on ``i``) is not
    allowed there. For the others, with ``next`` where a face takes the piece:

        V[i] = 1 + min over the allowed dice of (average over the die's faces of V[next])

    Every ``i < goal`` gets a value, including squares where a chute or ladder starts
    (computed as if the piece stood there). Value iteration: start from zeros and sweep
    until the values stop changing (a change below 1e-9 is plenty).

    Return ``(values, choices)``: the list ``values`` of ``goal + 1`` numbers and the list
    ``choices`` of ``goal`` die names, the best die on each square ``0..goal-1`` (when
    several dice are equally good, any of them).
    """
    def move(i, m):
        if m == 0:
            return i
        t = i + m
        if t > goal:
            return i  # must land exactly on the goal
        return goes_to[t]

    V = [0.0] * (goal + 1)
    best_die = [None] * goal
    while True:
        delta = 0.0
        for i in range(goal - 1, -1, -1):
            best = None
            for name, faces in dice.items():
                if all(move(i, f) == i for f in faces):
                    continue  # this die cannot move the piece from here
                q = 1 + sum(V[move(i, f)] for f in set(faces)) / len(set(faces))
                if best is None or q < best:
                    best, best_die[i] = q, name
            delta = max(delta, abs(best - V[i]))
            V[i] = best
        if delta < 1e-10:
            break
    return V, best_die
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
    values, choices = optimal_dice(goal, goes_to_table(goal, jumps), DICE, OVERSHOOT)
    print("Expected turns per game: %.2f" % values[0])
    print_values(values, "Expected turns remaining by position")
    print_actions(choices, "Optimal action by position")


if __name__ == "__main__":
    main(sys.argv)
