"""store.transport: fetching refs by name and pushing by compare-and-swap, over a real remote."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.passes import commit
from support.repos import git
from support.stores import rev

from gitcurator.store import Store, transport
from gitcurator.store.remote import Remote, RemoteError


@pytest.fixture
def bare(lib: Path, tmp_path: Path) -> Path:
    """A bare clone of `lib` with one commit more on main than `lib` has."""
    path = tmp_path / "remote.git"
    git("clone", "-q", "--bare", str(lib), str(path), cwd=tmp_path)
    work = tmp_path / "work"
    git("clone", "-q", str(path), str(work), cwd=tmp_path)
    (work / "more.md").write_text("more\n")
    commit(work, "more")
    git("push", "-q", "origin", "main", cwd=work)
    return path


def test_fetch_brings_the_objects_of_the_wanted_refs_only(bare: Path, store: Store) -> None:
    conn = transport.Connection(store, Remote("r", str(bare)), None)
    try:
        fetched = conn.fetch(lambda ref: ref == b"refs/heads/main")
    finally:
        conn.close()
    tip = fetched.refs[b"refs/heads/main"]
    assert fetched.pack_bytes > 0 and tip in store.repo.object_store
    assert store.branch_tip("main") != tip, "no local ref moved"


def test_a_push_lands_only_where_the_remote_holds_the_old_value(
    lib: Path, bare: Path, store: Store
) -> None:
    mine = rev(lib, "HEAD")
    remote_main = git("rev-parse", "main", cwd=bare).stdout.strip().encode()
    conn = transport.Connection(store, Remote("r", str(bare)), None)
    try:
        pushed = conn.push({b"refs/heads/new": (None, mine), b"refs/heads/main": (mine, mine)})
    finally:
        conn.close()
    assert pushed.updated == {b"refs/heads/new"}
    assert pushed.moved == {b"refs/heads/main"}, "main moved there: refused, not forced"
    assert git("rev-parse", "main", cwd=bare).stdout.strip().encode() == remote_main


def test_a_remote_that_is_not_a_repository_is_one_error_naming_it(
    tmp_path: Path, store: Store
) -> None:
    (tmp_path / "empty").mkdir()
    conn = transport.Connection(store, Remote("nowhere", str(tmp_path / "empty")), None)
    with pytest.raises(RemoteError, match="cannot fetch from remote nowhere"):
        conn.fetch(lambda ref: True)
