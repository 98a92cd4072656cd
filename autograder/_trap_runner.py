"""Run as a script in the submission's own process, never imported by the grader:
``python _trap_runner.py MODULE.py BOARD.json``.

A trap-lane submission may be a module that only defines ``markovDecision(layout, circle)``
returning ``[Expec, Dice]`` (14 entries each, squares 1..14). This runner imports it, calls
it on the board file and prints the assignment's format, as the starter program would.
"""

import importlib.util
import json
import sys
from pathlib import Path


def main() -> None:
    module_path, board_path = Path(sys.argv[1]).resolve(), sys.argv[2]
    with open(board_path, encoding="utf-8") as file:
        board = json.load(file)
    sys.path.insert(0, str(module_path.parent))
    spec = importlib.util.spec_from_file_location("submission", module_path)
    if spec is None or spec.loader is None:
        sys.exit(f"{module_path.name}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "markovDecision"):
        sys.exit(f"{module_path.name}: defines no function markovDecision(layout, circle)")
    result = module.markovDecision(list(board["layout"]), bool(board.get("circle", False)))
    try:
        expec, dice = result
        expec = [float(v) for v in expec]
        # (a die's code as a number reads: 3.0 is die 3, but 2.7 is no die, not die 2)
        dice = [int(d) if float(d).is_integer() else float(d) for d in dice]
    except (TypeError, ValueError) as err:
        sys.exit(f"markovDecision must return [Expec, Dice] (numbers, die codes): {err}")
    if len(expec) != 14 or len(dice) != 14:
        sys.exit(
            f"markovDecision returned {len(expec)} values and {len(dice)} dice; "
            "expected 14 of each (squares 1..14)"
        )
    lines = [f"Expected cost from square 1: {expec[0]:.2f}", "square expected dice"]
    lines += [
        f"{square:2d} {value:8.4f} {die}"
        for square, (value, die) in enumerate(zip(expec, dice, strict=True), 1)
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
