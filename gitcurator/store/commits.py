"""Commit objects: made with the store's signature, written, read (no ref moves here)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from dulwich.objects import Commit, ObjectID

from gitcurator.errors import StoreError
from gitcurator.store.stale_locks import clears_stale_object_locks
from gitcurator.timeutil import format_time

if TYPE_CHECKING:
    from gitcurator.store.repository import Store
    from gitcurator.store.signature import Signature

CommitId = ObjectID
TreeId = ObjectID


@dataclass(frozen=True, slots=True)
class CommitInfo:
    """What the commands need of a commit."""

    id: CommitId
    parents: tuple[CommitId, ...]
    tree: TreeId
    time: str  # canonical UTC
    message: str


def signature_of(store: Store) -> Signature:
    """The signature the store was opened with (a store opened only to read has none)."""
    if store.signature is None:
        raise StoreError(
            f"{store.root} was opened without a commit identity; open it with "
            "gitcurator.library.open_store to commit"
        )
    return store.signature


def make_commit(store: Store, tree: TreeId, parents: list[CommitId], message: str) -> Commit:
    """An unstored commit with the store's signature (identity and dates)."""
    signature = signature_of(store)
    commit = Commit()
    commit.tree = tree
    commit.parents = parents
    commit.author = commit.committer = signature.identity.as_bytes()
    commit.author_time, commit.commit_time = signature.times()
    commit.author_timezone = commit.commit_timezone = 0
    commit.encoding = b"UTF-8"
    commit.message = message.encode("utf-8")
    return commit


@clears_stale_object_locks
def write_commit(store: Store, tree: TreeId, parents: list[CommitId], message: str) -> CommitId:
    """Store a commit object (no ref moves)."""
    commit = make_commit(store, tree, parents, message)
    store.repo.object_store.add_object(commit)
    return commit.id


def commit_id(hex_id: str) -> CommitId:
    """A commit id from its 40 hex digits (as history and trailers give them)."""
    return ObjectID(hex_id.encode("ascii"))


def load_commit(store: Store, sha: ObjectID) -> Commit:
    """The commit object `sha`, or StoreError saying it is missing or not a commit."""
    try:
        obj = store.repo[sha]
    except KeyError:
        raise StoreError(f"commit {sha.decode()[:12]} is not in this repository") from None
    if not isinstance(obj, Commit):
        raise StoreError(f"{sha.decode()[:12]} is not a commit")
    return obj


def commit_tree_of(store: Store, commit: CommitId) -> TreeId:
    """The root tree of a commit."""
    tree: TreeId = load_commit(store, commit).tree
    return tree


def read_commit(store: Store, sha: CommitId) -> CommitInfo:
    """A commit's facts."""
    obj = load_commit(store, sha)
    return CommitInfo(
        obj.id,
        tuple(obj.parents),
        obj.tree,
        format_time(datetime.fromtimestamp(obj.commit_time, UTC)),
        bytes(obj.message).decode("utf-8", "replace"),
    )
