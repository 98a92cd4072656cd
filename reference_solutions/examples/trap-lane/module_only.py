"""A trap-lane submission as a bare module: it only defines ``markovDecision``.

The rules of the 2021 edition with ``circle_overshoot = wrap``: security (faces 0, 1, traps
never go off), normal (0, 1, 2, traps go off half the time), risky (0..3, traps always go
off); trap 4 is the gamble. The grader imports this module and calls the function itself.
"""

import numpy as np

GOAL = 15
DICE = ((0.0, (0, 1)), (0.5, (0, 1, 2)), (1.0, (0, 1, 2, 3)))  # (trigger, faces), codes 1..3
PENALTY = {11: 1, 12: 2, 13: 3, 14: 11}


def _walk(square, steps, circle):
    """Where ``steps`` single steps from ``square`` lead (the junction is handled apart)."""
    for _ in range(steps):
        if square == GOAL:
            if not circle:
                return GOAL
            square = 1  # round the circle: 15 is followed by 1
        elif square in (10, 14):
            square = GOAL
        else:
            square += 1
    return square


def _transitions(layout, circle):
    """P[d, s, t] and the expected cost c[d, s] of one turn, squares 1..15 as 0..14."""
    P = np.zeros((3, GOAL, GOAL))
    c = np.zeros((3, GOAL))
    for d, (trigger, faces) in enumerate(DICE):
        for s in range(1, GOAL):
            for k in faces:
                # a move starting on 3 takes either lane, half the time each
                lanes = [(4, k - 1, 0.5), (11, k - 1, 0.5)] if k and s == 3 else [(s, k, 1.0)]
                for first, rest, p_lane in lanes:
                    end = _walk(first, rest, circle)
                    p = p_lane / len(faces)
                    trap = int(layout[end - 1])
                    fire = trigger if trap else 0.0
                    P[d, s - 1, end - 1] += p * (1 - fire)
                    c[d, s - 1] += p
                    if not fire:
                        continue
                    if trap == 1:
                        P[d, s - 1, 0] += p * fire
                    elif trap == 2:
                        P[d, s - 1, PENALTY.get(end, max(1, end - 3)) - 1] += p * fire
                    elif trap == 3:
                        P[d, s - 1, end - 1] += p * fire
                        c[d, s - 1] += p * fire  # the lost turn
                    else:
                        P[d, s - 1, :] += p * fire / GOAL
    return P, c


def markovDecision(layout, circle):
    """``[Expec, Dice]`` for squares 1..14: the optimal expected cost and die codes."""
    P, c = _transitions(layout, bool(circle))
    V = np.zeros(GOAL)  # V[14], the goal, stays 0
    for _ in range(100000):
        Q = c + P @ V
        new = Q.min(axis=0)
        new[GOAL - 1] = 0.0
        done = np.max(np.abs(new - V)) < 1e-12
        V = new
        if done:
            break
    Q = c + P @ V
    Dice = Q[:, : GOAL - 1].argmin(axis=0) + 1
    return [V[: GOAL - 1], Dice]
