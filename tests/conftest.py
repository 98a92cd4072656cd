import os

from hypothesis import HealthCheck, settings

# Deterministic examples in CI so a red run can be reproduced; locally the same profile
# keeps the suite's run time predictable.
settings.register_profile(
    "project",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "project"))


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def conformance(tmp_path_factory):
    """``conformance(name)``: the conformance checks of one assignment, sharing their work
    (the examples, the reference program and the starter graded once on the full answer
    key) across the session."""
    from reference_solutions import Conformance

    cache: dict = {}

    def get(name: str) -> Conformance:
        if name not in cache:
            cache[name] = Conformance(name, tmp_path_factory.mktemp(name))
        return cache[name]

    return get


@pytest.fixture(scope="session")
def graded(conformance):
    """``graded(name)``: every example submission of an assignment, plus its reference and
    starter programs, graded once per session on the full answer key."""
    return lambda name: conformance(name).graded
