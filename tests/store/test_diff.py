"""store.diff: the one tree diff, checked against git's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git
from support.stores import ARCHIVE_BETA, diverge, rev, tree_of

from gitcurator.store import Store, diff


def _git_diff(lib: Path, old: str, new: str) -> dict[str, str]:
    """path -> git's status letter (A, M, D, T) between two trees, no rename detection."""
    out = git("diff-tree", "-r", "--no-renames", "--name-status", old, new, cwd=lib).stdout
    return {path: status for status, path in (line.split("\t") for line in out.splitlines())}


@pytest.mark.parametrize(
    "change",
    [
        ARCHIVE_BETA,
        "echo more >> alpha/SKILL.md",
        "chmod +x beta/references/notes.md",
        "git rm -rq devops && echo file > devops",
        "ln -s ../alpha alpha/link && mkdir -p new/deep && echo x > new/deep/f.md",
    ],
    ids=["move", "edit", "mode", "folder-to-file", "link-and-new-folders"],
)
def test_the_files_changed_are_those_git_sees(lib: Path, store: Store, change: str) -> None:
    base, _mine, theirs = diverge(lib, "true", change)
    found = diff.TreeDiffer(store).diff(base, theirs)
    expected = _git_diff(lib, base.decode(), theirs.decode())
    assert set(found.files) == set(expected)
    for path, (before, after) in found.files.items():
        assert (before is None, after is None) == (expected[path] == "A", expected[path] == "D")


def test_a_move_is_both_paths_and_names_the_folders_only_one_side_has(
    lib: Path, store: Store
) -> None:
    base, _mine, theirs = diverge(lib, "true", ARCHIVE_BETA)
    moved = diff.diff_trees(store, base, theirs)
    assert moved.files["beta/SKILL.md"][1] is None
    assert moved.after(".archive/beta/SKILL.md") == moved.files["beta/SKILL.md"][0]
    assert moved.removed_dirs == {"beta", "beta/references"}
    assert moved.added_dirs == {".archive", ".archive/beta", ".archive/beta/references"}
    assert moved.whole_skill_folders() == {"beta", ".archive/beta"}
    assert diff.diff_trees(store, base, theirs) is moved, "asked again: remembered"


def test_from_the_empty_tree_every_file_is_added(lib: Path, store: Store) -> None:
    everything = diff.TreeDiffer(store).diff(None, tree_of(lib, "HEAD"))
    listed = git("ls-tree", "-r", "--name-only", "HEAD", cwd=lib).stdout.split()
    assert sorted(everything.files) == sorted(listed)
    assert all(before is None for before, _after in everything.files.values())


def test_changed_files_lists_what_a_commit_added_or_changed(lib: Path, store: Store) -> None:
    old = rev(lib, "HEAD")
    diverge(lib, "echo more >> alpha/SKILL.md && git rm -q beta/SKILL.md", "true")
    new = rev(lib, "main")
    blob = git("rev-parse", "main:alpha/SKILL.md", cwd=lib).stdout.strip().encode()
    assert list(diff.changed_files(store, old, new)) == [(b"alpha/SKILL.md", blob)]
    assert len(list(diff.changed_files(store, None, new))) == 3  # beta/SKILL.md went


def test_parent_folders_go_up_to_the_top() -> None:
    assert list(diff.parent_folders("a/b/c.md")) == ["a/b", "a"]
    assert list(diff.parent_folders("top.md")) == []
