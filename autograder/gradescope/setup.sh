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
"$ROOT/venv/bin/python" -m pip install --quiet "$SOURCE/project"
PYTHONPATH="$SOURCE/project" "$ROOT/venv/bin/python" -m autograder list >/dev/null
echo "autograder installed in $ROOT/venv"
