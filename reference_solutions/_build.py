"""How this package's compiled part, the solver's kernel (``_kernel.c``), is built: one
definition for ``setup.py`` (``pip install``) and for the images of other platforms, whose
set-up scripts run this file to build the kernel in place for their own Python
(``python reference_solutions/_build.py``, from the folder that holds the package).

Setuptools and numpy are imported only when the kernel is built; a failed build is no
error: the solver then runs its numpy path alone (``solver_kind()`` says which runs).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

SOURCE = "reference_solutions/_kernel.c"
COMPILE_ARGS = ["-O2", "-std=c99", "-Wall", "-Wextra"]


def kernel_extensions() -> list[Any]:
    """The kernel as a setuptools ``Extension``, built against numpy's C headers; none
    where numpy cannot be imported. ``optional``: where no C compiler or no Python headers
    are found, the package installs without it."""
    from setuptools import Extension

    try:
        import numpy
    except ImportError:
        return []
    return [
        Extension(
            "reference_solutions._kernel",
            [SOURCE],
            include_dirs=[numpy.get_include()],
            optional=True,
            extra_compile_args=COMPILE_ARGS,
        )
    ]


def build_in_place(project: Path) -> bool:
    """Build the kernel beside its source in ``project`` (the folder holding this package);
    whether a kernel is there afterwards."""
    import os

    from setuptools import setup

    os.chdir(project)
    setup(
        name="reference-solutions-kernel",
        ext_modules=kernel_extensions(),
        script_args=["--quiet", "build_ext", "--inplace"],
        packages=[],
        py_modules=[],
    )
    return any((project / "reference_solutions").glob("_kernel.*.so"))


if __name__ == "__main__":
    built = build_in_place(Path(__file__).resolve().parent.parent)
    print("solver kernel: built" if built else "solver kernel: not built")
    sys.exit(0)
