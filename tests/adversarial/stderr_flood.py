"""Attempt: flood standard error (300 MB) rather than standard output, which has no output
limit, then exit without printing an answer.

The grader must keep only a short tail of standard error (a few KB, not 300 MB) and grade
the empty answer: status ``unreadable``, score 0."""

import os

chunk = b"Traceback (most recent call last): " * 29127 + b"\n"  # about 1 MB
for _ in range(300):
    os.write(2, chunk)
