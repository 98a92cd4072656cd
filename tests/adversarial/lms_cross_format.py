"""Attempt: be graded as another student by an uploaded file's name shaped like another
LMS's download name: in a Canvas download (the victim's upload is
``veravictim_22222_900001_classic.py``), name the file so that the whole name also reads as
a Blackboard attempt of user 22222 dated 2099 (which a grader comparing Canvas file ids
with Blackboard times takes for the newest), or as a Moodle submission of participant
22222. The program prints a plausible wrong answer.

The grader must see that the name fits two formats and give it to neither: an error row
naming the ids, the victim graded on their own file, and no order compared across
formats."""

# Each name the program (lms_sabotage.py) is uploaded under, and where the grader must
# file it: under the attacker's own id, or ("") as an error row that gives it to no one.
NAMES = {
    "mallory_111_900500_x_22222_attempt_2099-01-01-00-00-00_classic.py": "",
    # An uploaded x_22222_assignsubmission_file_.zip, unpacked into a folder of its name.
    "mallory_111_900500_x_22222_assignsubmission_file_": "",
    "mallory_111_900500_x_22222_assignsubmission_file_classic.py": "",
}
