"""The project as a user installs it: the wheel and the sdist built from this clone, each
installed into a fresh virtual environment, run from an empty folder outside the clone.

    python3 .ci/check_installed.py [--keep DIR]

Standard library only (it runs before anything is installed). Each step runs a command as a
user types it and checks what it must show; the first failure stops the run with the
command, its exit status and its output. The build must not warn: a warning is a problem
an installer sees (a file left out, a deprecated license form).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

CLONE = Path(__file__).resolve().parent.parent
STEP_TIMEOUT = 900  # seconds: a pip install that compiles, or the demo


class Failed(Exception):
    pass


def run(command: list[str], cwd: Path, env: dict[str, str], expect: int | None = 0) -> str:
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=STEP_TIMEOUT)  # fmt: skip
    took = time.monotonic() - started
    print(f"  {' '.join(command)}  -> {done.returncode} ({took:.1f} s)", flush=True)
    if expect is not None and done.returncode != expect:
        raise Failed(
            f"{' '.join(command)} exited with {done.returncode}, not {expect}\n"
            f"--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}"
        )
    return done.stdout


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def build(work: Path, env: dict[str, str]) -> tuple[Path, Path, float]:
    """The wheel and the sdist, with the build's own front end in its own environment."""
    tools = work / "build-tools"
    run([sys.executable, "-m", "venv", str(tools)], work, env)
    run([str(tools / "bin" / "pip"), "install", "--quiet", "build"], work, env)
    dist = work / "dist"
    # (byte-compiling off in this environment would be reported as a warning by setuptools)
    quiet = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    log = run([str(tools / "bin" / "python"), "-m", "build", "--outdir", str(dist), str(CLONE)],
              work, quiet)  # fmt: skip
    warned = [line for line in log.splitlines() if re.search(r"\bwarn(ing)?\b", line, re.I)]
    expect(not warned, "the build warned:\n" + "\n".join(warned))
    wheel = next(dist.glob("*.whl"))
    sdist = next(dist.glob("*.tar.gz"))
    size = wheel.stat().st_size / 1024
    print(f"  wheel {wheel.name}: {size:.0f} KiB; sdist {sdist.name}: "
          f"{sdist.stat().st_size / 1024:.0f} KiB")  # fmt: skip
    return wheel, sdist, size


def installed(archive: Path, work: Path, env: dict[str, str], kind: str) -> None:
    """Install ``archive`` into a fresh venv and use it as a student, a TA and an
    instructor would, from an empty folder."""
    print(f"{kind}: {archive.name}", flush=True)
    venv = work / f"venv-{kind}"
    run([sys.executable, "-m", "venv", str(venv)], work, env)
    started = time.monotonic()
    run([str(venv / "bin" / "pip"), "install", "--quiet", str(archive)], work, env)
    print(f"  pip install of the {kind}: {time.monotonic() - started:.1f} s", flush=True)
    here = work / f"empty-{kind}"
    here.mkdir()
    path = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    # Nothing of the clone may be reachable: not as the folder, not on the path.
    user = {k: v for k, v in env.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    user.update(PATH=path, OPENBLAS_NUM_THREADS="1")
    ag = "autograder"

    def said(*args: str, code: int | None = 0) -> str:
        return run([ag, *args], here, user, expect=code)

    version = said("--version")
    expect("solver: compiled kernel" in version or not os.environ.get("AUTOGRADER_EXPECT_KERNEL"),
           f"the installed {kind} has no compiled kernel: {version.strip()}")  # fmt: skip
    listed = said("list")
    for name in ("classic", "boosted", "token-boosted", "trap-lane", "aimed", "efron"):
        expect(re.search(rf"^{re.escape(name)}\s", listed, re.M) is not None,
               f"list does not show {name}")  # fmt: skip
    first = said("solve", "classic").splitlines()[0]
    expect(first == "Expected turns per game: 39.60", f"solve classic begins {first!r}")
    said("starter", "classic", "-o", "classic.py")
    starter = said("check", "classic", "classic.py", code=1)
    expect("NotImplementedError" in starter, "check of the starter does not say what is missing")
    said("examples", "classic", "-o", "practice")
    right = said("check", "classic", "practice/correct_loops.py")
    expect("self-check" in right.lower(), "check of a correct program shows no self-check")
    said("examples", "classic", "-o", "practice", code=2)  # (refuses to write over it)
    said("grade", "classic", "practice", "--out", "results", "-j", "2")
    with open(here / "results" / "grades.csv", newline="", encoding="utf-8") as file:
        rows = {row["student"]: row for row in csv.DictReader(file)}
    expect(float(rows["correct_loops"]["score"]) == float(rows["correct_loops"]["max_score"]),
           "grade: a correct example lost points")  # fmt: skip
    expect(float(rows["wrong_overshoot_wins"]["score"]) < float(rows["correct_loops"]["score"]),
           "grade: a wrong example got full marks")  # fmt: skip
    said("handout", "classic", "-o", "handout.md")
    expect("39.60" in (here / "handout.md").read_text(encoding="utf-8"),
           "the handout has no self-check value")  # fmt: skip
    analysis = said("analyze", "classic", "--games", "2000")
    expect("39.598" in analysis, "analyze does not show the start's value (39.5984)")
    demo = said("demo")
    expect("== classic" in demo and "== trap-lane" in demo, "the demo graded too little")
    _gradescope(said, here, user)
    _prairielearn(said, here, user)


def _gradescope(said: Callable[..., str], here: Path, user: dict[str, str]) -> None:
    """The zip, built from the installed packages, graded as Gradescope runs it: unpacked
    into a root laid out as /autograder, with this venv's Python as the image's."""
    said("gradescope", "classic", "--out", "autograder.zip")
    root = here / "gradescope-root"
    with zipfile.ZipFile(here / "autograder.zip") as zipped:
        names = set(zipped.namelist())
        expect({"setup.sh", "run_autograder", "project/requirements.txt",
                "project/autograder/assignments/classic/assignment.toml",
                "project/reference_solutions/_kernel.c"} <= names,
               "the Gradescope zip lacks part of the project")  # fmt: skip
        zipped.extractall(root / "source")
    (root / "submission").mkdir()
    shutil.copy(here / "practice" / "correct_loops.py", root / "submission" / "classic.py")
    python = shutil.which("python", path=user["PATH"]) or "python3"
    env = {**user, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": python}
    run(["bash", str(root / "source" / "run_autograder")], here, env)
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    top = sum(t["max_score"] for t in results["tests"])
    expect(results["score"] == top > 0, f"Gradescope: a correct program scored {results['score']}")
    said("gradescope-run", "--root", str(here / "practice"), code=2)


def _prairielearn(said: Callable[..., str], here: Path, user: dict[str, str]) -> None:
    """The question, built from the installed packages; a variant drawn by its server.py
    (in a Python without them), and its grading job run as PrairieLearn runs it."""
    said("prairielearn", "classic", "--out", "pl-question")
    question = here / "pl-question"
    expect((question / "info.json").is_file(), "PrairieLearn: no info.json")
    root = here / "pl-root"
    shutil.copytree(question / "tests", root / "tests")
    (root / "data").mkdir()
    (root / "student").mkdir()
    draw = ("import json, sys; sys.path.insert(0, sys.argv[1]); import server; "
            "d = {'params': {}, 'correct_answers': {}, 'variant_seed': 7, 'options': {}}; "
            "server.generate(d); print(json.dumps(d))")  # fmt: skip
    data = run([sys.executable, "-I", "-c", draw, str(question)], here, user)
    (root / "data" / "data.json").write_text(data, encoding="utf-8")
    expect("expected" not in json.loads(data)["params"], "PrairieLearn: params hold answers")
    # (a program that solves the board it is given: right on the variant's board too)
    shutil.copy(here / "practice" / "correct_loops.py", root / "student" / "classic.py")
    python = shutil.which("python", path=user["PATH"]) or "python3"
    env = {**user, "AUTOGRADER_GRADE_ROOT": str(root), "AUTOGRADER_PYTHON": python}
    run(["bash", str(root / "tests" / "grade")], here, env)
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    got = f"{results.get('score')} ({results.get('message')})"
    expect(results.get("gradable") is True and results.get("score") == 1,
           f"PrairieLearn: a correct program got {got}")  # fmt: skip


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--keep", metavar="DIR", help="work in DIR and keep it")
    args = options.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="installed-"))
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    try:
        wheel, sdist, _ = build(work, env)
        installed(wheel, work, env, "wheel")
        installed(sdist, work, env, "sdist")
    except (Failed, subprocess.TimeoutExpired, StopIteration) as err:
        print(f"check_installed: FAILED: {err}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("check_installed: the wheel and the sdist work from an empty folder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
