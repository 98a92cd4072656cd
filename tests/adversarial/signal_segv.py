"""Attempt: die by SIGSEGV (sent to itself), as a crash in native code would.

The grader must report the signal by name: status ``crashed``, "killed by SIGSEGV", score 0."""

import os
import signal

os.kill(os.getpid(), signal.SIGSEGV)
