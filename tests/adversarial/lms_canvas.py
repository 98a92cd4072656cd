"""Attempt: be graded as another student (Canvas user 22222, whose own upload is
``veravictim_22222_900001_classic.py``) through the parts of a Canvas download name a
student writes: the display name (Canvas writes the sortable name first, lowercased, with
non-word characters dropped, so ``Mallory_22222`` and ``Mallory_22222._999999999`` put the
victim's id, and a bigger "file id", where Canvas's own ids usually are) and the uploaded
file's name (which repeats the victim's ids). The program prints a plausible wrong answer
(a move past the goal wins), to sabotage the victim's grade or to stand in for them.

The grader must grade the victim on their own file, and file this one under the attacker's
own id (user 111) when the name allows one reading only, else as an error row naming the
ids it could be; never under the victim's id, and never list the victim's file as an older
attempt."""

import json
import sys

# Each name this program is uploaded under, and where the grader must file it: under the
# attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    # Display name "Mallory_22222": the victim's id where Canvas's user id usually is.
    "mallory_22222_111_900500_classic.py": "",
    # Display name "Mallory_22222._999999999": the dot is dropped, so a newer "file id" too.
    "mallory_22222_999999999_111_900500_classic.py": "",
    # The uploaded file's name repeats the victim's ids with a newer file id.
    "mallory_111_900500_x_22222_999999999_classic.py": "",
    # A late upload: "_LATE" comes before the ids, so it pins them down.
    "mallory_22222_LATE_111_900500_classic.py": "111",
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
