"""Attempt: flood standard error (32 MB, eight thousand times the tail a result keeps)
rather than standard output, which has no output limit, then exit without printing an
answer. (Not more: each megabyte passes through a pipe to the grader, and the flood must end
well inside a two-second limit on a busy machine.)

The grader must keep only a short tail of standard error (a few KB, not 32 MB) and grade
the empty answer: status ``unreadable``, score 0."""

import os

chunk = b"Traceback (most recent call last): " * 29127 + b"\n"  # about 1 MB
for _ in range(32):
    os.write(2, chunk)
