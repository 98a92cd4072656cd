"""The data a package carries (assignments, starter templates, page templates, scripts), as
folders on disk, wherever the package is installed.

Read through ``importlib.resources`` rather than beside the source tree, so that a wheel
installed anywhere finds what a checkout does: the folders are package data
(``pyproject.toml``, ``[tool.setuptools.package-data]``), never looked up relative to the
project folder. An installed package is a folder, and its data is used where it lies; a
package imported from a zip archive has its folder extracted once, for the life of the
process (Jinja2's loaders, the sandbox and ``subprocess`` all need real paths).
"""

from __future__ import annotations

import atexit
import contextlib
import sys
from functools import cache
from importlib.resources import as_file, files
from pathlib import Path

__all__ = ["package_copies", "package_data"]

_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


@cache
def package_data(package: str, name: str) -> Path:
    """The file or folder ``name`` (a ``/``-separated path) of ``package``'s data, as a
    path on disk."""
    resource = files(package).joinpath(*name.split("/"))
    if isinstance(resource, Path):
        return resource
    # (a zipped package: extracted, which Python 3.12+ does for folders too)
    return _extracted.enter_context(as_file(resource))


def package_copies(package: str, name: str = "") -> list[Path]:
    """``name`` (a ``/``-separated path, or the package itself) in every copy of
    ``package`` on the import path: a copy on ``PYTHONPATH`` (Gradescope's) may run while
    another is installed in the environment whose Python the submissions run with, and a
    submission must find neither's answer material."""
    found = []
    for entry in sys.path:
        if not entry:
            continue
        folder = Path(entry) / package
        if (folder / "__init__.py").is_file():
            target = folder.joinpath(*name.split("/")) if name else folder
            if target.exists():
                found.append(target.resolve())
    return list(dict.fromkeys(found))
