"""store.branches: advancing a branch with its work tree, and publishing a commit on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.passes import commit
from support.repos import git
from support.stores import ARCHIVE_BETA

from gitcurator.errors import StoreError
from gitcurator.store import Store, branches


def test_advance_branch_moves_nothing_when_the_branch_moved_meanwhile(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = git("rev-parse", "HEAD", cwd=lib).stdout.strip().encode()
    os.system(f"cd '{lib}' && git checkout -q -b side && {ARCHIVE_BETA}")
    new = commit(lib, "archive", allow_empty=True).encode()
    git("checkout", "-q", "main", cwd=lib)
    other = commit(lib, "someone else", allow_empty=True).encode()  # main moved past `old`
    with pytest.raises(StoreError, match="moved"):
        branches.advance_branch(store, "main", old, new, "test")
    assert git("rev-parse", "main", cwd=lib).stdout.strip().encode() == other
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    # The ref moving between the work-tree update and the swap: the work tree goes back.
    real = store.repo.refs.set_if_equals
    monkeypatch.setattr(store.repo.refs, "set_if_equals", lambda *a, **k: False)
    with pytest.raises(StoreError, match="nothing was changed"):
        branches.advance_branch(store, "main", other, new, "test")
    monkeypatch.setattr(store.repo.refs, "set_if_equals", real)
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    assert (lib / "beta" / "SKILL.md").exists()
