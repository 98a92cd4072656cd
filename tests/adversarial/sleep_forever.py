"""Attempt: sleep forever. It uses no CPU, so a CPU limit alone would never end it.

The grader must stop it at the wall-clock limit: status ``timeout``, score 0, nothing left
running."""

import time

while True:
    time.sleep(3600)
