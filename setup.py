"""The one part of the build pyproject.toml cannot declare: the solver's compiled kernel
(``reference_solutions/_kernel.c``), against numpy's C headers.

``optional``: where no C compiler (or no Python or numpy headers) is found, a bare Gradescope
image say, the package installs without it and the solver runs its numpy path alone
(``reference_solutions/_solver.py``): the same answers, more slowly.
"""

from setuptools import Extension, setup

try:
    import numpy
except ImportError:  # (pyproject.toml's build requirements bring it; a bare setup.py run may not)
    kernels = []
else:
    kernels = [
        Extension(
            "reference_solutions._kernel",
            ["reference_solutions/_kernel.c"],
            include_dirs=[numpy.get_include()],
            optional=True,
            extra_compile_args=["-O2", "-std=c99", "-Wall", "-Wextra"],
        )
    ]

setup(ext_modules=kernels)
