"""Grading one submission: find its program, run it on each test board in a fresh folder
of its own, and keep what each run earns (``_verdict``).

Everything the submission does happens in other processes (``_run``, ``_sandbox``); this
module only copies files and hands runs over.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import stat
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import _kinds  # noqa: F401  every kind of program, registered
from ._answers import Judge, PolicyJudge
from ._archives import ArchiveError, Caps, is_archive, unpacked
from ._assignments import Assignment, Limits
from ._cases import TestCase
from ._files import tree_size
from ._isolation import check_hidden, detect_isolation
from ._languages import (
    IGNORED_NAMES,
    BuildContext,
    Prepared,
    SubmissionError,
    copy_submission,
    language_for,
    suffixes,
)
from ._results import SubmissionResult, TestResult
from ._run import Run, clean_environment, run_limited
from ._run_folder import run_folder, sized_folders
from ._sandbox import Isolation, close_to_others, protected_paths
from ._templates import program_name
from ._texts import SHOWN_WRONG
from ._tidy import Tidy
from ._verdict import same_everywhere, verdict
from ._warm_sandbox import WarmSandbox, warm_sandbox

__all__ = [
    "SubmissionError",
    "find_program",
    "grade_submission",
    "run_case",
]

MAX_SUBMISSION_MB = 20  # a submission larger than this is not copied
MAX_SUBMISSION_FILES = 500  # nor one of more files and folders
# A run that timed out beside others with less CPU time than this share of its wall-clock
# time may have been starved by them (without a control group): it is run again alone.
STARVED = 0.8
TIMEOUTS_BEFORE_GIVING_UP = 2


# --- finding and preparing the program -----------------------------------------------------


def _program_files(folder: Path) -> list[Path]:
    """The files in ``folder`` that some kind of program takes (``.py``, ...)."""
    known = set(suffixes())
    found = []
    for path in sorted(folder.rglob("*")):
        parts = set(path.relative_to(folder).parts)
        if parts & IGNORED_NAMES or any(p.startswith(".") for p in parts):
            continue
        if path.suffix.lower() in known and path.is_file() and not path.is_symlink():
            found.append(path)
    return found


def _known_kinds() -> str:
    return ", ".join(suffixes())


def find_program(submission: Path, assignment: Assignment) -> Path:
    """The file to run: the submission itself, or inside a folder the file named like the
    starter (``classic.py``, or ``classic`` with another known suffix), else ``main`` /
    ``submission`` (any known suffix), else the only program file."""
    if submission.is_file():
        if language_for(submission) is None:
            raise SubmissionError(
                f"{submission.name} is not a program this grader runs ({_known_kinds()}); "
                f"submit {program_name(assignment)}"
            )
        return submission
    if not submission.is_dir():
        raise SubmissionError(f"{submission} is neither a file nor a folder")
    files = _program_files(submission)
    stem = Path(program_name(assignment)).stem
    for wanted in (stem, "main", "submission"):
        named = sorted(
            (f for f in files if f.stem.lower() == wanted.lower()),
            key=lambda f: (len(f.parts), suffixes().index(f.suffix.lower())),
        )
        if named:
            return named[0]
    if len(files) == 1:
        return files[0]
    if not files:
        raise SubmissionError(f"{submission.name}: no program ({_known_kinds()}) in the folder")
    shown = ", ".join(str(f.relative_to(submission)) for f in files[:5])
    raise SubmissionError(
        f"{submission.name}: cannot tell which program to run ({shown}); "
        f"name it {program_name(assignment)}"
    )


def _board_folder(
    program: Path, submission: Path, case: TestCase, work: Path
) -> tuple[Path, Path, list[str]]:
    """Fill a run's fresh folder ``work``: a copy of the submission in ``work/submission``
    and the board in ``work/board.json``. The copy's folder, the copied program and the
    run's command."""
    home = work / "submission"
    home.mkdir()
    board = work / "board.json"
    board.write_text(json.dumps(case.board), encoding="utf-8")
    copied = copy_submission(submission, program, home, MAX_SUBMISSION_MB << 20)
    language = language_for(program)
    assert language is not None  # find_program took only known kinds
    return home, copied, language.command(copied, board, work, case)


def _run_once(
    program: Path,
    submission: Path,
    case: TestCase,
    limits: Limits,
    isolation: Isolation,
    hidden: Sequence[Path],
    warm: WarmSandbox | None = None,
    tidy: Tidy | None = None,
) -> tuple[Run, Path]:
    """One run of the program on ``case``'s board in a fresh folder of its own, removed
    afterwards (by ``tidy``, if given, on its thread); the run, and the folder its
    traceback lines name. With ``warm`` (the submission's sandbox, ``_warm_sandbox``), the
    board runs there, unless that sandbox cannot run it (then it runs as any other: a
    sandbox of its own)."""
    if warm is not None and not warm.broken:
        with warm.board() as place:
            home, copied, argv = _board_folder(program, submission, case, place.work)
            run = warm.run(place, argv, copied.parent, clean_environment(place.work), limits)
            if run is not None:
                return run, home
    with run_folder(not sized_folders(), tidy) as (work, watch):
        home, copied, argv = _board_folder(program, submission, case, work)
        run = run_limited(argv, copied.parent, clean_environment(work), limits,
                          isolation=isolation, work=work, hidden=hidden,
                          watch=watch, tidy=tidy)  # fmt: skip
        return run, home


def run_case(
    program: Path,
    submission: Path,
    case: TestCase,
    assignment: Assignment,
    limits: Limits,
    quote_output: bool = True,
    isolation: Isolation | None = None,
    *,
    hidden: Sequence[Path],
    policy: PolicyJudge | None = None,
    shown: int | None = SHOWN_WRONG,
    warm: WarmSandbox | None = None,
    tidy: Tidy | None = None,
) -> TestResult:
    """Run the program on one board in a fresh temporary folder, removed afterwards, at the
    ``isolation`` level given (``process`` by default), with ``hidden`` paths kept from it;
    in the submission's warm sandbox ``warm`` if it has one (``_warm_sandbox``). ``tidy``:
    what clears up after the run, on its own thread (``_tidy``; by default at once).

    Without a control group, a run that timed out beside other runs may have been starved
    of CPU by them: if it used less CPU time than the wall clock gave it, it is run again
    alone (``_TURNS``) before it is called a timeout, and the staff lines say so."""
    isolation = isolation or Isolation("process")
    with _TURNS.beside() as company:
        run, home = _run_once(program, submission, case, limits, isolation, hidden, warm, tidy)
    note = ""
    if _starved(run, isolation, company.others):
        with _TURNS.alone():
            first = run
            run, home = _run_once(program, submission, case, limits, isolation, hidden, warm,
                                  tidy)  # fmt: skip
        note = (
            f"timed out beside {company.others} other run(s) after {first.seconds:.1f} s with "
            f"{first.cpu_seconds:.2f} s of CPU time: run again alone ({run.status})"
        )
    result = verdict(case, run, limits, assignment.value_tolerance, home, quote_output,
                     policy=policy, policy_grading=assignment.policy_grading,
                     shown=shown)  # fmt: skip
    if note:
        result = dataclasses.replace(result, staff=(note, *result.staff))
    return result


def _starved(run: Run, isolation: Isolation, others: int) -> bool:
    """A wall-clock timeout that other runs may have caused: no control group gave this run
    its CPU share, it had company, and it got less CPU time than it had time."""
    if run.status != "timeout" or isolation.cgroups is not None or not others:
        return False
    return run.cpu_seconds < STARVED * run.seconds


class _Company:
    """How many other runs a run had beside it, at most, while it ran."""

    def __init__(self) -> None:
        self.others = 0


class _Turns:
    """Runs of this grader process: any number side by side, or one alone."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._running: list[_Company] = []
        self._alone = False
        self._waiting = 0  # runs waiting to run alone: they go before any new run

    @contextlib.contextmanager
    def beside(self) -> Iterator[_Company]:
        company = _Company()
        with self._changed:
            self._changed.wait_for(lambda: not self._alone and not self._waiting)
            self._running.append(company)
            for run in self._running:
                run.others = max(run.others, len(self._running) - 1)
        try:
            yield company
        finally:
            with self._changed:
                self._running.remove(company)
                self._changed.notify_all()

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        with self._changed:
            self._waiting += 1
            self._changed.wait_for(lambda: not self._alone and not self._running)
            self._waiting -= 1
            self._alone = True
        try:
            yield
        finally:
            with self._changed:
                self._alone = False
                self._changed.notify_all()


_TURNS = _Turns()


def submission_problem(submission: Path) -> str:
    """Why ``submission`` is too large to copy for a run (``""``: it is not), found before
    anything is read: at most ``MAX_SUBMISSION_MB`` and ``MAX_SUBMISSION_FILES`` entries,
    counted only that far."""
    limit = MAX_SUBMISSION_MB << 20
    try:
        info = submission.lstat()
    except OSError as err:
        return f"{submission.name}: cannot be read ({err.strerror})"
    if not stat.S_ISDIR(info.st_mode):
        if info.st_size > limit:
            return f"{submission.name}: larger than {MAX_SUBMISSION_MB} MB"
        return ""
    entries, size = tree_size(submission, entries=MAX_SUBMISSION_FILES, size=limit,
                              skip=frozenset(IGNORED_NAMES))  # fmt: skip
    if entries > MAX_SUBMISSION_FILES:
        return (
            f"{submission.name}: more than {MAX_SUBMISSION_FILES} files and folders; "
            "submit only the program and what it needs"
        )
    if size > limit:
        return f"{submission.name}: larger than {MAX_SUBMISSION_MB} MB"
    return ""


@contextlib.contextmanager
def _as_folder(submission: Path) -> Iterator[Path]:
    """The submission as it is, or an archive (``alice.zip``) unpacked into a temporary
    folder for as long as the ``with`` lasts, held to the caps of a submission. A folder
    holding one archive and no program (a Moodle folder of an uploaded zip) is that
    archive."""
    archive = submission
    if submission.is_dir() and not _program_files(submission):
        inside = [p for p in submission.iterdir() if not p.name.startswith(".")]
        archive = inside[0] if len(inside) == 1 else submission
    if not is_archive(archive) or archive.is_symlink():
        yield submission
        return
    caps = Caps(MAX_SUBMISSION_MB << 20, MAX_SUBMISSION_FILES)
    try:
        with unpacked(archive, caps) as folder:
            yield folder
    except ArchiveError as err:
        raise SubmissionError(str(err)) from None


def grade_submission(
    assignment: Assignment,
    submission: Path,
    cases: Sequence[TestCase],
    *,
    hidden: Sequence[Path],
    student: str | None = None,
    limits: Limits | None = None,
    workers: int = 1,
    quote_output: bool = True,
    isolation: Isolation | str | None = None,
    policy: PolicyJudge | None = None,
    shown: int | None = SHOWN_WRONG,
) -> SubmissionResult:
    """Grade one submission (a file, a folder, or an archive of one: ``.zip``, ``.tar.gz``,
    unpacked into a temporary folder) on every case, ``workers`` boards at a time. Never
    raises for anything the submission does: a submission that cannot be run is a result
    with status ``error``. After two timeouts the remaining boards are not run.
    ``quote_output=False`` keeps every word the program printed out of the feedback.

    ``isolation`` is a level name or a detected :class:`Isolation` (the strongest available
    by default). ``hidden`` names what the program must never read besides what the engine
    protects itself (``protected_paths``): the answer source's material
    (``AnswerSource.secret_paths``), other submissions, results. It has no default: the
    engine cannot know where the answers lie, so each caller says it.

    ``policy`` evaluates a printed policy exactly (``AnswerSource.policy_cost``); ``shown``
    is how many wrong entries a visible board lists (``None``: all)."""
    limits = limits or assignment.limits
    if not isinstance(isolation, Isolation):
        isolation = detect_isolation(isolation)
    hidden = protected_paths(*hidden)
    if isolation.level == "user":
        close_to_others(hidden)
    check_hidden(isolation, hidden)
    student = student or submission.stem
    max_score = sum(c.points for c in cases)
    name, path = assignment.name, str(submission)
    try:
        if too_large := submission_problem(submission):
            raise SubmissionError(too_large)
        with _as_folder(submission) as submission:
            program = find_program(submission, assignment)
            language = language_for(program)
            assert language is not None
            if missing := language.missing():
                raise SubmissionError(f"{program.name}: {missing}")
            with language.prepared(
                submission, program, BuildContext(limits, isolation, hidden)
            ) as ready:
                return _graded(assignment, ready, cases, student, limits, workers,
                               quote_output, isolation, hidden, policy, shown,
                               path)  # fmt: skip
    except SubmissionError as err:
        return SubmissionResult.failed(student, path, name, max_score, str(err))


def _graded(
    assignment: Assignment,
    ready: Prepared,
    cases: Sequence[TestCase],
    student: str,
    limits: Limits,
    workers: int,
    quote_output: bool,
    isolation: Isolation,
    hidden: Sequence[Path],
    policy: PolicyJudge | None,
    shown: int | None,
    path: str,
) -> SubmissionResult:
    """Every case of a submission made ready (``Prepared``), in a warm sandbox of its own
    where one applies (``_warm_sandbox``). What each run leaves is cleared up while the
    next one runs (``_tidy``), and all of it is gone before this returns."""
    submission, program = ready.folder, ready.program
    language = language_for(program)
    assert language is not None
    with Tidy() as tidy, warm_sandbox(language, isolation, hidden, submission, program,
                                      sized=not sized_folders()) as warm:  # fmt: skip
        name = assignment.name
        max_score = sum(c.points for c in cases)
        timeouts = 0
        lock = threading.Lock()
        # (a judge of this submission's own, which asks for explanations board by board)
        judge = policy.for_submission([c.name for c in cases]) if isinstance(policy, Judge) \
            else policy  # fmt: skip

        def one(case: TestCase) -> TestResult:
            nonlocal timeouts
            try:
                with lock:
                    given_up = timeouts >= TIMEOUTS_BEFORE_GIVING_UP
                if given_up:
                    why = f"not run: the program ran out of time on {timeouts} boards already"
                    return TestResult(case.name, case.title, 0.0, case.points, case.visible,
                                      "not-run", feedback=(why,))  # fmt: skip
                result = run_case(program, submission, case, assignment, limits, quote_output,
                                  isolation, hidden=hidden, policy=judge, shown=shown,
                                  warm=warm, tidy=tidy)  # fmt: skip
                with lock:
                    timeouts += result.status == "timeout"
                return result
            finally:
                if isinstance(judge, Judge):
                    judge.settle(case.name)

        if workers > 1:
            with ThreadPoolExecutor(workers) as pool:
                results = list(pool.map(one, cases))
        else:
            results = [one(case) for case in cases]
        outputs = {r.name: r.output for r in results}
        results = same_everywhere(results, outputs, {c.name: c for c in cases})
        if ready.note:
            first = results[0]
            results[0] = dataclasses.replace(first, staff=(ready.note, *first.staff))
        score = round(sum(r.score for r in results), 4)
        return SubmissionResult(student, path, name, score, max_score, "graded",
                                tests=tuple(results), isolation=isolation.level)  # fmt: skip
