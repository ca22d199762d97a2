"""store.worktree_status: uncommitted changes and untracked files in the way of a tree change."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from support.repos import git
from support.stores import ARCHIVE_BETA, diverge

from gitcurator.errors import StoreError
from gitcurator.store import Store, worktree_status


def test_dirty_paths_sees_staged_unstaged_mode_and_deleted_changes(lib: Path, store: Store) -> None:
    assert worktree_status.dirty_paths(store) == []
    (lib / "alpha" / "SKILL.md").write_text("changed\n")
    (lib / "beta" / "references" / "notes.md").chmod(0o755)
    (lib / "devops" / "gamma" / "SKILL.md").unlink()
    (lib / "staged.md").write_text("new\n")
    git("add", "staged.md", cwd=lib)
    (lib / "untracked.md").write_text("not ours to judge\n")
    assert worktree_status.dirty_paths(store) == [
        "alpha/SKILL.md",
        "beta/references/notes.md",
        "devops/gamma/SKILL.md",
        "staged.md",
    ]
    assert worktree_status.dirty_paths(store, {"beta"}) == ["beta/references/notes.md"]
    assert worktree_status.dirty_paths(store, {"devops"}) == ["devops/gamma/SKILL.md"]


def test_a_same_size_edit_right_after_the_index_was_written_is_seen(
    lib: Path, store: Store
) -> None:
    path = lib / "alpha" / "SKILL.md"
    data = path.read_bytes()
    git("update-index", "--refresh", cwd=lib)
    path.write_bytes(data.replace(b"Steps", b"STEPS"))  # same size, same second
    assert worktree_status.dirty_paths(store) == ["alpha/SKILL.md"]


def test_in_the_way_names_untracked_files_a_move_would_overwrite_or_strand(
    lib: Path, store: Store
) -> None:
    base, _mine, theirs = diverge(lib, "true", ARCHIVE_BETA)
    assert worktree_status.in_the_way(store, base, theirs) == []
    (lib / ".archive").mkdir()
    (lib / ".archive" / "beta").write_text("a file where a folder goes\n")
    (lib / "beta" / "draft.md").write_text("left behind\n")
    (lib / ".gitignore").write_text("*.pyc\n")
    (lib / "beta" / "cache.pyc").write_text("ignored\n")
    assert worktree_status.in_the_way(store, base, theirs) == [".archive/beta", "beta/draft.md"]


def test_refusals_name_the_paths_and_only_the_checked_out_branch_is_checked(
    lib: Path, store: Store
) -> None:
    base, _mine, theirs = diverge(lib, "true", ARCHIVE_BETA)
    (lib / "beta" / "draft.md").write_text("left behind\n")
    with pytest.raises(StoreError, match=r"untracked files are in the way \(beta/draft.md\)"):
        worktree_status.refuse_unless_clean(store, "main", base, theirs, "archive beta")
    worktree_status.refuse_unless_clean(store, "theirs", base, theirs, "archive beta")
    (lib / "alpha" / "SKILL.md").write_text("edited\n")
    with pytest.raises(StoreError, match=r"uncommitted changes \(alpha/SKILL.md\)"):
        worktree_status.refuse_unless_clean(store, "main", base, theirs, "archive beta")
    # Limited to the folders a move touches, an edit elsewhere is no obstacle.
    (lib / "beta" / "draft.md").unlink()
    worktree_status.refuse_unless_clean(store, "main", base, theirs, "archive beta", {"beta"})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_tracked_file_replaced_by_a_fifo_is_a_change_and_is_never_read(
    lib: Path, store: Store
) -> None:
    # git calls it modified; reading it for its hash waited for a writer for good, inside
    # archive's deferred interrupts, so neither Ctrl-C nor SIGTERM ended `archive beta`.
    path = lib / "alpha" / "SKILL.md"
    path.unlink()
    os.mkfifo(path)
    git("update-index", "--refresh", cwd=lib, check=False)

    def stuck(signum: int, frame: object) -> None:
        raise TimeoutError("dirty_paths opened the FIFO")

    before = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(10)
    try:
        assert worktree_status.dirty_paths(store) == ["alpha/SKILL.md"]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
