"""Boards drawn at random, always from a seed: the hidden boards of a test plan, a board for
``autograder board new``, and each student's own board for ``autograder variants``.

Each board family draws its own way (a registry by family name, beside the engine's board
families). A draw that must be playable is solved to check it, which is why drawing lives
here, on the grading side, and not in the engine.

Every draw comes from :class:`StableDraws`, a counter-mode stream of SHA-256 keyed by the
seed, and not from :class:`random.Random`: a hidden board is drawn again on Gradescope's
Python, and Python promises a stable stream only for ``random()`` under the default seeding
(https://docs.python.org/3/library/random.html#notes-on-reproducibility), not for
``randint``, ``choice`` or ``sample``, while SHA-256's output is fixed by FIPS 180-4
(https://csrc.nist.gov/pubs/fips/180-4/upd1/final). Integers, choices and samples are drawn
on top of it by the exact algorithms below, so no Python or numpy version can change a board.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

from autograder import (
    TRAP_KINDS,
    TRAP_LANE_SQUARES,
    Assignment,
    BoardError,
    JumpBoard,
    JumpVariantPlan,
    Registry,
    TrapLayout,
    TrapVariantPlan,
    UsageError,
    grid_goal_problem,
)

from ._params import Overshoot
from ._problem import make_problem
from ._solver import solve
from .rules import classic as classic_rules

__all__ = [
    "BoardDraws",
    "StableDraws",
    "board_draws",
    "classic_turns",
    "new_jump_board",
    "new_trap_board",
    "random_jump_board",
    "variant_seed",
]

MAX_DRAWS = 2000  # a band no board falls in is reported instead of looping forever
HIDDEN_GOALS = range(50, 151, 10)
# The game whose length a jump board's band is about.
CLASSIC_PARAMS = classic_rules.Params(faces=6, overshoot=Overshoot("stay"))

# ``accept(board_data)`` says whether a drawn board will do (its goal can be reached under
# the assignment's own rules, and it is none of the boards every student is tested on, say).
Accept = Callable[[dict[str, Any]], bool]

T = TypeVar("T")
WORD_BITS = 64


def reduce_word(word: int, n: int, bits: int = WORD_BITS) -> int | None:
    """``word`` (of ``bits`` bits) mapped onto ``0..n-1``, or ``None`` when it must be
    rejected: ``word % n`` alone would favour the values below ``2**bits % n``, so the top
    ``2**bits % n`` words are refused and every value keeps the same number of words."""
    if not 1 <= n <= 1 << bits:
        raise ValueError(f"cannot draw below {n} from words of {bits} bits")
    if word >= (1 << bits) - (1 << bits) % n:
        return None
    return word % n


class StableDraws:
    """The random draws of one seed, the same on every Python and platform.

    Block ``i`` of the stream is ``SHA-256(utf8(seed) || i)``, ``i`` as 8 bytes big-endian
    (a fixed length, so no two (seed, block) pairs hash the same message); each block gives
    four 64-bit words, big-endian, in order.
    """

    def __init__(self, seed: str) -> None:
        self._key = seed.encode("utf-8")
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._next = 0

    def word(self) -> int:
        """The stream's next 64-bit word."""
        if self._next == len(self._words):
            digest = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._words = struct.unpack(">4Q", digest)
            self._block += 1
            self._next = 0
        word: int = self._words[self._next]
        self._next += 1
        return word

    def below(self, n: int) -> int:
        """An integer in ``0..n-1``, each equally likely (``1 <= n <= 2**64``)."""
        while True:
            value = reduce_word(self.word(), n)
            if value is not None:
                return value

    def randint(self, low: int, high: int) -> int:
        """An integer in ``low..high``, both included, each equally likely."""
        if high < low:
            raise ValueError(f"empty range {low}..{high}")
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """A float in ``[0, 1)``: a word's top 53 bits over ``2**53``, which a double holds
        exactly, so a comparison with it is the same everywhere."""
        return (self.word() >> (WORD_BITS - 53)) / (1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, each place equally likely."""
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """``items`` put in an order drawn uniformly, in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct places of ``population`` in a drawn order, every ordered choice
        equally likely: the first ``k`` steps of a Fisher-Yates shuffle, from the front."""
        pool = list(population)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot sample {k} of {len(pool)}")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


class BoardDraws(Protocol):
    """How one board family draws boards; ``name`` is the family's."""

    name: str

    def hidden(self, rng: StableDraws) -> dict[str, Any]:
        """A hidden test board's file data."""
        ...

    def variant(self, assignment: Assignment, rng: StableDraws, accept: Accept) -> dict[str, Any]:
        """A student's board file data, drawn as the assignment's ``[variants]`` says."""
        ...


# --- jump boards ---------------------------------------------------------------------------


def random_jump_board(
    rng: StableDraws, goal: int, chutes: int, ladders: int, longest: int | None = None
) -> JumpBoard:
    """A valid board with ``chutes`` chutes and ``ladders`` ladders, each at most ``longest``
    squares long (default: 40% of the goal, as on printed boards)."""
    longest = longest or max(2, goal * 2 // 5)
    if chutes + ladders > (goal - 1) // 2:
        raise BoardError("", f"{chutes + ladders} jumps do not fit on a board of {goal} squares")
    for _ in range(1000):
        starts = rng.sample(range(1, goal), chutes + ladders)
        taken = set(starts)
        jumps = []
        for k, start in enumerate(starts):
            if k < chutes:
                ends = range(max(1, start - longest), start)
            else:
                ends = range(start + 1, min(goal, start + longest) + 1)
            free = [e for e in ends if e not in taken]
            if not free:
                break
            jumps.append((start, rng.choice(free)))
        else:
            return JumpBoard(goal, tuple(jumps))
    raise BoardError("", f"could not place {chutes} chutes and {ladders} ladders on {goal} squares")


def classic_turns(board: JumpBoard) -> float:
    """The expected length of a classic game on ``board`` (6-face spinner, exact finish).
    Raises :class:`GoalUnreachable` when the game can never end."""
    # The rules module directly: a draw loop calls this thousands of times, and going
    # through make_problem would read the assignment's TOML each time.
    game = classic_rules.build(board, CLASSIC_PARAMS)
    return solve(game.model).start_value


def _default_counts(goal: int) -> tuple[int, int]:
    # The standard board has 10 chutes and 9 ladders on 100 squares.
    return max(1, round(goal * 0.10)), max(1, round(goal * 0.09))


def _draw_jump_board(
    rng: StableDraws,
    goal: int,
    chutes: int,
    ladders: int,
    band: tuple[float, float] | None,
    accept: Callable[[JumpBoard], bool] | None = None,
) -> JumpBoard:
    """Boards from ``rng`` until one can be finished, has its classic length inside ``band``
    and passes ``accept`` (each when given)."""
    problem = grid_goal_problem(goal)
    if problem:
        raise BoardError("", problem)
    if band is not None and band[0] > band[1]:
        raise BoardError("", f"--min-turns {band[0]:g} is larger than --max-turns {band[1]:g}")
    for _ in range(MAX_DRAWS):
        board = random_jump_board(rng, goal, chutes, ladders)
        try:
            turns = classic_turns(board)
        except UsageError:  # chutes that trap the piece: the game could never end
            continue
        if band is not None and not band[0] <= turns <= band[1]:
            continue
        if accept is None or accept(board):
            return board
    wanted = ""
    if band is not None:
        span = f"{band[0]:g} to {band[1]:g}" if band[1] < float("inf") else f"at least {band[0]:g}"
        wanted = f" whose classic game lasts {span} turns on average"
    raise BoardError(
        "",
        f"no board of {goal} squares with {chutes} chutes and {ladders} ladders{wanted} "
        f"in {MAX_DRAWS} draws; widen the band or change the counts",
    )


def new_jump_board(
    seed: int | str,
    goal: int = 100,
    chutes: int | None = None,
    ladders: int | None = None,
    min_turns: float | None = None,
    max_turns: float | None = None,
) -> JumpBoard:
    """A valid jump board drawn from ``seed``: the same seed and options give the same
    board. With a band, boards are drawn until a classic game's expected length (6-face
    spinner, exact finish) falls inside ``[min_turns, max_turns]``."""
    default_chutes, default_ladders = _default_counts(goal)
    chutes = default_chutes if chutes is None else chutes
    ladders = default_ladders if ladders is None else ladders
    if chutes < 0 or ladders < 0:
        raise BoardError("", "the counts of chutes and ladders must be >= 0")
    band = None
    if min_turns is not None or max_turns is not None:
        band = (min_turns or 0.0, float("inf") if max_turns is None else max_turns)
    rng = StableDraws(f"board/{seed}")
    return _draw_jump_board(rng, goal, chutes, ladders, band)


class JumpDraws:
    name = "jump"

    def hidden(self, rng: StableDraws) -> dict[str, Any]:
        goal = rng.choice(HIDDEN_GOALS)
        chutes = rng.randint(goal // 15, goal // 9)
        ladders = rng.randint(goal // 15, goal // 9)
        return random_jump_board(rng, goal, chutes, ladders).to_json()

    def variant(self, assignment: Assignment, rng: StableDraws, accept: Accept) -> dict[str, Any]:
        plan = assignment.variants
        assert isinstance(plan, JumpVariantPlan)
        for _ in range(MAX_DRAWS):
            chutes, ladders = rng.randint(*plan.chutes), rng.randint(*plan.ladders)
            # On a board without jumps a program that ignores them passes, and that board
            # is the edge board "no-jumps": counts drawn again.
            if chutes + ladders:
                break
        else:
            raise BoardError("", "[variants] draws no chute and no ladder")
        band = (plan.min_turns, plan.max_turns)
        board = _draw_jump_board(
            rng, plan.goal, chutes, ladders, band, lambda b: accept(b.to_json())
        )
        return board.to_json()


# --- trap-lane layouts ---------------------------------------------------------------------


def _place_traps(rng: StableDraws, counts: Mapping[str, int]) -> list[int]:
    wanted = sum(counts.values())
    inner = list(range(2, TRAP_LANE_SQUARES))  # squares 1 and 15 are never trapped
    if wanted > len(inner):
        raise BoardError("", f"{wanted} traps do not fit on the {len(inner)} squares 2..14")
    squares = rng.sample(inner, wanted)
    layout = [0] * TRAP_LANE_SQUARES
    kinds = [code for code, kind in TRAP_KINDS.items() for _ in range(counts.get(kind, 0))]
    for square, code in zip(squares, kinds, strict=True):
        layout[square - 1] = code
    return layout


def new_trap_board(
    seed: int | str,
    counts: Mapping[str, int] | None = None,
    edition: str | None = None,
    circle: bool = False,
) -> dict[str, Any]:
    """A trap-lane board file's data drawn from ``seed``: ``counts`` traps of each kind
    (named as in ``TRAP_KINDS``) on distinct squares 2..14."""
    counts = dict(counts or {})
    unknown = sorted(set(counts) - set(TRAP_KINDS.values()))
    if unknown:
        kinds = ", ".join(TRAP_KINDS.values())
        raise BoardError("", f"unknown trap kind {unknown[0]!r} (kinds: {kinds})")
    if any(n < 0 for n in counts.values()):
        raise BoardError("", "trap counts must be >= 0")
    layout = _place_traps(StableDraws(f"board/{seed}"), counts)
    data: dict[str, Any] = {"layout": TrapLayout(tuple(layout)).to_json()["layout"]}
    data["circle"] = bool(circle)
    if edition is not None:
        data["edition"] = edition
        make_problem("trap-lane", data)  # the rules report an unknown edition
    return data


class TrapDraws:
    name = "trap"

    def hidden(self, rng: StableDraws, trapped: float = 0.4) -> dict[str, Any]:
        """Each of squares 2..14 trapped with probability ``trapped`` (any kind), and a
        random circle setting."""
        layout = [0] * TRAP_LANE_SQUARES
        for square in range(2, TRAP_LANE_SQUARES):
            if rng.random() < trapped:
                layout[square - 1] = rng.randint(1, len(TRAP_KINDS))
        return {
            "layout": TrapLayout(tuple(layout)).to_json()["layout"],
            "circle": rng.random() < 0.5,
        }

    def variant(self, assignment: Assignment, rng: StableDraws, accept: Accept) -> dict[str, Any]:
        """Counts drawn again while they give no trap at all: on a lane without traps a
        program that ignores them passes, and that lane is the public board (or, with the
        circle, a public edge board). A draw ``accept`` refuses is drawn again too."""
        plan = assignment.variants
        assert isinstance(plan, TrapVariantPlan)
        for _ in range(MAX_DRAWS):
            counts = {kind: rng.randint(*plan.counts[kind]) for kind in TRAP_KINDS.values()}
            if not any(counts.values()):
                continue
            circle = rng.random() < 0.5 if plan.circle == "either" else bool(plan.circle)
            data = {"layout": _place_traps(rng, counts), "circle": circle}
            if accept(data):
                return data
        raise BoardError(
            "",
            f"no layout drawn as [variants] says in {MAX_DRAWS} draws has a trap and differs "
            "from the boards of the test plan; widen the trap counts",
        )


# By board family name, as the engine's families are.
_DRAWS: Registry[BoardDraws] = Registry("way of drawing boards")
_DRAWS.register(JumpDraws())
_DRAWS.register(TrapDraws())


def board_draws(assignment: Assignment) -> BoardDraws:
    """How boards of the assignment's family are drawn."""
    try:
        return _DRAWS.get(assignment.family)
    except ValueError as err:
        raise UsageError(str(assignment.config), f"[assignment] family: {err}") from None


def variant_seed(secret: str, assignment: str, student: str) -> str:
    """The seed of a student's board: an HMAC, so it cannot be worked out from the id."""
    message = f"{assignment}\0{student}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
