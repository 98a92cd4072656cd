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

# Each name the program (lms_sabotage.py) is uploaded under, and where the grader must
# file it: under the attacker's own id, or ("") as an error row that gives it to no one.
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
