#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image: a Python 3.11+
# virtual environment with the project's requirements, and the solver's kernel built for that
# Python. The project itself (copied into the zip, project/) stays in $SOURCE, closed to
# submissions, which run with the venv's Python.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
PROJECT="$SOURCE/project"

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
has_headers() {
    "$1" -c 'import os, sys, sysconfig
sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
        2>/dev/null
}
apt_install() {
    if command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
    else
        return 1
    fi
}

PYTHON=""
for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && new_enough "$candidate"; then
        PYTHON="$(command -v "$candidate")"
        break
    fi
done
if [ -z "$PYTHON" ]; then
    # Ubuntu 22.04 images ship Python 3.10; their archive has 3.11, with its headers, and a
    # compiler, so that the kernel can be built below.
    apt_install python3.11 python3.11-venv python3.11-dev gcc
    PYTHON="$(command -v python3.11)"
fi
VERSION="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if ! "$PYTHON" -m venv --clear "$ROOT/venv"; then
    # Debian and Ubuntu package the venv module separately.
    apt_install "python$VERSION-venv" python3-venv || true
    "$PYTHON" -m venv --clear "$ROOT/venv"
fi
"$ROOT/venv/bin/python" -m pip install --quiet --upgrade pip
"$ROOT/venv/bin/python" -m pip install --quiet -r "$PROJECT/requirements.txt"

# The solver's compiled kernel (reference_solutions/_kernel.c), built in place for this
# Python by each shipped package's _build.py: it needs the Python headers and a C compiler,
# installed here where the image lacks them. Where the build still fails, the solver runs its
# numpy path alone (the same answers, more slowly); the line below says which runs.
if ! has_headers "$PYTHON"; then
    apt_install "python$VERSION-dev" || apt_install python3-dev \
        || echo "no Python headers for Python $VERSION could be installed"
fi
if ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1; then
    apt_install gcc || echo "no C compiler could be installed"
fi
"$ROOT/venv/bin/python" -m pip install --quiet setuptools || true
for build in "$PROJECT"/*/_build.py; do
    [ -f "$build" ] && (cd "$PROJECT" && "$ROOT/venv/bin/python" "$build") || true
done

# bubblewrap gives submissions no network and a read-only view of the system, where the
# machine allows namespaces; without it they still run as an unprivileged user.
if ! command -v bwrap >/dev/null 2>&1; then
    apt_install bubblewrap || echo "bubblewrap not installed: submissions will run at the 'user' level"
fi
# Java submissions need a JDK, where the assignment takes them (gradescope.json says so).
if "$ROOT/venv/bin/python" -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1])).get("java"))' \
        "$SOURCE/gradescope.json" && ! command -v javac >/dev/null 2>&1; then
    apt_install default-jdk-headless || echo "no JDK installed: Java submissions will be told that none is"
fi
# The image's own check: the assignments load, and which solver runs (compiled kernel or
# numpy path), in Gradescope's build log.
[ -d "$PROJECT/course" ] && export AUTOGRADER_ASSIGNMENTS="$PROJECT/course"
[ -f "$PROJECT/course.toml" ] && export AUTOGRADER_COURSE="$PROJECT/course.toml"
PYTHONPATH="$PROJECT" "$ROOT/venv/bin/python" -m autograder list >/dev/null
PYTHONPATH="$PROJECT" "$ROOT/venv/bin/python" -m autograder --version
echo "autograder installed in $ROOT/venv"
