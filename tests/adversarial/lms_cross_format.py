"""Attempt: be graded as another student by an uploaded file's name shaped like another
LMS's download name: in a Canvas download (the victim's upload is
``veravictim_22222_900001_classic.py``), name the file so that the whole name also reads as
a Blackboard attempt of user 22222 dated 2099 (which a grader comparing Canvas file ids
with Blackboard times takes for the newest), or as a Moodle submission of participant
22222. The program prints a plausible wrong answer.

The grader must see that the name fits two formats and give it to neither: an error row
naming the ids, the victim graded on their own file, and no order compared across
formats."""

import json
import sys

# Each name this program is uploaded under, and where the grader must file it: under the
# attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    "mallory_111_900500_x_22222_attempt_2099-01-01-00-00-00_classic.py": "",
    # An uploaded x_22222_assignsubmission_file_.zip, unpacked into a folder of its name.
    "mallory_111_900500_x_22222_assignsubmission_file_": "",
    "mallory_111_900500_x_22222_assignsubmission_file_classic.py": "",
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
