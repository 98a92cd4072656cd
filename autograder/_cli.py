"""The command line: a thin layer over the verb modules."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ._errors import UsageError
from ._gradescope import VISIBILITIES
from ._sandbox import LEVELS

MAX_GAMES = 10_000_000  # all games advance together: memory grows with the count


def _isolation_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--isolation", choices=("strongest", *LEVELS),
        help="how submissions are kept apart: namespace (bubblewrap), user (root switches to "
        "an unprivileged user), process (limits only); default: $AUTOGRADER_ISOLATION, else "
        "the strongest this machine allows",
    )  # fmt: skip


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
    _isolation_option(check)

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
    grade.add_argument(
        "--manifest", metavar="FILE", help="grade each student on their own board (variants)"
    )
    _isolation_option(grade)

    board = verbs.add_parser("board", help="make board files")
    board_verbs = board.add_subparsers(dest="board_verb", required=True, metavar="COMMAND")
    new = board_verbs.add_parser(
        "new",
        help="a valid board drawn from a seed (jump board, or --trap-lane)",
        description="Draw a valid board from --seed (the same seed gives the same board) and "
        "write it as a board file. Jump boards by default; --trap-lane for a trap-lane layout.",
    )
    new.add_argument("--seed", type=_count(0, None), required=True)
    new.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    jump = new.add_argument_group("jump boards")
    jump.add_argument("--goal", type=_count(10, 10_000), help="the last square (default 100)")
    jump.add_argument("--chutes", type=_count(0, 10_000), help="default: 10 per 100 squares")
    jump.add_argument("--ladders", type=_count(0, 10_000), help="default: 9 per 100 squares")
    jump.add_argument(
        "--min-turns", type=_number, help="a classic game (6-face spinner, exact finish) "
        "lasts at least this many turns on average",
    )  # fmt: skip
    jump.add_argument("--max-turns", type=_number, help="... and at most this many")
    trap = new.add_argument_group("trap lane")
    trap.add_argument(
        "--trap-lane", action="store_true",
        help="a trap-lane layout (with no count given: one trap of each kind)",
    )  # fmt: skip
    for kind, code in (("restart", 1), ("penalty", 2), ("prison", 3), ("special", 4)):
        trap.add_argument(f"--{kind}", type=_count(0, 13), help=f"count of traps {code} ({kind})")
    trap.add_argument("--edition", help="2020, 2021 or 2022 (written into the file)")
    trap.add_argument("--circle", action="store_true", help="15 must be reached exactly")

    variants = verbs.add_parser(
        "variants", help="a board, starter, handout and local check per student of a roster"
    )
    variants.add_argument("assignment")
    variants.add_argument("--roster", required=True, metavar="CSV", help="one row per student")
    variants.add_argument("--out", required=True, metavar="DIR", help="where bundles go")
    variants.add_argument(
        "--secret", metavar="KEY", help="boards derive from it (default: $AUTOGRADER_SECRET, "
        "else DIR/secret.txt, made on first use)",
    )  # fmt: skip

    gradescope = verbs.add_parser("gradescope", help="the Gradescope autograder zip")
    gradescope.add_argument("assignment")
    gradescope.add_argument("--out", required=True, metavar="ZIP", help="e.g. autograder.zip")
    gradescope.add_argument("--manifest", metavar="FILE", help="grade students on their boards")
    gradescope.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="time limit per board (default: TOML)"
    )
    gradescope.add_argument(
        "--hidden-visibility", default="after_due_date", choices=VISIBILITIES,
        help="when students see the hidden boards' results (default: after_due_date)",
    )  # fmt: skip
    _isolation_option(gradescope)
    run = verbs.add_parser(
        "gradescope-run", help="inside Gradescope: grade one submission (run_autograder calls it)"
    )
    run.add_argument("--root", default="/autograder", help="default: /autograder")

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


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


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

        text, ok = check_text(args.assignment, args.submission, args.isolation)
        sys.stdout.write(text)
        return 0 if ok else 1
    elif args.verb == "grade":
        from ._grade import grade_command

        sys.stdout.write(
            grade_command(
                args.assignment, args.submissions, args.out, args.jobs, args.resume,
                args.timeout, args.manifest, args.isolation,
            )
        )  # fmt: skip
    elif args.verb == "board":
        from ._board_new import JUMP_OPTIONS, TRAP_OPTIONS, new_board

        options = {k: getattr(args, k) for k in (*JUMP_OPTIONS, *TRAP_OPTIONS)}
        text, line = new_board(args.seed, options, args.trap_lane)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
            print(f"wrote {args.output}: {line}", file=sys.stderr)
        else:
            sys.stdout.write(text)
            print(line, file=sys.stderr)
    elif args.verb == "variants":
        from ._variants import variants_command

        text, ok = variants_command(args.assignment, args.roster, args.out, args.secret)
        sys.stdout.write(text)
        return 0 if ok else 1
    elif args.verb == "gradescope":
        from ._gradescope import build_gradescope

        path = build_gradescope(
            args.assignment, args.out, manifest=args.manifest, timeout=args.timeout,
            hidden_visibility=args.hidden_visibility, isolation=args.isolation,
        )  # fmt: skip
        print(f"wrote {path}: upload it as the autograder of a Gradescope programming assignment")
    elif args.verb == "gradescope-run":
        from ._gradescope import run_gradescope

        run_gradescope(args.root)
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
