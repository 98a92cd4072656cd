"""The one part of the build pyproject.toml cannot declare: the solver's compiled kernel
(``reference_solutions/_kernel.c``), against numpy's C headers. Its definition is
``reference_solutions/_build.py``, which the Gradescope and PrairieLearn images run too.

``optional``: where no C compiler (or no Python or numpy headers) is found, a bare image say,
the package installs without it and the solver runs its numpy path alone
(``reference_solutions/_solver.py``): the same answers, more slowly.
"""

import runpy

from setuptools import setup

build = runpy.run_path("reference_solutions/_build.py")
setup(ext_modules=build["kernel_extensions"]())
