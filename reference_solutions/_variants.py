"""New boards: one drawn from a seed for ``autograder board new``, and one per student for
``autograder variants``, with everything a student's bundle needs computed on it.

A student's board is drawn from a digest of (secret, assignment, student id): the same
three always give the same board, and without the secret the id says nothing about it.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from autograder._assignments import VariantPlan, load_assignment
from autograder._boards import TRAP_LANE_SQUARES, JumpBoard, TrapLayout, describe_board
from autograder._cases import Expected, TestCase
from autograder._errors import BoardError, UsageError
from autograder._formats import render
from autograder._generate import random_jump_board
from autograder._handouts import render_handout
from autograder._programs import render_program

from ._answer_key import expected_answer, self_check_text
from ._params import Overshoot, params_to_json
from ._problem import Problem, make_problem, solve_problem
from ._solver import Solution, solve
from .rules import classic as classic_rules

__all__ = [
    "Variant",
    "classic_turns",
    "new_jump_board",
    "new_trap_board",
    "own_board_cases",
    "student_variant",
    "variant_board",
    "variant_case",
    "variant_material",
    "variant_seed",
]

MAX_DRAWS = 2000  # a band no board falls in is reported instead of looping forever
TRAP_KINDS = ("restart", "penalty", "prison", "special")  # trap codes 1..4
# The game whose length the band is about.
CLASSIC_PARAMS = {"faces": 6, "overshoot": Overshoot("stay")}


def classic_turns(board: JumpBoard) -> float:
    """The expected length of a classic game on ``board`` (6-face spinner, exact finish).
    Raises :class:`GoalUnreachable` when the game can never end."""
    # The rules module directly: a draw loop calls this thousands of times, and going
    # through make_problem would read the assignment's TOML each time.
    game = classic_rules.build(board, classic_rules.Params(**CLASSIC_PARAMS))
    return solve(game.model).start_value


def _default_counts(goal: int) -> tuple[int, int]:
    # The standard board has 10 chutes and 9 ladders on 100 squares.
    return max(1, round(goal * 0.10)), max(1, round(goal * 0.09))


def _draw_jump_board(
    rng: random.Random,
    goal: int,
    chutes: int,
    ladders: int,
    band: tuple[float, float] | None,
    accept: Callable[[JumpBoard], bool] | None = None,
) -> JumpBoard:
    """Boards from ``rng`` until one can be finished, has its classic length inside ``band``
    and passes ``accept`` (each when given)."""
    if goal < 10 or goal % 10:
        raise BoardError(
            "", f"goal {goal} is not a multiple of 10 (the print format needs rows of 10)"
        )
    if band is not None and band[0] > band[1]:
        raise BoardError("", f"--min-turns {band[0]:g} is larger than --max-turns {band[1]:g}")
    for _ in range(MAX_DRAWS):
        board = random_jump_board(rng, goal, chutes, ladders)
        try:
            turns = classic_turns(board)
        except UsageError:  # chutes that trap the piece: the game could never end
            continue
        if band is not None and not band[0] <= turns <= band[1]:
            continue
        if accept is None or accept(board):
            return board
    wanted = ""
    if band is not None:
        span = f"{band[0]:g} to {band[1]:g}" if band[1] < float("inf") else f"at least {band[0]:g}"
        wanted = f" whose classic game lasts {span} turns on average"
    raise BoardError(
        "",
        f"no board of {goal} squares with {chutes} chutes and {ladders} ladders{wanted} "
        f"in {MAX_DRAWS} draws; widen the band or change the counts",
    )


def new_jump_board(
    seed: int | str,
    goal: int = 100,
    chutes: int | None = None,
    ladders: int | None = None,
    min_turns: float | None = None,
    max_turns: float | None = None,
) -> JumpBoard:
    """A valid jump board drawn from ``seed``: the same seed and options give the same
    board. With a band, boards are drawn until a classic game's expected length (6-face
    spinner, exact finish) falls inside ``[min_turns, max_turns]``."""
    default_chutes, default_ladders = _default_counts(goal)
    chutes = default_chutes if chutes is None else chutes
    ladders = default_ladders if ladders is None else ladders
    if chutes < 0 or ladders < 0:
        raise BoardError("", "the counts of chutes and ladders must be >= 0")
    band = None
    if min_turns is not None or max_turns is not None:
        band = (min_turns or 0.0, float("inf") if max_turns is None else max_turns)
    rng = random.Random(f"board/{seed}")
    return _draw_jump_board(rng, goal, chutes, ladders, band)


def _place_traps(rng: random.Random, counts: Mapping[str, int]) -> list[int]:
    wanted = sum(counts.values())
    inner = list(range(2, TRAP_LANE_SQUARES))  # squares 1 and 15 are never trapped
    if wanted > len(inner):
        raise BoardError("", f"{wanted} traps do not fit on the {len(inner)} squares 2..14")
    squares = rng.sample(inner, wanted)
    layout = [0] * TRAP_LANE_SQUARES
    kinds = [code for code, kind in enumerate(TRAP_KINDS, 1) for _ in range(counts.get(kind, 0))]
    for square, code in zip(squares, kinds, strict=True):
        layout[square - 1] = code
    return layout


def new_trap_board(
    seed: int | str,
    counts: Mapping[str, int] | None = None,
    edition: str | None = None,
    circle: bool = False,
) -> dict[str, Any]:
    """A trap-lane board file's data drawn from ``seed``: ``counts`` traps of each kind
    (``restart``, ``penalty``, ``prison``, ``special``) on distinct squares 2..14."""
    counts = dict(counts or {})
    unknown = sorted(set(counts) - set(TRAP_KINDS))
    if unknown:
        raise BoardError("", f"unknown trap kind {unknown[0]!r} (kinds: {', '.join(TRAP_KINDS)})")
    if any(n < 0 for n in counts.values()):
        raise BoardError("", "trap counts must be >= 0")
    layout = _place_traps(random.Random(f"board/{seed}"), counts)
    data: dict[str, Any] = {"layout": TrapLayout(tuple(layout)).to_json()["layout"]}
    data["circle"] = bool(circle)
    if edition is not None:
        data["edition"] = edition
        make_problem("trap-lane", data)  # an unknown edition is reported here
    return data


def variant_seed(secret: str, assignment: str, student: str) -> str:
    """The seed of a student's board: an HMAC, so it cannot be worked out from the id."""
    message = f"{assignment}\0{student}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


class _Solvable:
    """Accepts a board when the assignment's own rules can finish the game on it, and keeps
    the last solution, so the board chosen is not solved a second time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.solved: tuple[Problem, Solution] | None = None

    def __call__(self, board: JumpBoard) -> bool:
        try:
            problem = make_problem(self.name, board.to_json())
            self.solved = (problem, solve_problem(problem))
        except UsageError:
            return False
        return True


def _draw_variant(
    name: str, secret: str, student: str
) -> tuple[dict[str, Any], tuple[Problem, Solution] | None]:
    assignment = load_assignment(name)
    plan: VariantPlan = assignment.variants
    rng = random.Random(variant_seed(secret, name, student))
    if assignment.family == "trap":
        counts = {kind: rng.randint(*getattr(plan, kind)) for kind in TRAP_KINDS}
        circle = rng.random() < 0.5 if plan.circle == "either" else bool(plan.circle)
        layout = _place_traps(rng, counts)
        return {"layout": layout, "circle": circle}, None
    chutes, ladders = rng.randint(*plan.chutes), rng.randint(*plan.ladders)
    band = (plan.min_turns, plan.max_turns)
    accept = _Solvable(name)
    board = _draw_jump_board(rng, plan.goal, chutes, ladders, band, accept)
    return board.to_json(), accept.solved


def variant_board(name: str, secret: str, student: str) -> dict[str, Any]:
    """Student ``student``'s board for assignment ``name``, as board file data, drawn as the
    assignment's ``[variants]`` says."""
    return _draw_variant(name, secret, student)[0]


def student_variant(name: str, secret: str, student: str) -> Variant:
    """Student ``student``'s board and everything their bundle needs for it."""
    board, solved = _draw_variant(name, secret, student)
    return variant_material(name, board, solved=solved)


@dataclass(frozen=True)
class Variant:
    """What one student's bundle holds that depends on their board."""

    board: dict[str, Any]
    expected: Expected
    self_check: str
    starter: str
    handout: str


def _solve(name: str, board: Mapping[str, Any]) -> tuple[Problem, Solution]:
    problem = make_problem(name, dict(board))
    return problem, solve_problem(problem)


def own_board_cases(
    name: str, board: Mapping[str, Any], cases: Sequence[TestCase]
) -> list[TestCase]:
    """``cases`` with the student's own board in the public board's place (same points)."""
    points = load_assignment(name).tests.public_points
    return [variant_case(name, board, points), *(c for c in cases if c.name != "public")]


def variant_case(
    name: str,
    board: Mapping[str, Any],
    points: float | None = None,
    *,
    solved: tuple[Problem, Solution] | None = None,
) -> TestCase:
    """The visible test on a student's own board, carrying that board's self-check.
    ``solved`` is the board's problem and solution when they are already at hand."""
    problem, solution = solved or _solve(name, board)
    expected = expected_answer(problem, solution)
    points = problem.assignment.tests.public_points if points is None else points
    title = f"your board ({describe_board(board)})"
    return TestCase(
        "your-board", title, dict(board), points, True, expected, self_check_text(expected.answer)
    )


def variant_material(
    name: str,
    board: Mapping[str, Any],
    sample_lines: int = 8,
    *,
    solved: tuple[Problem, Solution] | None = None,
) -> Variant:
    """The expected answer, self-check, starter program and handout for ``board``."""
    solved = solved or _solve(name, board)
    problem = solved[0]
    case = variant_case(name, board, solved=solved)
    answer = case.expected.answer
    assert case.self_check is not None
    params = params_to_json(problem.params)
    sample = "\n".join(render(answer).splitlines()[:sample_lines])
    starter = render_program(problem.assignment, problem.board, params, variant=True)
    handout = render_handout(
        problem.assignment,
        problem.board,
        params,
        self_check=case.self_check,
        sample_output=sample,
        prints_actions=answer.actions is not None,
        variant=True,
    )
    return Variant(dict(board), case.expected, case.self_check, starter, handout)
