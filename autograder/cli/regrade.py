"""``autograder regrade``: a finished batch marked again from what its programs printed,
against the answer key and tolerances as they are now; nothing runs again."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reference_solutions import ReferenceAnswers

from .. import UsageError, load_manifest, read_roster, regrade_folder
from ._options import add_course_option, batch_course, course_settings, path_name
from .grade import add_gradebook_options, checked_column, print_lms_warnings

HELP = "mark a graded batch again from its kept outputs (a corrected key, new tolerances)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", metavar="DIR", help="the batch's folder (grade --out)")
    parser.add_argument(
        "--manifest",
        metavar="FILE",
        type=path_name,
        help="the manifest the batch was graded with, if any",
    )
    add_course_option(parser)
    add_gradebook_options(parser)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    # (without these, the ones the batch was graded with: batch.json keeps them)
    column = checked_column(args.canvas_column)
    roster = read_roster(args.roster) if args.roster else None
    manifest = None
    if args.manifest:
        try:
            name = json.loads((out / "batch.json").read_text(encoding="utf-8"))["assignment"]
        except (OSError, ValueError, KeyError, TypeError):
            raise UsageError(str(out), "is not a graded batch (no readable batch.json)") from None
        manifest = load_manifest(args.manifest, name)
    # Without --course (or $AUTOGRADER_COURSE), the settings the batch was graded with.
    course = batch_course(out)
    with course_settings(course):
        done = regrade_folder(out, ReferenceAnswers(), manifest=manifest,
                              canvas_column=column, roster=roster)  # fmt: skip
    print_lms_warnings(done.notes, sys.stderr)
    sys.stdout.write(done.summary())
    return 0
