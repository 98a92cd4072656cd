"""Attempt: be graded as another student in a Moodle download, where each student's
folder is ``<full name>_<participant id>_assignsubmission_file_`` and the full name is the
student's own: put the victim's id and the marker in the display name, or upload a zip
whose name carries them (unpacked into a folder of its name, ``..._assignsubmission_file_
x_22222_assignsubmission_file_``). The victim's folder is
``Vera Victim_22222_assignsubmission_file_``. The program prints a plausible wrong answer.

The grader must grade the victim on their own folder, and file this one under the
attacker's own id (participant 111) when only one reading of the name is possible, else as
an error row naming the ids it could be; never under the victim's id."""

import json
import sys

# Each name this program is uploaded under, and where the grader must file it: under the
# attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    # Display name "Mallory_22222_assignsubmission_file_x".
    "Mallory_22222_assignsubmission_file_x_111_assignsubmission_file_": "",
    # An uploaded x_22222_assignsubmission_file_.zip, unpacked into a folder of its name.
    "Mallory Mal_111_assignsubmission_file_x_22222_assignsubmission_file_": "",
    # The same name as a file, in a download without a folder per student.
    "Mallory Mal_111_assignsubmission_file_x_22222_assignsubmission_file_classic.py": "",
    # Digits in a display name are the student's business: Moodle's id still ends the name.
    "Mallory 22222_111_assignsubmission_file_": "111",
    "Mallory_22222_111_assignsubmission_file_": "111",
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
