"""Attempt: binary garbage on standard output: invalid UTF-8, NUL bytes, terminal escape
sequences, a lone byte-order mark, inside and around a plausible header.

The grader must not choke on the bytes: status ``unreadable``, score 0, and feedback that is
plain text."""

import os
import random

noise = random.Random(2026).randbytes(64 << 10)
os.write(1, b"\xef\xbb\xbf\xff\xfe\x00\x80\xc0\xaf\xed\xa0\x80\n")
os.write(1, b"Expected turns per game: \x1b[2J\x1b]0;owned\x07\xff\xff\n")
os.write(1, noise)
os.write(1, b"\n\x00\x00\x00Expected turns remaining by position:\xc3\x28\n")
