"""One submission's judge asks for explanations board by board, in the order of the cases,
with the notes its earlier boards left: the same program gets the same feedback however
many of its boards run at once. A stand-in answer source records what it is asked."""

from __future__ import annotations

import threading

from autograder import Answer, Expected, Judge, Printed, load_assignment
from autograder import TestCase as Board


class Recorder:
    """An answer source that only explains: it records each board asked about, and what
    the notes held when it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, tuple[str, ...]]] = []
        self.lock = threading.Lock()

    def explain(self, assignment, case, printed, notes):
        with self.lock:
            self.asked.append((case.name, tuple(notes.get("seen", ()))))
            notes.setdefault("seen", []).append(case.name)
        return None


def case(name: str) -> Board:
    answer = Answer("values", 1.0, (1.0, 0.0))
    return Board(name, name, {"goal": 1, "jumps": []}, 1.0, True, Expected(answer))


NOTHING = Printed({}, {}, ())


def judge_of(order: list[str]) -> tuple[Judge, Recorder]:
    source = Recorder()
    return Judge(source, load_assignment("classic")).for_submission(order), source


def test_a_later_board_waits_for_every_earlier_one_to_be_settled():
    judge, source = judge_of(["a", "b", "c"])
    later = threading.Thread(target=judge.explain, args=(case("c"), NOTHING))
    later.start()
    # (a correct judge is blocked here whatever the machine's speed; only a broken one
    # could have asked already)
    later.join(timeout=0.3)
    assert later.is_alive() and source.asked == []
    judge.settle("a")
    later.join(timeout=0.3)
    assert later.is_alive() and source.asked == []
    judge.explain(case("b"), NOTHING)  # b's turn: a is settled
    judge.settle("b")
    later.join(timeout=60)
    assert not later.is_alive()
    assert source.asked == [("b", ()), ("c", ("b",))]


def test_notes_are_kept_per_submission():
    first, source = judge_of(["a", "b"])
    first.explain(case("a"), NOTHING)
    first.settle("a")
    first.explain(case("b"), NOTHING)
    # Another submission of the same batch starts with empty notes.
    second = Judge(source, load_assignment("classic")).for_submission(["a", "b"])
    second.explain(case("a"), NOTHING)
    assert source.asked == [("a", ()), ("b", ("a",)), ("a", ())]


def test_boards_outside_the_order_are_explained_at_once():
    judge, source = judge_of([])
    judge.explain(case("x"), NOTHING)
    judge.explain(case("y"), NOTHING)
    assert source.asked == [("x", ()), ("y", ("x",))]
