"""The project as another platform's image runs it: Gradescope's autograder zip and
PrairieLearn's external grader carry the packages as they are installed here (their code
and package data, never a binary built for this machine), the requirements pip installs
beside them, and the course's own assignments and settings, if it has any.

Laid out under one folder (``project/``) that the platform's set-up script installs from:

``<package>/``
    each package carried (the engine, and the grading side's packages the caller names);
``requirements.txt``
    the distribution's run-time requirements;
``course/``
    ``$AUTOGRADER_ASSIGNMENTS``, where a course keeps assignments of its own;
``course.toml``
    ``$AUTOGRADER_COURSE``, the course's settings (late policy, tolerances, points).
"""

from __future__ import annotations

import importlib.metadata
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from ._assignments import course_assignments_dir, course_settings_file
from ._errors import UsageError
from ._files import tree_files

__all__ = ["COURSE_FOLDER", "COURSE_SETTINGS", "DISTRIBUTION", "project_members", "requirements"]

DISTRIBUTION = "chutes-autograder"
COURSE_FOLDER = "course"
COURSE_SETTINGS = "course.toml"
# Built for this machine's Python (the kernel, where pip built it): never shipped, the
# image builds its own from the source (each package's ``_build.py``).
COMPILED = (".so", ".pyd", ".dylib")


def requirements() -> list[str]:
    """What pip installs for the distribution, extras left out (``numpy>=1.26`` ...)."""
    try:
        listed = importlib.metadata.requires(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise UsageError(
            DISTRIBUTION, "is not installed, so its requirements are unknown (pip install it)"
        ) from None
    return [r for r in listed or [] if "extra ==" not in r.partition(";")[2]]


def project_members(
    packages: Sequence[Path], prefix: str = "project/"
) -> Iterator[tuple[str, bytes, int]]:
    """``(name, data, mode)`` of everything the image needs, under ``prefix``: the
    ``packages`` (folders), the requirements, and the course's assignments and settings."""
    engine = Path(__file__).resolve().parent
    carried = dict.fromkeys([engine, *(Path(p).resolve() for p in packages)])
    for package in carried:
        if not (package / "__init__.py").is_file():
            raise UsageError(str(package), "is not a Python package to ship")
        for rel, file in tree_files(package):
            if file.suffix not in COMPILED:
                yield (f"{prefix}{package.name}/{rel}", file.read_bytes(),
                       stat.S_IMODE(file.stat().st_mode) | 0o644)  # fmt: skip
    yield f"{prefix}requirements.txt", "".join(f"{r}\n" for r in requirements()).encode(), 0o644
    course = course_assignments_dir()
    if course is not None:
        for rel, file in tree_files(course):
            yield f"{prefix}{COURSE_FOLDER}/{rel}", file.read_bytes(), 0o644
    settings = course_settings_file()
    if settings is not None:
        yield f"{prefix}{COURSE_SETTINGS}", settings.read_bytes(), 0o644
