"""store.index: the index git's hooks name, read once per change, and what is staged."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from dulwich.index import IndexEntry
from support.repos import git

from gitcurator.errors import StoreError
from gitcurator.store import Store, index


def test_git_s_temporary_index_is_the_one_read(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    alt = lib / ".git" / "hook-index"
    env = {**os.environ, "GIT_INDEX_FILE": str(alt)}
    (lib / "only-here.md").write_text("staged in the other index\n")
    subprocess.run(["git", "read-tree", "HEAD"], cwd=lib, env=env, check=True)
    subprocess.run(["git", "add", "only-here.md"], cwd=lib, env=env, check=True)
    assert "only-here.md" not in {p for p, _s, _m in index.staged_entries(store)}
    monkeypatch.setenv("GIT_INDEX_FILE", str(alt))
    staged = index.staged_tree(store)
    assert "only-here.md" in staged.paths
    assert staged.load("only-here.md").data == b"staged in the other index\n"


def test_the_cached_index_is_read_again_only_when_its_file_changed(lib: Path, store: Store) -> None:
    first = index.cached_index(store)
    assert index.cached_index(store) is first
    (lib / "new.md").write_text("new\n")
    git("add", "new.md", cwd=lib)
    again = index.cached_index(store)
    assert again is not first and b"new.md" in again


def test_stat_data_tells_an_untouched_file(lib: Path, store: Store) -> None:
    git("update-index", "--refresh", cwd=lib)
    entry = index.open_index(store)[b"alpha/SKILL.md"]
    assert isinstance(entry, IndexEntry)
    path = lib / "alpha" / "SKILL.md"
    assert index.stat_unchanged(entry, os.lstat(path))
    path.write_text(path.read_text() + "more\n")
    assert not index.stat_unchanged(entry, os.lstat(path))


def test_an_index_dulwich_cannot_read_is_named_with_its_fix(lib: Path, store: Store) -> None:
    # A split index (dulwich reads it as a checksum error) was an exit 3 for `list`.
    (lib / "more.md").write_text("more\n")
    git("add", "more.md", cwd=lib)
    git("update-index", "--split-index", cwd=lib)
    with pytest.raises(StoreError, match="--no-split-index"):
        index.open_index(store)
