"""An assignment's answer as plain data: what a program prints, before it is text."""

from __future__ import annotations

from dataclasses import dataclass

OUTPUTS = ("values", "token-values", "values-actions", "trap-lane")


@dataclass(frozen=True)
class Answer:
    """The numbers a correct program prints for one board.

    ``values`` is ``V[0..N]`` for jump boards, a tuple of those per token count (index =
    tokens left) for ``token-values``, and ``Expec`` for squares 1..14 on the trap lane.
    ``actions`` is what the action grid shows: an entry per square ``0..N`` (``"-"`` on the
    goal) for ``values-actions``, the die code per square 1..14 on the trap lane, else
    ``None``.
    """

    output: str
    start_value: float
    values: tuple
    actions: tuple[str, ...] | None = None
    objective: str = "turns"

    def __post_init__(self) -> None:
        if self.output not in OUTPUTS:
            raise ValueError(f"unknown output format {self.output!r}")
