"""Attempt: crash with terminal control sequences on standard error (clear the screen, set
the window title, a fake "score: 100" drawn over the real one), hoping they reach the
teaching assistant's terminal through the feedback, which quotes standard error on the
public board.

The grader must report the crash (status ``crashed``, score 0) and quote no control
character."""

import sys

sys.stderr.write("\x1b[2J\x1b[H\x1b]0;graded\x07score: 100.00 / 100.00\x1b[8m\n")
sys.stderr.write("\x07\x08\x08\x08\x08PASS\r\x1b[1A\x1b[2K\n")
sys.exit(1)
