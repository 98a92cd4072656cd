"""``autograder grade``: a folder of submissions (one per student) into a gradebook,
feedback per student and a summary."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import TextIO

from reference_solutions import ReferenceAnswers

from .. import UsageError, grade_folder, load_assignment, load_manifest, read_roster, read_times
from .._exports import lms_warnings
from .._plain import printable
from ._options import (
    add_course_option,
    add_isolation_option,
    add_timeout_option,
    batch_course,
    count,
    course_settings,
    path_name,
)

HELP = "grade a folder of submissions (one per student)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    parser.add_argument(
        "submissions", type=path_name, help="a folder: one file or one folder per student"
    )
    parser.add_argument("-j", "--jobs", type=count(1, 256), default=1, help="parallel workers")
    parser.add_argument(
        "--out",
        metavar="DIR",
        type=path_name,
        help="where results go (default: ./<assignment>-results)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue an interrupted batch in --out"
    )
    add_timeout_option(parser)
    parser.add_argument(
        "--manifest",
        metavar="FILE",
        type=path_name,
        help="grade each student on their own board (variants)",
    )
    parser.add_argument(
        "--times",
        metavar="CSV",
        help="when each student submitted (columns student, submitted), for the [late] policy",
    )
    add_isolation_option(parser)
    add_course_option(parser)
    add_gradebook_options(parser)


def add_gradebook_options(parser: argparse.ArgumentParser) -> None:
    """``--canvas-column`` and ``--roster``, for ``grades-canvas.csv`` (grade and regrade)."""
    parser.add_argument(
        "--canvas-column",
        metavar="NAME",
        help="the assignment's column in grades-canvas.csv, as Canvas's gradebook export heads "
        "it ('Homework 3 (4321)'; default: the assignment's title)",
    )
    parser.add_argument(
        "--roster",
        metavar="CSV",
        type=path_name,
        help="the class roster as Canvas exports it, for the SIS ids and sections in "
        "grades-canvas.csv",
    )


def checked_column(text: str | None) -> str | None:
    """``--canvas-column`` as given; one that Canvas could not read as a header is refused
    (Canvas compares it with its own titles as it is, so nothing is trimmed)."""
    if text is None:
        return None
    if not text.strip():
        raise UsageError("--canvas-column", "is empty; give the column as Canvas heads it "
                         "('Homework 3 (4321)')")  # fmt: skip
    if printable(text) != text:
        raise UsageError("--canvas-column", f"'{printable(text)}' holds a control character "
                         "(a line break, an escape): give the column on one line")  # fmt: skip
    return text


def print_lms_warnings(notes: list[str] | tuple[str, ...], stream: TextIO | None) -> None:
    """The notes on the LMS gradebooks again, as warnings on ``stream``."""
    if stream is not None:
        for note in lms_warnings(notes):
            print(f"autograder: warning: {printable(note)}", file=stream)


def grade_text(
    name: str,
    folder: str,
    out: str | None = None,
    *,
    workers: int = 1,
    resume: bool = False,
    timeout: float | None = None,
    manifest: str | None = None,
    isolation: str | None = None,
    times: str | None = None,
    canvas_column: str | None = None,
    roster: str | None = None,
    warnings: TextIO | None = None,
) -> str:
    """Grade, write the reports, and return the summary; the notes on the LMS gradebooks
    also go to ``warnings``, one line each."""
    column = checked_column(canvas_column)
    class_roster = read_roster(roster) if roster else None
    limits = load_assignment(name).limits
    if timeout is not None:
        limits = limits.with_timeout(timeout)
    target = Path(out) if out else Path(f"{name}-results")
    variants = load_manifest(manifest, name) if manifest else None
    submitted = read_times(times) if times else None
    batch = grade_folder(
        name, folder, target, answers=ReferenceAnswers(), workers=workers, resume=resume,
        limits=limits, progress=sys.stderr, manifest=variants, isolation=isolation,
        times=submitted, canvas_column=column, roster=class_roster,
    )  # fmt: skip
    print_lms_warnings(batch.notes, warnings)
    resumed = len(batch.results) - batch.graded_now
    head = f"graded {batch.graded_now} submissions" + (
        f" ({resumed} already graded before --resume)" if resumed else ""
    )
    files = ["grades.csv", "index.html", "feedback/", "results.jsonl", "histogram.txt",
             "mistakes.csv", "grades-canvas.csv", "grades-moodle.csv",
             "similarity.csv (staff only)", "outputs/ (what each program printed)"]  # fmt: skip
    where = f"results in {target}: {', '.join(files)}"
    return f"{head}\n{where}\nisolation: {batch.isolation}\n\n{batch.summary()}"


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops a batch as Ctrl-C does, with the same hint


def run(args: argparse.Namespace) -> int:
    out = args.out or f"{args.assignment}-results"
    previous = signal.signal(signal.SIGTERM, _stop)
    # Going on with a batch: with the course settings it began with, unless given others.
    course = batch_course(Path(out)) if args.resume else None
    try:
        with course_settings(course):
            summary = grade_text(
                args.assignment, args.submissions, args.out, workers=args.jobs,
                resume=args.resume, timeout=args.timeout, manifest=args.manifest,
                isolation=args.isolation, times=args.times,
                canvas_column=args.canvas_column, roster=args.roster, warnings=sys.stderr,
            )  # fmt: skip
        sys.stdout.write(summary)
    except KeyboardInterrupt:
        print(f"\nautograder: interrupted; the submissions graded so far are kept in "
              f"{out}/results.jsonl: run the same command with --resume to go on",
              file=sys.stderr)  # fmt: skip
        return 130
    except OSError as err:
        if err.filename is not None:
            raise  # (named by the command line's own handler)
        # A write to an open file of the results (a full disk): said as one line, with the
        # way on; the log is cut back to its last whole result on --resume.
        raise UsageError(
            out,
            f"cannot go on writing the results ({err.strerror or err}); "
            f"the submissions graded so far are kept in {out}/results.jsonl: "
            "once that is mended, run the same command with --resume",
        ) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0
