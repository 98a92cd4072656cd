from __future__ import annotations

import codecs
import json

import pytest

from autograder import BoardError, JumpBoard, load_board, standard_board


def test_standard_board_has_nineteen_jumps_and_its_goes_to_table():
    board = standard_board()
    assert len(board.jumps) == 19
    goes_to = board.goes_to
    assert goes_to[80] == 100 and goes_to[98] == 78 and goes_to[2] == 2
    assert len(board.chutes) == 10 and len(board.ladders) == 9


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        ({"goal": 100, "jumps": [[0, 5]]}, "starts on the start"),
        ({"goal": 100, "jumps": [[100, 5]]}, "starts on the goal"),
        ({"goal": 100, "jumps": [[5, 10], [10, 20]]}, "chains are not allowed"),
        ({"goal": 100, "jumps": [[5, 10], [5, 20]]}, "two jumps start on square 5"),
        ({"goal": 100, "jumps": [[5, 101]]}, "ends outside the board"),
        ({"goal": 100, "jumps": [[120, 5]]}, "starts outside the board"),
        ({"goal": 100, "jumps": [[5, 0]]}, "ends outside the board"),
        ({"goal": 100, "jumps": [[5, 5]]}, "goes nowhere"),
        ({"goal": 100, "jumps": [[5]]}, "not a pair of integers"),
        ({"goal": 100, "jumps": [[5, 6.5]]}, "not a pair of integers"),
        ({"goal": 0, "jumps": []}, "goal must be an integer >= 1"),
        ({"goal": "100", "jumps": []}, "goal must be an integer"),
        ({"goal": 10**12, "jumps": []}, "larger than the largest board"),
        ({"goal": 100}, 'needs "goal" and "jumps"'),
        ({"goal": 100, "jumps": [], "ladders": []}, "unknown key 'ladders'"),
    ],
)
def test_invalid_jump_boards_name_the_file_and_the_rule(tmp_path, data, rule):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BoardError) as caught:
        load_board(path, "jump")
    assert str(path) in str(caught.value)
    assert rule in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        ({"layout": [0] * 14}, "15 entries"),
        ({"layout": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]}, "traps are 0..4"),
        ({"layout": [1] + [0] * 14}, "never trapped"),
        ({"layout": [0] * 14 + [2]}, "never trapped"),
        ({"layout": "0" * 15}, "list of 15 integers"),
        ({"circle": True}, 'needs "layout"'),
    ],
)
def test_invalid_layouts(tmp_path, data, rule):
    path = tmp_path / "lane.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BoardError, match=rule):
        load_board(path, "trap")


def test_unreadable_files(tmp_path):
    with pytest.raises(BoardError, match="no such file"):
        load_board(tmp_path / "missing.json", "jump")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BoardError, match="not valid JSON"):
        load_board(bad, "jump")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BoardError, match="the file is UTF-16, not UTF-8; save it as UTF-8"):
        load_board(binary, "jump")
    with pytest.raises(BoardError, match="is a folder, not a file"):
        load_board(tmp_path, "jump")


BOARD_TEXT = '{"goal": 20, "name": "Café", "jumps": [[3, 9]]}'


@pytest.mark.parametrize(
    ("data", "said"),
    [
        # Saved by Notepad: a byte-order mark first, which is no reason to refuse it.
        (codecs.BOM_UTF8 + BOARD_TEXT.encode(), None),
        (
            BOARD_TEXT.encode("latin-1"),
            "the file is not UTF-8: byte 26 of line 1 is 0xe9; save "
            "it as UTF-8 (it may be Latin-1 or Windows-1252)",
        ),
        (BOARD_TEXT.encode("utf-16-le"), "holds NUL bytes, so it is not UTF-8 text"),
        # The later key would win without a word: a board of 50 squares, not 20.
        (b'{"goal": 20, "jumps": [[3, 9]], "goal": 50}', "the key 'goal' is given twice"),
    ],
    ids=["bom", "latin-1", "utf-16", "key-twice"],
)
def test_how_a_board_file_was_saved_is_read_or_named(tmp_path, data, said):
    path = tmp_path / "board.json"
    path.write_bytes(data)
    if said is None:
        assert load_board(path, "jump").board == JumpBoard(20, ((3, 9),), "Café")
        return
    with pytest.raises(BoardError) as caught:
        load_board(path, "jump")
    assert str(caught.value).startswith(f"{path}: ") and said in str(caught.value)
    assert "\n" not in str(caught.value)


def test_board_round_trips_through_json(tmp_path):
    board = JumpBoard(30, ((12, 3), (4, 20)), "mine")
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board.to_json()))
    assert load_board(path, "jump").board == board
