"""store.tree_merge: file-level three-way merges and reverts, computed in memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.passes import commit
from support.repos import git
from support.stores import ARCHIVE_BETA, diverge, tree_of

from gitcurator.errors import StoreError
from gitcurator.store import Store, tree_merge


@pytest.mark.parametrize(
    ("ours", "conflicts"),
    [
        ("echo more >> beta/SKILL.md", ["beta/SKILL.md"]),
        ("git rm -q beta/SKILL.md", ["beta/SKILL.md"]),
        ("git rm -rq beta", ["beta/SKILL.md", "beta/references/notes.md"]),
        ("echo new > beta/references/new.md", ["beta/references/new.md"]),
        ("chmod +x beta/references/notes.md", ["beta/references/notes.md"]),
    ],
    ids=["edit", "delete-file", "delete-skill", "add-file", "chmod"],
)
def test_a_persons_change_inside_a_folder_the_other_side_moved_is_a_conflict_naming_it(
    lib: Path, store: Store, ours: str, conflicts: list[str]
) -> None:
    base, mine, theirs = diverge(lib, ours, ARCHIVE_BETA)
    result = tree_merge.three_way(store, base, mine, theirs)
    assert result.tree is None
    assert list(result.conflicts) == conflicts


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("echo more >> alpha/SKILL.md", ARCHIVE_BETA),
        ("mkdir -p x && echo new > x/file.md", ARCHIVE_BETA),
        ("git rm -rq devops", ARCHIVE_BETA),
        (ARCHIVE_BETA, ARCHIVE_BETA),  # the same move on both sides
        ("echo same >> alpha/SKILL.md", "echo same >> alpha/SKILL.md"),
        ("ln -s ../alpha/SKILL.md devops/link", "chmod +x beta/references/notes.md"),
    ],
    ids=["unrelated-edit", "new-folder", "unrelated-removal", "same-move", "same-edit", "modes"],
)
def test_clean_merges_give_the_tree_git_gives(
    lib: Path, store: Store, ours: str, theirs: str
) -> None:
    base, mine, other = diverge(lib, ours, theirs)
    result = tree_merge.three_way(store, base, mine, other)
    assert result.conflicts == ()
    expected = git("merge-tree", "--write-tree", "main", "theirs", cwd=lib).stdout.split()[0]
    assert result.tree == expected.encode()


def test_a_folder_becoming_a_file_on_one_side_and_growing_on_the_other_conflicts(
    lib: Path, store: Store
) -> None:
    base, mine, theirs = diverge(
        lib, "echo x > alpha/extra.md", "git rm -rq alpha && echo file > alpha"
    )
    result = tree_merge.three_way(store, base, mine, theirs)
    assert "alpha/extra.md" in result.conflicts


def test_revert_undoes_a_move_and_refuses_when_the_moved_file_changed_since(
    lib: Path, store: Store
) -> None:
    before = tree_of(lib, "HEAD")
    os.system(f"cd '{lib}' && {ARCHIVE_BETA}")
    moved = commit(lib, "archive beta", allow_empty=True).encode()
    (lib / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: d\n---\nedited\n")
    commit(lib, "unrelated", allow_empty=True)
    undone = tree_merge.revert_tree(store, moved, tree_of(lib, "HEAD"))
    assert undone.tree is not None
    alpha = git("rev-parse", "HEAD:alpha", cwd=lib).stdout.strip()
    assert git("rev-parse", f"{undone.tree.decode()}:alpha", cwd=lib).stdout.strip() == alpha
    assert git("rev-parse", f"{undone.tree.decode()}:beta", cwd=lib).stdout.strip() == (
        git("rev-parse", f"{before.decode()}:beta", cwd=lib).stdout.strip()
    )
    (lib / ".archive" / "beta" / "SKILL.md").write_text("edited in the archive\n")
    commit(lib, "edit the archived copy", allow_empty=True)
    blocked = tree_merge.revert_tree(store, moved, tree_of(lib, "HEAD"))
    assert blocked.tree is None and blocked.conflicts == (".archive/beta/SKILL.md",)
    with pytest.raises(StoreError, match="merge or a root"):
        tree_merge.revert_tree(
            store,
            git("rev-list", "--max-parents=0", "HEAD", cwd=lib).stdout.strip().encode(),
            tree_of(lib, "HEAD"),
        )
