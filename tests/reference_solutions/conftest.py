"""Which of the solver's two paths a test runs: the compiled kernel (``_kernel.c``) takes
every model it can first, so a test of the numpy path beneath it turns the kernel off."""

from __future__ import annotations

import os
from collections.abc import Iterator
from unittest import mock

import pytest

from reference_solutions import _solver


@pytest.fixture
def numpy_path() -> Iterator[None]:
    """The solver without its compiled kernel, as where no C compiler was found."""
    with mock.patch.object(_solver, "_compiled", None):
        yield


@pytest.fixture(params=["kernel", "numpy"])
def either_path(request) -> Iterator[str]:
    """Each of the two paths in turn. Where the kernel is not built (no C compiler at
    install) its turn is skipped, but where CI expects it (``AUTOGRADER_EXPECT_KERNEL``)."""
    if request.param == "numpy":
        with mock.patch.object(_solver, "_compiled", None):
            yield "numpy"
        return
    if _solver._compiled is None and not os.environ.get("AUTOGRADER_EXPECT_KERNEL"):
        pytest.skip("the compiled kernel is not built here (no C compiler at install)")
    assert _solver._compiled is not None, "the compiled kernel is not built"
    yield "kernel"
