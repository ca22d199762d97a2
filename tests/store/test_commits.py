"""store.commits: commit objects made with the store's signature, written and read."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git
from support.stores import rev, tree_of

from gitcurator.errors import StoreError
from gitcurator.store import Identity, Signature, Store, commits

SIGNED = Signature(Identity("Ada", "ada@example.com"), "@1767225600 +0000", "@1767229200 +0000")


def test_a_commit_carries_the_signature_and_git_reads_it(lib: Path) -> None:
    head = rev(lib, "HEAD")
    with Store.discover(lib, SIGNED) as store:
        made = commits.write_commit(store, tree_of(lib, "HEAD"), [head], "second\n\nbody\n")
    shown = git("log", "-1", "--format=%an <%ae>|%at|%cn|%ct|%P|%B", made.decode(), cwd=lib)
    assert shown.stdout.strip() == (
        f"Ada <ada@example.com>|1767225600|Ada|1767229200|{head.decode()}|second\n\nbody"
    )
    assert git("fsck", "--strict", cwd=lib).returncode == 0


def test_read_commit_gives_what_the_commands_need(lib: Path, store: Store) -> None:
    head = rev(lib, "HEAD")
    info = commits.read_commit(store, head)
    assert (info.id, info.parents, info.tree) == (head, (), tree_of(lib, "HEAD"))
    assert info.message == "start\n"
    assert info.time.endswith("Z")
    assert commits.commit_tree_of(store, head) == tree_of(lib, "HEAD")
    assert commits.commit_id(head.decode()) == head


def test_a_missing_object_or_a_tree_is_no_commit(lib: Path, store: Store) -> None:
    with pytest.raises(StoreError, match="is not in this repository"):
        commits.load_commit(store, b"0" * 40)
    with pytest.raises(StoreError, match="is not a commit"):
        commits.load_commit(store, tree_of(lib, "HEAD"))


def test_a_store_opened_only_to_read_refuses_to_commit(lib: Path) -> None:
    with Store.discover(lib) as store, pytest.raises(StoreError, match="without a commit identity"):
        commits.make_commit(store, tree_of(lib, "HEAD"), [], "no")
