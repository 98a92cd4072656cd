from __future__ import annotations

import pytest

from autograder import UsageError, load_assignment
from autograder._assignments import assignment_names


def test_self_check_compares_at_the_published_decimals():
    classic = load_assignment("classic")
    assert classic.self_check == "39.60"
    assert classic.self_check_holds(39.5984)
    assert not classic.self_check_holds(39.6051)
    assert not classic.self_check_holds(39.59)


def test_a_broken_configuration_names_its_file(tmp_path, monkeypatch):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "assignment.toml").write_text("[assignment\nrules = 'classic'\n")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path))
    # (a course's folder is laid over the shipped assignments, which stay)
    assert "broken" in assignment_names() and "classic" in assignment_names()
    with pytest.raises(UsageError) as caught:
        load_assignment("broken")
    assert str(folder / "assignment.toml") in str(caught.value)


def test_a_configuration_without_rules_is_rejected(tmp_path, monkeypatch):
    folder = tmp_path / "norules"
    folder.mkdir()
    (folder / "assignment.toml").write_text("[assignment]\ntitle = 'x'\n")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path))
    with pytest.raises(UsageError, match="needs the key 'rules'"):
        load_assignment("norules")


@pytest.mark.parametrize(
    ("section", "line"),
    [("assignment", "titel = 'typo'"), ("tolerance", "value = 0.5"), ("tests", "seeds = 3")],
)
def test_an_unknown_key_is_refused_naming_the_file_the_key_and_the_section(
    tmp_path, monkeypatch, section, line
):
    folder = tmp_path / "typo"
    folder.mkdir()
    head = "[assignment]\nrules = 'classic'\nfamily = 'jump'\n"
    text = head + (f"{line}\n" if section == "assignment" else f"[{section}]\n{line}\n")
    (folder / "assignment.toml").write_text(text)
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path))
    with pytest.raises(UsageError) as caught:
        load_assignment("typo")
    message = str(caught.value)
    key = line.split(" = ")[0]
    assert str(folder / "assignment.toml") in message
    assert f"unknown key {key!r} in [{section}]" in message and "\n" not in message


def test_an_unknown_board_family_is_refused_with_the_known_ones(tmp_path, monkeypatch):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "assignment.toml").write_text("[assignment]\nrules = 'classic'\nfamily = 'hex'\n")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path))
    with pytest.raises(UsageError, match=r"unknown board family 'hex' \(known: jump, trap\)"):
        load_assignment("odd")


def test_a_configuration_without_a_family_says_which_there_are(tmp_path, monkeypatch):
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "assignment.toml").write_text("[assignment]\nrules = 'classic'\n")
    monkeypatch.setenv("AUTOGRADER_ASSIGNMENTS", str(tmp_path))
    wanted = r"needs the key 'family' \(the kind of board: jump, trap\)"
    with pytest.raises(UsageError, match=wanted):
        load_assignment("old")
