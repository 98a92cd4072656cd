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
