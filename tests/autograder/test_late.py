"""Late work: the ``[late]`` policy applied from the LMS's own times (Blackboard's attempt
time, Canvas's LATE mark) or a times file, shown in the gradebook and the feedback."""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta

import pytest

from autograder import UsageError, grade_folder, load_assignment
from autograder._late import LatePolicy, apply_late, lateness, read_times
from autograder._results import SubmissionResult
from reference_solutions import ReferenceAnswers, reference_program

DEADLINE = datetime(2026, 11, 20, 23, 59, tzinfo=UTC)
POLICY = LatePolicy(DEADLINE, per_day=10, cap=25, grace=timedelta(minutes=10))


@pytest.mark.parametrize(
    ("attempt", "days"),
    [
        ("2026-11-20-23-00-00", 0),  # before the deadline
        ("2026-11-21-00-05-00", 0),  # in the grace period
        ("2026-11-21-00-30-00", 1),  # 21 minutes past it: a part of a day is a day
        ("2026-11-22-00-09-00", 1),  # exactly one day past the grace period
        ("2026-11-23-00-00-00", 2),  # 1 day 23 h 51 min
        ("2026-12-01-00-00-00", 10),  # 9 days 23 h 51 min
    ],
)
def test_days_late_from_a_blackboard_attempt(attempt, days):
    late = lateness(POLICY, lms_time=attempt)
    assert late is not None and late.days == days


def test_the_penalty_is_per_day_up_to_the_cap():
    result = SubmissionResult("s", "p", "classic", 80.0, 100.0, "graded")
    assert apply_late(result, POLICY, lateness(POLICY, lms_time="2026-11-21-12-00-00")).score == 72
    assert apply_late(result, POLICY, lateness(POLICY, lms_time="2026-11-25-12-00-00")).score == 60
    # A times file's entry wins over the name; Canvas's LATE alone counts one day.
    on_time = lateness(POLICY, submitted=DEADLINE, lms_time="2026-11-25-12-00-00")
    assert on_time is not None and on_time.days == 0
    marked = lateness(POLICY, lms_late=True)
    assert marked is not None and marked.days == 1
    assert lateness(POLICY) is None
    failed = SubmissionResult.failed("s", "p", "classic", 100.0, "no program")
    assert apply_late(failed, POLICY, marked) is failed


def test_a_times_file_is_read_and_a_bad_one_named(tmp_path):
    good = tmp_path / "times.csv"
    good.write_text("student,submitted\nada,2026-11-21T10:00:00+00:00\nbob,2026-11-19 08:00\n")
    times = read_times(good)
    assert times["ada"] == datetime(2026, 11, 21, 10, tzinfo=UTC)
    assert times["bob"].tzinfo is not None
    bad = tmp_path / "bad.csv"
    bad.write_text("student,submitted\nada,yesterday\n")
    with pytest.raises(UsageError, match="line 2") as err:
        read_times(bad)
    assert str(bad) in str(err.value)


def with_policy(copied_assignments, text: str) -> None:
    config = copied_assignments / "classic" / "assignment.toml"
    config.write_text(config.read_text() + "\n[late]\n" + text)


def test_a_batch_applies_the_policy_and_says_so(copied_assignments, tmp_path):
    with_policy(
        copied_assignments, "deadline = 2026-11-20T23:59:00Z\npenalty_per_day = 10\ncap = 25\n"
    )
    public = [c for c in ReferenceAnswers().cases(load_assignment("classic")) if c.visible]
    folder = tmp_path / "submissions"
    folder.mkdir()
    right = reference_program("classic")
    names = {
        "HW3_vera_attempt_2026-11-20-09-00-00_classic.py": "vera",  # on time
        "HW3_walt_attempt_2026-11-22-12-00-00_classic.py": "walt",  # 2 days
        "smithjane_LATE_12345_67890_classic.py": "12345",  # Canvas: LATE, no time
        "plain.py": "plain",  # the times file says 4 days
    }
    for name in names:
        (folder / name).write_text(right)
    times = {"plain": datetime(2026, 11, 24, 12, tzinfo=UTC)}
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ReferenceAnswers(), cases=public,
                         isolation="process", times=times)  # fmt: skip
    full = sum(c.points for c in public)
    scores = {r.student: r.score for r in batch.results}
    assert scores == {"vera": full, "walt": full * 0.8, "12345": full * 0.9, "plain": full * 0.75}
    with open(out / "grades.csv", newline="") as file:
        late = {row["student"]: row["late"] for row in csv.DictReader(file)}
    assert late == {"vera": "", "walt": "2 days (-20%)", "12345": "1 day (-10%)",
                    "plain": "4 days (-25%)"}  # fmt: skip
    feedback = (out / "feedback" / "walt.txt").read_text()
    assert f"late: 2 day(s) (attempt of 2026-11-22 12:00:00+00:00): -20% of {full:.2f}" in feedback


def test_without_a_policy_canvas_late_is_still_in_the_gradebook(tmp_path):
    public = [c for c in ReferenceAnswers().cases(load_assignment("classic")) if c.visible]
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "smithjane_LATE_12345_67890_classic.py").write_text(reference_program("classic"))
    out = tmp_path / "out"
    batch = grade_folder("classic", folder, out, answers=ReferenceAnswers(), cases=public,
                         isolation="process")  # fmt: skip
    assert batch.results[0].score == sum(c.points for c in public)
    with open(out / "grades.csv", newline="") as file:
        assert [row["late"] for row in csv.DictReader(file)] == ["LATE"]


def test_a_bad_late_section_names_the_file(copied_assignments):
    with_policy(copied_assignments, 'deadline = "soon"\n')
    with pytest.raises(UsageError, match="deadline") as err:
        load_assignment("classic")
    assert "assignment.toml" in str(err.value)


def test_a_times_file_that_misses_or_mistypes_a_student_is_said(copied_assignments, tmp_path):
    public = [c for c in ReferenceAnswers().cases(load_assignment("classic")) if c.visible]
    folder = tmp_path / "submissions"
    folder.mkdir()
    for student in ("alice", "bob"):
        (folder / f"{student}.py").write_text("print(1)\n")
    # "alicee": a typo, so alice has no time; bob's row is right.
    day = datetime(2026, 11, 24, tzinfo=UTC)
    times = {"alicee": day, "bob": day}

    def notes(out: str) -> tuple[str, ...]:
        return grade_folder("classic", folder, tmp_path / out, answers=ReferenceAnswers(),
                            cases=public, isolation="process", times=times).notes  # fmt: skip

    # classic has no [late] policy as shipped: times would change nothing, so they are
    # refused before anything is graded or written, with the way to give it one.
    with pytest.raises(UsageError, match=r"--times: classic has no \[late\] policy.*--course"):
        notes("without")
    assert not (tmp_path / "without").exists()
    with_policy(copied_assignments, "deadline = 2026-11-20T23:59:00Z\n")
    said = notes("with")
    assert "--times: no submission for alicee" in said
    assert "--times: no time for alice: counted as on time" in said
    assert not any("bob" in note for note in said)
