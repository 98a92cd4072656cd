"""Java submissions (a kind declared in ``autograder/languages.toml``), and kinds a course
declares in TOML: compiled once per submission in the sandbox, run on every board.

The default run grades classic's Java programs (the reference at namespace here, at process
in ``test_compiled_once_per_submission``); the other assignments', the reference at the
other level and the endless program are marked ``slow`` (``pytest -m slow``; CI runs
both)."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder import (
    Limits,
    _configured,
    _languages,
    grade_folder,
    grade_submission,
    load_assignment,
    render,
)
from autograder._errors import UsageError
from autograder._html import batch_html, submission_html
from autograder._reports import feedback_text
from autograder._templates import render_program
from autograder._texts import NOT_IMPLEMENTED
from reference_solutions import ReferenceAnswers, examples_dir, reference_program
from tests.grading import isolation_or_skip

EXPECT_JDK = "AUTOGRADER_EXPECT_JDK"
JAVA_EXAMPLES = "classic/_java"


def jdk_or_skip() -> None:
    """Skip where there is no JDK, unless AUTOGRADER_EXPECT_JDK is set (CI sets it)."""
    java = _languages.language_for(Path("X.java"))
    why = java.missing() if java is not None else "no java kind registered"
    if not why:
        return
    if os.environ.get(EXPECT_JDK):
        pytest.fail(f"{why}, and {EXPECT_JDK} is set")
    pytest.skip(why)


@pytest.fixture(scope="module")
def answers() -> ReferenceAnswers:
    return ReferenceAnswers()


def _grade(answers, name, program: Path, *, level="process", cases=None, limits=None):
    assignment = load_assignment(name)
    cases = answers.cases(assignment) if cases is None else cases
    return grade_submission(assignment, program, cases, hidden=answers.secret_paths(),
                            isolation=level, limits=limits)  # fmt: skip


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def _example(stem: str, tmp_path: Path) -> Path:
    assignment = load_assignment("classic")
    text = render_program(assignment, assignment.public_board(), assignment.params,
                          template=f"{JAVA_EXAMPLES}/{stem}.java.j2",
                          search_path=[examples_dir()], language="java")  # fmt: skip
    return _write(tmp_path / stem, "Classic.java", text)


def test_javac_is_there_when_expected():
    if not os.environ.get(EXPECT_JDK):
        pytest.skip(f"{EXPECT_JDK} is not set")
    assert shutil.which("javac", path="/usr/local/bin:/usr/bin:/bin"), "javac not on PATH"


JUMP_ASSIGNMENTS = ["classic", "boosted", "token-boosted", "aimed", "efron", "race"]


def _java_name(name: str) -> str:
    """The file a Java program of ``name`` goes by, named like its class."""
    return name.title().replace("-", "") + ".java"


def classic_first(*axes, level: str | None = None) -> list:
    """Every combination of ``axes`` as parameters, those of classic (at ``level``, when
    given) in the default run, the others ``slow``."""
    return [
        pytest.param(
            *values,
            marks=() if values[0] == "classic" and level in (None, *values) else pytest.mark.slow,
        )
        for values in itertools.product(*axes)
    ]


@pytest.mark.parametrize(
    ("name", "level"), classic_first(JUMP_ASSIGNMENTS, ["process", "namespace"], level="namespace")
)
def test_java_reference_scores_as_the_python_one(answers, tmp_path, name, level):
    jdk_or_skip()
    isolation_or_skip(level)
    java = _write(tmp_path / "java", _java_name(name), reference_program(name, language="java"))
    python = _write(tmp_path / "python", f"{name}.py", reference_program(name))
    graded = _grade(answers, name, java, level=level)
    expected = _grade(answers, name, python, level="process")
    assert graded.status == "graded", graded.problems
    assert graded.isolation == level
    assert graded.score == expected.score == graded.max_score
    assert [t.status for t in graded.tests] == [t.status for t in expected.tests]


def test_correct_java_example_full_marks(answers, tmp_path):
    jdk_or_skip()
    result = _grade(answers, "classic", _example("correct_loops", tmp_path))
    assert result.score == result.max_score, [t.feedback[:2] for t in result.tests]


def test_wrong_java_names_the_same_mistake_as_python(answers, tmp_path):
    jdk_or_skip()
    assignment = load_assignment("classic")
    public = answers.cases(assignment)[:1]
    java = _grade(answers, "classic", _example("wrong_overshoot_wins", tmp_path), cases=public)
    text = render_program(assignment, assignment.public_board(), assignment.params,
                          template="classic/wrong_overshoot_wins.py.j2",
                          search_path=[examples_dir()])  # fmt: skip
    python = _grade(answers, "classic", _write(tmp_path / "py", "classic.py", text), cases=public)
    assert java.score < java.max_score
    assert java.tests[0].mistakes and java.tests[0].mistakes == python.tests[0].mistakes
    assert java.score == python.score


def test_not_compiling_is_an_error_row_with_the_compiler_first_lines(answers, tmp_path):
    jdk_or_skip()
    result = _grade(answers, "classic", _example("does_not_compile", tmp_path))
    assert result.status == "error" and result.score == 0
    (problem,) = result.problems
    lines = problem.splitlines()
    assert lines[0] == "Classic.java does not compile:"
    assert lines[1].startswith("Classic.java:") and "error" in lines[1]
    assert 2 <= len(lines) <= 1 + _configured.SHOWN_COMPILER_LINES
    assert "autograder-run-" not in problem and "/tmp" not in problem
    # The feedback and the page keep the compiler's lines as lines (the caret under the
    # column at fault), not one line of "\n"s.
    text = feedback_text(result)
    assert "problem: Classic.java does not compile:\n    Classic.java:" in text
    assert "\\n" not in text
    page = submission_html(result, load_assignment("classic"))
    assert '<pre class="problem">Classic.java:' in page and "\\n" not in page
    index = batch_html([result], load_assignment("classic"))
    assert "Classic.java does not compile: Classic.java:" in index and "\\n" not in index


@pytest.mark.slow  # (two boards to their time limit; endless Python programs: test_adversarial)
def test_endless_java_times_out(answers, tmp_path):
    jdk_or_skip()
    cases = answers.cases(load_assignment("classic"))[:3]
    limits = Limits(timeout=2.0, cpu=2.0)
    result = _grade(answers, "classic", _example("endless", tmp_path), cases=cases, limits=limits)
    assert result.score == 0
    assert [t.status for t in result.tests] == ["timeout", "timeout", "not-run"]


@pytest.mark.parametrize("name", classic_first(JUMP_ASSIGNMENTS))
def test_java_starter_scores_zero_with_a_clear_reason(answers, tmp_path, name):
    jdk_or_skip()
    assignment = load_assignment(name)
    text = render_program(assignment, assignment.public_board(), assignment.params,
                          language="java")  # fmt: skip
    result = _grade(answers, name, _write(tmp_path, _java_name(name), text))
    assert result.score == 0
    assert {t.status for t in result.tests} == {"crashed"}
    assert all(t.feedback[:1] == (NOT_IMPLEMENTED,) for t in result.tests)


@pytest.mark.parametrize("name", ["aimed", "efron"])
def test_starter_command_writes_the_java_starter(tmp_path, name):
    out = tmp_path / _java_name(name)
    subprocess.run([sys.executable, "-m", "autograder", "starter", name, "--language", "java",
                    "-o", str(out)], check=True, capture_output=True)  # fmt: skip
    assignment = load_assignment(name)
    text = out.read_text(encoding="utf-8")
    assert text == render_program(assignment, assignment.public_board(), assignment.params,
                                  language="java")  # fmt: skip
    assert f"class {name.title()} {{" in text and "Optimal action by position" in text


def test_compiled_once_per_submission(answers, tmp_path, monkeypatch):
    jdk_or_skip()
    builds = []
    real = _configured.ConfiguredLanguage._build

    def counted(self, *args, **kwargs):
        builds.append(args[1])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(_configured.ConfiguredLanguage, "_build", counted)
    java = _write(tmp_path, "Classic.java", reference_program("classic", language="java"))
    assignment = load_assignment("classic")
    cases = answers.cases(assignment)
    result = grade_submission(assignment, java, cases, hidden=answers.secret_paths(),
                              isolation="process", workers=2)  # fmt: skip
    assert result.score == result.max_score and len(result.tests) == len(cases) > 1
    assert len(builds) == 1


def test_main_class_rule(tmp_path):
    jdk_or_skip()
    source = "class Helper {}\nclass TokenBoosted { public static void main(String[] a) {} }\n"
    program = _write(tmp_path, "smith_123_456_tb.java", source)
    subprocess.run(["javac", "-d", str(tmp_path / "classes"), str(program)], check=True)
    assert _configured.main_class(tmp_path / "classes", "token_boosted") == "TokenBoosted"
    assert _configured.main_class(tmp_path / "classes", "smith_123_456_tb") == "TokenBoosted"
    assert _configured.main_class(tmp_path / "nothing", "x") is None


# -- kinds declared in TOML --------------------------------------------------------------------


@contextlib.contextmanager
def declared(path: Path) -> Iterator[list[_configured.ConfiguredLanguage]]:
    """The kinds of ``path`` registered for the test only."""
    made = _configured.register_languages(path)
    try:
        yield made
    finally:
        for language in made:
            _languages._LANGUAGES._items.pop(language.name, None)
            for suffix in language.suffixes:
                _languages._BY_SUFFIX.pop(suffix, None)


def test_a_kind_declared_in_toml_grades_without_code(answers, tmp_path):
    assignment = load_assignment("classic")
    public = answers.cases(assignment)[:1]
    toml = _write(
        tmp_path,
        "languages.toml",
        '[[language]]\nname = "canned-sh"\n'
        'suffixes = [".sh"]\nneeds = ["sh"]\nrun = ["sh", "{program}", "{board}"]\n',
    )
    submission = tmp_path / "student"
    _write(submission, "answer.txt", render(public[0].expected.answer))
    _write(submission, "classic.sh", 'cat "$(dirname "$0")/answer.txt"\n')
    with declared(toml):
        result = _grade(answers, "classic", submission, cases=public)
    assert result.status == "graded" and result.score == result.max_score, result.problems


def test_a_malformed_languages_file_is_one_line_naming_it(tmp_path):
    bad = _write(tmp_path, "languages.toml", '[[language]]\nname = "pascal"\nsuffixes = ".pas"\n'
                 'run = ["fpc"]\n')  # fmt: skip
    with pytest.raises(UsageError) as caught:
        _configured.load_languages(bad)
    message = str(caught.value)
    assert "\n" not in message and str(bad) in message and "'pascal'" in message
    assert "suffixes" in message
    broken = _write(tmp_path, "broken.toml", "[[language]\n")
    with pytest.raises(UsageError, match="not valid TOML") as caught:
        _configured.load_languages(broken)
    assert "\n" not in str(caught.value) and str(broken) in str(caught.value)
    placeholder = _write(tmp_path, "p.toml", '[[language]]\nname = "x"\nsuffixes = [".x"]\n'
                         'run = ["x", "{nope}"]\n')  # fmt: skip
    with pytest.raises(UsageError, match=r"'x': run: unknown placeholder \{nope\}"):
        _configured.load_languages(placeholder)


def test_a_missing_compiler_is_one_line_and_the_others_are_graded(answers, tmp_path):
    toml = _write(tmp_path, "languages.toml", '[[language]]\nname = "nojdk"\n'
                  'suffixes = [".nojdk"]\nneeds = ["no-such-javac-here"]\n'
                  'missing = "no JDK installed ({command} not found): {name} submissions '
                  'cannot be graded here"\nbuild = ["no-such-javac-here", "{program}"]\n'
                  'run = ["no-such-java-here", "{stem}"]\n')  # fmt: skip
    folder = tmp_path / "submissions"
    _write(folder, "alice.py", reference_program("classic"))
    _write(folder, "bob.nojdk", "class Classic {}\n")
    assignment = load_assignment("classic")
    cases = answers.cases(assignment)[:2]
    with declared(toml):
        batch = grade_folder("classic", folder, tmp_path / "out", answers=None, cases=cases,
                             isolation="process")  # fmt: skip
    by_student = {r.student: r for r in batch.results}
    assert by_student["alice"].score == by_student["alice"].max_score
    bob = by_student["bob"]
    assert bob.status == "error"
    assert bob.problems == (
        "bob.nojdk: no JDK installed (no-such-javac-here not found): nojdk submissions "
        "cannot be graded here",
    )


# -- what a build leaves behind ------------------------------------------------------------

PROCESSOR = """\
import javax.annotation.processing.*;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import java.util.Set;

@SupportedAnnotationTypes("*")
public class Proc extends AbstractProcessor {
    @Override public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }
    @Override public boolean process(Set<? extends TypeElement> a, RoundEnvironment r) {
        throw new IllegalStateException("the student's processor ran inside javac");
    }
}
"""


def test_an_annotation_processor_in_a_submission_never_runs(answers, tmp_path):
    """javac finds processors on its class path (the staged submission) and would run the
    student's code at build time: the build turns that off, so this one compiles."""
    jdk_or_skip()
    tools = tmp_path / "proc"
    _write(tools, "Proc.java", PROCESSOR)
    subprocess.run(["javac", "-d", str(tools), str(tools / "Proc.java")], check=True,
                   capture_output=True)  # fmt: skip
    submission = tmp_path / "student"
    _write(submission, "Classic.java", reference_program("classic", language="java"))
    shutil.copy(tools / "Proc.class", submission / "Proc.class")
    _write(submission / "META-INF" / "services", "javax.annotation.processing.Processor",
           "Proc\n")  # fmt: skip
    assignment = load_assignment("classic")
    result = _grade(answers, "classic", submission, cases=answers.cases(assignment)[:1])
    assert result.status == "graded" and result.score == result.max_score, result.problems


BUILD_LEAVES = """\
ln -s /dev/zero zero.class
mkfifo pipe
mkdir -p deep && ln -s / deep/root
"""
RUN_CHECKS = """\
d="$(dirname "$0")"
for f in zero.class pipe deep/root; do
  if [ -e "$d/$f" ] || [ -L "$d/$f" ]; then echo "the build's $f was copied"; exit 3; fi
done
cat "$d/answer.txt"
"""


def _build_kind(tmp_path: Path, build: str) -> Path:
    kind = (
        '[[language]]\nname = "built-sh"\nsuffixes = [".bsh"]\nneeds = ["sh"]\n'
        f'build = ["sh", "{{folder}}/{build}"]\nrun = ["sh", "{{program}}"]\n'
    )
    return _write(tmp_path, "languages.toml", kind)


def test_a_build_leaves_no_link_or_fifo_for_the_runs(answers, tmp_path):
    """Links (to /dev/zero, to /) and a FIFO made by the build stay behind; copying them
    out would read without end, or block, in the grader's own process."""
    assignment = load_assignment("classic")
    public = answers.cases(assignment)[:1]
    submission = tmp_path / "student"
    _write(submission, "build.sh", BUILD_LEAVES)
    _write(submission, "answer.txt", render(public[0].expected.answer))
    _write(submission, "classic.bsh", RUN_CHECKS)
    with declared(_build_kind(tmp_path, "build.sh")):
        result = _grade(answers, "classic", submission, cases=public)
    assert result.status == "graded" and result.score == result.max_score, (
        result.problems,
        [t.feedback[:2] for t in result.tests],
    )


def test_a_build_that_makes_more_than_a_submission_may_hold_is_refused(answers, tmp_path):
    """A sparse file costs the build's folder nothing, and would cost the grader's disk
    its full size if copied out: it is counted before a byte is written."""
    assignment = load_assignment("classic")
    public = answers.cases(assignment)[:1]
    submission = tmp_path / "student"
    # (two files: the build may write no one file this large; neither takes any room)
    _write(submission, "build.sh", "truncate -s 15M a.bin && truncate -s 15M b.bin\n")
    _write(submission, "classic.bsh", "echo never run\n")
    with declared(_build_kind(tmp_path, "build.sh")):
        result = _grade(answers, "classic", submission, cases=public)
    assert result.status == "error"
    assert result.problems == (
        f"classic.bsh: the build made more than {_configured.BUILT_MOST_MB} MB",
    )
