"""Late work: an assignment's ``[late]`` policy (a deadline, a penalty per day late, a
cap, a grace period) applied to a submission's time.

The time comes from where the course has it: a times file the LMS exports
(``grade --times``: ``student,submitted`` rows), else the LMS download name (Blackboard
writes the attempt's time; Canvas writes only ``LATE``, which counts as one day, the
least a late submission can be). A day late is any part of a day past the deadline and
its grace period.
"""

from __future__ import annotations

import csv
import dataclasses
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from . import _toml
from ._errors import UsageError
from ._results import SubmissionResult

__all__ = ["LatePolicy", "Lateness", "apply_late", "lateness", "read_late", "read_times"]

_BLACKBOARD_TIME = "%Y-%m-%d-%H-%M-%S"


@dataclass(frozen=True)
class LatePolicy:
    """``per_day`` and ``cap``: percent of the score taken per day late, and at most."""

    deadline: datetime
    per_day: float = 10.0
    cap: float = 100.0
    grace: timedelta = timedelta()

    def penalty(self, days: int) -> float:
        """The share of the score taken for ``days`` days late, in percent."""
        return min(self.cap, self.per_day * days)


@dataclass(frozen=True)
class Lateness:
    """How late one submission was: ``days`` (0 on time), and from what (``how``)."""

    days: int
    how: str


def _time(value: Any, where: str, what: str, zone: Any = None) -> datetime:
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
        except ValueError:
            raise UsageError(where, f"{what} {value!r} is not a date and time "
                             "(2026-11-20T23:59:00+01:00)") from None  # fmt: skip
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone or UTC)
    return moment


def read_late(section: dict[str, Any], where: str) -> LatePolicy | None:
    """The ``[late]`` section (``None`` when there is none): ``deadline`` (a TOML date-time
    or ISO text; without a zone, UTC), ``penalty_per_day`` and ``cap`` in percent,
    ``grace_minutes``."""
    if not section:
        return None
    known = {"deadline", "penalty_per_day", "cap", "grace_minutes"}
    unknown = sorted(set(section) - known)
    if unknown:
        raise UsageError(where, f"unknown key {unknown[0]!r} in [late]")
    if "deadline" not in section:
        raise UsageError(where, "[late] needs a deadline")
    deadline = _time(section["deadline"], where, "[late] deadline")
    per_day = _toml.number(section, "penalty_per_day", 10, where, 0)
    cap = _toml.number(section, "cap", 100, where, 0)
    if per_day > 100 or cap > 100:
        raise UsageError(where, "[late] penalty_per_day and cap are percentages (0..100)")
    grace = timedelta(minutes=_toml.number(section, "grace_minutes", 0, where, 0))
    return LatePolicy(deadline, per_day, cap, grace)


def read_times(path: str | Path) -> dict[str, datetime]:
    """A times file: CSV with a header naming ``student`` and ``submitted`` columns."""
    where = str(path)
    try:
        with open(path, newline="", encoding="utf-8-sig") as file:
            rows = list(csv.DictReader(file))
    except OSError as err:
        raise UsageError(where, f"cannot read the times: {err.strerror or err}") from None
    except (UnicodeDecodeError, csv.Error) as err:
        raise UsageError(where, f"is not a CSV file ({err})") from None
    if not rows or not {"student", "submitted"} <= set(rows[0]):
        raise UsageError(where, "needs a header with the columns student and submitted")
    times: dict[str, datetime] = {}
    for n, row in enumerate(rows, start=2):
        student = (row.get("student") or "").strip()
        if not student:
            raise UsageError(where, f"line {n}: no student")
        times[student] = _time(row.get("submitted") or "", where, f"line {n}: submitted")
    return times


def lateness(
    policy: LatePolicy,
    *,
    submitted: datetime | None = None,
    lms_time: str = "",
    lms_late: bool = False,
) -> Lateness | None:
    """How late a submission was by the best time known; ``None`` when nothing says."""
    if submitted is None and lms_time:
        with_zone = datetime.strptime(lms_time, _BLACKBOARD_TIME)
        submitted = with_zone.replace(tzinfo=policy.deadline.tzinfo)
        how = f"attempt of {submitted.isoformat(sep=' ')}"
    elif submitted is not None:
        how = f"submitted {submitted.isoformat(sep=' ')}"
    elif lms_late:
        return Lateness(1, "marked LATE by the LMS, with no time: counted as one day")
    else:
        return None
    past = submitted - (policy.deadline + policy.grace)
    days = max(0, math.ceil(past / timedelta(days=1)))
    return Lateness(days, how)


def apply_late(
    result: SubmissionResult, policy: LatePolicy, late: Lateness | None
) -> SubmissionResult:
    """``result`` with the late penalty taken off its score; ``extra["late"]`` says how
    (days, penalty, the score before), for the gradebook and the feedback."""
    if late is None or result.status != "graded":
        return result
    penalty = policy.penalty(late.days)
    score = round(result.score * (1 - penalty / 100), 4)
    extra = {**result.extra, "late": {"days": late.days, "penalty": penalty,
                                      "score_before": result.score, "how": late.how}}  # fmt: skip
    return dataclasses.replace(result, score=score, extra=extra)
