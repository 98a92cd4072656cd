"""Attempt: be graded as another student in a Moodle download, where each student's
folder is ``<full name>_<participant id>_assignsubmission_file_`` and the full name is the
student's own: put the victim's id and the marker in the display name, or upload a zip
whose name carries them (unpacked into a folder of its name, ``..._assignsubmission_file_
x_22222_assignsubmission_file_``). The victim's folder is
``Vera Victim_22222_assignsubmission_file_``. The program prints a plausible wrong answer.

The grader must grade the victim on their own folder, and file this one under the
attacker's own id (participant 111) when only one reading of the name is possible, else as
an error row naming the ids it could be; never under the victim's id."""

# Each name the program (lms_sabotage.py) is uploaded under, and where the grader must
# file it: under the attacker's own id, or ("") as an error row that gives it to no one.
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
