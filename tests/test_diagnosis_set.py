"""The second diagnosis set (benchmarks/diagnosis/second) is well formed: enough wrong
programs of every class and assignment, unique ids, substitutions that each apply exactly
once, and sources that compile. Fast: no program is run (grade.py beside it runs them)."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

SECOND = Path(__file__).resolve().parent.parent / "benchmarks" / "diagnosis" / "second"
ASSIGNMENTS = {"classic", "boosted", "token-boosted", "aimed", "efron", "trap-lane"}
MIN_PROGRAMS = 44
MIN_PER_ASSIGNMENT = 5
MIN_PER_KLASS = {"parameter": 8, "structural": 8, "not-solving": 4, "converged-wrong": 4}
MIN_TWO_MISTAKES = 5


def _load(name: str) -> ModuleType:
    """benchmarks/diagnosis/second/<name>.py, which imports its neighbours by plain name."""
    sys.path.insert(0, str(SECOND))
    try:
        spec = importlib.util.spec_from_file_location(
            f"diagnosis_second_{name}", SECOND / f"{name}.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SECOND))


generate = _load("generate")


@pytest.fixture(scope="module")
def wrong() -> list:
    return generate.programs()


def test_enough_programs_of_every_assignment_and_class(wrong):
    assert len(wrong) >= MIN_PROGRAMS
    per_assignment = Counter(p.assignment for p in wrong)
    assert set(per_assignment) == ASSIGNMENTS
    assert min(per_assignment.values()) >= MIN_PER_ASSIGNMENT, per_assignment
    per_klass = Counter(p.klass for p in wrong)
    assert set(per_klass) == set(MIN_PER_KLASS)
    for klass, least in MIN_PER_KLASS.items():
        assert per_klass[klass] >= least, (klass, per_klass)
    two = [p.id for p in wrong if p.words.startswith("two mistakes")]
    assert len(two) >= MIN_TWO_MISTAKES, two


def test_ids_are_unique_and_well_formed(wrong):
    ids = [p.id for p in wrong]
    assert len(ids) == len(set(ids))
    for p in wrong:
        assert p.id == f"{p.assignment}/{p.slug}"
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", p.slug), p.id
        assert p.words and "\n" not in p.words, p.id


def test_every_substitution_applies_exactly_once():
    bases = {(t.assignment, t.name): t.source for t in generate.TEMPLATES}
    assert len(bases) == len(generate.TEMPLATES)  # no template name used twice
    for mutation in generate.MUTATIONS:
        source = bases[(mutation.assignment, mutation.template)]
        assert mutation.edits, mutation.id
        for old, new in mutation.edits:
            assert source.count(old) == 1, (mutation.id, old)
            source = source.replace(old, new)


def test_a_substitution_that_does_not_apply_fails_loudly():
    with pytest.raises(generate.SubstitutionError):
        generate.apply_edits("a = 1\n", [("b = 2", "b = 3")], "missing")
    with pytest.raises(generate.SubstitutionError):
        generate.apply_edits("a = 1\na = 1\n", [("a = 1", "a = 2")], "twice")


def test_every_source_compiles_and_every_mistake_changes_its_base(wrong):
    correct = {p.id: p for p in generate.correct_programs()}
    per_assignment = Counter(p.assignment for p in correct.values())
    assert all(2 <= n <= 3 for n in per_assignment.values()), per_assignment
    for p in [*correct.values(), *wrong]:
        compile(generate.file_text(p), p.id, "exec")
    sources = {p.source for p in correct.values()}
    for p in wrong:
        assert p.source not in sources, p.id


def test_mistakes_toml_matches_the_programs(wrong):
    table = tomllib.loads(generate.mistakes_toml(wrong))
    assert table == {p.id: {"words": p.words, "klass": p.klass} for p in wrong}
