"""Attempt: be graded as another student in a Blackboard download, whose names are
``<assignment>_<username>_attempt_<time>_<uploaded name>``: upload a file whose own name
repeats ``_vera_attempt_<a later time>``, so that a greedy reading takes it for the
victim's newest attempt (the victim's own upload is
``Homework 3_part_1_vera_attempt_2026-11-20-09-00-00_classic.py``; the assignment name holds
underscores, as Blackboard allows). The program prints a plausible wrong answer.

The grader must read the username where Blackboard writes it (before the first attempt
time), so it must grade this file as the attacker's (mallory) and the victim on their own
file, with no attempt of the victim's listed as not graded."""

import json
import sys

# Each name this program is uploaded under, and where the grader must file it: under the
# attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    "Homework 3_part_1_mallory_attempt_2026-11-20-10-00-00_x_vera_attempt_2099-01-01-00-00-00"
    "_classic.py": "mallory",
    "Homework 3_part_1_mallory_attempt_2026-11-20-10-00-00_Homework 3_part_1_vera_attempt_"
    "2099-12-31-23-59-59_classic.py": "mallory",
    "Homework 3_part_1_mallory_attempt_2026-11-20-10-00-00_part_1_vera_attempt_"
    "2099-01-01-00-00-00_classic.py": "mallory",
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
