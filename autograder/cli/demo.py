"""``autograder demo``: the main job, the bundled example submissions graded and the
gradebook printed."""

from __future__ import annotations

import argparse
import sys

from reference_solutions import ReferenceAnswers, examples_dir

from .. import demo_text

HELP = "grade the bundled example submissions; print the gradebook"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    text, ok = demo_text(ReferenceAnswers(), examples_dir(), progress=sys.stderr)
    sys.stdout.write(text)
    return 0 if ok else 1
