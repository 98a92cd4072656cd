#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image: a Python 3.11+
# virtual environment with this project (copied into the zip) installed in it.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }

PYTHON=""
for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && new_enough "$candidate"; then
        PYTHON="$(command -v "$candidate")"
        break
    fi
done
if [ -z "$PYTHON" ]; then
    # Ubuntu 22.04 images ship Python 3.10; their archive has 3.11.
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y python3.11 python3.11-venv
    PYTHON="$(command -v python3.11)"
fi
if ! "$PYTHON" -m venv --clear "$ROOT/venv"; then
    # Debian and Ubuntu package the venv module separately.
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "$(basename "$PYTHON")-venv" python3-venv
    "$PYTHON" -m venv --clear "$ROOT/venv"
fi
"$ROOT/venv/bin/python" -m pip install --quiet --upgrade pip
# Only the dependencies go into the venv: submissions run with its Python, so the project
# itself (reference solutions included) stays in $SOURCE, which is closed to them.
"$ROOT/venv/bin/python" - "$SOURCE/project/pyproject.toml" > "$ROOT/requirements.txt" <<'END'
import sys, tomllib
with open(sys.argv[1], "rb") as file:
    print("\n".join(tomllib.load(file)["project"]["dependencies"]))
END
"$ROOT/venv/bin/python" -m pip install --quiet -r "$ROOT/requirements.txt"
# The solver's compiled kernel (reference_solutions/_kernel.c), built in place for this
# Python; where no C compiler or Python headers are found, the solver runs its numpy path
# alone (slower, the same answers), and this says so.
"$ROOT/venv/bin/python" -m pip install --quiet setuptools \
    && (cd "$SOURCE/project" && "$ROOT/venv/bin/python" setup.py --quiet build_ext --inplace) \
    || true
PYTHONPATH="$SOURCE/project" "$ROOT/venv/bin/python" -c 'import reference_solutions._kernel' \
    2>/dev/null || echo "solver kernel not built: the solver runs its numpy path alone"
# bubblewrap gives submissions no network and a read-only view of the system, where the
# machine allows namespaces; without it they still run as an unprivileged user.
if ! command -v bwrap >/dev/null 2>&1; then
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y bubblewrap; } \
        || echo "bubblewrap not installed: submissions will run at the 'user' level"
fi
# Java submissions need a JDK, where the assignment takes them (gradescope.json says so).
if "$ROOT/venv/bin/python" -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1])).get("java"))' \
        "$SOURCE/gradescope.json" && ! command -v javac >/dev/null 2>&1; then
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y default-jdk-headless; } \
        || echo "no JDK installed: Java submissions will be told that none is"
fi
PYTHONPATH="$SOURCE/project" "$ROOT/venv/bin/python" -m autograder list >/dev/null
echo "autograder installed in $ROOT/venv"
