"""``autograder handout``: the handout (Markdown), with that board's self-check."""

from __future__ import annotations

import argparse

from reference_solutions import reference_handout

from ._options import add_course_option, add_material_arguments, refuse_to_replace, write_output

HELP = "the handout for the public board or --board"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_material_arguments(parser)
    add_course_option(parser)


def run(args: argparse.Namespace) -> int:
    refuse_to_replace(args.output, args.force, "the handout")
    write_output(reference_handout(args.assignment, args.board, args.settings), args.output)
    return 0
