"""What every assignment must satisfy: each conformance check of
``reference_solutions.check_assignment``, run on every assignment. A new
``assignments/<name>/`` is covered the day it is added: the parametrisation reads the
folder list.

Every check of every assignment runs by default, in the cheaper form where it has one. The
batch of the examples, the reference program and the starter graded on the whole answer key
(shared by the session) is graded by default for one assignment of each board family
(``tests.grading.GRADED_BY_DEFAULT``); for the others, ``examples`` and ``variants`` (which
makes and grades students' bundles) run with ``pytest -m slow``, and the other checks run by
default on a batch of the reference program and the starter alone (no example that never
ends holds it up)."""

from __future__ import annotations

import pytest

import reference_solutions._conformance
from autograder import assignment_names, load_assignment
from reference_solutions import CHECKS, Conformance, check_assignment
from tests.grading import GRADED_BY_DEFAULT

NAMES = assignment_names()


def test_all_six_assignments_are_configured():
    assert set(NAMES) >= {"classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane"}


def test_published_self_checks_are_configured():
    # The rules publish self-checks (docs/rules.md, "Self-checks") for these; aimed and
    # efron have none.
    published = {n for n in NAMES if load_assignment(n).self_check is not None}
    assert published >= {"classic", "boosted", "token-boosted", "trap-lane"}


# What needs the examples graded, or students' bundles: with -m slow only, for the
# assignments whose examples are not graded by default.
OF_THE_EXAMPLES = {"examples", "variants"}
# What reads the graded batch: its results, or the answer key's cases it holds.
OF_THE_BATCH = {"reference-full-marks", "starter-scores-zero", "boards", "mistakes-named",
                "readings-accepted", "policy-costs"}  # fmt: skip
NOT_GRADED_BY_DEFAULT = [n for n in NAMES if n not in GRADED_BY_DEFAULT]


@pytest.mark.parametrize(
    ("name", "check"),
    [
        pytest.param(name, check, marks=pytest.mark.slow)
        if check in OF_THE_EXAMPLES | OF_THE_BATCH and name not in GRADED_BY_DEFAULT
        else (name, check)
        for name in NAMES
        for check in CHECKS
    ],
)
def test_conformance(name, check, conformance):
    report = conformance(name).run([check])
    assert report.ok, report.text()


@pytest.fixture(scope="module")
def without_examples(tmp_path_factory):
    """``without_examples(name)``: the conformance checks of an assignment whose graded
    batch holds the reference program and the starter only, on the whole answer key."""
    made: dict[str, Conformance] = {}

    def get(name: str) -> Conformance:
        if name not in made:
            checks = Conformance(name, tmp_path_factory.mktemp(f"{name}-alone"))
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(
                    reference_solutions._conformance,
                    "render_examples",
                    lambda _assignment, into, _examples: into.mkdir(parents=True),
                )
                assert set(checks.graded.results) == {"reference", "starter"}
            made[name] = checks
        return made[name]

    return get


@pytest.mark.parametrize(
    ("name", "check"), [(n, c) for n in NOT_GRADED_BY_DEFAULT for c in CHECKS if c in OF_THE_BATCH]
)
def test_conformance_without_the_examples(name, check, without_examples):
    """The cheaper form, where the examples are graded with -m slow only (test_conformance
    runs the whole form there): the same checks on the reference program and the starter
    graded alone (``readings-accepted`` then finds the reference program named as no
    mistake, the correct examples are not there)."""
    report = without_examples(name).run([check])
    assert report.ok, report.text()


def test_an_unknown_check_is_refused():
    with pytest.raises(ValueError, match="unknown check"):
        check_assignment("classic", ["no-such-check"])
