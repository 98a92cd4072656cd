"""Attempt: one enormous line without a newline (300 MB by default) after a plausible
header, to make the parser hold or scan it.

Over the output limit the grader must stop it (status ``output-limit``, score 0). Under the
limit (the test asks for a line just below it) the answer is unreadable and the feedback
stays short: no enormous line is quoted back."""

import os

CONFIG = {}  # the test writes its settings here
size = CONFIG.get("bytes", 300 << 20)
os.write(1, b"Expected turns per game: ")
chunk = b"9" * (1 << 20)
while size > 0:
    os.write(1, chunk[: min(size, len(chunk))])
    size -= len(chunk)
