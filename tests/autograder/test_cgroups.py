"""Control groups as the grader writes and reads them. The machine this runs on may offer
cgroup v1, v2 or neither, so the files of both versions are also checked on a folder laid
out as the kernel lays out a group (the kernel's own behaviour is in test_hardening)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from autograder._cgroups import PERIOD_US, Cgroups, RunGroup, detect_cgroups, join_command


def test_a_v2_run_group_gets_one_core_its_memory_and_its_processes(tmp_path):
    own = tmp_path / "autograder-1"
    own.mkdir()
    groups = Cgroups(2, (("cpu", own), ("memory", own), ("pids", own)))
    group = RunGroup(groups, memory_mb=512, processes=64)
    (folder,) = set(group.folders.values())
    assert folder.parent == own
    assert (folder / "cpu.max").read_text() == f"{PERIOD_US} {PERIOD_US}"
    assert (folder / "memory.max").read_text() == str(512 << 20)
    assert (folder / "memory.swap.max").read_text() == "0"
    assert (folder / "memory.oom.group").read_text() == "1"
    assert int((folder / "pids.max").read_text()) >= 64
    assert group.joins == [folder / "cgroup.procs"]
    # What the kernel reports back, in its own words.
    (folder / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
    assert group.cpu_seconds() == 2.5
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n")
    assert not group.out_of_memory()
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 9\noom 2\noom_kill 1\n")
    assert group.out_of_memory()


def test_a_v1_run_group_writes_each_hierarchy(tmp_path):
    folders = {name: tmp_path / name / "autograder-1" for name in ("cpu", "memory", "pids",
                                                                     "cpuacct")}  # fmt: skip
    for folder in folders.values():
        folder.mkdir(parents=True)
    group = RunGroup(Cgroups(1, tuple(folders.items())), memory_mb=256, processes=8)
    made = group.folders
    assert (made["cpu"] / "cpu.cfs_quota_us").read_text() == str(PERIOD_US)
    assert (made["cpu"] / "cpu.cfs_period_us").read_text() == str(PERIOD_US)
    assert (made["memory"] / "memory.limit_in_bytes").read_text() == str(256 << 20)
    assert int((made["pids"] / "pids.max").read_text()) >= 8
    assert len(group.joins) == 4
    (made["cpuacct"] / "cpuacct.usage").write_text("1500000000\n")
    assert group.cpu_seconds() == 1.5
    (made["memory"] / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\n"
                                                       "oom_kill 1\n")  # fmt: skip
    assert group.out_of_memory()


def test_the_join_prefix_moves_the_process_before_the_program_starts(tmp_path):
    """The prefix writes its own pid (the program's, after exec) to every file it is given;
    one it cannot write stops it with the grader's own message, not the program's."""
    files = [tmp_path / "a", tmp_path / "b"]
    for file in files:
        file.touch()
    out = tmp_path / "pid"
    done = subprocess.run([*join_command(files), "/bin/sh", "-c", f"echo $$ > {out}"],
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 0
    pid = out.read_text().strip()
    assert [f.read_text().strip() for f in files] == [pid, pid]
    (tmp_path / "c").mkdir()  # a folder cannot be written as a file
    done = subprocess.run([*join_command([tmp_path / "c"]), "/bin/true"],
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 125
    assert done.stderr.startswith("autograder: cannot join the run's control group")


def test_groups_here_are_made_under_the_graders_own_and_removed():
    groups, why = detect_cgroups()
    if groups is None:
        pytest.skip(f"no control groups here: {why}")
    for _, folder in groups.folders:
        assert folder.name == f"autograder-{os.getpid()}"
    group = RunGroup(groups, memory_mb=64, processes=4)
    made = set(group.folders.values())
    assert all(Path(f).is_dir() for f in made)
    group.remove()
    assert not any(Path(f).exists() for f in made)
