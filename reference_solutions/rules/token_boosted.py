"""token-boosted: as boosted, but each ``+1`` spends one of ``tokens`` tokens
(docs/rules.md, "token-boosted")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from autograder import Answer, Expected, JumpBoard

from .._catalogue import (
    COMMON_MISTAKES,
    RuleVariant,
    changed_answer,
    changed_game,
    changed_rules,
    solved_variant,
)
from .._params import Overshoot, integer, overshoot, param
from .._solver import solve
from ._jumps import (
    BOOST_ANALYSIS,
    JUMP_READINGS,
    RULES_AS_WRITTEN,
    SPINNER_KNOBS,
    SPINNER_MISTAKES,
    JumpGame,
    RuleChanges,
    boost_game,
    jump_board,
)
from .boosted import BOOST_MISTAKES

if TYPE_CHECKING:
    from .._problem import Problem
    from .._solver import Solution


OUTPUT = "token-values"


@dataclass(frozen=True)
class Params:
    faces: int = param(6, integer(1, 10_000), "the spinner shows 1..faces, each equally likely")
    overshoot: Overshoot = param(
        Overshoot("stay"), overshoot, "a move that would pass the goal: stay, win, bounce, land:K"
    )
    tokens: int = param(3, integer(0, 1_000), "tokens at the start; each +1 move spends one")


def build(board: JumpBoard, params: Params, changes: RuleChanges = RULES_AS_WRITTEN) -> JumpGame:
    return boost_game(board, params.overshoot, params.faces, params.tokens, OUTPUT, changes)


class _EveryTable:
    """A game whose one value table is printed under every token heading (``bottom``: but
    the classic game's under 0 tokens)."""

    def __init__(self, game: JumpGame, tables: int, bottom: tuple[float, ...] | None = None):
        self.game, self.model, self.tables, self.bottom = game, game.model, tables, bottom

    def answer(self, solution: Solution) -> Answer:
        one = self.game.answer(solution)
        if self.bottom is None:
            return Answer(OUTPUT, one.start_value, (one.values,) * self.tables)
        start = one.start_value if self.tables > 1 else self.bottom[0]
        return Answer(OUTPUT, start, (self.bottom, *(one.values,) * (self.tables - 1)))


def _same_tables(tokens: int | None) -> Callable[[Problem], _EveryTable]:
    def build(problem: Problem) -> _EveryTable:
        params = problem.params
        game = boost_game(jump_board(problem), params.overshoot, params.faces, tokens, "values")
        return _EveryTable(game, params.tokens + 1)

    return build


def _tokens_kept(problem: Problem, solution: Solution, expected: Expected) -> Any:
    """A boost never spends its token, but with none to start with there is no boost."""
    params = problem.params
    if params.tokens < 1:
        return None
    board = jump_board(problem)
    classic = solve(boost_game(board, params.overshoot, params.faces, 0, "values").model)
    game = boost_game(board, params.overshoot, params.faces, None, "values")
    bottom = (*(float(v) for v in classic.values[: board.goal]), 0.0)
    return solved_variant(problem, _EveryTable(game, params.tokens + 1, bottom))


def _reversed(problem: Problem, solution: Solution, answer: Answer) -> Answer | None:
    if problem.params.tokens < 1:
        return None
    return dataclasses.replace(answer, values=answer.values[::-1])


_TOKENS = "the tokens: each boost spends one, and with none left the game is classic"
READINGS = JUMP_READINGS
MISTAKES = (
    *SPINNER_MISTAKES,
    *BOOST_MISTAKES,
    RuleVariant(
        "tokens-never-spent",
        "a boost is never taken (every table is the classic game)",
        changed_game(_same_tables(0)),
        reread=_TOKENS,
    ),
    RuleVariant(
        "tokens-unlimited",
        "boosts never spend a token (every table is the boosted game)",
        changed_game(_same_tables(None)),
        reread=_TOKENS,
    ),
    RuleVariant(
        "tokens-kept",
        "a boost never spends its token (every table but the one for 0 tokens is boosted)",
        _tokens_kept,
        reread=_TOKENS,
    ),
    RuleVariant(
        "boost-spends-two",
        "each boost spends two tokens",
        changed_rules(boost_tokens=2),
        reread=_TOKENS,
    ),
    RuleVariant(
        "tables-reversed",
        "the table headed T tokens holds the values for the other end of the count",
        changed_answer(_reversed),
        reread="the output: each table's heading names the tokens left for its values",
    ),
    *COMMON_MISTAKES,
)

# What a changed game of this assignment costs to build and solve, against its size
# alone (reference_solutions/_explain.py, SOLVE_SIZE; measured on the benchmark machine):
# a table per token count, rebuilt whole for every change.
EXPLAIN_COST = 2.4

KNOBS = SPINNER_KNOBS
# Never boost, boost whenever a token is left (rules._jumps.boost_strategies).
ANALYSIS = BOOST_ANALYSIS
