"""trap-lane: the two-lane Snakes and Ladders MDP with traps and a choice of dice
(docs/rules.md, "Trap lane").

The board is always 15 squares, so the model is built square by square; nothing here needs
to scale. Square ``q`` is state ``q - 1``; the goal, square 15, is the terminal state 14.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from autograder import TRAP_KINDS, TRAP_LANE_SQUARES, Answer, BoardError, Expected, TrapLayout

from .._analysis import AnalysisRules, BoardLayout, Strategy, always, uniform
from .._catalogue import (
    COMMON_MISTAKES,
    WORST_ACTIONS,
    Knob,
    Make,
    RuleVariant,
    actions_from_zero,
    changed_board,
    changed_game,
    changed_params,
    changed_rules,
)
from .._model import Model, build_model
from .._params import boolean, choice, param
from .._solver import Solution

if TYPE_CHECKING:
    from .._problem import Problem

OUTPUT = "trap-lane"

GOAL = TRAP_LANE_SQUARES
JUNCTION = 3
SLOW_LANE_END = 10
FAST_LANE = (11, 12, 13, 14)
# Penalty: back three squares along the lane walked; the fast lane leads back through 3.
_PENALTY_FAST = {11: 1, 12: 2, 13: 3, 14: 11}


@dataclass(frozen=True)
class Die:
    code: int
    name: str
    faces: tuple[int, ...]
    triggers: float  # probability that a trap where the move ends goes off


SECURITY = Die(1, "security", (0, 1), 0.0)
NORMAL = Die(2, "normal", (0, 1, 2), 0.5)
RISKY = Die(3, "risky", (0, 1, 2, 3), 1.0)

# edition -> (dice, what trap 4 does)
EDITIONS: dict[str, tuple[tuple[Die, ...], str]] = {
    "2020": ((SECURITY, Die(2, "normal", (0, 1, 2), 1.0)), "mystery"),
    "2021": ((SECURITY, NORMAL, RISKY), "gamble"),
    "2022": ((SECURITY, NORMAL, RISKY), "bonus"),
}


@dataclass(frozen=True)
class Params:
    edition: str = param("2021", choice(*EDITIONS), "dice and trap 4: 2020, 2021 or 2022")
    circle: bool = param(False, boolean, "true: square 15 must be reached exactly")
    circle_overshoot: str = param(
        "wrap",
        choice("wrap", "restart"),
        "circle: an overshoot wraps round, or restarts at 1",
        applies=("circle", True),
    )


@dataclass(frozen=True)
class TrapChanges:
    """Rules other than the assignment's, for the catalogue of mistakes
    (``reference_solutions._catalogue``); the defaults are the rules as written.

    ``junction``: a move from square 3 may take the fast lane. ``traps``: traps go off.
    ``penalty_by_number``: a penalty subtracts 3 from the square's number, lane or not.
    ``prison_turns``: turns a prison costs besides the move. ``normal_triggers``: the
    chance a trap goes off after the normal die, if not the edition's; ``risky_triggers``
    the same after the risky die. ``penalty_steps``: the squares a penalty sends the
    piece back.
    """

    junction: bool = True
    traps: bool = True
    penalty_by_number: bool = False
    prison_turns: int = 1
    normal_triggers: float | None = None
    risky_triggers: float | None = None
    penalty_steps: int = 3


RULES_AS_WRITTEN = TrapChanges()
RuleChanges = TrapChanges


def next_square(square: int, circle: bool) -> int:
    """The square after ``square`` on a walk that does not start at the junction."""
    if square == SLOW_LANE_END or square == FAST_LANE[-1]:
        return GOAL
    if square == GOAL:
        return 1 if circle else GOAL
    return square + 1


def walks(
    start: int, steps: int, params: Params, changes: TrapChanges = RULES_AS_WRITTEN
) -> list[tuple[int, float]]:
    """Where a move of ``steps`` from ``start`` ends: ``(square, probability)`` pairs."""
    if steps == 0:
        return [(start, 1.0)]
    firsts = (
        [(JUNCTION + 1, 0.5), (FAST_LANE[0], 0.5)]
        if start == JUNCTION and changes.junction
        else [(next_square(start, params.circle), 1.0)]
    )
    ends = []
    for square, prob in firsts:
        passed_goal = square == GOAL and steps > 1
        for _ in range(steps - 1):
            if square == GOAL and not params.circle:
                break
            square = next_square(square, params.circle)
            passed_goal = passed_goal or (square == 1)
        if passed_goal and square != GOAL and params.circle_overshoot == "restart":
            square = 1
        ends.append((square, prob))
    return ends


def penalty(square: int, changes: TrapChanges = RULES_AS_WRITTEN) -> int:
    steps = changes.penalty_steps
    if changes.penalty_by_number:
        return max(1, square - steps)
    if steps == 3:
        return _PENALTY_FAST.get(square, max(1, square - 3))
    # Back along the lane walked: the fast lane's squares lead back through 3.
    path = [1, 2, 3, *FAST_LANE] if square in FAST_LANE else list(range(1, square + 1))
    return path[max(0, path.index(square) - steps)]


# What the special trap (code 4) does in mystery editions: one of these, equally likely.
_MYSTERY = ("restart", "penalty", "prison")
_CODE = {name: code for code, name in TRAP_KINDS.items()}


def trap_outcomes(
    square: int, trap: int, special: str, changes: TrapChanges = RULES_AS_WRITTEN
) -> list[tuple[int, float, float]]:
    """``(next square, probability, cost of the turn)`` once the trap on ``square`` goes off
    (``trap``: its code in the layout, named by ``TRAP_KINDS``)."""
    kind = TRAP_KINDS.get(trap, "ordinary")
    if kind == "restart":
        return [(1, 1.0, 1.0)]
    if kind == "penalty":
        return [(penalty(square, changes), 1.0, 1.0)]
    if kind == "prison":
        return [(square, 1.0, 1.0 + changes.prison_turns)]  # this turn and the lost one
    if kind == "special" and special == "gamble":
        return [(q, 1.0 / GOAL, 1.0) for q in range(1, GOAL + 1)]
    if kind == "special" and special == "bonus":
        return [(square, 1.0, 0.0)]  # the next turn is free: its cost is refunded here
    if kind == "special":  # mystery: restart, penalty or prison
        return [
            (o, p / len(_MYSTERY), c)
            for name in _MYSTERY
            for o, p, c in trap_outcomes(square, _CODE[name], special, changes)
        ]
    return [(square, 1.0, 1.0)]


@dataclass(frozen=True, eq=False)
class TrapLaneGame:
    output: str
    board: TrapLayout
    params: Params
    model: Model

    steps_per_sweep = 1
    first_square = 1  # square q is state q - 1

    def squares_in_order(self, descending: bool = False) -> np.ndarray:
        """Squares 1..14 (``descending``: 14 down to 1); the goal is no state to update."""
        squares = np.arange(GOAL - 1)
        return squares[::-1] if descending else squares

    def ungraded(self) -> frozenset[str]:
        return frozenset()

    def answer(self, solution: Solution) -> Answer:
        values = tuple(float(v) for v in solution.values[: GOAL - 1])
        dice = tuple(str(solution.action(s)) for s in range(GOAL - 1))
        return Answer(self.output, solution.start_value, values, dice)

    def values_json(self, solution: Solution) -> Any:
        return solution.values[: GOAL - 1].tolist()

    def policy_json(self, solution: Solution) -> Any:
        return [int(solution.action(s)) for s in range(GOAL - 1)]  # type: ignore[arg-type]

    def optimal_json(self, solution: Solution) -> Any:
        return [[int(a) for a in solution.optimal_actions(s)] for s in range(GOAL - 1)]


def build(
    board: TrapLayout, params: Params, changes: TrapChanges = RULES_AS_WRITTEN
) -> TrapLaneGame:
    dice, special = EDITIONS[params.edition]
    pair_state: list[int] = []
    pair_action: list[int] = []
    o_pair: list[int] = []
    o_state: list[int] = []
    o_prob: list[float] = []
    o_cost: list[float] = []
    for square in range(1, GOAL):
        for a, die in enumerate(dice):
            pair = len(pair_state)
            pair_state.append(square - 1)
            pair_action.append(a)
            triggers = die.triggers
            if die.code == NORMAL.code and changes.normal_triggers is not None:
                triggers = changes.normal_triggers
            if die.code == RISKY.code and changes.risky_triggers is not None:
                triggers = changes.risky_triggers
            for steps in die.faces:
                for end, p_walk in walks(square, steps, params, changes):
                    p = p_walk / len(die.faces)
                    trap = board.layout[end - 1] if changes.traps else 0
                    fired = triggers if trap else 0.0
                    outcomes = [(end, 1.0 - fired, 1.0)] if fired < 1.0 else []
                    if fired:
                        outcomes += [
                            (q, fired * pq, c)
                            for q, pq, c in trap_outcomes(end, trap, special, changes)
                        ]
                    for q, pq, cost in outcomes:
                        o_pair.append(pair)
                        o_state.append(q - 1)
                        o_prob.append(p * pq)
                        o_cost.append(cost)
    model = build_model(
        n_states=GOAL,
        pair_state=np.array(pair_state),
        pair_action=np.array(pair_action),
        outcome_pair=np.array(o_pair),
        outcome_state=np.array(o_state),
        outcome_prob=np.array(o_prob),
        outcome_cost=np.array(o_cost),
        action_names=tuple(str(d.code) for d in dice),
        label=lambda s: f"square {s + 1}",
    )
    return TrapLaneGame(OUTPUT, board, params, model)


# --- readings and mistakes (reference_solutions._catalogue) -------------------------------

_OTHER_OVERSHOOT = {"wrap": "restart", "restart": "wrap"}


def _circle_reading(problem: Problem) -> TrapLaneGame | None:
    params = problem.params
    if not params.circle:
        return None
    other = dataclasses.replace(params, circle_overshoot=_OTHER_OVERSHOOT[params.circle_overshoot])
    board = problem.board
    assert isinstance(board, TrapLayout)
    return build(board, other)


def _says_circle(problem: Problem) -> str:
    if _OTHER_OVERSHOOT[problem.params.circle_overshoot] == "restart":
        return "on the circle, an overshoot sends the piece back to square 1"
    return "on the circle, an overshoot by e squares wraps round to square e"


def _normal(chance: float) -> Make:
    def make(problem: Problem, solution: Solution, expected: Expected) -> Any:
        dice, _ = EDITIONS[problem.params.edition]
        normal = next((d for d in dice if d.code == NORMAL.code), None)
        if normal is None or normal.triggers == chance:
            return None
        return changed_rules(normal_triggers=chance)(problem, solution, expected)

    return make


_TRAPS = "the traps: a trap goes off on the square where a move ends"
READINGS = (RuleVariant("circle-other-overshoot", _says_circle, changed_game(_circle_reading)),)


def _traps_shifted(layout: TrapLayout) -> TrapLayout | None:
    """Each square's trap read from the next square's place in the layout (``layout[s]``
    for square ``s``, whose trap is ``layout[s - 1]``)."""
    traps = layout.layout
    try:
        return TrapLayout((*traps[1:], 0))
    except BoardError:
        return None


TRAPS_SHIFTED = RuleVariant(
    "traps-shifted",
    "each square has the trap of the square after it (the layout read one place off)",
    changed_board(_traps_shifted),
    reread="the board: layout[i] is the trap on square i + 1",
)

MISTAKES = (
    RuleVariant(
        "junction-ignored",
        "a move from square 3 always takes the slow lane",
        changed_rules(junction=False),
        reread="the junction: a move that starts on square 3 takes either lane, 1/2 each",
    ),
    RuleVariant("traps-ignored", "traps never go off", changed_rules(traps=False), reread=_TRAPS),
    RuleVariant(
        "penalty-by-number",
        "a penalty subtracts 3 from the square's number (14 goes to 11, 11 to 8)",
        changed_rules(penalty_by_number=True),
        reread="the penalty: back 3 squares along the lane walked (11..14 go to 1, 2, 3, 11)",
    ),
    RuleVariant(
        "prison-free",
        "a prison costs nothing",
        changed_rules(prison_turns=0),
        reread="the prison: the player loses the next turn (cost +1)",
    ),
    RuleVariant(
        "normal-always-triggers",
        "a trap always goes off after the normal die",
        _normal(1.0),
        reread="the dice: after the normal die a trap goes off with probability 1/2",
    ),
    RuleVariant(
        "normal-never-triggers",
        "a trap never goes off after the normal die",
        _normal(0.0),
        reread="the dice: after the normal die a trap goes off with probability 1/2",
    ),
    RuleVariant(
        "circle-ignored",
        "reaching or passing square 15 wins, though the board is a circle",
        changed_params(circle=False),
        reread="the circle: with circle = true, square 15 must be reached exactly",
    ),
    RuleVariant(
        "circle-assumed",
        "square 15 must be reached exactly, though the board is not a circle",
        changed_params(circle=True),
        reread="the circle: with circle = false, reaching or passing square 15 wins",
    ),
    RuleVariant(
        "dice-from-zero",
        "each die is printed one lower than its code (counted from 0, as a list's index)",
        actions_from_zero,
        reread="the dice: print each die's code (1 security, 2 normal, 3 risky), not its "
        "place in a list",
    ),
    TRAPS_SHIFTED,
    WORST_ACTIONS,
    *COMMON_MISTAKES,
)

_CHANCES = ("the dice: after the security die no trap goes off, after the normal die one "
            "half of the time, after the risky die always")  # fmt: skip


def _chance_knob(die: Die, change: str) -> Knob:
    def twist(problem: Problem, chance: float) -> Any:
        dice, _ = EDITIONS[problem.params.edition]
        if all(d.code != die.code for d in dice):
            return None
        return changed_rules(**{change: chance})

    return Knob(
        f"{die.name}-triggers",
        lambda _p, chance: (
            f"a trap goes off after the {die.name} die with probability {chance:.6g}"
        ),
        twist,
        _CHANCES,
        bounds=((0.0, 1.0),),
    )


KNOBS = (
    _chance_knob(NORMAL, "normal_triggers"),
    _chance_knob(RISKY, "risky_triggers"),
    Knob(
        "prison-turns",
        lambda _p, turns: f"a prison costs {turns} turns besides the move",
        lambda _p, turns: changed_rules(prison_turns=turns),
        "the prison trap: it costs one turn besides the move",
        options=lambda _p: [2, 3],
    ),
    Knob(
        "penalty-steps",
        lambda _p, steps: f"a penalty sends the piece back {steps} squares",
        lambda _p, steps: changed_rules(penalty_steps=steps),
        "the penalty trap: back three squares along the lane walked",
        options=lambda _p: [1, 2, 4, 5],
    ),
)


# --- the analysis (reference_solutions._analysis, ``autograder analyze``) ----------------------


def _game(problem: Problem) -> TrapLaneGame:
    game = problem.game
    assert isinstance(game, TrapLaneGame)
    return game


def _layout(problem: Problem) -> BoardLayout:
    """Squares 1..15, square ``q`` being state ``q - 1``; a note names each square's trap."""
    game = _game(problem)
    special = EDITIONS[game.params.edition][1]
    notes = {}
    for square, trap in enumerate(game.board.layout, start=1):
        if trap:
            kind = TRAP_KINDS.get(trap, "ordinary")
            notes[square] = special if kind == "special" else kind
    squares = tuple(range(1, GOAL + 1))
    return BoardLayout(squares, (np.arange(GOAL),), ("",), 0, notes)


def _die_words(problem: Problem, policy: np.ndarray) -> tuple[dict[int, str]]:
    game = _game(problem)
    dice = EDITIONS[game.params.edition][0]
    said = {q: dice[game.model.action_of_pair[policy[q - 1]]].name for q in range(1, GOAL)}
    return ({**said, GOAL: "-"},)


def _strategies(problem: Problem, solution: Solution) -> list[Strategy]:
    """Each of the edition's dice on every square, and a die drawn at random each turn."""
    dice = EDITIONS[_game(problem).params.edition][0]
    model = solution.model
    strategies = []
    for a, die in enumerate(dice):  # action a is the edition's die a (every die, every square)
        faces = ", ".join(map(str, die.faces))
        says = f"the {die.name} die (faces {faces}) on every square"
        policy, _ = always(model, a, solution.policy)
        strategies.append(Strategy(f"always {die.name}", says, policy))
    names = [d.name for d in dice]
    either = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
    says = f"{either}, each with probability 1/{len(dice)} every turn"
    strategies.append(Strategy("random die", says, uniform(model)))
    return strategies


# The layout ``autograder analyze trap-lane`` plays when it is given none and the public one
# has no trap. With no trap the risky die is best on every square, so "always risky" is the
# optimal strategy itself and the comparison shows nothing. Here each kind of trap stands
# somewhere (restart twice: early on the slow lane and last on the fast one), and the optimal
# policy plays each of the three dice somewhere, so every named strategy does worse.
ANALYSIS_LAYOUT = (0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 0, 4, 0, 1, 0)


def _analysis_board(problem: Problem) -> tuple[str, dict[str, Any]] | None:
    """``ANALYSIS_LAYOUT`` (named by its traps) when ``problem``'s layout has no trap."""
    if any(_game(problem).board.layout):
        return None
    special = EDITIONS[_game(problem).params.edition][1]  # what trap 4 is in this edition
    where: dict[str, list[str]] = {}
    for square, trap in enumerate(ANALYSIS_LAYOUT, start=1):
        if trap:
            kind = TRAP_KINDS[trap]
            where.setdefault(special if kind == "special" else kind, []).append(str(square))
    traps = ", ".join(f"{kind} on {' and '.join(squares)}" for kind, squares in where.items())
    words = f"the analysis layout ({traps}; the public layout has no trap)"
    return words, {"layout": list(ANALYSIS_LAYOUT)}


# Each die alone and a random die against the optimal dice, on a layout with traps.
ANALYSIS = AnalysisRules(_layout, _die_words, _strategies, _analysis_board)
