"""Attempt: reach the teaching assistant's terminal through file names: names holding
escape sequences (set the window title, clear the screen, hide text, move up a line), a
carriage return that draws a fake "score: 100" over the line, a right-to-left override
that shows the name backwards, and a byte that is not UTF-8. They show up in the batch's
notes (an older attempt, an ambiguous name), in the gradebook and in feedback files. The
program prints a plausible wrong answer.

The grader must grade each as its name says and show every one of those characters
escaped (``\\x1b``), never raw, in the summary, the command's output, grades.csv and the
feedback files; a name that is not UTF-8 must not stop the reports being written."""

# Each name the program (lms_sabotage.py) is uploaded under, and where the grader must
# file it: under the attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    # Two attempts of one student: the older is named in a note.
    "HW3_mallory_attempt_2026-11-20-10-00-00_\x1b]0;pwned\x07.py": "mallory",
    "HW3_mallory_attempt_2026-11-20-11-00-00_\x1b[2J\x1b[Hscore: 100.py": "mallory",
    # An ambiguous Canvas name, named in a note and in its error row.
    "mallory_1_2_3_4_\r\x1b[1Ascore 100.00 of 25.00\x1b[8m.py": "",
    # Plain names: the id is the name.
    "\x1b[8mhidden\x9b31m.py": "\x1b[8mhidden\x9b31m",
    "\u202eyp.nohtyp\udcff.py": "\u202eyp.nohtyp\udcff",
}
