"""The print formats (docs/contracts.md, "Output formats"), found by name in a registry.

A format renders an answer as the text a correct program prints, reads such text back, and
lists the entries that are graded. The built-in ones: ``values``, ``token-values`` and
``values-actions`` (the jump boards' grids) and ``trap-lane``, among others. A new printed
table is a module here that subclasses :class:`OutputFormat` and registers an instance;
the package imports every module it holds.

Standard library only: a student bundle's ``check.py`` carries this package.
"""

import importlib
import pkgutil

from .._answer import Answer
from ._grid import board_rows, grid_goal_problem
from ._reading import OutputError, Printed
from ._registry import (
    OutputFormat,
    Place,
    entry_pair,
    entry_place,
    format_names,
    output_format,
    register_format,
    table_caption,
)

__all__ = [
    "OutputError",
    "OutputFormat",
    "Place",
    "Printed",
    "board_rows",
    "entry_pair",
    "entry_place",
    "format_names",
    "grid_goal_problem",
    "output_format",
    "register_format",
    "render",
    "table_caption",
]


# Every module of this package registers the formats it defines: a new format is one new
# file here, named nowhere else.
for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _module.startswith("_reading") and _module != "_registry":
        importlib.import_module(f"{__name__}.{_module}")


def render(answer: Answer) -> str:
    """The exact text a correct program prints for ``answer`` (ending with a newline)."""
    return output_format(answer.output).render(answer)
