"""Boards drawn from a seed are the same on every Python: golden values.

A hidden board is drawn again on Gradescope's Python and a student's own board whenever
their bundle is made, so a change in the stream of random numbers would grade students on
boards nobody checked. The boards below were captured once from the draws of
reference_solutions/_draws.py (a SHA-256 counter stream, :class:`StableDraws`); a test here
failing means the stream or the way a family draws has changed, and every seed with it.

Beside the captured values, what does not come from the implementation: the stream is
checked against SHA-256 written out here from FIPS 180-4 (itself checked against the
standard's published examples), the integer, shuffle and sample helpers are checked
exhaustively for exactness, and every golden board is checked against the rules of
docs/rules.md and the assignment's ``[variants]`` ranges, a jump variant's classic length
by the independent solver of tests/independent.py.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections import Counter
from collections.abc import Iterable

import pytest

from autograder import TRAP_KINDS, load_assignment
from autograder._boards import parse_board
from reference_solutions import (
    hidden_boards,
    make_problem,
    new_jump_board,
    new_trap_board,
    solve_problem,
    variant_board,
    variant_seed,
)
from reference_solutions._draws import WORD_BITS, StableDraws, reduce_word
from tests.autograder.test_board_new import check_jump_board, independent_turns

# --- SHA-256 from its definition (FIPS 180-4, sections 4.2.2, 5.1.1, 5.3.3 and 6.2) ---------

MASK = 0xFFFFFFFF


def primes(count: int) -> list[int]:
    found: list[int] = []
    n = 2
    while len(found) < count:
        if all(n % p for p in found if p * p <= n):
            found.append(n)
        n += 1
    return found


def integer_root(n: int, k: int) -> int:
    """The floor of the ``k``-th root of ``n`` (Newton's method on integers, from above)."""
    x = 1 << -(-n.bit_length() // k)
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


# The first 32 bits of the fractional parts of the cube roots of the first 64 primes, and
# of the square roots of the first 8: computed, not copied, so no typo can hide in them.
ROUND_CONSTANTS = [integer_root(p << 96, 3) & MASK for p in primes(64)]
INITIAL_HASH = [math.isqrt(p << 64) & MASK for p in primes(8)]


def rotr(x: int, n: int) -> int:
    return ((x >> n) | (x << (32 - n))) & MASK


def sha256(message: bytes) -> bytes:
    zeros = (55 - len(message)) % 64
    padded = message + b"\x80" + bytes(zeros) + (8 * len(message)).to_bytes(8, "big")
    h = list(INITIAL_HASH)
    for start in range(0, len(padded), 64):
        w = list(struct.unpack(">16I", padded[start : start + 64]))
        for t in range(16, 64):
            s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w.append((w[t - 16] + s0 + w[t - 7] + s1) & MASK)
        a, b, c, d, e, f, g, k = h
        for t in range(64):
            big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            choose = (e & f) ^ (~e & g)
            t1 = (k + big_s1 + choose + ROUND_CONSTANTS[t] + w[t]) & MASK
            big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            majority = (a & b) ^ (a & c) ^ (b & c)
            t2 = (big_s0 + majority) & MASK
            a, b, c, d, e, f, g, k = (t1 + t2) & MASK, a, b, c, (d + t1) & MASK, e, f, g
        h = [(x + y) & MASK for x, y in zip(h, (a, b, c, d, e, f, g, k), strict=True)]
    return b"".join(x.to_bytes(4, "big") for x in h)


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC (RFC 2104) over the SHA-256 above, for a key of at most one block."""
    assert len(key) <= 64
    key = key.ljust(64, b"\0")
    inner = sha256(bytes(x ^ 0x36 for x in key) + message)
    return sha256(bytes(x ^ 0x5C for x in key) + inner)


def test_sha256_from_the_definition_gives_the_standards_examples():
    assert ROUND_CONSTANTS[0] == 0x428A2F98 and ROUND_CONSTANTS[63] == 0xC67178F2
    assert INITIAL_HASH[0] == 0x6A09E667 and INITIAL_HASH[7] == 0x5BE0CD19
    # The examples of FIPS 180-2's appendix B (one block, two blocks) and the empty message.
    assert sha256(b"abc").hex() == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    assert sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex() == (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    )
    assert sha256(b"").hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


# --- the stream -----------------------------------------------------------------------------


def defined_words(seed: str, blocks: int) -> list[int]:
    """The stream as its docstring defines it: block ``i`` is SHA-256 of the seed's UTF-8
    then ``i`` in 8 bytes big-endian, read as four 64-bit big-endian words."""
    words: list[int] = []
    for i in range(blocks):
        words += struct.unpack(">4Q", sha256(seed.encode() + i.to_bytes(8, "big")))
    return words


@pytest.mark.parametrize("seed", ["abc", "board/7", "", "classic/2026/0", "é/ü\0x"])
def test_the_stream_is_sha256_of_the_seed_and_a_counter(seed):
    draws = StableDraws(seed)
    assert [draws.word() for _ in range(12)] == defined_words(seed, 3)


def test_the_first_words_of_a_seed_are_the_golden_ones():
    draws = StableDraws("board/7")
    assert [draws.word() for _ in range(6)] == [
        0x3BD347EE2F518084, 0x1FCC59FBA4FAA979, 0x11DAF8C281452DA9,
        0x08A5AF830F8CBD92, 0x99436F176BCD9665, 0xBF00F20AE79B0A4B,
    ]  # fmt: skip


def test_a_students_seed_is_the_hmac_of_assignment_and_id():
    expected = hmac_sha256(b"golden-secret", b"classic\0s001").hex()
    assert variant_seed("golden-secret", "classic", "s001") == expected
    assert expected == "226eb433b53b90a2ab0bb26f253df6c9e4b18a6b9069a8930d69f4099dc53ab0"


class Scripted(StableDraws):
    """Draws whose words are given, to reach every path of the helpers on purpose."""

    def __init__(self, words: Iterable[int]) -> None:
        super().__init__("")
        self.script = list(words)
        self.used = 0

    def word(self) -> int:
        self.used += 1
        return self.script[self.used - 1]


@pytest.mark.parametrize("bits", [1, 4, 8])
def test_every_value_below_n_gets_as_many_words(bits):
    """Over all words of ``bits`` bits, each of 0..n-1 is given by exactly ``2**bits // n``
    words and the ``2**bits % n`` refused are the topmost: the mapping has no bias."""
    size = 1 << bits
    for n in range(1, size + 1):
        values = [reduce_word(word, n, bits) for word in range(size)]
        counts = Counter(v for v in values if v is not None)
        assert sorted(counts) == list(range(n))
        assert set(counts.values()) == {size // n}
        refused = [word for word, v in zip(range(size), values, strict=True) if v is None]
        assert refused == list(range(size - size % n, size))


def test_the_rejection_bounds_of_64_bit_words():
    top = (1 << WORD_BITS) - 1
    # 2**64 = 1 (mod 3): only the very top word is refused, and the next word drawn.
    assert reduce_word(top, 3) is None and reduce_word(top - 1, 3) == (top - 1) % 3
    draws = Scripted([top, 7])
    assert draws.below(3) == 1 and draws.used == 2
    assert reduce_word(top, 1 << 64) == top and reduce_word(top, 1) == 0
    half = (1 << 63) + 1  # refuses almost half of the words
    assert reduce_word(half - 1, half) == half - 1 and reduce_word(half, half) is None
    for n in (0, -1, (1 << 64) + 1):
        with pytest.raises(ValueError):
            reduce_word(0, n)


def test_every_value_in_a_small_range_is_drawn():
    for n in (1, 2, 3, 5, 7, 13, 99, 100):
        draws = StableDraws(f"reach/{n}")
        assert {draws.below(n) for _ in range(40 * n)} == set(range(n))
    draws = StableDraws("reach/randint")
    assert {draws.randint(-2, 2) for _ in range(200)} == {-2, -1, 0, 1, 2}


def test_randint_choice_and_random_map_words_exactly():
    assert Scripted([0]).randint(4, 9) == 4 and Scripted([5]).randint(4, 9) == 9
    assert Scripted([6]).randint(4, 9) == 4  # 6 = 0 (mod 6), as every word is reduced
    with pytest.raises(ValueError):
        StableDraws("x").randint(5, 4)
    assert [Scripted([k]).choice("abc") for k in range(3)] == ["a", "b", "c"]
    with pytest.raises(IndexError):
        StableDraws("x").choice([])
    top = (1 << WORD_BITS) - 1
    assert Scripted([0]).random() == 0.0
    assert Scripted([top]).random() == 1 - 2**-53  # never 1
    assert Scripted([1 << 11]).random() == 2**-53 and Scripted([(1 << 11) - 1]).random() == 0.0


@pytest.mark.parametrize("n", range(1, 6))
def test_shuffle_gives_every_order_once_over_all_index_draws(n):
    """Fisher-Yates: the ``n!`` ways of drawing its indices give the ``n!`` orders, each
    once, and each way takes exactly ``n - 1`` draws."""
    ways = list(itertools.product(*(range(i + 1) for i in range(n - 1, 0, -1))))
    orders = []
    for way in ways:
        draws = Scripted(way)
        items = list(range(n))
        draws.shuffle(items)
        assert draws.used == len(way)
        orders.append(tuple(items))
    assert len(ways) == math.factorial(n)
    assert sorted(orders) == sorted(itertools.permutations(range(n)))


@pytest.mark.parametrize("k", range(6))
def test_sample_gives_every_ordered_choice_once_over_all_index_draws(k):
    population = "abcde"
    ways = list(itertools.product(*(range(len(population) - i) for i in range(k))))
    picks = []
    for way in ways:
        draws = Scripted(way)
        picks.append(tuple(draws.sample(population, k)))
        assert draws.used == k
    assert sorted(picks) == sorted(itertools.permutations(population, k))
    with pytest.raises(ValueError):
        StableDraws("x").sample(population, 6)


# --- golden boards --------------------------------------------------------------------------

ASSIGNMENTS = ("classic", "boosted", "token-boosted", "trap-lane", "aimed", "efron")
# (secret, student id) of the golden variants.
PAIRS = (
    ("golden-secret", "s001"),
    ("golden-secret", "s002"),
    ("another secret", "jdoe@example.edu"),
)

# fmt: off
# The hidden boards of each shipped test plan ([tests] seed = 2026, 3 hidden boards).
HIDDEN = {
    "classic": [
        {"goal": 50, "jumps": [[18, 4], [20, 7], [22, 34], [23, 41], [24, 9], [35, 45], [36, 29],
                               [38, 45], [47, 33]]},
        {"goal": 120, "jumps": [[2, 1], [6, 22], [7, 1], [14, 10], [23, 34], [33, 81], [35, 30],
                                [41, 51], [44, 49], [46, 50], [55, 45], [59, 38], [71, 58],
                                [77, 45], [78, 64], [79, 47], [85, 117], [96, 57], [98, 115],
                                [104, 112], [105, 93], [113, 115], [116, 97]]},
        {"goal": 90, "jumps": [[12, 42], [13, 47], [31, 18], [35, 33], [40, 58], [43, 62], [52, 17],
                               [55, 21], [59, 56], [60, 64], [63, 46], [70, 54], [71, 88], [72, 80],
                               [76, 64], [82, 47], [86, 90]]},
    ],
    "boosted": [
        {"goal": 80, "jumps": [[2, 8], [9, 8], [18, 12], [23, 26], [25, 33], [28, 41], [29, 13],
                               [30, 7], [31, 8], [36, 17], [38, 51], [39, 15], [53, 56], [72, 79]]},
        {"goal": 60, "jumps": [[1, 5], [11, 21], [16, 6], [17, 25], [28, 21], [29, 18], [32, 38],
                               [41, 40], [49, 57]]},
        {"goal": 80, "jumps": [[7, 26], [15, 42], [19, 11], [34, 9], [36, 64], [38, 23], [46, 68],
                               [48, 74], [54, 26], [61, 71], [63, 43], [67, 76]]},
    ],
    "token-boosted": [
        {"goal": 150, "jumps": [[3, 2], [5, 60], [6, 53], [22, 4], [28, 9], [31, 10], [33, 56],
                                [45, 75], [50, 8], [55, 78], [58, 1], [67, 38], [77, 84], [85, 116],
                                [90, 84], [92, 44], [96, 82], [97, 94], [103, 84], [109, 148],
                                [113, 87], [117, 66], [121, 62], [126, 108], [131, 148], [141, 150],
                                [144, 146]]},
        {"goal": 140, "jumps": [[4, 14], [16, 1], [17, 47], [30, 24], [36, 66], [48, 41], [57, 111],
                                [58, 8], [60, 7], [61, 76], [63, 90], [72, 112], [74, 94],
                                [78, 101], [79, 52], [80, 131], [82, 97], [87, 125], [106, 123],
                                [107, 51], [113, 67], [122, 76], [129, 120], [133, 136]]},
        {"goal": 150, "jumps": [[6, 13], [10, 45], [11, 1], [21, 22], [34, 60], [36, 22], [41, 55],
                                [42, 20], [61, 77], [64, 57], [65, 104], [86, 31], [90, 82],
                                [96, 95], [102, 128], [107, 53], [108, 48], [114, 150], [116, 144],
                                [117, 98], [133, 91]]},
    ],
    "trap-lane": [
        {"layout": [0, 0, 0, 0, 4, 3, 1, 0, 4, 0, 2, 3, 3, 0, 0], "circle": True},
        {"layout": [0, 2, 0, 0, 2, 0, 0, 3, 0, 1, 0, 0, 0, 0, 0], "circle": True},
        {"layout": [0, 2, 1, 0, 4, 0, 4, 3, 0, 3, 0, 0, 0, 1, 0], "circle": False},
    ],
    "aimed": [
        {"goal": 100, "jumps": [[3, 2], [6, 4], [9, 17], [10, 8], [14, 5], [21, 18], [23, 11],
                                [30, 12], [35, 12], [37, 68], [41, 46], [52, 48], [66, 100],
                                [67, 96], [70, 79], [81, 54], [83, 46], [87, 94], [88, 100],
                                [89, 90]]},
        {"goal": 80, "jumps": [[3, 2], [16, 12], [23, 43], [27, 10], [28, 29], [33, 40], [47, 73],
                               [48, 21], [53, 56], [57, 75], [59, 64], [62, 42], [69, 71],
                               [72, 45]]},
        {"goal": 150, "jumps": [[5, 2], [7, 6], [14, 2], [16, 52], [20, 67], [28, 60], [34, 25],
                                [39, 4], [47, 23], [51, 22], [55, 49], [59, 66], [63, 71],
                                [65, 121], [73, 110], [77, 35], [79, 61], [85, 80], [98, 138],
                                [99, 90], [104, 127], [111, 92], [114, 141], [119, 118], [120, 143],
                                [122, 140], [123, 106], [136, 139], [142, 112]]},
    ],
    "efron": [
        {"goal": 100, "jumps": [[4, 40], [31, 44], [33, 8], [41, 14], [47, 78], [61, 35], [63, 65],
                                [64, 86], [66, 45], [71, 48], [74, 36], [80, 99], [82, 78],
                                [91, 86], [92, 76], [93, 94], [95, 81]]},
        {"goal": 140, "jumps": [[15, 48], [17, 11], [28, 35], [31, 47], [33, 51], [41, 43],
                                [46, 81], [54, 36], [56, 48], [61, 86], [75, 69], [76, 30],
                                [77, 24], [87, 104], [111, 113], [119, 89], [127, 139], [132, 98],
                                [136, 125]]},
        {"goal": 100, "jumps": [[10, 3], [22, 11], [23, 28], [26, 32], [31, 32], [36, 20], [44, 5],
                                [46, 29], [53, 73], [55, 85], [74, 56], [77, 97], [78, 93],
                                [82, 96], [94, 68]]},
    ],
}

# The boards of PAIRS, in order, for each assignment.
VARIANTS = {
    "classic": [
        {"goal": 100, "jumps": [[2, 21], [3, 1], [6, 4], [7, 5], [12, 5], [15, 30], [20, 11],
                                [28, 38], [34, 49], [37, 45], [40, 1], [56, 57], [63, 79], [64, 77],
                                [70, 81], [82, 67], [87, 69], [90, 77]]},
        {"goal": 100, "jumps": [[2, 38], [3, 1], [14, 6], [27, 4], [41, 47], [42, 47], [48, 88],
                                [53, 23], [57, 20], [72, 88], [73, 78], [77, 81], [82, 75],
                                [83, 88], [85, 67], [87, 50], [92, 95], [93, 100]]},
        {"goal": 100, "jumps": [[1, 34], [2, 41], [8, 6], [20, 24], [27, 52], [28, 11], [32, 57],
                                [36, 6], [42, 31], [44, 5], [45, 63], [53, 49], [65, 50], [69, 71],
                                [70, 97], [74, 47], [84, 71], [87, 93], [98, 100]]},
    ],
    "boosted": [
        {"goal": 100, "jumps": [[4, 3], [7, 1], [14, 17], [21, 6], [26, 23], [39, 27], [51, 89],
                                [52, 32], [75, 81], [78, 91], [79, 97], [84, 98], [85, 66],
                                [96, 97], [99, 66]]},
        {"goal": 100, "jumps": [[3, 2], [4, 1], [8, 7], [18, 7], [24, 39], [25, 48], [35, 74],
                                [42, 47], [44, 62], [49, 88], [51, 22], [57, 56], [58, 29],
                                [60, 80], [66, 41], [69, 81], [85, 72], [91, 62], [98, 99]]},
        {"goal": 100, "jumps": [[10, 1], [11, 8], [17, 52], [23, 19], [30, 38], [31, 13], [39, 63],
                                [44, 29], [51, 65], [53, 86], [56, 84], [62, 33], [71, 46],
                                [79, 48], [85, 95]]},
    ],
    "token-boosted": [
        {"goal": 100, "jumps": [[2, 1], [6, 31], [9, 4], [45, 12], [48, 49], [50, 78], [51, 16],
                                [61, 75], [71, 88], [74, 47], [77, 81], [79, 54], [93, 54],
                                [96, 100], [98, 70]]},
        {"goal": 100, "jumps": [[3, 30], [8, 5], [10, 6], [22, 18], [24, 6], [29, 47], [33, 66],
                                [42, 40], [44, 9], [52, 88], [55, 70], [69, 36], [78, 91], [81, 73],
                                [83, 43], [97, 99]]},
        {"goal": 100, "jumps": [[3, 2], [4, 44], [13, 7], [25, 54], [28, 38], [31, 66], [32, 17],
                                [34, 5], [42, 63], [56, 24], [68, 36], [76, 63], [77, 70], [82, 94],
                                [83, 61], [87, 94], [89, 93], [92, 100]]},
    ],
    "trap-lane": [
        {"layout": [0, 0, 0, 1, 4, 2, 0, 0, 0, 0, 3, 3, 0, 0, 0], "circle": False},
        {"layout": [0, 0, 0, 0, 1, 0, 2, 4, 0, 0, 0, 0, 3, 4, 0], "circle": True},
        {"layout": [0, 4, 4, 0, 3, 0, 2, 0, 0, 1, 3, 1, 0, 0, 0], "circle": True},
    ],
    "aimed": [
        {"goal": 100, "jumps": [[3, 1], [13, 18], [15, 8], [24, 59], [26, 14], [28, 38], [37, 2],
                                [41, 31], [46, 22], [52, 50], [58, 31], [68, 90], [69, 45],
                                [74, 92], [80, 82], [81, 92], [91, 82], [99, 100]]},
        {"goal": 100, "jumps": [[7, 3], [8, 14], [10, 3], [16, 51], [21, 6], [23, 29], [27, 67],
                                [39, 38], [42, 9], [49, 86], [50, 59], [55, 79], [60, 38], [65, 64],
                                [69, 45], [70, 97], [75, 86], [88, 64], [89, 78], [95, 97]]},
        {"goal": 100, "jumps": [[3, 30], [25, 19], [29, 16], [37, 70], [38, 14], [55, 28], [56, 61],
                                [57, 66], [58, 49], [64, 63], [68, 79], [72, 52], [73, 89],
                                [76, 87], [82, 79], [85, 90], [86, 99], [88, 94]]},
    ],
    "efron": [
        {"goal": 100, "jumps": [[5, 38], [10, 46], [13, 46], [15, 11], [16, 42], [17, 4], [22, 50],
                                [27, 4], [40, 38], [52, 65], [53, 34], [54, 42], [61, 46], [67, 37],
                                [82, 92], [83, 47], [84, 89], [90, 88]]},
        {"goal": 100, "jumps": [[7, 6], [12, 3], [13, 44], [27, 17], [28, 52], [30, 38], [33, 9],
                                [41, 62], [53, 43], [84, 47], [88, 100], [93, 99], [94, 65],
                                [95, 99], [97, 63]]},
        {"goal": 100, "jumps": [[8, 46], [16, 36], [20, 23], [28, 36], [34, 40], [39, 7], [52, 43],
                                [53, 50], [60, 24], [64, 95], [67, 55], [84, 96], [87, 50],
                                [92, 63], [93, 73]]},
    ],
}
# fmt: on

TRAP_CODES = {kind: code for code, kind in TRAP_KINDS.items()}


def jump_counts(data) -> tuple[int, int]:
    chutes = sum(1 for a, b in data["jumps"] if b < a)
    return chutes, len(data["jumps"]) - chutes


def check_trap_board(data) -> None:
    layout = data["layout"]
    assert len(layout) == 15 and layout[0] == layout[14] == 0
    assert set(layout) <= {0, *TRAP_KINDS}
    assert isinstance(data["circle"], bool)
    parse_board(data, "trap", "golden")


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_hidden_boards_are_the_golden_ones(name):
    plan = load_assignment(name).tests
    assert (plan.seed, plan.hidden_boards) == (2026, 3)  # the plan the boards were drawn for
    assert hidden_boards(name) == HIDDEN[name]


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_golden_hidden_boards_are_valid_and_drawn_as_the_family_says(name):
    for data in HIDDEN[name]:
        if name == "trap-lane":
            check_trap_board(data)
        else:
            # A goal of 50..150 by tens, and each count in goal//15..goal//9.
            goal = data["goal"]
            assert goal in range(50, 151, 10)
            chutes, ladders = jump_counts(data)
            assert goal // 15 <= chutes <= goal // 9 and goal // 15 <= ladders <= goal // 9
            check_jump_board(data, goal, chutes, ladders)
        solve_problem(make_problem(name, data))  # the game can be finished under its rules


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_variant_boards_are_the_golden_ones(name):
    assert [variant_board(name, secret, student) for secret, student in PAIRS] == VARIANTS[name]


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_golden_variant_boards_keep_to_the_variants_section(name):
    plan = load_assignment(name).variants
    assert len(set(map(repr, VARIANTS[name]))) == len(PAIRS)
    for data in VARIANTS[name]:
        assert data not in HIDDEN[name]
        if name == "trap-lane":
            check_trap_board(data)
            found = Counter(data["layout"])
            for kind, (low, high) in plan.counts.items():
                assert low <= found[TRAP_CODES[kind]] <= high, kind
            continue
        assert data["goal"] == plan.goal
        chutes, ladders = jump_counts(data)
        assert plan.chutes[0] <= chutes <= plan.chutes[1]
        assert plan.ladders[0] <= ladders <= plan.ladders[1]
        check_jump_board(data, plan.goal, chutes, ladders)
        assert plan.min_turns <= independent_turns(data) <= plan.max_turns


def test_board_new_draws_the_golden_boards():
    board = new_jump_board(7).to_json()
    assert board == {
        "goal": 100, "jumps": [[5, 4], [17, 45], [19, 4], [21, 48], [22, 11], [23, 14], [30, 48],
                               [38, 55], [41, 13], [42, 55], [49, 34], [52, 16], [53, 93], [54, 65],
                               [63, 43], [67, 85], [70, 81], [73, 72], [83, 82]],
    }  # fmt: skip
    check_jump_board(board, 100, 10, 9)

    banded = new_jump_board(11, 30, 2, 2, min_turns=8.0, max_turns=12.0).to_json()
    assert banded == {"goal": 30, "jumps": [[6, 4], [20, 30], [26, 18], [27, 30]]}
    check_jump_board(banded, 30, 2, 2)
    assert 8.0 <= independent_turns(banded) <= 12.0

    wanted = {"restart": 2, "penalty": 1, "prison": 1, "special": 3}
    trap = new_trap_board(3, wanted, "2022", circle=True)
    assert trap == {
        "layout": [0, 0, 3, 4, 2, 0, 0, 4, 0, 4, 1, 1, 0, 0, 0], "circle": True, "edition": "2022"
    }  # fmt: skip
    check_trap_board(trap)
    found = Counter(trap["layout"])
    assert {kind: found[code] for kind, code in TRAP_CODES.items()} == wanted

    one_each = new_trap_board(1, dict.fromkeys(TRAP_CODES, 1))
    assert one_each == {"layout": [0, 0, 0, 2, 0, 3, 0, 0, 1, 4, 0, 0, 0, 0, 0], "circle": False}
    assert sorted(one_each["layout"]) == [0] * 11 + [1, 2, 3, 4]
