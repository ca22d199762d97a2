"""store.checkout: the work tree and index following a tree change, touching what differs."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from support.passes import commit
from support.repos import git
from support.stores import ARCHIVE_BETA, tree_of

from gitcurator.store import Store, checkout, worktree_status


def test_sync_worktree_writes_only_what_changed_with_modes_and_links(
    lib: Path, store: Store
) -> None:
    old = tree_of(lib, "HEAD")
    keep = lib / "devops" / "gamma" / "SKILL.md"
    keep_stat = os.stat(keep)
    git("checkout", "-q", "-b", "other", cwd=lib)
    os.system(f"cd '{lib}' && {ARCHIVE_BETA}")
    (lib / "alpha" / "run.sh").write_text("#!/bin/sh\n")
    (lib / "alpha" / "run.sh").chmod(0o755)
    (lib / "alpha" / "link").symlink_to("run.sh")
    commit(lib, "changes", allow_empty=True)
    new = tree_of(lib, "HEAD")
    git("checkout", "-q", "main", cwd=lib)
    git("symbolic-ref", "HEAD", "refs/heads/other", cwd=lib)  # as if the ref had moved
    checkout.sync_worktree(store, old, new)
    assert not (lib / "beta").exists()  # the emptied folder went too
    assert (lib / ".archive" / "beta" / "references" / "notes.md").read_text() == "notes\n"
    assert os.stat(lib / "alpha" / "run.sh").st_mode & stat.S_IXUSR
    assert os.readlink(lib / "alpha" / "link") == "run.sh"
    assert os.stat(keep).st_ino == keep_stat.st_ino and os.stat(keep).st_mtime_ns == (
        keep_stat.st_mtime_ns
    )
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    assert worktree_status.dirty_paths(store) == []
