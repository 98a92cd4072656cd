"""The second diagnosis set: correct student programs, and the mistakes made in them.

Written from the game rules alone (the contract's RULES.md and docs/rules.md, the starter
programs' board reading and print formats), without the grader's catalogue of mistakes, to
measure how well the grader names a mistake it was not written against.

This file is the single source of truth. ``TEMPLATES`` holds, per assignment, two or three
correct programs in different styles (numpy or plain lists, Jacobi or Gauss-Seidel sweeps,
dicts, a class, a function per Bellman backup, ...), each a complete program that reads a
board file and prints the assignment's format. ``MUTATIONS`` holds the wrong programs: each
names a base template and the textual substitutions that make it wrong; every substitution
must find its text exactly once (generate.py refuses anything else), so the templates and the
mutations cannot drift apart. generate.py turns both into programs and a mistakes.toml.

Every program hard-codes the assignment's default parameters (six faces, exact finish, three
tokens, the noise 0.25/0.5/0.25, Efron's four dice, the 2021 trap-lane edition): the grader
runs them with those defaults only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Klass = Literal["parameter", "structural", "not-solving", "converged-wrong"]
KLASSES: tuple[Klass, ...] = ("parameter", "structural", "not-solving", "converged-wrong")
ASSIGNMENTS = ("classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane")


@dataclass(frozen=True)
class Template:
    """A correct program: ``source`` is runnable as it stands."""

    assignment: str
    name: str
    style: str  # one line: how the program is written
    source: str


@dataclass(frozen=True)
class Mutation:
    """A wrong program: the template ``template`` of the id's assignment with ``edits``
    (``(old, new)`` pairs, applied in order, each ``old`` present exactly once)."""

    id: str  # "<assignment>/<slug>"
    template: str
    klass: Klass
    words: str  # what the program does wrong, as a teacher would say it
    edits: tuple[tuple[str, str], ...]

    @property
    def assignment(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def slug(self) -> str:
        return self.id.split("/", 1)[1]


# ------------------------------------------------------------------ shared program parts
# What every jump-board program starts with: the public board, reading a board file, and
# printing a value table (squares 1..N in rows of 10, top row first, rows alternating
# direction as on the board).
_JUMP_HEAD = '''import json
import sys

# The public board (the 2004 edition): solved when no board file is given.
GOAL = 100
JUMPS = {
    1: 38, 4: 14, 9: 31, 16: 6, 21: 42, 28: 84, 36: 44, 48: 26, 49: 11, 51: 67,
    56: 53, 62: 19, 64: 60, 71: 91, 80: 100, 87: 24, 93: 73, 95: 75, 98: 78,
}


def read_board(path):
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    return data["goal"], {int(start): int(end) for start, end in data["jumps"]}


def board_rows(goal):
    """Squares 1..goal in rows of 10, top row first, each row in the board's direction."""
    rows = []
    for r in range(goal // 10):
        row = list(range(10 * r + 1, 10 * r + 11))
        rows.append(row if r % 2 == 0 else row[::-1])
    return rows[::-1]


def print_table(values, heading):
    print(heading + ":")
    for row in board_rows(len(values) - 1):
        print("".join("%3d: %5.2f " % (i, values[i]) for i in row))
'''

# aimed and efron also print an action per square (the goal shows "-").
_ACTIONS_PRINT = """

def print_actions(actions, heading):
    print(heading + ":")
    labels = [str(action) for action in actions] + ["-"]
    for row in board_rows(len(actions)):
        print("".join("%3d: %5s " % (i, labels[i]) for i in row))
"""

_VALUES_MAIN = """

def main(argv):
    goal, jumps = read_board(argv[1]) if len(argv) > 1 else (GOAL, JUMPS)
    values = solve(goal, jumps)
    print("Expected turns per game: %.2f" % values[0])
    print_table(values, "Expected turns remaining by position")


if __name__ == "__main__":
    main(sys.argv)
"""

_TOKENS_MAIN = """

def main(argv):
    goal, jumps = read_board(argv[1]) if len(argv) > 1 else (GOAL, JUMPS)
    tables = solve(goal, jumps)
    print("Expected turns per game: %.2f" % tables[TOKENS][0])
    for k in range(TOKENS, -1, -1):
        print_table(tables[k], "Expected turns remaining by position with %d tokens" % k)


if __name__ == "__main__":
    main(sys.argv)
"""

_ACTIONS_MAIN = """

def main(argv):
    goal, jumps = read_board(argv[1]) if len(argv) > 1 else (GOAL, JUMPS)
    values, actions = solve(goal, jumps)
    print("Expected turns per game: %.2f" % values[0])
    print_table(values, "Expected turns remaining by position")
    print_actions(actions, "Optimal action by position")


if __name__ == "__main__":
    main(sys.argv)
"""

_TRAP_HEAD = """import json
import sys

# The public layout: LAYOUT[i] is the trap on square i + 1 (0 none, 1 restart, 2 penalty,
# 3 prison, 4 gamble); CIRCLE: square 15 must be reached exactly.
LAYOUT = [0] * 15
CIRCLE = False


def read_board(path):
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    return list(data["layout"]), bool(data.get("circle", CIRCLE))
"""

_TRAP_MAIN = """

def main(argv):
    layout, circle = read_board(argv[1]) if len(argv) > 1 else (LAYOUT, CIRCLE)
    expec, dice = markovDecision(layout, circle)
    print("Expected cost from square 1: %.2f" % expec[0])
    print("square expected dice")
    for square in range(1, 15):
        print("%2d %8.4f %s" % (square, expec[square - 1], dice[square - 1]))


if __name__ == "__main__":
    main(sys.argv)
"""

# ------------------------------------------------------------------------------ classic
_CLASSIC_NUMPY = """
import numpy as np

SPINNER = 6


def solve(goal, jumps):
    # A transition matrix over the squares, then value iteration on whole vectors.
    goes_to = np.arange(goal + 1)
    for start, end in jumps.items():
        goes_to[start] = end
    P = np.zeros((goal + 1, goal + 1))
    for i in range(goal):
        for spin in range(1, SPINNER + 1):
            target = i + spin
            if target > goal:
                P[i, i] += 1 / SPINNER
            else:
                P[i, goes_to[target]] += 1 / SPINNER
    cost = np.ones(goal + 1)
    cost[goal] = 0.0
    V = np.zeros(goal + 1)
    while True:
        new = cost + P @ V
        if np.abs(new - V).max() < 1e-12:
            return new
        V = new
"""

_CLASSIC_GAUSS_SEIDEL = """
FACES = 6


def solve(goal, jumps):
    goes_to = list(range(goal + 1))
    for start in jumps:
        goes_to[start] = jumps[start]
    V = [0.0] * (goal + 1)
    # Gauss-Seidel: each square is updated in place, from the goal end down.
    while True:
        biggest = 0.0
        for i in range(goal - 1, -1, -1):
            total = 0.0
            for s in range(1, FACES + 1):
                if i + s > goal:
                    total += V[i]
                else:
                    total += V[goes_to[i + s]]
            new = 1.0 + total / FACES
            biggest = max(biggest, abs(new - V[i]))
            V[i] = new
        if biggest < 1e-12:
            break
    return V
"""

_CLASSIC_DICTS = '''
SPIN = range(1, 7)


def landing(square, spin, goal, goes_to):
    target = square + spin
    if target > goal:
        return square
    return goes_to.get(target, target)


def backup(square, V, goal, goes_to):
    """One Bellman backup: a turn, then the average over the spins."""
    return 1 + sum(V[landing(square, s, goal, goes_to)] for s in SPIN) / len(SPIN)


def solve(goal, jumps):
    goes_to = dict(jumps)
    V = {square: 0.0 for square in range(goal + 1)}
    change = float("inf")
    while change > 1e-12:
        new = {square: backup(square, V, goal, goes_to) for square in range(goal)}
        new[goal] = 0.0
        change = max(abs(new[s] - V[s]) for s in V)
        V = new
    return [V[s] for s in range(goal + 1)]
'''

# The classic public board's answer, as printed by a correct program (two decimals, squares
# 0..100): the table a student may copy into a program instead of solving the board.
CLASSIC_PUBLIC_VALUES = """[
    39.60, 40.25, 40.07, 39.57, 39.84, 39.67, 39.46, 39.23, 38.98, 39.05,
    39.11, 38.64, 38.22, 37.84, 37.50, 37.02, 36.08, 35.82, 35.66, 35.55,
    35.50, 35.70, 33.82, 34.31, 34.66, 34.94, 35.15, 35.30, 37.52, 37.25,
    36.77, 36.60, 36.41, 36.19, 35.93, 35.64, 35.68, 35.55, 35.31, 34.83,
    34.37, 33.93, 34.10, 34.75, 33.87, 31.95, 31.61, 31.27, 30.20, 28.47,
    28.58, 29.88, 29.61, 29.22, 28.75, 28.24, 29.29, 28.28, 27.94, 26.87,
    25.95, 25.16, 22.57, 22.19, 21.16, 20.42, 20.43, 20.44, 20.03, 19.85,
    19.81, 20.50, 20.50, 20.52, 17.59, 18.74, 19.56, 20.12, 20.47, 20.64,
    24.12, 25.62, 24.48, 23.53, 22.56, 21.62, 20.90, 18.54, 17.63, 17.79,
    16.79, 15.94, 16.59, 14.17, 12.14, 10.82, 10.82, 10.82, 6.00, 6.00,
    0.00,
]"""

# -------------------------------------------------------------------------------- boosted
_BOOSTED_LOOPS = """
FACES = 6


def solve(goal, jumps):
    goes_to = list(range(goal + 1))
    for start, end in jumps.items():
        goes_to[start] = end

    def next_square(i, move):
        if i + move > goal:
            return i
        return goes_to[i + move]

    # Jacobi sweeps: every square from the last sweep's values.
    V = [0.0] * (goal + 1)
    while True:
        new = [0.0] * (goal + 1)
        for i in range(goal):
            total = 0.0
            for s in range(1, FACES + 1):
                total += min(V[next_square(i, s)], V[next_square(i, s + 1)])
            new[i] = 1 + total / FACES
        delta = max(abs(a - b) for a, b in zip(new, V))
        V = new
        if delta < 1e-12:
            return V
"""

_BOOSTED_GAUSS_SEIDEL = """
SPINS = (1, 2, 3, 4, 5, 6)


def solve(goal, jumps):
    goes_to = [jumps.get(square, square) for square in range(goal + 1)]
    values = [0.0] * (goal + 1)
    # In place, from square 0 up; the choice after each spin is the cheaper of two moves.
    while True:
        largest = 0.0
        for square in range(goal):
            expected = 0.0
            for spin in SPINS:
                options = []
                for move in (spin, spin + 1):
                    target = square + move
                    if target > goal:
                        options.append(values[square])
                    else:
                        options.append(values[goes_to[target]])
                expected += min(options) / len(SPINS)
            updated = 1 + expected
            largest = max(largest, abs(updated - values[square]))
            values[square] = updated
        if largest < 1e-12:
            return values
"""

_BOOSTED_NUMPY = '''
import numpy as np


def solve(goal, jumps):
    goes_to = np.arange(goal + 1)
    goes_to[list(jumps)] = list(jumps.values())
    here = np.arange(goal)[:, None]
    spins = np.arange(1, 7)[None, :]

    def ends(move):
        """Where a move of ``move`` from each square (rows) ends, for each spin (columns)."""
        target = here + move
        return np.where(target > goal, here, goes_to[np.minimum(target, goal)])

    plain, boost = ends(spins), ends(spins + 1)
    V = np.zeros(goal + 1)
    for _ in range(1000000):
        best = np.minimum(V[plain], V[boost])
        new = np.append(1 + best.mean(axis=1), 0.0)
        done = np.abs(new - V).max() < 1e-12
        V = new
        if done:
            break
    return V
'''

# -------------------------------------------------------------------------- token-boosted
_TOKENS_LAYERED = """
import numpy as np

TOKENS = 3


def solve(goal, jumps):
    goes_to = np.arange(goal + 1)
    for start, end in jumps.items():
        goes_to[start] = end
    squares = np.arange(goal)[:, None]
    spins = np.arange(1, 7)[None, :]

    def ends(move):
        target = squares + move
        return np.where(target > goal, squares, goes_to[np.minimum(target, goal)])

    plain, boosted = ends(spins), ends(spins + 1)
    # One table after the other: the table for k tokens needs only itself and k - 1's.
    tables = []
    for k in range(TOKENS + 1):
        V = np.zeros(goal + 1)
        while True:
            if k == 0:
                best = V[plain]
            else:
                best = np.minimum(V[plain], tables[k - 1][boosted])
            new = np.zeros(goal + 1)
            new[:goal] = 1 + best.mean(axis=1)
            change = np.abs(new - V).max()
            V = new
            if change < 1e-12:
                break
        tables.append(V)
    return tables
"""

_TOKENS_JACOBI = """
TOKENS = 3
FACES = 6


def solve(goal, jumps):
    goes_to = {}
    for square in range(goal + 1):
        goes_to[square] = jumps.get(square, square)

    def land(i, move):
        return i if i + move > goal else goes_to[i + move]

    # land_at[i][m]: where a move of m from square i ends (worked out once).
    land_at = [[land(i, m) for m in range(FACES + 2)] for i in range(goal)]
    # All (tokens, square) states at once, each sweep from the last sweep's values.
    V = [[0.0] * (goal + 1) for _ in range(TOKENS + 1)]
    change = 1.0
    while change >= 1e-12:
        change = 0.0
        new = [row[:] for row in V]
        for k in range(TOKENS + 1):
            for i in range(goal):
                to = land_at[i]
                acc = 0.0
                for s in range(1, FACES + 1):
                    option = V[k][to[s]]
                    if k >= 1:
                        option = min(option, V[k - 1][to[s + 1]])
                    acc += option
                new[k][i] = 1 + acc / FACES
                change = max(change, abs(new[k][i] - V[k][i]))
        V = new
    return V
"""

_TOKENS_CLASS = '''
TOKENS = 3


class TokenGame:
    """The game with boost tokens: ``V[k][square]`` with ``k`` tokens left."""

    def __init__(self, goal, jumps, tokens, faces=6):
        self.goal = goal
        self.tokens = tokens
        self.faces = faces
        self.goes_to = [jumps.get(i, i) for i in range(goal + 1)]
        self.V = [[0.0] * (goal + 1) for _ in range(tokens + 1)]

    def move(self, square, steps):
        target = square + steps
        if target > self.goal:
            return square
        return self.goes_to[target]

    def backup(self, k, square):
        total = 0.0
        for spin in range(1, self.faces + 1):
            keep = self.V[k][self.move(square, spin)]
            if k > 0:
                keep = min(keep, self.V[k - 1][self.move(square, spin + 1)])
            total += keep
        return 1.0 + total / self.faces

    def sweep(self):
        """One Gauss-Seidel sweep over every state, in place; the largest change."""
        worst = 0.0
        for k in range(self.tokens + 1):
            for square in reversed(range(self.goal)):
                value = self.backup(k, square)
                worst = max(worst, abs(value - self.V[k][square]))
                self.V[k][square] = value
        return worst

    def solve(self):
        while self.sweep() > 1e-12:
            pass
        return self.V


def solve(goal, jumps):
    return TokenGame(goal, jumps, TOKENS).solve()
'''

# ---------------------------------------------------------------------------------- aimed
_AIMED_LOOPS = """
AIMS = range(1, 7)
NOISE = (0.25, 0.5, 0.25)  # moves aim - 1, aim, aim + 1


def solve(goal, jumps):
    goes_to = list(range(goal + 1))
    for start, end in jumps.items():
        goes_to[start] = end

    def land(square, move):
        target = square + move
        if target > goal or target == square:
            return square
        return goes_to[target]

    def q(V, square, aim):
        return 1 + sum(p * V[land(square, aim + d)] for d, p in zip((-1, 0, 1), NOISE))

    V = [0.0] * (goal + 1)
    while True:
        new = [min(q(V, i, a) for a in AIMS) for i in range(goal)] + [0.0]
        done = max(abs(x - y) for x, y in zip(new, V)) < 1e-12
        V = new
        if done:
            break
    aims = []
    for i in range(goal):
        options = [q(V, i, a) for a in AIMS]
        aims.append(AIMS[options.index(min(options))])
    return V, aims
"""

_AIMED_NUMPY = """
import numpy as np


def solve(goal, jumps):
    noise = np.array([0.25, 0.5, 0.25])
    aims = np.arange(1, 7)
    goes_to = np.arange(goal + 1)
    for start, end in jumps.items():
        goes_to[start] = end
    # ends[i, a, d]: where aim aims[a] from square i ends for the noise outcome d.
    squares = np.arange(goal)[:, None, None]
    target = squares + aims[None, :, None] + np.array([-1, 0, 1])[None, None, :]
    stays = (target > goal) | (target == squares)
    ends = np.where(stays, squares, goes_to[np.minimum(target, goal)])
    V = np.zeros(goal + 1)
    while True:
        Q = 1 + (V[ends] * noise).sum(axis=2)
        new = np.append(Q.min(axis=1), 0.0)
        converged = np.abs(new - V).max() < 1e-12
        V = new
        if converged:
            break
    return V.tolist(), aims[Q.argmin(axis=1)].tolist()
"""

_AIMED_GAUSS_SEIDEL = """
NOISE = {-1: 0.25, 0: 0.5, 1: 0.25}
MAX_AIM = 6


def solve(goal, jumps):
    goes_to = {square: square for square in range(goal + 1)}
    goes_to.update(jumps)
    V = [0.0] * (goal + 1)
    policy = [1] * goal

    def expected(i, aim):
        total = 1.0
        for offset, p in NOISE.items():
            move = aim + offset
            j = i + move
            if move == 0 or j > goal:
                j = i
            else:
                j = goes_to[j]
            total += p * V[j]
        return total

    # In place, from the goal end down; the best aim is kept as the sweep goes.
    while True:
        change = 0.0
        for i in range(goal - 1, -1, -1):
            best_aim, best = 1, expected(i, 1)
            for aim in range(2, MAX_AIM + 1):
                value = expected(i, aim)
                if value < best:
                    best_aim, best = aim, value
            change = max(change, abs(best - V[i]))
            V[i] = best
            policy[i] = best_aim
        if change < 1e-12:
            return V, policy
"""

# ---------------------------------------------------------------------------------- efron
_EFRON_LOOPS = """
DICE = {
    "Blue": [3, 3, 3, 3, 3, 3],
    "Black": [4, 4, 4, 4, 0, 0],
    "Red": [6, 6, 2, 2, 2, 2],
    "Green": [5, 5, 5, 1, 1, 1],
}


def solve(goal, jumps):
    goes_to = list(range(goal + 1))
    for start, end in jumps.items():
        goes_to[start] = end

    def land(i, face):
        if face == 0:
            return i
        if i + face >= goal:
            return goal
        return goes_to[i + face]

    # legal[i]: the dice that can move the piece from i, with where each face leads.
    legal = []
    for i in range(goal):
        here = {}
        for name, faces in DICE.items():
            ends = [land(i, face) for face in faces]
            if any(end != i for end in ends):
                here[name] = ends
        legal.append(here)

    def q(V, ends):
        return 1 + sum(V[end] for end in ends) / len(ends)

    V = [0.0] * (goal + 1)
    while True:
        new = [min(q(V, ends) for ends in legal[i].values()) for i in range(goal)] + [0.0]
        done = max(abs(a - b) for a, b in zip(new, V)) < 1e-12
        V = new
        if done:
            break
    choice = [min(legal[i], key=lambda name: q(V, legal[i][name])) for i in range(goal)]
    return V, choice
"""

_EFRON_NUMPY = """
import numpy as np

DICE = {
    "Blue": (3, 3, 3, 3, 3, 3),
    "Black": (4, 4, 4, 4, 0, 0),
    "Red": (6, 6, 2, 2, 2, 2),
    "Green": (5, 5, 5, 1, 1, 1),
}


def solve(goal, jumps):
    goes_to = np.arange(goal + 1)
    for start, end in jumps.items():
        goes_to[start] = end
    names = list(DICE)
    squares = np.arange(goal)[:, None]
    ends = []
    for name in names:
        faces = np.array(DICE[name])[None, :]
        target = goes_to[np.minimum(squares + faces, goal)]
        ends.append(np.where(faces == 0, squares, target))
    # legal[d, i]: die d moves the piece from square i with at least one face.
    legal = np.array([(e != squares).any(axis=1) for e in ends])
    V = np.zeros(goal + 1)
    while True:
        Q = np.array([1 + V[e].mean(axis=1) for e in ends])
        Q[~legal] = np.inf
        new = np.append(Q.min(axis=0), 0.0)
        finished = np.abs(new - V).max() < 1e-12
        V = new
        if finished:
            break
    return V.tolist(), [names[d] for d in Q.argmin(axis=0)]
"""

_EFRON_CLASS = '''
class EfronGame:
    DICE = (
        ("Blue", (3, 3, 3, 3, 3, 3)),
        ("Black", (4, 4, 4, 4, 0, 0)),
        ("Red", (6, 6, 2, 2, 2, 2)),
        ("Green", (5, 5, 5, 1, 1, 1)),
    )

    def __init__(self, goal, jumps):
        self.goal = goal
        self.jumps = jumps
        self.values = [0.0] * (goal + 1)

    def land(self, square, face):
        target = square + face
        if target >= self.goal:
            return self.goal
        if target == square:
            return square
        return self.jumps.get(target, target)

    def choices(self, square):
        """(name, where its faces lead) for each die that can move the piece."""
        for name, faces in self.DICE:
            ends = [self.land(square, face) for face in faces]
            if any(end != square for end in ends):
                yield name, ends

    def cost(self, ends):
        return 1 + sum(self.values[end] for end in ends) / len(ends)

    def best(self, square):
        return min(self.choices(square), key=lambda choice: self.cost(choice[1]))

    def solve(self):
        # Gauss-Seidel from square 0 up, in place.
        while True:
            change = 0.0
            for square in range(self.goal):
                value = self.cost(self.best(square)[1])
                change = max(change, abs(value - self.values[square]))
                self.values[square] = value
            if change < 1e-12:
                break
        return self.values, [self.best(square)[0] for square in range(self.goal)]


def solve(goal, jumps):
    return EfronGame(goal, jumps).solve()
'''

# ------------------------------------------------------------------------------ trap lane
_TRAP_LOOPS = '''
# code -> (faces, the chance that a trap where the move ends goes off)
DICE = {1: ((0, 1), 0.0), 2: ((0, 1, 2), 0.5), 3: ((0, 1, 2, 3), 1.0)}
SLOW = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15]
FAST = [1, 2, 3, 11, 12, 13, 14, 15]


def ends(square, steps, circle):
    """[(probability, square)]: where a move of ``steps`` from ``square`` can end."""
    if steps == 0:
        return [(1.0, square)]
    if square == 3:
        lanes = [(0.5, SLOW), (0.5, FAST)]
    elif square >= 11:
        lanes = [(1.0, FAST)]
    else:
        lanes = [(1.0, SLOW)]
    out = []
    for p, lane in lanes:
        k = lane.index(square) + steps
        if k < len(lane):
            out.append((p, lane[k]))
        elif circle:
            out.append((p, k - len(lane) + 1))
        else:
            out.append((p, 15))
    return out


def penalty_square(square):
    if square >= 11:
        return {11: 1, 12: 2, 13: 3, 14: 11}[square]
    return max(1, square - 3)


def after_trap(square, trap, V):
    """The turn's cost plus what follows, once the trap on ``square`` has gone off."""
    if trap == 1:
        return 1 + V[1]
    if trap == 2:
        return 1 + V[penalty_square(square)]
    if trap == 3:
        return 2 + V[square]
    return 1 + sum(V[1:16]) / 15


def q_value(square, die, V, layout, circle):
    faces, trigger = DICE[die]
    total = 0.0
    for face in faces:
        for p, end in ends(square, face, circle):
            weight = p / len(faces)
            trap = 0 if end == 15 else layout[end - 1]
            if trap == 0:
                total += weight * (1 + V[end])
            else:
                fired = after_trap(end, trap, V)
                total += weight * ((1 - trigger) * (1 + V[end]) + trigger * fired)
    return total


def markovDecision(layout, circle):
    V = [0.0] * 16  # V[1..15]; V[15] stays 0
    while True:
        change = 0.0
        for square in range(14, 0, -1):
            best = min(q_value(square, die, V, layout, circle) for die in DICE)
            change = max(change, abs(best - V[square]))
            V[square] = best
        if change < 1e-12:
            break
    dice = [min(DICE, key=lambda d: q_value(s, d, V, layout, circle)) for s in range(1, 15)]
    return [V[1:15], dice]
'''

_TRAP_NUMPY = '''
import numpy as np

TRIGGER = {1: 0.0, 2: 0.5, 3: 1.0}
FACES = {1: [0, 1], 2: [0, 1, 2], 3: [0, 1, 2, 3]}
# BACK3[square]: where a penalty on that square sends the piece.
BACK3 = [0, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 11, 15]


def step(square, circle):
    """One square further along the lane (the junction is left to the caller)."""
    if square in (10, 14):
        return 15
    if square == 15:
        return 1 if circle else 15
    return square + 1


def landings(square, face, circle):
    if face == 0:
        return [(1.0, square)]
    if square == 3:
        starts = [(0.5, 4), (0.5, 11)]
    else:
        starts = [(1.0, step(square, circle))]
    out = []
    for p, where in starts:
        for _ in range(face - 1):
            where = step(where, circle)
        out.append((p, where))
    return out


def model(layout, circle):
    """P[d, s, t] and the expected cost c[d, s] of a turn; squares 1..15 as 0..14."""
    P = np.zeros((3, 15, 15))
    c = np.zeros((3, 15))
    for d in (1, 2, 3):
        for s in range(1, 15):
            for face in FACES[d]:
                for p_lane, end in landings(s, face, circle):
                    p = p_lane / len(FACES[d])
                    trap = layout[end - 1] if end != 15 else 0
                    fire = TRIGGER[d] if trap else 0.0
                    c[d - 1, s - 1] += p
                    P[d - 1, s - 1, end - 1] += p * (1 - fire)
                    if trap == 1:
                        P[d - 1, s - 1, 0] += p * fire
                    elif trap == 2:
                        P[d - 1, s - 1, BACK3[end] - 1] += p * fire
                    elif trap == 3:
                        P[d - 1, s - 1, end - 1] += p * fire
                        c[d - 1, s - 1] += p * fire
                    elif trap == 4:
                        P[d - 1, s - 1, :] += p * fire / 15
    return P, c


def markovDecision(layout, circle):
    P, c = model(layout, circle)
    V = np.zeros(15)
    while True:
        Q = c + P @ V
        new = Q.min(axis=0)
        new[14] = 0.0
        if np.max(np.abs(new - V)) < 1e-12:
            break
        V = new
    dice = Q.argmin(axis=0)[:14] + 1
    return [new[:14].tolist(), dice.tolist()]
'''

_TRAP_DICTS = '''
DICE = {
    1: {"faces": [0, 1], "trigger": 0.0},
    2: {"faces": [0, 1, 2], "trigger": 0.5},
    3: {"faces": [0, 1, 2, 3], "trigger": 1.0},
}
PENALTY = {11: 1, 12: 2, 13: 3, 14: 11}


def move(square, face, circle):
    """{end square: probability} for a move of ``face`` squares from ``square``."""
    if face == 0:
        return {square: 1.0}
    if square == 3:
        lanes = ["slow", "fast"]
    elif square > 10:
        lanes = ["fast"]
    else:
        lanes = ["slow"]
    result = {}
    for lane in lanes:
        if lane == "slow":
            to_goal = 11 - square  # 10 is one square from the goal
        else:
            pos = 3 if square == 3 else square - 7  # 3, 11..14 at positions 3, 4..7
            to_goal = 8 - pos
        if face < to_goal:
            end = square + face if lane == "slow" else pos + face + 7
        elif face == to_goal or not circle:
            end = 15
        else:
            end = face - to_goal  # round the circle: past 15 by e squares is square e
        result[end] = result.get(end, 0.0) + 1.0 / len(lanes)
    return result


def expected_cost(square, die, V, layout, circle):
    faces = DICE[die]["faces"]
    chance = DICE[die]["trigger"]
    total = 0.0
    for face in faces:
        for end, p in move(square, face, circle).items():
            p /= len(faces)
            if end == 15:
                total += p
                continue
            trap = layout[end - 1]
            plain = 1 + V[end]
            if trap == 0 or chance == 0:
                total += p * plain
                continue
            if trap == 1:
                fired = 1 + V[1]
            elif trap == 2:
                fired = 1 + V[PENALTY.get(end, max(1, end - 3))]
            elif trap == 3:
                fired = 2 + V[end]
            else:
                fired = 1 + sum(V.values()) / 15
            total += p * ((1 - chance) * plain + chance * fired)
    return total


def markovDecision(layout, circle):
    V = {square: 0.0 for square in range(1, 16)}
    change = 1.0
    while change > 1e-12:
        new = {}
        for square in range(1, 15):
            new[square] = min(expected_cost(square, d, V, layout, circle) for d in DICE)
        new[15] = 0.0
        change = max(abs(new[s] - V[s]) for s in V)
        V = new
    Expec, Dice = [], []
    for square in range(1, 15):
        costs = {d: expected_cost(square, d, V, layout, circle) for d in DICE}
        Expec.append(V[square])
        Dice.append(min(costs, key=costs.get))
    return [Expec, Dice]
'''


def _jump(body: str, main: str, actions: bool = False) -> str:
    return _JUMP_HEAD + (_ACTIONS_PRINT if actions else "") + body + main


def _trap(body: str) -> str:
    return _TRAP_HEAD + body + _TRAP_MAIN


TEMPLATES: tuple[Template, ...] = (
    Template("classic", "numpy", "transition matrix, vectorised Jacobi sweeps",
             _jump(_CLASSIC_NUMPY, _VALUES_MAIN)),
    Template("classic", "gauss_seidel", "plain lists, in-place sweeps from the goal down",
             _jump(_CLASSIC_GAUSS_SEIDEL, _VALUES_MAIN)),
    Template("classic", "dicts", "dicts, a function per Bellman backup, while on max change",
             _jump(_CLASSIC_DICTS, _VALUES_MAIN)),
    Template("boosted", "loops", "plain lists, Jacobi sweeps, a next-square helper",
             _jump(_BOOSTED_LOOPS, _VALUES_MAIN)),
    Template("boosted", "gauss_seidel", "plain lists, in-place sweeps from square 0 up",
             _jump(_BOOSTED_GAUSS_SEIDEL, _VALUES_MAIN)),
    Template("boosted", "numpy", "precomputed landing arrays, vectorised sweeps",
             _jump(_BOOSTED_NUMPY, _VALUES_MAIN)),
    Template("token-boosted", "layered", "numpy, one table after the other to convergence",
             _jump(_TOKENS_LAYERED, _TOKENS_MAIN)),
    Template("token-boosted", "jacobi", "plain lists, all states each Jacobi sweep",
             _jump(_TOKENS_JACOBI, _TOKENS_MAIN)),
    Template("token-boosted", "class", "a class with backup and in-place sweep methods",
             _jump(_TOKENS_CLASS, _TOKENS_MAIN)),
    Template("aimed", "loops", "plain lists, Jacobi sweeps, a Q function, argmin by index",
             _jump(_AIMED_LOOPS, _ACTIONS_MAIN, actions=True)),
    Template("aimed", "numpy", "a (square, aim, outcome) landing array, vectorised",
             _jump(_AIMED_NUMPY, _ACTIONS_MAIN, actions=True)),
    Template("aimed", "gauss_seidel", "in-place sweeps from the goal down, best aim kept",
             _jump(_AIMED_GAUSS_SEIDEL, _ACTIONS_MAIN, actions=True)),
    Template("efron", "loops", "dict of dice, legal dice listed first, Jacobi sweeps",
             _jump(_EFRON_LOOPS, _ACTIONS_MAIN, actions=True)),
    Template("efron", "numpy", "a landing array per die, illegal dice as infinity",
             _jump(_EFRON_NUMPY, _ACTIONS_MAIN, actions=True)),
    Template("efron", "class", "a class, a generator of legal dice, in-place sweeps",
             _jump(_EFRON_CLASS, _ACTIONS_MAIN, actions=True)),
    Template("trap-lane", "loops", "lanes as lists, a function per backup, in-place sweeps",
             _trap(_TRAP_LOOPS)),
    Template("trap-lane", "numpy", "transition matrices per die, vectorised Jacobi sweeps",
             _trap(_TRAP_NUMPY)),
    Template("trap-lane", "dicts", "distances to the goal, dicts, Jacobi sweeps",
             _trap(_TRAP_DICTS)),
)  # fmt: skip

# ----------------------------------------------------------------- reusable substitutions
# The same mistake written into different templates: the text each template has for it.
_IGNORE_BOARD = (
    "goal, jumps = read_board(argv[1]) if len(argv) > 1 else (GOAL, JUMPS)",
    "goal, jumps = GOAL, JUMPS",
)
_ROUND_WHOLE = ("values = solve(goal, jumps)", "values = [round(v) for v in solve(goal, jumps)]")
_ROUND_ONE = ("values = solve(goal, jumps)", "values = [round(v, 1) for v in solve(goal, jumps)]")
_FOR_START_END = ("        goes_to[start] = end\n", "        goes_to[start - 1] = end\n")

MUTATIONS: tuple[Mutation, ...] = (
    # ---------------------------------------------------------------------------- classic
    Mutation(
        "classic/discount-095", "numpy", "parameter",
        "discounts every future turn by 0.95 (V = 1 + 0.95 * average of the next values); "
        "the game has no discount",
        (("new = cost + P @ V", "new = cost + 0.95 * (P @ V)"),),
    ),
    Mutation(
        "classic/fixed-35-sweeps", "gauss_seidel", "parameter",
        "stops value iteration after a fixed 35 sweeps instead of sweeping until the values "
        "stop changing",
        (("    while True:\n        biggest", "    for sweep in range(35):\n        biggest"),),
    ),
    Mutation(
        "classic/spinner-8-faces", "dicts", "parameter",
        "spins a spinner of 8 faces (1..8) instead of 6",
        (("SPIN = range(1, 7)", "SPIN = range(1, 9)"),),
    ),
    Mutation(
        "classic/jumps-shifted", "gauss_seidel", "structural",
        "builds the jump table one square early: the chute or ladder of square s is put on "
        "square s - 1",
        (("goes_to[start] = jumps[start]", "goes_to[start - 1] = jumps[start]"),),
    ),
    Mutation(
        "classic/rows-mirrored", "dicts", "structural",
        "prints each row's values left to right in increasing square order while the square "
        "numbers follow the board's alternating direction, so every other row (the top row "
        "included) shows its values mirrored",
        ((
            '"%3d: %5.2f " % (i, values[i]) for i in row',
            '"%3d: %5.2f " % (i, values[j]) for i, j in zip(row, sorted(row))',
        ),),
    ),
    Mutation(
        "classic/overshoot-wins", "numpy", "converged-wrong",
        "lets a spin that passes the goal win instead of leaving the piece where it stands "
        "(the goal must be reached by exact count)",
        (("P[i, i] += 1 / SPINNER", "P[i, goal] += 1 / SPINNER"),),
    ),
    Mutation(
        "classic/hardcoded-public-answer", "dicts", "not-solving",
        "prints the public board's answer copied into the program (two decimals) on every "
        "board instead of solving the board it is given",
        (
            (
                "def main(argv):",
                "PUBLIC_VALUES = " + CLASSIC_PUBLIC_VALUES + "\n\n\ndef main(argv):",
            ),
            ("values = solve(goal, jumps)", "values = PUBLIC_VALUES"),
        ),
    ),
    Mutation(
        "classic/rounded-whole", "gauss_seidel", "not-solving",
        "rounds every value to a whole number of turns before printing it with two decimals",
        (_ROUND_WHOLE,),
    ),
    Mutation(
        "classic/discount-097-and-jumps-shifted", "dicts", "structural",
        "two mistakes: discounts every future turn by 0.97, and puts the chute or ladder of "
        "square s on square s - 1",
        (
            ("return 1 + sum(", "return 1 + 0.97 * sum("),
            (
                "goes_to = dict(jumps)",
                "goes_to = {start - 1: end for start, end in jumps.items()}",
            ),
        ),
    ),
    # ---------------------------------------------------------------------------- boosted
    Mutation(
        "boosted/moves-averaged", "loops", "structural",
        "averages the values of the two moves s and s + 1 instead of choosing the better one "
        "after the spin",
        ((
            "min(V[next_square(i, s)], V[next_square(i, s + 1)])",
            "(V[next_square(i, s)] + V[next_square(i, s + 1)]) / 2",
        ),),
    ),
    Mutation(
        "boosted/boost-up-to-two", "loops", "converged-wrong",
        "lets the player move s, s + 1 or s + 2 after the spin (a boost of up to two squares) "
        "instead of s or s + 1",
        ((
            "min(V[next_square(i, s)], V[next_square(i, s + 1)])",
            "min(V[next_square(i, s)], V[next_square(i, s + 1)], V[next_square(i, s + 2)])",
        ),),
    ),
    Mutation(
        "boosted/spinner-5-faces", "loops", "parameter",
        "spins a spinner of 5 faces (1..5) instead of 6",
        (("FACES = 6", "FACES = 5"),),
    ),
    Mutation(
        "boosted/jumps-shifted", "gauss_seidel", "structural",
        "builds the jump table one square early: square s takes the chute or ladder that "
        "starts on square s + 1",
        (("jumps.get(square, square)", "jumps.get(square + 1, square)"),),
    ),
    Mutation(
        "boosted/rounded-one-decimal", "gauss_seidel", "not-solving",
        "rounds every value to one decimal before printing it with two decimals",
        (_ROUND_ONE,),
    ),
    Mutation(
        "boosted/discount-08", "numpy", "parameter",
        "discounts every future turn by 0.8 (V = 1 + 0.8 * the average); the game has no "
        "discount",
        (("new = np.append(1 + best.mean(axis=1), 0.0)",
          "new = np.append(1 + 0.8 * best.mean(axis=1), 0.0)"),),
    ),
    Mutation(
        "boosted/ignores-board-file", "numpy", "not-solving",
        "ignores the board file it is given and always solves the public board written in "
        "the program",
        (_IGNORE_BOARD,),
    ),
    Mutation(
        "boosted/averaged-and-discount-095", "numpy", "structural",
        "two mistakes: averages the moves s and s + 1 instead of choosing the better one, and "
        "discounts every future turn by 0.95",
        (
            ("best = np.minimum(V[plain], V[boost])", "best = (V[plain] + V[boost]) / 2"),
            ("new = np.append(1 + best.mean(axis=1), 0.0)",
             "new = np.append(1 + 0.95 * best.mean(axis=1), 0.0)"),
        ),
    ),
    # ---------------------------------------------------------------------- token-boosted
    Mutation(
        "token-boosted/boost-spends-two-tokens", "layered", "structural",
        "makes each boost (a move of s + 1) spend two tokens instead of one, so one token "
        "left is as good as none",
        (
            ("if k == 0:", "if k < 2:"),
            ("tables[k - 1][boosted]", "tables[k - 2][boosted]"),
        ),
    ),
    Mutation(
        "token-boosted/fixed-20-sweeps", "layered", "parameter",
        "fills each token table with a fixed 20 sweeps instead of sweeping until its values "
        "stop changing",
        (("        while True:\n            if k == 0:",
          "        for sweep in range(20):\n            if k == 0:"),),
    ),
    Mutation(
        "token-boosted/discount-097", "layered", "parameter",
        "discounts every future turn by 0.97; the game has no discount",
        (("new[:goal] = 1 + best.mean(axis=1)", "new[:goal] = 1 + 0.97 * best.mean(axis=1)"),),
    ),
    Mutation(
        "token-boosted/boost-with-no-tokens", "jacobi", "converged-wrong",
        "lets the player boost with no token left: the table for 0 tokens reads the boosted "
        "move from V[k - 1], which for k = 0 is Python's V[-1], the table for all 3 tokens",
        ((
            "                    if k >= 1:\n"
            "                        option = min(option, V[k - 1][to[s + 1]])\n",
            "                    option = min(option, V[k - 1][to[s + 1]])\n",
        ),),
    ),
    Mutation(
        "token-boosted/rounded-whole", "jacobi", "not-solving",
        "rounds every value to a whole number of turns before printing it with two decimals",
        (("tables = solve(goal, jumps)",
          "tables = [[round(v) for v in table] for table in solve(goal, jumps)]"),),
    ),
    Mutation(
        "token-boosted/values-reversed", "jacobi", "structural",
        "prints each table with its values reversed (the list read from the goal end, as the "
        "board's top row comes first), so square i shows the value of square goal - i",
        (('print(heading + ":")\n', 'print(heading + ":")\n    values = values[::-1]\n'),),
    ),
    Mutation(
        "token-boosted/fixed-50-sweeps", "class", "parameter",
        "stops after a fixed 50 in-place sweeps instead of sweeping until the values stop "
        "changing",
        (("        while self.sweep() > 1e-12:\n            pass",
          "        for _ in range(50):\n            self.sweep()"),),
    ),
    Mutation(
        "token-boosted/jumps-shifted-and-discount-095", "class", "structural",
        "two mistakes: square i takes the chute or ladder that starts on square i + 1, and "
        "every future turn is discounted by 0.95",
        (
            ("[jumps.get(i, i) for i in range(goal + 1)]",
             "[jumps.get(i + 1, i) for i in range(goal + 1)]"),
            ("return 1.0 + total / self.faces", "return 1.0 + 0.95 * total / self.faces"),
        ),
    ),
    # ------------------------------------------------------------------------------ aimed
    Mutation(
        "aimed/noise-20-60-20", "loops", "parameter",
        "uses the noise 0.2/0.6/0.2 for the moves aim - 1, aim, aim + 1 instead of "
        "0.25/0.5/0.25",
        (("NOISE = (0.25, 0.5, 0.25)", "NOISE = (0.2, 0.6, 0.2)"),),
    ),
    Mutation(
        "aimed/aims-1-to-5", "loops", "structural",
        "lets the player aim only 1..5 instead of 1..6",
        (("AIMS = range(1, 7)", "AIMS = range(1, 6)"),),
    ),
    Mutation(
        "aimed/worst-aim-printed", "loops", "structural",
        "computes the right values but prints, on each square, the aim of the largest "
        "expected cost (the worst aim) instead of the smallest",
        (("options.index(min(options))", "options.index(max(options))"),),
    ),
    Mutation(
        "aimed/aims-1-to-7", "loops", "converged-wrong",
        "lets the player aim 1..7 instead of 1..6",
        (("AIMS = range(1, 7)", "AIMS = range(1, 8)"),),
    ),
    Mutation(
        "aimed/noise-10-80-10", "numpy", "parameter",
        "uses the noise 0.1/0.8/0.1 instead of 0.25/0.5/0.25",
        (("np.array([0.25, 0.5, 0.25])", "np.array([0.1, 0.8, 0.1])"),),
    ),
    Mutation(
        "aimed/noise-30-50-20", "numpy", "parameter",
        "uses the lopsided noise 0.3/0.5/0.2 (short more often than long) instead of "
        "0.25/0.5/0.25",
        (("np.array([0.25, 0.5, 0.25])", "np.array([0.3, 0.5, 0.2])"),),
    ),
    Mutation(
        "aimed/discount-095", "numpy", "parameter",
        "discounts every future turn by 0.95 under the turns objective, which has no discount",
        (("Q = 1 + (V[ends] * noise).sum(axis=2)",
          "Q = 1 + 0.95 * (V[ends] * noise).sum(axis=2)"),),
    ),
    Mutation(
        "aimed/ignores-board-file", "gauss_seidel", "not-solving",
        "ignores the board file it is given and always solves the public board written in "
        "the program",
        (_IGNORE_BOARD,),
    ),
    Mutation(
        "aimed/aims-1-to-5-and-noise-20-60-20", "gauss_seidel", "structural",
        "two mistakes: aims only 1..5 instead of 1..6, and uses the noise 0.2/0.6/0.2 instead "
        "of 0.25/0.5/0.25",
        (
            ("MAX_AIM = 6", "MAX_AIM = 5"),
            ("NOISE = {-1: 0.25, 0: 0.5, 1: 0.25}", "NOISE = {-1: 0.2, 0: 0.6, 1: 0.2}"),
        ),
    ),
    # ------------------------------------------------------------------------------ efron
    Mutation(
        "efron/red-die-666222", "loops", "parameter",
        "types the Red die as 6,6,6,2,2,2 instead of 6,6,2,2,2,2",
        (('"Red": [6, 6, 2, 2, 2, 2]', '"Red": [6, 6, 6, 2, 2, 2]'),),
    ),
    Mutation(
        "efron/worst-die-printed", "loops", "structural",
        "computes the right values but prints, on each square, the die of the largest "
        "expected cost (the worst legal die) instead of the smallest",
        (("choice = [min(legal[i]", "choice = [max(legal[i]"),),
    ),
    Mutation(
        "efron/chutes-ignored", "loops", "structural",
        "applies the ladders but ignores every chute (a move ending on a chute's square "
        "stays there)",
        ((
            "        goes_to[start] = end\n",
            "        if end > start:\n            goes_to[start] = end\n",
        ),),
    ),
    Mutation(
        "efron/green-die-551111", "numpy", "parameter",
        "types the Green die as 5,5,1,1,1,1 instead of 5,5,5,1,1,1",
        (('"Green": (5, 5, 5, 1, 1, 1)', '"Green": (5, 5, 1, 1, 1, 1)'),),
    ),
    Mutation(
        "efron/jumps-shifted", "numpy", "structural",
        "builds the jump table one square early: the chute or ladder of square s is put on "
        "square s - 1",
        (_FOR_START_END,),
    ),
    Mutation(
        "efron/rounded-whole", "numpy", "not-solving",
        "rounds every value to a whole number of turns before printing it with two decimals",
        (("values, actions = solve(goal, jumps)",
          "values, actions = solve(goal, jumps)\n    values = [round(v) for v in values]"),),
    ),
    Mutation(
        "efron/black-die-444000", "class", "parameter",
        "types the Black die as 4,4,4,0,0,0 instead of 4,4,4,4,0,0",
        (('("Black", (4, 4, 4, 4, 0, 0))', '("Black", (4, 4, 4, 0, 0, 0))'),),
    ),
    Mutation(
        "efron/jumps-optional", "class", "converged-wrong",
        "treats every chute and ladder as optional: where a roll ends on a jump's square the "
        "player takes the jump or stays, whichever is worth more (a jump is compulsory)",
        (
            ("return self.jumps.get(target, target)", "return target"),
            (
                "return 1 + sum(self.values[end] for end in ends) / len(ends)",
                "return 1 + sum(\n"
                "            min(self.values[end], self.values[self.jumps.get(end, end)])\n"
                "            for end in ends\n"
                "        ) / len(ends)",
            ),
        ),
    ),
    Mutation(
        "efron/red-die-666222-and-worst-die", "class", "structural",
        "two mistakes: types the Red die as 6,6,6,2,2,2, and prints on each square the die of "
        "the largest expected cost instead of the smallest",
        (
            ('("Red", (6, 6, 2, 2, 2, 2))', '("Red", (6, 6, 6, 2, 2, 2))'),
            (
                "[self.best(square)[0] for square in range(self.goal)]",
                "[max(self.choices(square), key=lambda c: self.cost(c[1]))[0]\n"
                "                             for square in range(self.goal)]",
            ),
        ),
    ),
    # -------------------------------------------------------------------------- trap lane
    Mutation(
        "trap-lane/prison-costs-three", "loops", "parameter",
        "charges a prison three turns (the turn and two lost) instead of two",
        (("return 2 + V[square]", "return 3 + V[square]"),),
    ),
    Mutation(
        "trap-lane/normal-die-never-triggers", "loops", "converged-wrong",
        "gives the normal die a trigger chance of 0 (traps never go off) instead of 1/2",
        (("2: ((0, 1, 2), 0.5)", "2: ((0, 1, 2), 0.0)"),),
    ),
    Mutation(
        "trap-lane/worst-die-printed", "loops", "structural",
        "computes the right values but prints, on each square, the die of the largest "
        "expected cost (the worst die) instead of the smallest",
        (("dice = [min(DICE, key=", "dice = [max(DICE, key="),),
    ),
    Mutation(
        "trap-lane/risky-die-half-trigger", "numpy", "parameter",
        "gives the risky die a trigger chance of 1/2 instead of 1 (traps always go off)",
        (("TRIGGER = {1: 0.0, 2: 0.5, 3: 1.0}", "TRIGGER = {1: 0.0, 2: 0.5, 3: 0.5}"),),
    ),
    Mutation(
        "trap-lane/discount-09", "numpy", "parameter",
        "discounts every future turn by 0.9; the game has no discount",
        (("Q = c + P @ V", "Q = c + 0.9 * (P @ V)"),),
    ),
    Mutation(
        "trap-lane/layout-shifted", "numpy", "structural",
        "reads the trap of square s from layout[s] instead of layout[s - 1] (the trap of the "
        "next square)",
        (("trap = layout[end - 1] if end != 15 else 0", "trap = layout[end] if end != 15 else 0"),),
    ),
    Mutation(
        "trap-lane/ignores-board-file", "numpy", "not-solving",
        "ignores the board file it is given and always solves the public (empty, no circle) "
        "layout written in the program",
        ((
            "layout, circle = read_board(argv[1]) if len(argv) > 1 else (LAYOUT, CIRCLE)",
            "layout, circle = LAYOUT, CIRCLE",
        ),),
    ),
    Mutation(
        "trap-lane/penalty-back-two", "dicts", "parameter",
        "sends the piece back two squares along its lane on a penalty instead of three "
        "(11, 12, 13, 14 to 2, 3, 11, 12; any other square q to q - 2, never below 1)",
        (
            ("PENALTY = {11: 1, 12: 2, 13: 3, 14: 11}", "PENALTY = {11: 2, 12: 3, 13: 11, 14: 12}"),
            ("max(1, end - 3)", "max(1, end - 2)"),
        ),
    ),
    Mutation(
        "trap-lane/rounded-one-decimal", "dicts", "not-solving",
        "rounds every expected cost to one decimal before printing it with four decimals",
        (("expec, dice = markovDecision(layout, circle)",
          "expec, dice = markovDecision(layout, circle)\n"
          "    expec = [round(v, 1) for v in expec]"),),
    ),
    Mutation(
        "trap-lane/normal-quarter-and-layout-shifted", "dicts", "structural",
        "two mistakes: gives the normal die a trigger chance of 1/4 instead of 1/2, and reads "
        "the trap of square s from layout[s] (the next square's trap)",
        (
            ('2: {"faces": [0, 1, 2], "trigger": 0.5}', '2: {"faces": [0, 1, 2], "trigger": 0.25}'),
            ("trap = layout[end - 1]", "trap = layout[end]"),
        ),
    ),
)  # fmt: skip
