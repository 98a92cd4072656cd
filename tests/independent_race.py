"""A second, deliberately plain implementation of the race (docs/rules.md, "## race").

Written from the rules alone, like ``tests/independent.py`` (whose ``goes_to`` and ``land``
it reuses): boards are lists, values are found by Gauss-Seidel sweeps in pure Python, and a
race is played square by square. Nothing here touches the project's models or solvers.

Tables have one row per square of the player to move and one column per square of the
other player. Each row carries one extra column for the goal: ``W[x][N] = 0`` (the other
player has already won), so that "1 if the mover reached N, else 1 - W(b, a')" is simply
``1 - W[b][a']``.
"""

from __future__ import annotations

import random

from tests.independent import goes_to, land

SETTLED = 1e-13  # largest change of a sweep at which the values count as found
SWEEPS = 100_000  # sweep cap
TIE = 1e-9  # the other player's tie rule in mode against-turns


def _moves_from(goal, table, overshoot, moves, faces, noise, square):
    """The choices on ``square``, as lists of ``(probability, square reached)``.

    classic: one choice (the spin). aimed: one choice per aim. boosted: the choice is made
    after the spin, so it is returned per spin: a list (one entry per spin, each with
    probability ``1/faces``) of the two squares reached by ``s`` and ``s + 1``.
    """
    if moves == "classic":
        return [[(1 / faces, land(goal, table, overshoot, square, s)) for s in range(1, faces + 1)]]
    if moves == "boosted":
        return [
            (
                land(goal, table, overshoot, square, s),
                land(goal, table, overshoot, square, s + 1),
            )
            for s in range(1, faces + 1)
        ]
    if moves == "aimed":
        return [
            [(p, land(goal, table, overshoot, square, aim - 1 + j)) for j, p in enumerate(noise)]
            for aim in range(1, faces + 1)
        ]
    raise ValueError(moves)


def _settle(sweep):
    for _ in range(SWEEPS):
        if sweep() < SETTLED:
            return
    raise AssertionError("independent race sweeps did not settle")


def single_player_values(goal, jumps, moves, faces=6, noise=(0.25, 0.5, 0.25), overshoot="stay"):
    """``V[0..goal]``: expected turns of the one-player game (classic, boosted or aimed)."""
    table = goes_to(goal, jumps)
    options = [_moves_from(goal, table, overshoot, moves, faces, noise, i) for i in range(goal)]
    V = [0.0] * (goal + 1)

    def update(i):
        if moves == "boosted":
            return 1 + sum(min(V[x], V[y]) for x, y in options[i]) / faces
        return 1 + min(sum(p * V[j] for p, j in choice) for choice in options[i])

    def sweep():
        change = 0.0
        for i in range(goal - 1, -1, -1):
            new = update(i)
            change = max(change, abs(new - V[i]))
            V[i] = new
        return change

    _settle(sweep)
    return V


def turn_minimising_moves(
    goal, jumps, moves, faces=6, noise=(0.25, 0.5, 0.25), overshoot="stay"
) -> list[list[tuple[float, int]]]:
    """For each square ``b`` in ``0..goal-1``, where the turn-minimising player on ``b``
    goes: a list of ``(probability, square reached)`` (the goal included).

    Ties (values within ``TIE``) go to the shorter move (``s`` before ``s + 1``) and to the
    lowest aim: the first action whose value is within ``TIE`` of the best."""
    V = single_player_values(goal, jumps, moves, faces, noise, overshoot)
    table = goes_to(goal, jumps)
    result = []
    for b in range(goal):
        options = _moves_from(goal, table, overshoot, moves, faces, noise, b)
        if moves == "boosted":
            chosen = []
            for x, y in options:
                chosen.append((1 / faces, x if V[x] <= V[y] + TIE else y))
            result.append(chosen)
        else:
            costs = [sum(p * V[j] for p, j in choice) for choice in options]
            best = min(costs)
            first = next(k for k, c in enumerate(costs) if c <= best + TIE)
            result.append(options[first])
    return result


def race_win_table(
    goal,
    jumps,
    moves="boosted",
    mode="win",
    faces=6,
    noise=(0.25, 0.5, 0.25),
    overshoot="stay",
) -> list[list[float]]:
    """``W[a][b]`` for ``a, b`` in ``0..goal-1``: the chance that the player to move, on
    ``a``, wins the race with the other player on ``b`` (docs/rules.md, "## race")."""
    table = goes_to(goal, jumps)
    options = [_moves_from(goal, table, overshoot, moves, faces, noise, i) for i in range(goal)]
    squares = range(goal - 1, -1, -1)
    if mode == "win":
        # W(a, b) = max over actions of E[1 - W(b, a')], with W(b, N) = 0.
        W = [[0.5] * goal + [0.0] for _ in range(goal)]

        def value(a, b):
            row = W[b]
            if moves == "boosted":
                return 1 - sum(min(row[x], row[y]) for x, y in options[a]) / faces
            return 1 - min(sum(p * row[j] for p, j in choice) for choice in options[a])

        def sweep():
            change = 0.0
            for a in squares:
                for b in squares:
                    new = value(a, b)
                    change = max(change, abs(new - W[a][b]))
                    W[a][b] = new
            return change

    elif mode == "against-turns":
        # Two kinds of states: W(a, b), the maximiser on a to move; U(a', b), the other
        # player on b to move (its move fixed by the turn-minimising policy), with the
        # maximiser on a'. U(N, b) = 1 (the maximiser has won), W(a', N) = 0 (it has lost).
        other = turn_minimising_moves(goal, jumps, moves, faces, noise, overshoot)
        W = [[0.5] * goal + [0.0] for _ in range(goal)]
        U = [[0.5] * goal for _ in range(goal)] + [[1.0] * goal]

        def value(a, b):
            if moves == "boosted":
                return sum(max(U[x][b], U[y][b]) for x, y in options[a]) / faces
            return max(sum(p * U[j][b] for p, j in choice) for choice in options[a])

        def sweep():
            change = 0.0
            for a in squares:
                row = W[a]
                for b in squares:
                    new = sum(q * row[j] for q, j in other[b])
                    change = max(change, abs(new - U[a][b]))
                    U[a][b] = new
            for a in squares:
                for b in squares:
                    new = value(a, b)
                    change = max(change, abs(new - W[a][b]))
                    W[a][b] = new
            return change

    else:
        raise ValueError(mode)

    _settle(sweep)
    return [row[:goal] for row in W]


def finish_distribution(goal, jumps, faces=6, overshoot="stay", start=0) -> list[float]:
    """``f[t]``: the chance that one player of the classic game, from ``start``, reaches the
    goal on its ``t``-th turn (``f[0] = 0``), stepped turn by turn until less than 1e-15 is
    left."""
    table = goes_to(goal, jumps)
    where = [0.0] * goal
    where[start] = 1.0
    f = [0.0]
    while sum(where) >= 1e-15:
        after = [0.0] * (goal + 1)
        for i, p in enumerate(where):
            if p:
                for s in range(1, faces + 1):
                    after[land(goal, table, overshoot, i, s)] += p / faces
        f.append(after[goal])
        where = after[:goal]
    return f


def race_length(goal, jumps, faces=6, overshoot="stay") -> tuple[float, float]:
    """Classic moves: (chance the first player wins, expected turns of both players together).

    With ``T_A, T_B`` the independent single-player finishing turns, A wins when
    ``T_A <= T_B``, and the race lasts ``2 T_A - 1`` turns then, else ``2 T_B``."""
    f = finish_distribution(goal, jumps, faces, overshoot)
    win = length = 0.0
    not_before = 1.0  # P(T_B >= t)
    for t in range(1, len(f)):
        # A finishes on its t-th turn: it wins if B has not finished before (T_B >= t).
        win += f[t] * not_before
        length += f[t] * not_before * (2 * t - 1)
        # B finishes on its t-th turn while A has not finished by then (T_A > t).
        not_before -= f[t]
        length += f[t] * not_before * (2 * t)
    return win, length


def play_race(
    goal,
    jumps,
    policy_a,
    policy_b,
    moves,
    rng: random.Random,
    faces=6,
    noise=(0.25, 0.5, 0.25),
    overshoot="stay",
) -> int:
    """One race: 0 if the first player (A) wins, else 1.

    A policy is called as ``policy(mover_square, other_square, spin)`` and returns the move
    (``spin`` or ``spin + 1``, boosted) or the aim (aimed; ``spin`` is None). classic moves
    ask no policy (it may be None)."""
    table = goes_to(goal, jumps)
    squares = [0, 0]
    policies = (policy_a, policy_b)
    player = 0
    while True:
        mover, other = squares[player], squares[1 - player]
        if moves == "classic":
            move = rng.randint(1, faces)
        elif moves == "boosted":
            spin = rng.randint(1, faces)
            move = policies[player](mover, other, spin)
            assert move in (spin, spin + 1)
        elif moves == "aimed":
            aim = policies[player](mover, other, None)
            assert 1 <= aim <= faces
            move = aim - 1 + rng.choices((0, 1, 2), weights=noise)[0]
        else:
            raise ValueError(moves)
        squares[player] = land(goal, table, overshoot, mover, move)
        if squares[player] == goal:
            return player
        player = 1 - player
