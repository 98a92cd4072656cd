"""Choosing the isolation level, lending uids, and hiding answer material inside what a
namespace run can see. (What each level stops is in test_adversarial.py.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from autograder import UsageError
from autograder import _isolation as isolation
from autograder import _sandbox as sandbox
from autograder._assignments import Limits
from autograder._run import clean_environment, run_limited

LIMITS = Limits(timeout=20.0, cpu=10.0, memory_mb=1024, output_kb=64)


@pytest.fixture(autouse=True)
def fresh_detection():
    isolation._strongest.cache_clear()
    yield
    isolation._strongest.cache_clear()


def test_an_unknown_level_is_a_one_line_error_naming_the_choices():
    with pytest.raises(UsageError) as err:
        isolation.detect_isolation("chroot")
    message = str(err.value)
    assert "\n" not in message and "chroot" in message
    assert all(level in message for level in sandbox.LEVELS)


def test_the_environment_variable_chooses_the_level(monkeypatch):
    monkeypatch.setenv(isolation.ENV, "process")
    assert isolation.detect_isolation().level == "process"


def test_without_bubblewrap_or_root_the_grader_falls_back_and_says_why(monkeypatch):
    monkeypatch.setattr(isolation.shutil, "which", lambda name: None)
    monkeypatch.setattr(isolation, "is_root", lambda: False)
    found = isolation.detect_isolation("strongest")
    assert found.level == "process" and not found.drop_user
    assert any("bubblewrap (bwrap) is not installed" in why for why in found.unavailable)
    assert any("not root" in why for why in found.unavailable)
    assert "stronger levels unavailable" in found.describe()


def test_asking_for_a_level_the_machine_lacks_is_refused_with_the_reason(monkeypatch):
    monkeypatch.setattr(isolation.shutil, "which", lambda name: None)
    with pytest.raises(UsageError, match="bubblewrap"):
        isolation.detect_isolation("namespace")


@pytest.mark.skipif(os.geteuid() != 0, reason="lending uids needs root")
def test_concurrent_runs_never_share_a_uid_even_across_grader_processes(tmp_path):
    # Another grader process holds the first uid for a while.
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\n"
         "from autograder._sandbox import lent_uid\n"
         "with lent_uid() as uid:\n    print(uid, flush=True)\n    time.sleep(30)\n"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        held = int(holder.stdout.readline())
        seen: list[int] = []
        lock = threading.Lock()
        barrier = threading.Barrier(6)

        def borrow() -> None:
            with sandbox.lent_uid() as uid:
                barrier.wait(timeout=10)  # all six hold a uid at once
                with lock:
                    seen.append(uid)

        threads = [threading.Thread(target=borrow) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(set(seen)) == 6 and held not in seen
        assert all(sandbox.FIRST_UID <= uid < sandbox.FIRST_UID + sandbox.UIDS for uid in seen)
    finally:
        holder.kill()
        holder.wait()


def test_closing_answer_material_takes_only_the_others_permissions(tmp_path):
    secret = tmp_path / "answers"
    secret.mkdir(mode=0o755)
    (secret / "key.py").write_text("ANSWER = 42\n")
    sandbox.close_to_others([secret])
    assert secret.stat().st_mode & 0o777 == 0o750
    sandbox.close_to_others([secret])  # again: nothing changes
    assert secret.stat().st_mode & 0o777 == 0o750


@pytest.fixture()
def namespace():
    isolation._strongest.cache_clear()
    try:
        return isolation.detect_isolation("namespace")
    except UsageError as err:  # pragma: no cover - CI installs bubblewrap and checks it
        pytest.skip(f"no namespace level here: {err}")


def test_answers_inside_a_mounted_tree_are_hidden_but_the_rest_of_it_is_seen(
    tmp_path, monkeypatch, namespace
):
    # An installation tree the run may read (like a venv's site-packages) that also holds
    # answer material (like reference_solutions installed next to numpy).
    tree = tmp_path / "prefix"
    (tree / "reference_solutions").mkdir(parents=True)
    (tree / "reference_solutions" / "key.py").write_text("ANSWER = 42\n")
    (tree / "numpy_like.py").write_text("PUBLIC = 1\n")
    tree.chmod(0o755)
    tmp_path.chmod(0o755)
    real_trees = sandbox._python_trees
    monkeypatch.setattr(sandbox, "_python_trees", lambda: [*real_trees(), str(tree)])
    work = tmp_path / "work"
    work.mkdir()
    program = work / "probe.py"
    program.write_text(
        "import os, sys\n"
        f"tree = {str(tree)!r}\n"
        "print(open(os.path.join(tree, 'numpy_like.py')).read().strip())\n"
        "try:\n"
        "    print(open(os.path.join(tree, 'reference_solutions', 'key.py')).read())\n"
        "except OSError as err:\n"
        "    print('hidden', type(err).__name__)\n"
        "try:\n"
        "    open(os.path.join(tree, 'numpy_like.py'), 'a').write('x')\n"
        "except OSError as err:\n"
        "    print('read-only', type(err).__name__)\n"
    )
    run = run_limited(
        [sys.executable, "-E", "-s", str(program)], work, clean_environment(work), LIMITS,
        isolation=namespace, work=work, hidden=[tree / "reference_solutions"],
    )  # fmt: skip
    assert run.status == "exited" and run.returncode == 0, run.stderr_tail
    lines = run.stdout.decode().splitlines()
    assert lines[0] == "PUBLIC = 1"
    assert lines[1].startswith("hidden") and "ANSWER" not in run.stdout.decode()
    assert lines[2].startswith("read-only")
    assert (tree / "numpy_like.py").read_text() == "PUBLIC = 1\n"
    assert run.isolation == "namespace"


def test_a_namespace_run_sees_nothing_of_the_host_beyond_the_system_and_python(namespace, tmp_path):
    repository = Path(sandbox.__file__).resolve().parents[1]
    sibling = tmp_path / "another-students-program.py"
    sibling.write_text("print('mine')\n")
    work = tmp_path / "work"
    work.mkdir()
    probes = {
        "repository": repository / "reference_solutions",
        "sibling": sibling,
        "passwd": Path("/etc/passwd"),
        "python": Path(sys.base_prefix) / "lib",
    }
    program = work / "look.py"
    program.write_text(
        "import os, socket\n"
        f"for name, path in {dict((k, str(v)) for k, v in probes.items())!r}.items():\n"
        "    print(name, os.path.exists(path))\n"
        "print('interfaces', sorted(name for _, name in socket.if_nameindex()))\n"
        "print('cwd', os.getcwd())\n"
    )
    run = run_limited(
        [sys.executable, "-E", "-s", str(program)], work, clean_environment(work), LIMITS,
        isolation=namespace, work=work,
    )  # fmt: skip
    seen = dict(line.split(" ", 1) for line in run.stdout.decode().splitlines())
    assert seen["repository"] == seen["sibling"] == seen["passwd"] == "False"
    assert seen["python"] == "True"
    assert seen["interfaces"] == "['lo']"
    assert seen["cwd"] == str(work)


@pytest.mark.skipif(not os.access("/usr/local", os.W_OK), reason="needs to write /usr/local")
def test_answers_under_a_system_folder_are_covered_too(namespace, tmp_path):
    # reference_solutions installed system-wide (under /usr/local, say) lies inside /usr,
    # which every namespace run sees, whatever Python does the grading.
    secret = Path(tempfile.mkdtemp(prefix="autograder-test-answers-", dir="/usr/local/share"))
    try:
        (secret / "key.py").write_text("ANSWER = 42\n")
        secret.chmod(0o755)
        work = tmp_path / "work"
        work.mkdir()
        program = work / "probe.py"
        program.write_text(
            f"import os\nprint(os.path.isdir('/usr/local/share'), "
            f"os.path.exists({str(secret / 'key.py')!r}))\n"
        )
        run = run_limited(
            [sys.executable, "-E", "-s", str(program)], work, clean_environment(work), LIMITS,
            isolation=namespace, work=work, hidden=[secret],
        )  # fmt: skip
        assert run.stdout.decode().split() == ["True", "False"], run.stderr_tail
    finally:
        shutil.rmtree(secret)
