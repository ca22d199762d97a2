"""store.transport: fetching refs by name and pushing by compare-and-swap, over a real remote."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

import pytest
from support.git_daemon import git_daemon
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


class _SmallSendBuffer(socket.socket):
    """A socket whose send buffer holds a few KB, as a slow link's fills: a large write
    to it is taken only in part."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)


def test_a_push_over_git_daemon_arrives_whole_when_the_socket_takes_writes_in_part(
    lib: Path, tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    served = tmp_path / "served"
    served.mkdir()
    bare = served / "r.git"
    git("clone", "-q", "--bare", str(lib), str(bare), cwd=tmp_path)
    # Incompressible files, so the pack is large and its gathered writes overflow the buffer.
    for i in range(40):
        (lib / f"noise-{i}.bin").write_bytes(os.urandom(16 * 1024))
    tip = commit(lib, "noise").encode()
    with git_daemon(served, push=True) as url:
        monkeypatch.setattr(socket, "socket", _SmallSendBuffer)
        conn = transport.Connection(store, Remote("d", f"{url}/r.git"), None)
        try:
            pushed = conn.push({b"refs/heads/noise": (None, tip)})
        finally:
            conn.close()
        monkeypatch.undo()
    assert pushed.updated == {b"refs/heads/noise"}
    assert git("rev-parse", "noise", cwd=bare).stdout.strip().encode() == tip
    fsck = git("fsck", "--strict", cwd=bare, check=False)
    assert fsck.returncode == 0, fsck.stderr
