"""The manifest of variants (autograder/_manifest.py): which board each student was given.

A broken entry is left out and listed in ``problems`` (naming the file and the entry
number); a broken file is a UsageError naming the file.
"""

from __future__ import annotations

import json

import pytest

from autograder._errors import UsageError
from autograder._manifest import Manifest, StudentBoard, load_manifest, write_manifest
from tests.grading import assert_names_file

BOARD = {"goal": 20, "jumps": [[3, 12], [17, 5]]}
OTHER_BOARD = {"goal": 30, "jumps": [[2, 25]], "name": "mine"}
TRAP_BOARD = {"layout": [0, 1, 0, 2, 0, 3, 0, 4, 0, 0, 1, 0, 0, 0, 0], "circle": True}


def entry(student_id, board=BOARD, **fields):
    return {"id": student_id, "board": board, **fields}


def manifest_file(tmp_path, students, assignment="classic", name="manifest.json", **top):
    path = tmp_path / name
    data = {"format": 1, "assignment": assignment, "secret_id": "abc123", **top}
    data["students"] = students
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


# --- round trip ---------------------------------------------------------------------------


def test_write_then_load_round_trips(tmp_path):
    students = (
        StudentBoard("s1", dict(BOARD), "Ann Lee", "Ann@Uni.edu", "39.60", "students/s1.zip"),
        StudentBoard("s2", dict(OTHER_BOARD), bundle="students/s2.zip"),
        StudentBoard("s.3+x", {"goal": 10, "jumps": []}, "Jos\u00e9 \u00c5berg", "jose@uni.edu"),
    )
    written = Manifest("classic", students, "f00d", "ignored")
    path = tmp_path / "deep" / "folder" / "manifest.json"  # parents are made
    write_manifest(path, written)
    loaded = load_manifest(path)
    assert loaded == Manifest("classic", students, "f00d", str(path), ())
    assert loaded.to_json() == written.to_json()
    assert load_manifest(path, assignment="classic") == loaded
    # Atomic: nothing but the manifest is left in the folder.
    assert [p.name for p in path.parent.iterdir()] == ["manifest.json"]


def test_write_replaces_an_existing_manifest(tmp_path):
    path = tmp_path / "manifest.json"
    write_manifest(path, Manifest("classic", (StudentBoard("s1", dict(BOARD)),), "one"))
    write_manifest(path, Manifest("classic", (StudentBoard("s2", dict(BOARD)),), "two"))
    loaded = load_manifest(path)
    assert [s.id for s in loaded.students] == ["s2"]
    assert loaded.secret_id == "two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json"]


def test_round_trip_of_a_trap_lane_manifest(tmp_path):
    board = {**TRAP_BOARD, "edition": "2022"}
    written = Manifest("trap-lane", (StudentBoard("s1", board, email="a@b.cc"),), "x")
    path = tmp_path / "m.json"
    write_manifest(path, written)
    loaded = load_manifest(path, "trap-lane")
    assert loaded.students == written.students
    assert loaded.problems == ()


def test_an_empty_list_of_students_is_a_valid_manifest(tmp_path):
    loaded = load_manifest(manifest_file(tmp_path, []))
    assert loaded.students == () and loaded.problems == ()


# --- bad entries --------------------------------------------------------------------------


def test_each_bad_entry_is_reported_and_the_good_ones_kept(tmp_path):
    students = [
        entry("s1", email="Ann@Uni.edu", name="Ann"),  # 1 good
        entry("S1", email="other@uni.edu"),  # 2 duplicate id (other case)
        entry("s3", email="ann@uni.EDU"),  # 3 duplicate email (other case)
        {"email": "noid@uni.edu", "board": BOARD},  # 4 no id
        "s5",  # 5 not an object
        entry("s6", {"goal": 20, "jumps": [[20, 5]]}),  # 6 jump starts on the goal
        entry("s7", {"goal": 20, "jumps": [[2, 5], [5, 9]]}),  # 7 a chain
        entry("   "),  # 8 a blank id
        ["s9", BOARD],  # 9 not an object
        entry("s10", TRAP_BOARD),  # 10 a trap-lane board in a jump-board manifest
        entry("s11", {"goal": 20, "jumps": [[4, 21]]}),  # 11 ends off the board
        entry("s12", {"goal": 20, "jumps": [[4, 9], [4, 11]]}),  # 12 two jumps from 4
        {"id": "s13"},  # 13 no board at all
        entry("s14", email="s14@uni.edu"),  # 14 good
    ]
    path = manifest_file(tmp_path, students)
    loaded = load_manifest(path)
    assert [s.id for s in loaded.students] == ["s1", "s14"]
    assert loaded.students[0] == StudentBoard("s1", BOARD, "Ann", "Ann@Uni.edu")
    assert loaded.assignment == "classic" and loaded.secret_id == "abc123"
    expected = {
        2: ["(S1)", "also student 1"],
        3: ["(s3)", "ann@uni.EDU", "also student 1"],
        4: ["no 'id'"],
        5: ["not an object"],
        6: ["(s6)", "starts on the goal"],
        7: ["(s7)", "chains are not allowed"],
        8: ["no 'id'"],
        9: ["not an object"],
        10: ["(s10)", "unknown key"],
        11: ["(s11)", "ends outside the board"],
        12: ["(s12)", "two jumps start on square 4"],
        13: ["(s13)", "a board must be a JSON object"],
    }
    assert len(loaded.problems) == len(expected), loaded.problems
    for problem, (number, needles) in zip(loaded.problems, expected.items(), strict=True):
        assert problem.startswith(f"{path} student {number}"), problem
        assert problem.startswith((f"{path} student {number}:", f"{path} student {number} ("))
        assert problem.endswith("left out")
        assert "\n" not in problem
        for needle in needles:
            assert needle in problem


def test_an_id_left_out_for_a_bad_board_is_free_for_a_later_entry(tmp_path):
    students = [entry("s1", {"goal": 20, "jumps": [[0, 5]]}), entry("s1", OTHER_BOARD)]
    loaded = load_manifest(manifest_file(tmp_path, students))
    assert [(s.id, s.board) for s in loaded.students] == [("s1", OTHER_BOARD)]
    assert len(loaded.problems) == 1 and "student 1 (s1)" in loaded.problems[0]


def test_text_fields_are_trimmed_and_non_text_ignored(tmp_path):
    students = [entry(" s1 ", email=" a@b.cc ", name=7, self_check=None, bundle=" b.zip ")]
    loaded = load_manifest(manifest_file(tmp_path, students))
    assert loaded.students == (StudentBoard("s1", BOARD, "", "a@b.cc", "", "b.zip"),)


# --- bad files ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{", "not valid JSON"),
        ("", "not valid JSON"),
        ('{"assignment": "classic", "students": [}', "not valid JSON"),
        # json's own words stop at "... at", before the place it names: the place is given.
        ('{"assignment": "x\ny"}', "not valid JSON (line 1, column 18: Invalid control character)"),
        ("[]", "a manifest is a JSON object"),
        ('"classic"', "a manifest is a JSON object"),
        ("null", "a manifest is a JSON object"),
        ('{"assignment": "classic"}', "'students'"),
        ('{"assignment": "classic", "students": {"s1": {}}}', "'students'"),
        ('{"students": []}', "'assignment'"),
        ('{"assignment": 3, "students": []}', "'assignment'"),
        ('{"format": 2, "assignment": "classic", "students": []}', "format 2"),
    ],
)
def test_a_broken_file_raises_usage_error_naming_it(tmp_path, text, needle):
    path = tmp_path / "manifest.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_manifest(path)
    assert_names_file(caught.value, path, needle)


def test_wrong_assignment_raises_usage_error_naming_the_file(tmp_path):
    path = manifest_file(tmp_path, [entry("s1")], assignment="classic")
    assert load_manifest(path).assignment == "classic"
    with pytest.raises(UsageError) as caught:
        load_manifest(path, assignment="boosted")
    assert caught.value.where == str(path)
    assert "'classic'" in str(caught.value) and "'boosted'" in str(caught.value)


def test_missing_or_unreadable_file_raises_usage_error_naming_it(tmp_path):
    missing = tmp_path / "nowhere.json"
    with pytest.raises(UsageError, match="no such manifest") as caught:
        load_manifest(missing)
    assert caught.value.where == str(missing)
    with pytest.raises(UsageError) as caught:
        load_manifest(tmp_path)
    assert caught.value.where == str(tmp_path)
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"assignment": "classic", "students": [], "x": "\u00e9"}'.encode("latin-1"))
    with pytest.raises(UsageError) as caught:
        load_manifest(latin)
    assert caught.value.where == str(latin)


def test_an_unknown_assignment_in_the_file_names_the_file(tmp_path):
    path = manifest_file(tmp_path, [], assignment="clasic")
    with pytest.raises(UsageError) as caught:
        load_manifest(path)
    assert "clasic" in str(caught.value)
    assert caught.value.where == str(path)


# --- find ---------------------------------------------------------------------------------


@pytest.fixture
def roster_manifest():
    return Manifest(
        "classic",
        (
            StudentBoard("s1", BOARD, "Ann Lee", "Ann.Lee@Uni.edu"),
            StudentBoard("s2", BOARD, "No Mail"),
            StudentBoard("S3x", BOARD, "Bob", "bob@uni.edu"),
            StudentBoard("bob", BOARD, "Another Bob", "robert@uni.edu"),
        ),
    )


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (("s1",), "s1"),
        (("S1",), "s1"),
        (("  s2 ",), "s2"),
        (("s3X",), "S3x"),
        (("ann.lee@uni.edu",), "s1"),
        (("ANN.LEE@UNI.EDU",), "s1"),
        (("Ann.Lee",), "s1"),  # the local part of the email: a Canvas/Gradescope login
        (("robert",), "bob"),
        (("bob@uni.edu",), "S3x"),  # a whole email, not the id 'bob' through its local part
        (("bob",), "bob"),  # an exact id beats another student's email local part
        (("stranger", "ann.lee@uni.edu"), "s1"),  # any of the keys
        (("", "  ", "s2"), "s2"),
    ],
)
def test_find_by_id_email_and_local_part(roster_manifest, keys, expected):
    found = roster_manifest.find(*keys)
    assert found is not None
    assert found.id == expected


@pytest.mark.parametrize(
    "keys",
    [(), ("",), ("   ",), ("stranger",), ("nobody@uni.edu",), ("uni.edu",), ("s",), ("@",)],
)
def test_find_returns_none_for_a_stranger(roster_manifest, keys):
    assert roster_manifest.find(*keys) is None


def test_find_on_a_loaded_manifest(tmp_path):
    path = manifest_file(
        tmp_path, [entry("s1", email="Ann@Uni.edu"), entry("s2", email="bo@uni.edu")]
    )
    loaded = load_manifest(path)
    assert loaded.find("ann@uni.edu").id == "s1"
    assert loaded.find("BO").id == "s2"
    assert loaded.find("S2").id == "s2"
    assert loaded.find("s3") is None


def test_find_never_guesses_across_domains_or_between_two_students():
    manifest = Manifest(
        "classic",
        (
            StudentBoard("s1", BOARD, email="ann@uni.edu"),
            StudentBoard("s2", BOARD, email="kim@uni.edu"),
            StudentBoard("s3", BOARD, email="kim@other.edu"),
        ),
    )
    # A whole email at another domain is someone else, not s1.
    assert manifest.find("ann@gmail.com") is None
    assert manifest.find("ann").id == "s1"
    # Two students named kim before the @: a login "kim" could be either, so neither.
    assert manifest.find("kim") is None
    assert manifest.find("kim@other.edu").id == "s3"
