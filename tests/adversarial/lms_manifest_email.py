"""Attempt: with ``grade --manifest``, take the victim's place on their own board by a
tail that names them the way the manifest matches students (by id, email or the part of
the email before the ``@``, ignoring case): the victim is ``s0002``, ``vera@uni.edu``, whose
Blackboard upload is ``HW3_vera@uni.edu_attempt_2026-11-20-09-00-00_classic.py``; the
attacker is ``s0001``, ``mallory@uni.edu``. The program prints a plausible wrong answer.

The grader must read only the username Blackboard wrote, so it must grade this file as the
attacker's, on the attacker's own board, and the victim on their own file and board."""

import json
import sys

# Each name this program is uploaded under, and where the grader must file it: under the
# attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    "HW3_mallory@uni.edu_attempt_2026-11-20-10-00-00_x_vera@uni.edu_attempt_"
    "2099-01-01-00-00-00_classic.py": "s0001",
    "HW3_mallory@uni.edu_attempt_2026-11-20-10-00-00_x_vera_attempt_2099-01-01-00-00-00"
    "_classic.py": "s0001",
    "HW3_mallory@uni.edu_attempt_2026-11-20-10-00-00_x_s0002_attempt_2099-01-01-00-00-00"
    "_classic.py": "s0001",
    "HW3_mallory@uni.edu_attempt_2026-11-20-10-00-00_x_VERA@UNI.EDU_attempt_"
    "2099-01-01-00-00-00_classic.py": "s0001",
}


def expected_turns(goal, jumps):
    """Plausible and wrong: a spin that passes the goal wins (the rules say it stays)."""
    values = [0.0] * (goal + 1)
    change = 1.0
    while change > 1e-10:
        change = 0.0
        for i in range(goal - 1, -1, -1):
            ends = [min(i + spin, goal) for spin in range(1, 7)]
            new = 1 + sum(values[jumps.get(end, end)] for end in ends) / 6
            change, values[i] = max(change, abs(new - values[i])), new
    return values


def main(argv):
    with open(argv[1], encoding="utf-8") as file:
        board = json.load(file)
    goal, jumps = board["goal"], {start: end for start, end in board["jumps"]}
    values = expected_turns(goal, jumps)
    print("Expected turns per game: %.2f" % values[0])
    print("Expected turns remaining by position:")
    rows = [list(range(10 * r + 1, 10 * r + 11)) for r in range(goal // 10)]
    for r, row in reversed(list(enumerate(rows))):
        print("".join("%3d: %5.2f " % (i, values[i]) for i in (row if r % 2 == 0 else row[::-1])))


if __name__ == "__main__":
    main(sys.argv)
