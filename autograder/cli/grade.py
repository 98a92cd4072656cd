"""``autograder grade``: a folder of submissions (one per student) into a gradebook,
feedback per student and a summary."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reference_solutions import ReferenceAnswers

from .. import grade_folder, load_assignment, load_manifest
from ._options import add_isolation_option, add_timeout_option, count

HELP = "grade a folder of submissions (one per student)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment")
    parser.add_argument("submissions", help="a folder: one file or one folder per student")
    parser.add_argument("-j", "--jobs", type=count(1, 256), default=1, help="parallel workers")
    parser.add_argument(
        "--out", metavar="DIR", help="where results go (default: ./<assignment>-results)"
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue an interrupted batch in --out"
    )
    add_timeout_option(parser)
    parser.add_argument(
        "--manifest", metavar="FILE", help="grade each student on their own board (variants)"
    )
    add_isolation_option(parser)


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
) -> str:
    """Grade, write the reports, and return the summary."""
    limits = load_assignment(name).limits
    if timeout is not None:
        limits = limits.with_timeout(timeout)
    target = Path(out) if out else Path(f"{name}-results")
    variants = load_manifest(manifest, name) if manifest else None
    batch = grade_folder(
        name, folder, target, answers=ReferenceAnswers(), workers=workers, resume=resume,
        limits=limits, progress=sys.stderr, manifest=variants, isolation=isolation,
    )  # fmt: skip
    resumed = len(batch.results) - batch.graded_now
    head = f"graded {batch.graded_now} submissions" + (
        f" ({resumed} already graded before --resume)" if resumed else ""
    )
    files = ["grades.csv", "index.html", "feedback/", "results.jsonl", "histogram.txt",
             "mistakes.csv"]  # fmt: skip
    where = f"results in {target}: {', '.join(files)}"
    return f"{head}\n{where}\nisolation: {batch.isolation}\n\n{batch.summary()}"


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(
        grade_text(
            args.assignment, args.submissions, args.out, workers=args.jobs, resume=args.resume,
            timeout=args.timeout, manifest=args.manifest, isolation=args.isolation,
        )
    )  # fmt: skip
    return 0
