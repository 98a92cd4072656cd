"""An assignment, a board and parameters put together: the thing ``solve`` and ``simulate``
work on. Every user mistake surfaces here as a :class:`UsageError` naming its source."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from autograder import (
    Answer,
    Assignment,
    Board,
    LoadedBoard,
    UsageError,
    load_assignment,
    load_board,
    output_format,
    parse_board,
)

from ._model import Model
from ._params import params_to_json, read_params
from ._solver import Solution, solve

__all__ = ["Game", "Problem", "make_problem", "parse_settings", "solution_json", "solve_problem"]


class Game(Protocol):
    """What a rules module's ``build`` returns: the model and how to read a solution."""

    output: str
    model: Model
    first_square: int  # the square of state 0 (action lists and printed policies count from it)

    @property
    def steps_per_sweep(self) -> int:
        """Model steps per sweep over the squares (2 where a turn is a spin, then a choice)."""
        ...

    def squares_in_order(self, descending: bool = False) -> np.ndarray:
        """The states of the squares a program's value iteration updates, in the order its
        loop does: from the lowest square up (``descending``: the highest down)."""
        ...

    def answer(self, solution: Solution) -> Answer: ...
    def ungraded(self) -> frozenset[str]: ...
    def values_json(self, solution: Solution) -> Any: ...
    def policy_json(self, solution: Solution) -> Any: ...
    def optimal_json(self, solution: Solution) -> Any: ...


@dataclass(frozen=True, eq=False)
class Problem:
    assignment: Assignment
    rules: ModuleType
    board: Board
    board_source: str
    params: Any
    game: Game
    settings: tuple[str, ...] = ()  # the ``--set key=value`` given, as given

    @property
    def where(self) -> str:
        """What to blame for a game that cannot be played: the board, and the settings that
        changed its rules ("the public board with --set faces=1")."""
        return _blamed(self.assignment, self.board_source, self.settings)

    @property
    def board_words(self) -> str:
        """The board as a person names it: "the public board", or its file."""
        return _board_words(self.assignment, self.board_source)

    def board_file(self) -> dict[str, Any]:
        """The board file a program is given for this board and these parameters."""
        return self.assignment.board_family.board_file(self.board, params_to_json(self.params))


def _board_words(assignment: Assignment, source: str) -> str:
    return "the public board" if source == f"{assignment.config} [board]" else source


def _blamed(assignment: Assignment, source: str, settings: Sequence[str]) -> str:
    changed = "".join(f" --set {s}" for s in settings)
    return f"{_board_words(assignment, source)} with{changed}" if changed else source


def load_rules(assignment: Assignment) -> ModuleType:
    """The rules module an assignment names, once it is known to print answers for the
    assignment's kind of board (its ``OUTPUT`` format's family)."""
    where = str(assignment.config)
    try:
        rules = importlib.import_module(f"reference_solutions.rules.{assignment.rules}")
    except ModuleNotFoundError:
        raise UsageError(
            where, f"no rules module {assignment.rules!r} in reference_solutions"
        ) from None
    fmt = output_format(rules.OUTPUT)
    if fmt.family != assignment.family:
        raise UsageError(
            where,
            f"family = {assignment.family!r}, but the rules {assignment.rules!r} print "
            f"{fmt.name!r}, a format of {fmt.family!r} boards",
        )
    return rules


def parse_settings(settings: Sequence[str]) -> list[tuple[str, dict[str, str]]]:
    """``["faces=4", ...]`` as parameter layers, each naming its ``--set``."""
    layers = []
    for setting in settings:
        key, sep, value = setting.partition("=")
        where = f"--set {setting}"
        if not sep or not key.strip():
            raise UsageError(where, "expected key=value")
        layers.append((where, {key.strip(): value.strip()}))
    return layers


def make_problem(
    name: str,
    board: str | Path | Mapping[str, Any] | None = None,
    settings: Sequence[str] = (),
    params: Mapping[str, Any] | None = None,
) -> Problem:
    """Build the game of assignment ``name``.

    ``board`` is a board file, decoded board data, or ``None`` for the public board of the
    assignment. Parameters come from the assignment's TOML, then the board file (a trap-lane
    file may set ``circle`` and ``edition``), then ``params``, then ``settings`` (``key=value``).
    """
    assignment = load_assignment(name)
    rules = load_rules(assignment)
    loaded: LoadedBoard
    family = assignment.family
    if board is None:
        loaded = parse_board(dict(assignment.board), family, f"{assignment.config} [board]")
    elif isinstance(board, Mapping):
        loaded = parse_board(dict(board), family, "board")
    else:
        loaded = load_board(board, family)
    layers: list[tuple[str, Mapping[str, Any]]] = [
        (str(assignment.config), assignment.params),
        (loaded.source, loaded.params),
    ]
    if params:
        layers.append(("params", params))
    layers += parse_settings(settings)
    parsed = read_params(rules.Params, layers, name)
    try:
        game = rules.build(loaded.board, parsed)
    except UsageError as err:
        raise err.located(_blamed(assignment, loaded.source, settings)) from None
    return Problem(assignment, rules, loaded.board, loaded.source, parsed, game, tuple(settings))


def solve_problem(problem: Problem, method: str = "policy_iteration", **options: float) -> Solution:
    try:
        return solve(problem.game.model, method, **options)
    except UsageError as err:
        raise err.located(problem.where) from None


def solution_json(problem: Problem, solution: Solution) -> dict[str, Any]:
    game = problem.game
    return {
        "assignment": problem.assignment.name,
        "params": params_to_json(problem.params),
        "board": problem.board.to_json(),
        "start_value": solution.start_value,
        "values": game.values_json(solution),
        "policy": game.policy_json(solution),
        "optimal_actions": game.optimal_json(solution),
        "solver": {
            "method": solution.method,
            "iterations": solution.iterations,
            "residual": solution.residual,
            "error_bound": solution.error_bound,
        },
    }
