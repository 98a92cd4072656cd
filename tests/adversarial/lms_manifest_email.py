"""Attempt: with ``grade --manifest``, take the victim's place on their own board by a
tail that names them the way the manifest matches students (by id, email or the part of
the email before the ``@``, ignoring case): the victim is ``s0002``, ``vera@uni.edu``, whose
Blackboard upload is ``HW3_vera@uni.edu_attempt_2026-11-20-09-00-00_classic.py``; the
attacker is ``s0001``, ``mallory@uni.edu``. The program prints a plausible wrong answer.

The grader must read only the username Blackboard wrote, so it must grade this file as the
attacker's, on the attacker's own board, and the victim on their own file and board."""

# Each name the program (lms_sabotage.py) is uploaded under, and where the grader must
# file it: under the attacker's own id, or ("") as an error row that gives it to no one.
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
