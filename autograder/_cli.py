"""The command line: a thin layer over the verb modules."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ._errors import UsageError

MAX_GAMES = 10_000_000  # all games advance together: memory grows with the count


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder",
        description="Autograded Markov-decision-process assignments on Chutes and Ladders.",
    )
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="COMMAND")

    verbs.add_parser("list", help="the assignments, with their parameters and defaults")

    solve = verbs.add_parser("solve", help="the reference answer, printed or as JSON")
    solve.add_argument("assignment")
    _board_options(solve)
    solve.add_argument("--json", action="store_true", help="one JSON object instead of text")
    solve.add_argument(
        "--method",
        choices=("policy_iteration", "value_iteration"),
        default="policy_iteration",
        help="solver (default: policy_iteration)",
    )

    simulate = verbs.add_parser("simulate", help="Monte Carlo games under the optimal policy")
    simulate.add_argument("assignment")
    _board_options(simulate)
    simulate.add_argument(
        "--games", type=_count(1, MAX_GAMES), default=10_000, help="default 10000"
    )
    simulate.add_argument("--seed", type=_count(0, None), default=0, help="default 0")

    check = verbs.add_parser(
        "check", help="what a student runs: the public tests, with feedback; exit 0 when all pass"
    )
    check.add_argument("assignment")
    check.add_argument("submission", help="the program (a .py file) or a folder holding it")

    grade = verbs.add_parser("grade", help="grade a folder of submissions (one per student)")
    grade.add_argument("assignment")
    grade.add_argument("submissions", help="a folder: one file or one folder per student")
    grade.add_argument("-j", "--jobs", type=_count(1, 256), default=1, help="parallel workers")
    grade.add_argument(
        "--out", metavar="DIR", help="where results go (default: ./<assignment>-results)"
    )
    grade.add_argument(
        "--resume", action="store_true", help="continue an interrupted batch in --out"
    )
    grade.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="time limit per board (default: TOML)"
    )

    for verb, what in (("starter", "the starter program"), ("handout", "the handout")):
        sub = verbs.add_parser(verb, help=f"{what} for the public board or --board")
        sub.add_argument("assignment")
        _board_options(sub)
        sub.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")

    verbs.add_parser("demo", help="grade the bundled example submissions; print the gradebook")
    return parser


def _board_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board", metavar="FILE", help="a board file (JSON) instead of the public board"
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change a parameter (repeatable)",
    )


def _count(low: int, high: int | None):
    span = f"an integer >= {low}" if high is None else f"an integer in {low}..{high:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {span}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {span}, got {text!r}")
        return value

    return parse


def run(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    if args.verb == "list":
        from ._list import list_text

        sys.stdout.write(list_text())
    elif args.verb == "solve":
        from ._solve import solve_text

        sys.stdout.write(
            solve_text(args.assignment, args.board, args.settings, args.json, args.method)
        )
    elif args.verb == "simulate":
        from ._simulate import simulate_text

        sys.stdout.write(
            simulate_text(args.assignment, args.board, args.settings, args.games, args.seed)
        )
    elif args.verb == "check":
        from ._check import check_text

        text, ok = check_text(args.assignment, args.submission)
        sys.stdout.write(text)
        return 0 if ok else 1
    elif args.verb == "grade":
        from ._grade import grade_command

        sys.stdout.write(
            grade_command(
                args.assignment, args.submissions, args.out, args.jobs, args.resume, args.timeout
            )
        )
    elif args.verb in ("starter", "handout"):
        from ._materials import material_text

        text = material_text(args.verb, args.assignment, args.board, args.settings)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    elif args.verb == "demo":
        from ._demo import demo_text

        text, ok = demo_text()
        sys.stdout.write(text)
        return 0 if ok else 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UsageError as err:
        print(f"autograder: error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
