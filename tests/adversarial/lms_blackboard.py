"""Attempt: be graded as another student in a Blackboard download, whose names are
``<assignment>_<username>_attempt_<time>_<uploaded name>``: upload a file whose own name
repeats ``_vera_attempt_<a later time>``, so that a greedy reading takes it for the
victim's newest attempt (the victim's own upload is
``Homework 3_part_1_vera_attempt_2026-11-20-09-00-00_classic.py``; the assignment name holds
underscores, as Blackboard allows). The program prints a plausible wrong answer.

The grader must read the username where Blackboard writes it (before the first attempt
time), so it must grade this file as the attacker's (mallory) and the victim on their own
file, with no attempt of the victim's listed as not graded."""

# Each name the program (lms_sabotage.py) is uploaded under, and where the grader must
# file it: under the attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    "Homework 3_part_1_mallory_attempt_2026-11-20-10-00-00_x_vera_attempt_2099-01-01-00-00-00"
    "_classic.py": "mallory",
    "Homework 3_part_1_mallory_attempt_2026-11-20-10-00-00_Homework 3_part_1_vera_attempt_"
    "2099-12-31-23-59-59_classic.py": "mallory",
    "Homework 3_part_1_mallory_attempt_2026-11-20-10-00-00_part_1_vera_attempt_"
    "2099-01-01-00-00-00_classic.py": "mallory",
}
