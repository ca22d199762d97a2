"""store.index: the index git's hooks name, read once per change, and what is staged."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from dulwich.index import Index, IndexEntry
from support.repos import git

from gitcurator.errors import StoreError
from gitcurator.store import Store, index, staging


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


def _dulwich_bytes(written: Index, tmp: Path) -> bytes:
    copy = Index(tmp / "dulwich-index", read=False, version=written._version)
    copy._extensions = written._extensions
    for name, entry in written.items():
        copy[name] = entry
    copy.write()
    return (tmp / "dulwich-index").read_bytes()


def test_a_plain_index_is_written_as_dulwich_writes_it(
    lib: Path, store: Store, tmp_path: Path
) -> None:
    (lib / "long").mkdir()
    for n in range(1, 20):  # every padding length
        (lib / "long" / ("n" * n)).write_text(f"{n}\n")
    scan = staging.scan_worktree(store)
    staging.commit_scan(store, scan, "all")
    ours = (lib / ".git" / "index").read_bytes()
    assert ours == _dulwich_bytes(Index(lib / ".git" / "index"), tmp_path)
    assert git("status", "--porcelain", cwd=lib).stdout == ""


def test_an_index_with_more_than_entries_is_left_to_dulwich(lib: Path, store: Store) -> None:
    git("config", "index.version", "4", cwd=lib)
    git("add", "-A", cwd=lib)
    git("update-index", "--index-version", "4", cwd=lib)
    opened = index.open_index(store)
    assert index._plain_index_bytes(opened) is None
    index.write_cached_index(store, opened)
    assert (lib / ".git" / "index").read_bytes()[4:8] == b"\0\0\0\x04"
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    git("update-index", "--index-version", "2", cwd=lib)
    git("update-index", "--assume-unchanged", "alpha/SKILL.md", cwd=lib)
    flagged = index.open_index(store)
    assert index._plain_index_bytes(flagged) is None  # a flag dulwich keeps
