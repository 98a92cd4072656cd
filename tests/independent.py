"""A second, deliberately plain implementation of the rules, written from the rules (docs/rules.md).

Nothing here touches the project's models: boards are lists, values are found by
Gauss-Seidel sweeps in pure Python, and games are played square by square. Tests compare
the project's answers against these.
"""

from __future__ import annotations

import random

EFRON = {
    "Blue": (3, 3, 3, 3, 3, 3),
    "Black": (4, 4, 4, 4, 0, 0),
    "Red": (6, 6, 2, 2, 2, 2),
    "Green": (5, 5, 5, 1, 1, 1),
}


def goes_to(goal: int, jumps) -> list[int]:
    table = list(range(goal + 1))
    for start, end in jumps:
        table[start] = end
    return table


def land(goal: int, table: list[int], overshoot: str, square: int, move: int) -> int:
    target = square + move
    if target > goal:
        if overshoot == "stay":
            target = square
        elif overshoot == "win":
            target = goal
        elif overshoot == "bounce":
            target = goal - (target - goal)
        else:
            target = int(overshoot.split(":")[1])
    # A jump applies where a move ends on another square; a piece that stays takes none.
    return target if target == square else table[target]


def _sweep_until_still(update, values, goal, extra_layers=1, sweeps=400_000):
    for _ in range(sweeps):
        change = 0.0
        for layer in range(extra_layers):
            for i in range(goal - 1, -1, -1):
                new = update(layer, i)
                change = max(change, abs(new - values[layer][i]))
                values[layer][i] = new
        if change < 1e-14:
            return values
    raise AssertionError("independent sweeps did not settle")


def jump_values(
    game: str,
    goal: int,
    jumps,
    faces: int = 6,
    overshoot: str = "stay",
    tokens: int = 0,
    noise=(0.25, 0.5, 0.25),
    dice=None,
    discount: float = 1.0,
) -> list[list[float]]:
    """``V[layer][square]`` for squares 0..goal (layers: token counts, else just one).
    ``discount``: each later turn counted with this weight (a program's mistake; the rules
    count every turn as 1)."""
    table = goes_to(goal, jumps)
    nxt = {
        (i, m): land(goal, table, overshoot, i, m) for i in range(goal) for m in range(0, faces + 3)
    }
    dice = dice or EFRON
    if game == "efron":
        nxt = {
            (i, m): land(goal, table, overshoot, i, m)
            for i in range(goal)
            for faces_ in dice.values()
            for m in faces_
        }
    layers = tokens + 1 if game == "token-boosted" else 1
    V = [[0.0] * (goal + 1) for _ in range(layers)]
    squares = range(goal)
    spins = range(1, faces + 1)
    # Where each move from each square ends, listed once (the sweeps read them hundreds of
    # thousands of times); each update adds and compares in the order the rules state.
    if game == "classic":
        ends = [[nxt[i, s] for s in spins] for i in squares]

        def update(k: int, i: int) -> float:
            row = V[0]
            return 1 + discount * sum(row[j] for j in ends[i]) / faces

    elif game == "boosted":
        pairs = [[(nxt[i, s], nxt[i, s + 1]) for s in spins] for i in squares]

        def update(k: int, i: int) -> float:
            row = V[0]
            return 1 + discount * sum(min(row[a], row[b]) for a, b in pairs[i]) / faces

    elif game == "token-boosted":
        pairs = [[(nxt[i, s], nxt[i, s + 1]) for s in spins] for i in squares]

        def update(k: int, i: int) -> float:
            total = 0.0
            for plain, boost in pairs[i]:
                best = V[k][plain]
                if k:
                    best = min(best, V[k - 1][boost])
                total += best
            return 1 + discount * total / faces

    elif game == "aimed":
        aims = [
            [[(p, nxt[i, aim - 1 + j]) for j, p in enumerate(noise)] for aim in spins]
            for i in squares
        ]

        def update(k: int, i: int) -> float:
            row = V[0]
            return min(1 + discount * sum(p * row[j] for p, j in aim) for aim in aims[i])

    elif game == "efron":
        # The dice that can move the piece at all from each square.
        options = [
            [[nxt[i, m] for m in f] for f in dice.values() if any(nxt[i, m] != i for m in f)]
            for i in squares
        ]

        def update(k: int, i: int) -> float:
            row = V[0]
            return min(1 + discount * sum(row[j] for j in f) / len(f) for f in options[i])

    else:
        raise ValueError(game)

    return _sweep_until_still(update, V, goal, layers)


def play_jump_game(
    game: str,
    goal: int,
    jumps,
    choose,
    rng: random.Random,
    faces: int = 6,
    overshoot: str = "stay",
    tokens: int = 0,
    noise=(0.25, 0.5, 0.25),
) -> int:
    """Turns one game lasts. ``choose(square, tokens, spin)`` picks the move (boosted),
    the aim (aimed) or the die name (efron); classic ignores it."""
    table = goes_to(goal, jumps)
    square, turns = 0, 0
    while square != goal:
        turns += 1
        if game in ("classic", "boosted", "token-boosted"):
            spin = rng.randint(1, faces)
            move = spin
            if game != "classic":
                move = choose(square, tokens, spin)
                assert move in (spin, spin + 1)
                if game == "token-boosted" and move == spin + 1:
                    assert tokens > 0
                    tokens -= 1
        elif game == "aimed":
            aim = choose(square, tokens, None)
            move = aim - 1 + rng.choices((0, 1, 2), weights=noise)[0]
        else:
            move = rng.choice(EFRON[choose(square, tokens, None)])
        square = land(goal, table, overshoot, square, move)
    return turns


# --- the trap lane -----------------------------------------------------------------------


def trap_lane_turns(
    layout, circle: bool, edition: str, dice_for, rng: random.Random, circle_overshoot: str = "wrap"
) -> int:
    """Turns one game of the trap lane lasts, following docs/rules.md ("Trap lane") step by step."""
    faces = {1: (0, 1), 2: (0, 1, 2), 3: (0, 1, 2, 3)}
    trigger = {1: 0.0, 2: 1.0 if edition == "2020" else 0.5, 3: 1.0}
    special = {"2020": "mystery", "2021": "gamble", "2022": "bonus"}[edition]
    square, turns = 1, 0
    free_turn = False
    while square != 15:
        turns += 0 if free_turn else 1
        free_turn = False
        die = dice_for(square)
        steps = rng.choice(faces[die])
        lane_fast = square >= 11
        wrapped = False
        position = square
        for step in range(steps):
            if position == 3 and step == 0:
                lane_fast = rng.random() < 0.5
                position = 11 if lane_fast else 4
            elif position == 10 or position == 14:
                position = 15
            elif position == 15:
                if not circle:
                    break
                position, wrapped, lane_fast = 1, True, False
            else:
                position += 1
            if position == 15 and not circle:
                break
        if wrapped and position != 15 and circle_overshoot == "restart":
            position = 1
        square = position
        if square == 15:
            break
        trap = layout[square - 1]
        if trap and rng.random() < trigger[die]:
            if trap == 4:
                if special == "gamble":
                    square = rng.randint(1, 15)
                    continue
                if special == "bonus":
                    free_turn = True
                    continue
                trap = rng.choice((1, 2, 3))
            if trap == 1:
                square = 1
            elif trap == 2:
                square = {11: 1, 12: 2, 13: 3, 14: 11}.get(square, max(1, square - 3))
            elif trap == 3:
                turns += 1
    return turns
