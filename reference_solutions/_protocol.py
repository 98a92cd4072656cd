"""What a rules module (``reference_solutions/rules/<name>.py``) provides: the protocol the
conformance check holds every assignment's module to (docs/contracts.md, "Rules
modules")."""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any

from ._catalogue import RuleVariant

__all__ = ["RULES_OPTIONAL", "RULES_REQUIRED", "rules_problems"]

# What a rules module (``reference_solutions/rules/<name>.py``) provides, by name: what it
# must, and what it may (docs/contracts.md, "Rules modules"). The conformance check holds
# every assignment's module to it (:func:`rules_problems`).
RULES_REQUIRED = {
    "OUTPUT": "the name of its print format",
    "Params": "a frozen dataclass of its parameters (reference_solutions._params.param)",
    "build": "build(board, params[, changes]) -> a Game",
    "READINGS": "a tuple of RuleVariant: the other conventions the rules accept",
    "MISTAKES": "a tuple of RuleVariant: the catalogue of named mistakes",
}
RULES_OPTIONAL = {
    "RuleChanges": "a frozen dataclass of the rules' knobs, for the catalogue",
    "KNOBS": "a tuple of Knob: numbers of the rules a diagnosis may fit",
    "ANALYSIS": "AnalysisRules, or None: what `analyze` compares",
    "EXPLAIN_COST": "a number: the cost of one changed game, for the diagnosis's budget",
}
_GAME_MEMBERS = ("output", "model", "first_square", "steps_per_sweep", "squares_in_order",
                 "answer", "ungraded", "values_json", "policy_json", "optimal_json")  # fmt: skip


def rules_problems(rules: ModuleType, game: Any) -> list[str]:
    """What a rules module, and a ``game`` it built, lack of the protocol above."""
    problems = [f"no {name}: {what}" for name, what in RULES_REQUIRED.items()
                if not hasattr(rules, name)]  # fmt: skip
    if problems:
        return problems
    if not isinstance(rules.OUTPUT, str):
        problems.append("OUTPUT is not a format's name")
    if not dataclasses.is_dataclass(rules.Params):
        problems.append("Params is not a dataclass")
    if not callable(rules.build):
        problems.append("build is not a function")
    for name in ("READINGS", "MISTAKES"):
        value = getattr(rules, name)
        if not isinstance(value, tuple) or not all(isinstance(v, RuleVariant) for v in value):
            problems.append(f"{name} is not a tuple of RuleVariant")
    if not isinstance(getattr(rules, "EXPLAIN_COST", 1.0), int | float):
        problems.append("EXPLAIN_COST is not a number")
    if not isinstance(getattr(rules, "KNOBS", ()), tuple):
        problems.append("KNOBS is not a tuple")
    problems += [f"{member} missing from the game its build makes" for member in _GAME_MEMBERS
                 if not hasattr(game, member)]  # fmt: skip
    if getattr(game, "output", rules.OUTPUT) != rules.OUTPUT:
        problems.append(f"the game prints {game.output!r}, not OUTPUT {rules.OUTPUT!r}")
    return problems
