"""The print formats (docs/contracts.md, "Output formats"), found by name in a registry.

A format renders an answer as the text a correct program prints, reads such text back, and
lists the entries that are graded. The built-in ones: ``values``, ``token-values`` and
``values-actions`` (the jump boards' grids) and ``trap-lane``. A new printed table is a
module here that subclasses :class:`OutputFormat` and registers an instance.

Standard library only: a student bundle's ``check.py`` carries this package.
"""

from .._answer import Answer
from . import _grid, _trap_lane  # noqa: F401  (each registers its formats)
from ._grid import board_rows, grid_goal_problem
from ._reading import OutputError, Printed
from ._registry import OutputFormat, format_names, output_format, register_format

__all__ = [
    "OutputError",
    "OutputFormat",
    "Printed",
    "board_rows",
    "format_names",
    "grid_goal_problem",
    "output_format",
    "register_format",
    "render",
]


def render(answer: Answer) -> str:
    """The exact text a correct program prints for ``answer`` (ending with a newline)."""
    return output_format(answer.output).render(answer)
