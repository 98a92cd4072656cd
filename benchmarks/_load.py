"""The machine's load average, printed beside the figures: on a shared machine, other
work running at the same time slows every configuration, and shows here."""

from __future__ import annotations

import os


def load_line(when: str) -> str:
    one, five, fifteen = os.getloadavg()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"load average {when}: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {cores} cores)"


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot, over all its cores (user,
    system, interrupts; not idle or I/O wait), from ``/proc/stat``: what a batch costs in
    CPU, the grader's threads, its programs and the kernel's own work for them (a process's
    ``getrusage`` misses the kernel threads that free what a run leaves); not the time a
    virtual machine's host took its cores away (steal). NaN where there is no
    ``/proc/stat``."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            # user, nice, system, idle, iowait, irq, softirq (then steal; guest time is
            # counted in user already)
            fields = [int(x) for x in stat.readline().split()[1:8]]
    except (OSError, ValueError):
        return float("nan")
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")
