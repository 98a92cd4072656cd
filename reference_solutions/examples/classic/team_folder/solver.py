"""Value iteration for the classic game, kept in its own module by this student."""


def landing(goal, goes_to, overshoot, square, spin):
    target = square + spin
    if target > goal:
        rule = overshoot.split(":")
        target = {"stay": square, "win": goal, "bounce": 2 * goal - target}.get(rule[0])
        if target is None:
            target = int(rule[1])
    return target if target == square else goes_to[target]  # no move, no jump


def value_iteration(goal, goes_to, faces, overshoot, tolerance=1e-11):
    moves = [
        [landing(goal, goes_to, overshoot, i, s) for s in range(1, faces + 1)] for i in range(goal)
    ]
    values = [0.0] * (goal + 1)
    while True:
        change = 0.0
        for i in reversed(range(goal)):
            new = 1.0 + sum(values[j] for j in moves[i]) / faces
            change = max(change, abs(new - values[i]))
            values[i] = new
        if change < tolerance:
            return values
