"""Attempt: ``os.abort()``: die by SIGABRT without Python's own clean-up.

The grader must report the signal by name: status ``crashed``, "killed by SIGABRT", score 0."""

import os

os.abort()
