"""Commits built in the object store alone, and branches created atomically.

A curator pass never touches the index or the work tree: it edits trees in the object store
(moving a skill is "remove x, add .archive/x with the same subtree"), writes commits, and
publishes them by creating one branch ref with compare-and-swap. Until that ref exists the
objects are unreachable garbage, so a pass killed at any point leaves every ref as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dulwich.object_store import commit_tree_changes
from dulwich.objects import Blob, Commit, ObjectID, Tree
from dulwich.refs import Ref

from gitcurator.errors import StoreError
from gitcurator.store.repository import Store

_TREE_MODE = 0o040000
_FILE_MODE = 0o100644


def subtree_id(
    store: Store, tree: ObjectID, path: str, parsed: dict[ObjectID, Tree] | None = None
) -> ObjectID | None:
    """The id of the folder `path` inside `tree` (None if absent or not a folder).

    `parsed` caches trees across calls: moving 1,000 skills out of a category folder of
    1,400 entries would otherwise parse that folder 1,000 times.
    """
    parsed = {} if parsed is None else parsed
    current = tree
    for part in path.split("/"):
        obj = parsed.get(current)
        if obj is None:
            loaded = store.repo[current]
            if not isinstance(loaded, Tree):
                return None
            obj = parsed[current] = loaded
        try:
            mode, sha = obj[part.encode()]
        except KeyError:
            return None
        if mode != _TREE_MODE:
            return None
        current = sha
    return current


def edit_tree(
    store: Store,
    tree: ObjectID,
    moves: Sequence[tuple[str, str]] = (),
    files: Mapping[str, bytes] = {},
    copies: Mapping[str, tuple[ObjectID, int]] = {},
) -> ObjectID:
    """`tree` with folders moved (from, to) whole, files written (mode 100644) and stored
    blobs placed at new paths with their modes, as a new tree id."""
    changes: list[tuple[bytes, int | None, ObjectID | None]] = []
    parsed: dict[ObjectID, Tree] = {}
    for source, target in moves:
        folder = subtree_id(store, tree, source, parsed)
        if folder is None:
            raise StoreError(f"cannot move {source}: no such folder in the tree")
        changes.append((source.encode(), None, None))
        changes.append((target.encode(), _TREE_MODE, folder))
    for path, data in files.items():
        blob = Blob.from_string(data)
        store.repo.object_store.add_object(blob)
        changes.append((path.encode(), _FILE_MODE, blob.id))
    for path, (sha, mode) in copies.items():
        changes.append((path.encode(), mode, sha))
    return commit_tree_changes(store.repo.object_store, tree, changes)


def write_commit(store: Store, tree: ObjectID, parents: list[ObjectID], message: str) -> ObjectID:
    """Store a commit object (no ref moves)."""
    commit: Commit = store.make_commit(tree, parents, message)
    store.repo.object_store.add_object(commit)
    return commit.id


def commit_tree_of(store: Store, commit: ObjectID) -> ObjectID:
    """The root tree of a commit."""
    obj = store.repo[commit]
    if not isinstance(obj, Commit):
        raise StoreError(f"{commit.decode()} is not a commit")
    tree: ObjectID = obj.tree
    return tree


def create_branch(store: Store, name: str, commit: ObjectID) -> bool:
    """Create refs/heads/<name> at `commit` only if it does not exist yet."""
    return bool(store.repo.refs.add_if_new(Ref(f"refs/heads/{name}".encode()), commit))


def branch_names(store: Store, prefix: str) -> list[str]:
    """Local branch names starting with `prefix` (e.g. 'curator/')."""
    names = store.repo.refs.keys(base=Ref(b"refs/heads/" + prefix.encode()))
    return sorted(prefix + n.decode() for n in names)


def file_at(store: Store, commit: ObjectID, path: str) -> bytes | None:
    """The content of `path` in `commit`'s tree (None if absent or not a file)."""
    folder, _, name = path.rpartition("/")
    tree = commit_tree_of(store, commit)
    parent = subtree_id(store, tree, folder) if folder else tree
    if parent is None:
        return None
    obj = store.repo[parent]
    if not isinstance(obj, Tree) or name.encode() not in obj:
        return None
    mode, sha = obj[name.encode()]
    if mode == _TREE_MODE:
        return None
    return bytes(store.repo[sha].as_raw_string())
