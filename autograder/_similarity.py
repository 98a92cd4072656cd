"""Pairs of submissions in a batch whose code is suspiciously alike, for the staff only
(``similarity.csv``; never in a student's feedback, page or Gradescope).

The method is the one MOSS made known (Schleimer, Wilkerson and Aiken, "Winnowing: local
algorithms for document fingerprinting", SIGMOD 2003):

* **Tokens.** Python through the ``tokenize`` module, notebooks by their code cells, other
  program files (``.java``, ...) through a small regular-expression tokenizer. Comments and
  layout are dropped; every identifier becomes one token (``N``) and every literal one
  token of its kind (``1`` numbers, ``S`` strings), keywords and operators stay. Renaming
  variables, reformatting and rewriting comments change nothing.
* **Fingerprints.** Hashes of every ``K`` consecutive tokens, winnowed: of every window of
  ``W`` hashes the smallest is kept. Any run of at least ``K + W - 1`` tokens two programs
  share gives both a fingerprint in common.
* **What is everyone's.** The starter program's fingerprints (the board table, the reading
  and printing code every student keeps) are dropped, and so are those found in more
  than ``max(COMMON_AT_LEAST, COMMON_SHARE * students)`` submissions (an idiom of the
  class, not a copy).
* **Score.** Per pair: ``shared`` fingerprints; ``similarity``, the share of the smaller
  submission's fingerprints that the other has too (a copy with code added still scores
  high); ``jaccard``, shared over all the pair has. Pairs with ``similarity`` at least
  ``THRESHOLD`` and at least ``MIN_SHARED`` shared fingerprints are listed, most similar
  first.

Bounded: only program files are read (``CODE_SUFFIXES``), at most ``MAX_FILES`` of at most
``MAX_FILE_BYTES`` each and ``MAX_BYTES`` in all per submission; an archive is unpacked with
a submission's caps. Pairs are counted through an index of fingerprints, so the work grows
with the pairs that share something, not with every pair.
"""

from __future__ import annotations

import csv
import io
import json
import keyword
import re
import tokenize
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._archives import ArchiveError, Caps, is_archive, unpacked
from ._assignments import Assignment
from ._files import write_atomic
from ._plain import cell
from ._submission import MAX_SUBMISSION_FILES, MAX_SUBMISSION_MB
from ._templates import render_program

__all__ = [
    "SIMILARITY",
    "Pair",
    "fingerprints",
    "similar_pairs",
    "similarity_text",
    "tokens",
    "write_similarity",
]

SIMILARITY = "similarity.csv"
HEADER = ("student_a", "student_b", "similarity", "jaccard", "shared", "submission_a",
          "submission_b")  # fmt: skip
K = 12  # tokens per k-gram
W = 8  # k-grams per winnowing window
THRESHOLD = 0.5
MIN_SHARED = 8
COMMON_AT_LEAST, COMMON_SHARE = 10, 0.2
CODE_SUFFIXES = (".py", ".ipynb", ".java", ".c", ".cc", ".cpp", ".h", ".js", ".jl", ".r", ".m")
MAX_FILES = 50
MAX_FILE_BYTES = 256 << 10
MAX_BYTES = 512 << 10
# An archive is unpacked as for grading it.
ARCHIVE_CAPS = Caps(MAX_SUBMISSION_MB << 20, MAX_SUBMISSION_FILES)
SKIPPED_PARTS = {"__pycache__", "__MACOSX", ".git", ".ipynb_checkpoints"}

_MOD = (1 << 61) - 1
_BASE = 1_000_003

# --- tokens ---------------------------------------------------------------------------------

_PY_KEEP = set(keyword.kwlist) | set(keyword.softkwlist)
_OTHER_KEYWORDS = {
    "abstract", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
    "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally",
    "float", "for", "function", "if", "implements", "import", "instanceof", "int",
    "interface", "let", "long", "new", "private", "protected", "public", "return", "short",
    "static", "struct", "super", "switch", "this", "throw", "throws", "try", "var", "void",
    "while", "end", "elseif",
}  # fmt: skip
# A string left open runs to the end of its line (or of the file, a lone backslash last), as
# one token: read again from each of its quotes (the quote as an operator, then the next
# quote's string), a line of 32,000 escaped quotes took 14 s, the grader's reports waiting.
_OTHER = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z)|\#[^\n]*)
  | (?P<string>"(?:\\.|\\\Z|[^"\\\n])*(?:"|(?=\n)|\Z)|'(?:\\.|\\\Z|[^'\\\n])*(?:'|(?=\n)|\Z))
  | (?P<number>(?:0[xX][0-9a-fA-F_]+|\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?
                  |\.\d+(?:[eE][+-]?\d+)?)[lLfFdD]?)
  | (?P<name>[^\W\d]\w*)
  | (?P<op>>>>=|<<=|>>=|>>>|\*\*=|//=|->|::|\+\+|--|&&|\|\||[-+*/%&|^!=<>]=?|<<|>>|\S)
    """,
    re.S | re.X,
)


def _other_tokens(text: str) -> list[str]:
    found = []
    for m in _OTHER.finditer(text):
        kind = m.lastgroup
        if kind in ("space", "comment"):
            continue
        if kind == "string":
            found.append("S")
        elif kind == "number":
            found.append("1")
        elif kind == "name":
            word = m.group()
            found.append(word if word in _OTHER_KEYWORDS else "N")
        else:
            found.append(m.group())
    return found


def _python_tokens(text: str) -> list[str]:
    found = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind = tok.type
            if kind == tokenize.NAME:
                found.append(tok.string if tok.string in _PY_KEEP else "N")
            elif kind == tokenize.NUMBER:
                found.append("1")
            elif kind == tokenize.STRING:
                found.append("S")
            elif kind == tokenize.OP:
                found.append(tok.string)
            elif kind == tokenize.NEWLINE:
                found.append(";")
            elif kind == tokenize.INDENT:
                found.append("{")
            elif kind == tokenize.DEDENT:
                found.append("}")
            elif kind == tokenize.ERRORTOKEN and tok.string in ("'", '"'):
                # A string left open: Python's tokenizer reads the rest of the line again
                # from each quote after it (a line of escaped quotes is quadratic there).
                return _other_tokens(text)
            elif kind == tokenize.ERRORTOKEN and not tok.string.isspace():
                found.append(tok.string)
    except (tokenize.TokenError, SyntaxError):
        return _other_tokens(text)  # what cannot be read as Python is read plainly
    return found


def _notebook_code(text: str) -> str:
    """The code cells of a notebook, one after the other (magics and shell lines out)."""
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError, RecursionError):
        return ""
    code = []
    for one in cells if isinstance(cells, list) else []:
        if not isinstance(one, dict) or one.get("cell_type") != "code":
            continue
        source = one.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        code.append("\n".join(s for s in source.splitlines() if s.lstrip()[:1] not in "%!"))
    return "\n".join(code)


def tokens(text: str, suffix: str) -> list[str]:
    """The normalised tokens of a program file with that ``suffix`` (``.py``)."""
    suffix = suffix.lower()
    if suffix == ".ipynb":
        return _python_tokens(_notebook_code(text))
    if suffix == ".py":
        return _python_tokens(text)
    return _other_tokens(text)


# --- fingerprints ---------------------------------------------------------------------------


def _kgram_hashes(stream: Sequence[str], codes: dict[str, int]) -> list[int]:
    """A rolling polynomial hash of every ``K`` consecutive tokens (deterministic: the same
    program gives the same hashes in every process)."""
    ids = [codes.setdefault(t, len(codes) + 1) for t in stream]
    if len(ids) < K:
        return []
    top = pow(_BASE, K - 1, _MOD)
    h = 0
    for x in ids[:K]:
        h = (h * _BASE + x) % _MOD
    hashes = [h]
    for i in range(K, len(ids)):
        h = ((h - ids[i - K] * top) * _BASE + ids[i]) % _MOD
        hashes.append(h)
    return hashes


def _winnow(hashes: Sequence[int]) -> set[int]:
    """Of every window of ``W`` hashes, the smallest."""
    if len(hashes) <= W:
        return {min(hashes)} if hashes else set()
    kept = set()
    for start in range(len(hashes) - W + 1):
        window = hashes[start : start + W]
        kept.add(min(window))
    return kept


def fingerprints(stream: Sequence[str], codes: dict[str, int] | None = None) -> set[int]:
    """The winnowed fingerprints of a token stream (``codes``: token numbers shared by the
    streams to be compared; a fresh table when not given)."""
    return _winnow(_kgram_hashes(stream, {} if codes is None else codes))


# --- reading submissions --------------------------------------------------------------------


def _code_files(folder: Path) -> Iterator[Path]:
    found = 0
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if any(p in SKIPPED_PARTS or p.startswith(".") for p in parts):
            continue
        if path.suffix.lower() in CODE_SUFFIXES and path.is_file() and not path.is_symlink():
            found += 1
            if found > MAX_FILES:
                return
            yield path


def _read(files: Iterable[Path]) -> list[str]:
    """The tokens of ``files``, each cut to ``MAX_FILE_BYTES``, until ``MAX_BYTES``."""
    stream: list[str] = []
    total = 0
    for path in files:
        with open(path, "rb") as file:
            data = file.read(min(MAX_FILE_BYTES, MAX_BYTES - total))
        total += len(data)
        stream += tokens(data.decode("utf-8", errors="replace"), path.suffix)
        stream.append("#")  # a file boundary: no k-gram spans two files
        if total >= MAX_BYTES:
            break
    return stream


def submission_tokens(path: Path) -> list[str]:
    """The tokens of a submission: a program file, a folder or an archive of one."""
    if path.is_symlink():
        return []
    if is_archive(path):
        try:
            with unpacked(path, ARCHIVE_CAPS, prefix="autograder-similarity-") as folder:
                return _read(_code_files(folder))
        except ArchiveError:
            return []
    if path.is_dir():
        files = list(_code_files(path))
        inside = [p for p in path.iterdir() if not p.name.startswith(".")]
        if not files and len(inside) == 1 and is_archive(inside[0]):
            return submission_tokens(inside[0])  # a Moodle folder of an uploaded zip
        return _read(files)
    if path.is_file() and path.suffix.lower() in CODE_SUFFIXES:
        return _read([path])
    return []


def starter_program(assignment: Assignment) -> str:
    """The starter program every student begins from, on the public board."""
    return render_program(assignment, assignment.public_board(), assignment.params)


# --- pairs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """Two submissions alike: ``similarity`` is the share of the smaller's fingerprints
    found in the other, ``jaccard`` shared over both, ``shared`` a count."""

    student_a: str
    student_b: str
    similarity: float
    jaccard: float
    shared: int
    submission_a: str
    submission_b: str


def similar_pairs(
    submissions: Sequence[tuple[str, str, Sequence[str]]],
    starter: Sequence[str] = (),
    *,
    threshold: float = THRESHOLD,
    min_shared: int = MIN_SHARED,
) -> list[Pair]:
    """The pairs of ``(student, shown path, tokens)`` alike at ``threshold`` or more, most
    alike first; fingerprints of the ``starter`` tokens and common ones do not count."""
    codes: dict[str, int] = {}
    ignored = fingerprints(starter, codes)
    prints = [fingerprints(stream, codes) - ignored for _, _, stream in submissions]
    index: dict[int, list[int]] = {}
    for i, own in enumerate(prints):
        for f in own:
            index.setdefault(f, []).append(i)
    common = max(COMMON_AT_LEAST, int(COMMON_SHARE * len(submissions)))
    common_prints = {f for f, holders in index.items() if len(holders) > common}
    sizes = [len(own - common_prints) for own in prints]
    shared: dict[tuple[int, int], int] = {}
    for f, holders in index.items():
        if f in common_prints:
            continue
        for x in range(len(holders)):
            for y in range(x + 1, len(holders)):
                key = (holders[x], holders[y])
                shared[key] = shared.get(key, 0) + 1
    pairs = []
    for (a, b), count in shared.items():
        smaller = min(sizes[a], sizes[b])
        if count < min_shared or not smaller:
            continue
        similarity = count / smaller
        if similarity < threshold:
            continue
        jaccard = count / (sizes[a] + sizes[b] - count)
        (sa, pa, _), (sb, pb, _) = sorted((submissions[a], submissions[b]), key=lambda s: s[0])
        pairs.append(Pair(sa, sb, similarity, jaccard, count, pa, pb))
    pairs.sort(key=lambda p: (-p.similarity, -p.shared, p.student_a, p.student_b))
    return pairs


def similarity_text(pairs: Sequence[Pair]) -> str:
    """``similarity.csv``: ``HEADER``, then a row per pair (rows end with CRLF)."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(HEADER)
    for p in pairs:
        writer.writerow([cell(p.student_a), cell(p.student_b), f"{p.similarity:.3f}",
                         f"{p.jaccard:.3f}", p.shared, cell(p.submission_a),
                         cell(p.submission_b)])  # fmt: skip
    return text.getvalue()


def write_similarity(
    out: Path,
    submissions: Sequence[tuple[str, Path, str]],
    assignment: Assignment,
    *,
    read: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """Write ``out/similarity.csv`` for ``(student, path, shown path)`` submissions; return
    notes for the summary. Never raises: a failure is a note, and the grades stand.
    ``read``: the tokens of some students' submissions (``submission_tokens``), read
    already."""
    known = read or {}
    try:
        starter = tokens(starter_program(assignment), ".py")
        streams = [(student, shown, known[student] if student in known else submission_tokens(path))
                   for student, path, shown in submissions]  # fmt: skip
        write_atomic(out / SIMILARITY, similarity_text(similar_pairs(streams, starter)),
                     newline="")  # fmt: skip
    except Exception as err:  # a staff report must never cost the batch its grades
        return [f"{SIMILARITY} not written: {err.__class__.__name__}: {err}"]
    return []
