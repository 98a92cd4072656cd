"""Every kind of program the grader runs, registered by importing its module (the
registry is ``autograder._languages``; Python is registered there)."""

from __future__ import annotations

from . import (
    _configured,  # noqa: F401  kinds declared in languages.toml (Java)
    _languages,  # noqa: F401  Python
    _notebook,  # noqa: F401  Jupyter notebooks
)
