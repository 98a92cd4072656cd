"""What every assignment must satisfy: each conformance check of
``reference_solutions.check_assignment``, run on every assignment. A new
``assignments/<name>/`` is covered the day it is added: the parametrisation reads the
folder list."""

from __future__ import annotations

import pytest

from autograder import assignment_names, load_assignment
from reference_solutions import CHECKS, check_assignment

NAMES = assignment_names()


def test_all_six_assignments_are_configured():
    assert set(NAMES) >= {"classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane"}


def test_published_self_checks_are_configured():
    # The rules publish self-checks (docs/rules.md, "Self-checks") for these; aimed and
    # efron have none.
    published = {n for n in NAMES if load_assignment(n).self_check is not None}
    assert published >= {"classic", "boosted", "token-boosted", "trap-lane"}


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("name", NAMES)
def test_conformance(name, check, conformance):
    report = conformance(name).run([check])
    assert report.ok, report.text()


def test_an_unknown_check_is_refused():
    with pytest.raises(ValueError, match="unknown check"):
        check_assignment("classic", ["no-such-check"])
