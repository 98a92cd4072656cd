"""Attempt: take all the memory there is, 64 MB at a time, every page touched.

The grader's address-space limit must stop it (a ``MemoryError``, reported as running out
of memory: status ``crashed``, score 0) long before the machine runs short."""

hoard = []
while True:
    hoard.append(b"x" * (64 << 20))
