# BUG: the junction is applied whenever a move reaches square 3 and goes on, also when the move only passes through 3 (from 1 or 2), not only when it starts there
#!/usr/bin/env python3
"""Snakes and Ladders: the trap lane.

Usage:  python3 trap_lane.py              solves the layout written in below
        python3 trap_lane.py BOARD.json   solves a board file {"layout": [15 ints], "circle": false}

Everything is written for you except the function under "YOUR PART": it prints the table
the autograder reads. Check your work with:  autograder check trap-lane trap_lane.py
"""

import json
import sys

# The board: LAYOUT[i] is the trap on square i + 1 (squares 1..15; 1 and 15 are never
# trapped): 0 ordinary, 1 restart, 2 penalty, 3 prison, 4 gamble.
LAYOUT = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
CIRCLE = False  # true: square 15 must be reached exactly

# The rules this program implements (see the handout).
EDITION = '2021'  # the dice below and what trap 4 does
CIRCLE_OVERSHOOT = 'wrap'  # with CIRCLE, a move that would pass 15 wraps round to 1, 2, ...
# The dice: code -> (its faces, each equally likely; the probability that a trap on the
# square where the move ends goes off).
DICE = {
    1: ((0, 1), 0.0),  # security
    2: ((0, 1, 2), 0.5),  # normal
    3: ((0, 1, 2, 3), 1.0),  # risky
}
TRAP_4 = 'gamble'  # what trap 4 does in this edition


def read_board(path):
    """``(layout, circle)`` from a board file ``{"layout": [15 ints], "circle": false}``.

    ``circle`` defaults to the CIRCLE written in above; an ``"edition"`` other than EDITION
    is refused, since this program implements the rules of one edition only.
    """
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError) as err:
        sys.exit(f"{path}: not a board file ({err})")
    if not isinstance(data, dict) or "layout" not in data:
        sys.exit(f'{path}: a trap-lane board is a JSON object with a "layout"')
    unknown = sorted(set(data) - {"layout", "circle", "edition", "name"})
    if unknown:
        sys.exit(f"{path}: unknown key {unknown[0]!r} (a board has circle, edition, layout, name)")
    edition = str(data.get("edition", EDITION)).strip()
    if edition != EDITION:
        sys.exit(
            f"{path}: the board is for edition {edition}, but this program implements "
            f"edition {EDITION} of the rules"
        )
    circle = data.get("circle", CIRCLE)
    if str(circle).lower() not in ("true", "false"):
        sys.exit(f'{path}: "circle" must be true or false')
    circle = str(circle).lower() == "true"
    layout = data["layout"]
    if not isinstance(layout, list) or len(layout) != 15:
        sys.exit(f'{path}: "layout" must be a list of 15 integers (squares 1..15)')
    for square, trap in enumerate(layout, start=1):
        if not isinstance(trap, int) or isinstance(trap, bool) or trap not in range(5):
            sys.exit(f"{path}: square {square} has trap {trap!r}; traps are 0..4")
    if layout[0] or layout[-1]:
        sys.exit(f"{path}: squares 1 and 15 are never trapped")
    return layout, circle


# ------------------------------------------------------------------------------ YOUR PART
def markovDecision(layout, circle):
    """The optimal die and its expected cost on every square: ``[Expec, Dice]``.

    States: the squares 1..15. Square 1 is the start and 15 the goal: the game ends there and
    costs nothing more. The slow lane runs 1, 2, ..., 10 and then 15; the fast lane branches
    off at square 3 and runs 3, 11, 12, 13, 14 and then 15.

    Actions: every turn the player picks a die (DICE above) and rolls it; each face is
    equally likely and moves the piece that many squares:
        1 security: moves (0, 1); traps never go off
        2 normal: moves (0, 1, 2); traps go off with probability 1/2
        3 risky: moves (0, 1, 2, 3); traps always go off

    The junction: a move that *starts* on square 3 and advances k >= 1 squares takes the slow
    lane (4, 5, 6) or the fast lane (11, 12, 13) with probability 1/2 each. A move that
    passes through 3 stays on the slow lane (from 2, a 2 ends on 4).

    The goal: with ``circle`` false, reaching or passing square 15 wins. With ``circle``
    true, 15 must be reached exactly, and a move that would pass it wraps round, 15 being
    followed by 1: an overshoot by e squares ends on square e (from 14, a 3 ends on 2; from
    9, a 3 ends on 1). CIRCLE_OVERSHOOT = "wrap".

    Traps: ``layout[i]`` is the trap on square i + 1 (``layout`` has 15 entries). A trap on
    the square where a move ends (also after a 0, also after a wrap round the circle) goes
    off with the probability of the die rolled; the square a trap sends the piece to never
    triggers in turn.
        0 ordinary square: nothing happens.
        1 restart: back to square 1.
        2 penalty: back 3 squares along the path walked, never below square 1: 11, 12, 13
          and 14 go to 1, 2, 3 and 11; any other square q goes to max(1, q - 3).
        3 prison: the player loses the next turn. Charge it when the trap goes off: that
          turn costs 2 instead of 1, and the piece stays where it is.
        4 gamble: the piece is teleported to any of the 15 squares with probability 1/15
          each (square 15 wins).

    Every turn costs 1, and a turn that sets off a prison 2.
    ``layout`` is a list of 15 integers and ``circle`` a bool. Return ``[Expec, Dice]``: two
    lists of 14 values for the squares 1..14, where ``Expec[i]`` is the expected cost (number
    of turns) from square i + 1 to the goal when the die is chosen optimally on every square,
    and ``Dice[i]`` is the code of an optimal die on square i + 1 (1, 2 or 3).
    Value iteration works: start from zeros, and on every square take the die of least
    expected cost, sweeping until the values change by less than 1e-9.
    """
    GOAL = 15

    def walk(square, k):
        """Possible end squares (with probabilities) of a move of k from square."""
        if k == 0:
            return [(square, 1.0)]
        if square == 3:
            starts = [(4, 0.5), (11, 0.5)]
        else:
            starts = [(next_square(square), 1.0)]
        result = []
        for pos, p in starts:
            if k > 1 and (pos != GOAL or circle):
                result += [(q, p * pq) for q, pq in walk(pos, k - 1)]  # walk on, one step at a time
            else:
                result.append((pos, p))
        return result

    def next_square(sq):
        if sq == 10 or sq == 14:
            return GOAL
        if sq == GOAL:
            return 1  # round the circle
        return sq + 1

    def trap_outcomes(sq):
        """(next square, probability, cost) when the trap on sq goes off."""
        trap = layout[sq - 1]
        if trap == 1:
            return [(1, 1.0, 1)]
        if trap == 2:
            back = {11: 1, 12: 2, 13: 3, 14: 11}.get(sq, max(1, sq - 3))
            return [(back, 1.0, 1)]
        if trap == 3:
            return [(sq, 1.0, 2)]
        if trap == 4:
            return [(q, 1 / 15, 1) for q in range(1, 16)]
        return [(sq, 1.0, 1)]

    def q_value(V, square, code):
        faces, trigger = DICE[code]
        total = 0.0
        for k in faces:
            for end, p in walk(square, k):
                p = p / len(faces)
                if end == GOAL:
                    total += p * 1
                    continue
                if layout[end - 1] == 0 or trigger == 0:
                    total += p * (1 + V[end])
                    continue
                total += p * (1 - trigger) * (1 + V[end])
                for q, pq, cost in trap_outcomes(end):
                    total += p * trigger * pq * (cost + V[q])
        return total

    V = [0.0] * (GOAL + 1)  # V[0] unused, V[15] = 0
    while True:
        delta = 0.0
        for s in range(1, GOAL):
            new = min(q_value(V, s, c) for c in DICE)
            delta = max(delta, abs(new - V[s]))
            V[s] = new
        if delta < 1e-10:
            break
    Expec = V[1:GOAL]
    Dice = []
    for s in range(1, GOAL):
        qs = {c: q_value(V, s, c) for c in DICE}
        Dice.append(min(qs, key=qs.get))
    return [Expec, Dice]
# ------------------------------------------------------------------------- END OF YOUR PART


def main(argv):
    layout, circle = read_board(argv[1]) if len(argv) > 1 else (list(LAYOUT), CIRCLE)
    expec, dice = markovDecision(layout, circle)
    if len(expec) != 14 or len(dice) != 14:
        sys.exit("markovDecision must return [Expec, Dice]: 14 values each (squares 1..14)")
    print("Expected cost from square 1: %.2f" % expec[0])
    print("square expected dice")
    for square in range(1, 15):
        print("%2d %8.4f %s" % (square, expec[square - 1], int(dice[square - 1])))


if __name__ == "__main__":
    main(sys.argv)
