"""Removing what a program left behind, however it arranged it."""

from __future__ import annotations

import os
from pathlib import Path

from autograder._files import remove_tree


def nest(top: Path, depth: int) -> None:
    """Folders ``d/d/d/...`` deeper than any path can name: made relative to an open folder."""
    here = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=here)
        with open(os.open("f", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=here), "w") as file:
            file.write("x")
        child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
        os.close(here)
        here = child
    os.close(here)


def test_a_tree_deeper_than_a_path_can_name_is_removed(tmp_path):
    top = tmp_path / "run"
    top.mkdir()
    nest(top, 3000)  # 3000 * len("d/") > PATH_MAX
    remove_tree(top)
    assert not top.exists()


def test_closed_folders_and_files_are_removed_but_links_are_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("the grader's")
    top = tmp_path / "run"
    (top / "closed" / "inner").mkdir(parents=True)
    (top / "closed" / "inner" / "file").write_text("x")
    (top / "link-to-outside").symlink_to(outside)
    (top / "closed" / "file-link").symlink_to(outside / "keep.txt")
    (top / "closed" / "inner").chmod(0)
    (top / "closed").chmod(0)
    remove_tree(top)
    assert not top.exists()
    assert (outside / "keep.txt").read_text() == "the grader's"


def test_a_file_or_a_missing_path_is_fine(tmp_path):
    lone = tmp_path / "lone.txt"
    lone.write_text("x")
    remove_tree(lone)
    assert not lone.exists()
    remove_tree(tmp_path / "never-there")
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    remove_tree(link)
    assert not link.is_symlink() and tmp_path.is_dir()
