"""Hypothesis strategies for valid boards and layouts (docs/rules.md)."""

from __future__ import annotations

from hypothesis import strategies as st

# The games played on a jump board (every assignment but the trap lane).
JUMP_GAMES = ["classic", "boosted", "token-boosted", "aimed", "efron"]
OVERSHOOTS = st.sampled_from(["stay", "win", "bounce", "land:1"])


def jump_game_settings(name: str, faces: int, overshoot: str) -> list[str]:
    """``make_problem`` settings for ``name`` with ``overshoot`` and, where the game has a
    die of its own size (all but efron's fixed dice), ``faces``."""
    settings = [f"overshoot={overshoot}"]
    if name != "efron":
        settings.append(f"faces={faces}")
    return settings


@st.composite
def jump_boards(draw, min_goal: int = 10, max_goal: int = 60, tens: bool = True):
    """A valid jump board as board-file data: no jump from 0 or the goal, one jump per
    square at most, no jump ending where another starts."""
    if tens:
        goal = 10 * draw(st.integers(min_goal // 10, max_goal // 10))
    else:
        goal = draw(st.integers(min_goal, max_goal))
    squares = list(range(1, goal))
    n_jumps = draw(st.integers(0, max(0, goal // 5)))
    starts = draw(
        st.lists(st.sampled_from(squares), min_size=n_jumps, max_size=n_jumps, unique=True)
    )
    ends_allowed = [s for s in range(1, goal + 1) if s not in starts]
    jumps = []
    for start in starts:
        choices = [e for e in ends_allowed if e != start]
        jumps.append([start, draw(st.sampled_from(choices))])
    return {"goal": goal, "jumps": jumps}


layouts = st.lists(st.integers(0, 4), min_size=13, max_size=13).map(lambda xs: [0, *xs, 0])

trap_boards = st.fixed_dictionaries(
    {
        "layout": layouts,
        "circle": st.booleans(),
        "edition": st.sampled_from(["2020", "2021", "2022"]),
    }
)
