"""The machine's load average, printed beside the figures: on a shared machine, other
work running at the same time slows every configuration, and shows here."""

from __future__ import annotations

import os


def load_line(when: str) -> str:
    one, five, fifteen = os.getloadavg()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"load average {when}: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {cores} cores)"
