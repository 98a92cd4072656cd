"""Boards as typed, frozen data, by kind (board family), found by name in a registry.

The built-in families: ``jump`` (the Chutes and Ladders boards of five assignments) and
``trap`` (the trap lane's layouts). A new kind of board is a module here that subclasses
:class:`BoardFamily` and registers an instance; an assignment names its family in its TOML.
"""

import importlib
import pkgutil

from ._family import (
    Board,
    BoardFamily,
    LoadedBoard,
    VariantPlan,
    board_family,
    describe_board,
    family_names,
    load_board,
    parse_board,
    register_family,
)
from ._jump import (
    MAX_GOAL,
    STANDARD_JUMPS,
    JumpBoard,
    JumpVariantPlan,
    jump_board_problem,
    standard_board,
)
from ._trap_lane import TRAP_KINDS, TRAP_LANE_SQUARES, TrapLayout, TrapVariantPlan

# Every module of this package that defines a family registers it: a new kind of board is
# one new file here (its types exported by its own module), named nowhere else.
for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module not in ("_family", "_picture"):
        importlib.import_module(f"{__name__}.{_module}")

__all__ = [
    "MAX_GOAL",
    "STANDARD_JUMPS",
    "TRAP_KINDS",
    "TRAP_LANE_SQUARES",
    "Board",
    "BoardFamily",
    "JumpBoard",
    "JumpVariantPlan",
    "LoadedBoard",
    "TrapLayout",
    "TrapVariantPlan",
    "VariantPlan",
    "board_family",
    "describe_board",
    "family_names",
    "jump_board_problem",
    "load_board",
    "parse_board",
    "register_family",
    "standard_board",
]
