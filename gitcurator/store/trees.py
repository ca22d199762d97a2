"""Trees in the object store: listed (cached), looked into, and edited into new trees.

A curator pass never touches the index or the work tree to change files: it edits trees here
(moving a skill is "remove x, add .archive/x with the same subtree", what `git mv` records)
and commits them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.object_store import commit_tree_changes
from dulwich.objects import Blob, ObjectID, Tree

from gitcurator.errors import StoreError
from gitcurator.statefiles import TREE_CACHE, read_json, write_cache_json
from gitcurator.store.commits import CommitId, TreeId, commit_tree_of
from gitcurator.store.diff import Entry, diff_trees
from gitcurator.store.objects import FILE_MODE, TREE_MODE
from gitcurator.store.paths import git_path
from gitcurator.store.stale_locks import clears_stale_object_locks

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

_Edit = tuple[bytes, int | None, ObjectID | None]  # (path, mode, id); None, None removes


def tree_entries(store: Store, tree: TreeId) -> dict[str, Entry]:
    """path -> (blob id, mode) of every file under `tree`.

    Reading 10,000 skill folders costs 20,000 tree objects (seconds in dulwich), so the
    listing of the last tree asked for is cached in .git/ and moved to a new tree by
    diffing the two, which only descends into the folders that changed.
    """
    common = store.repo.commondir()
    # A tree id names its content: a listing read once serves the process (list reads HEAD's
    # three times), handed out as a copy since callers may edit theirs.
    known = _LISTED.get((common, tree))
    if known is not None:
        return dict(known)
    cache = store.state_dir() / TREE_CACHE
    old_tree, entries = _read_tree_cache(cache)
    if old_tree == tree.decode():
        _remember(common, tree, entries)
        return dict(entries)
    # A cache of a tree this store lacks (copied or linked from another clone) is no base.
    if old_tree is not None and ObjectID(old_tree.encode()) not in store.repo.object_store:
        old_tree = None
    if old_tree is None:
        # The differ parses raw trees: no Tree objects, half iter_tree_contents' cost.
        listing = diff_trees(store, None, tree).files
        entries = {path: after for path, (_, after) in listing.items() if after is not None}
    else:
        for path, (_, after) in diff_trees(store, ObjectID(old_tree.encode()), tree).files.items():
            if after is None:
                entries.pop(path, None)
            else:
                entries[path] = after
    _write_tree_cache(cache, tree.decode(), entries)
    _remember(common, tree, entries)
    return dict(entries)


# (common dir, tree id) -> its listing; one at a time, as the file cache holds one.
_LISTED: dict[tuple[str, TreeId], dict[str, Entry]] = {}


def _remember(common: str, tree: TreeId, entries: dict[str, Entry]) -> None:
    _LISTED.clear()
    _LISTED[(common, tree)] = dict(entries)


def remember_tree_entries(store: Store, tree: TreeId, entries: dict[str, Entry]) -> None:
    """Keep `entries` as tree_entries' listing of `tree`, for a caller that built the tree
    from them (init: reading back the 20,000 trees it just wrote would cost seconds)."""
    common = store.repo.commondir()
    _write_tree_cache(store.state_dir() / TREE_CACHE, tree.decode(), entries)
    _remember(common, tree, entries)  # and this process asks again at once (its names)


def _read_tree_cache(path: Path) -> tuple[str | None, dict[str, Entry]]:
    """The cached tree id and listing; (None, {}) for a file of any other shape (a number
    or a non-hex string where an id belongs would fail deep in dulwich: an exit 3)."""
    doc = read_json(path)
    try:
        tree, listed = doc["tree"], doc["entries"]
        values = list(listed.values())
    except (KeyError, TypeError, AttributeError):
        return None, {}
    if type(tree) is not str or _HEX_ID.fullmatch(tree) is None:
        return None, {}
    if not values:
        return tree, {}
    # Checked a column at a time (JSON keys are always strings): 20,000 entries in a few
    # milliseconds, a third of checking them one by one.
    if set(map(type, values)) != {list} or set(map(len, values)) != {2}:
        return None, {}
    ids, modes = [v[0] for v in values], [v[1] for v in values]
    if set(map(type, ids)) != {str} or set(map(len, ids)) != {len(tree)}:
        return None, {}
    if set(map(type, modes)) != {int}:
        return None, {}
    joined = "".join(ids)
    # Every character a lower-case hex digit: deleted by bytes.translate, nothing is left
    # (a regex over the 800 KB of ids took 16 ms).
    if not joined.isascii() or joined.encode().translate(None, _HEX_DIGITS):
        return None, {}
    blobs: list[ObjectID] = list(map(str.encode, ids))  # type: ignore[arg-type]
    return tree, dict(zip(listed, zip(blobs, modes, strict=True), strict=True))


_HEX_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_HEX_DIGITS = b"0123456789abcdef"


def _write_tree_cache(path: Path, tree: str, entries: dict[str, Entry]) -> None:
    write_cache_json(
        path, {"tree": tree, "entries": {p: (s.decode(), m) for p, (s, m) in entries.items()}}
    )


def subtree_id(
    store: Store, tree: TreeId, path: str, parsed: dict[ObjectID, Tree] | None = None
) -> TreeId | None:
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
            mode, sha = obj[git_path(part)]
        except KeyError:
            return None
        if mode != TREE_MODE:
            return None
        current = sha
    return current


def file_at(store: Store, commit: CommitId, path: str) -> bytes | None:
    """The content of `path` in `commit`'s tree (None if absent or not a file)."""
    folder, _, name = path.rpartition("/")
    tree = commit_tree_of(store, commit)
    parent = subtree_id(store, tree, folder) if folder else tree
    if parent is None:
        return None
    obj = store.repo[parent]
    if not isinstance(obj, Tree) or git_path(name) not in obj:
        return None
    mode, sha = obj[git_path(name)]
    if mode == TREE_MODE:
        return None
    return bytes(store.repo[sha].as_raw_string())


@clears_stale_object_locks
def edit_tree(
    store: Store,
    tree: TreeId,
    moves: Sequence[tuple[str, str]] = (),
    files: Mapping[str, bytes] = {},
    copies: Mapping[str, Entry] = {},
) -> TreeId:
    """`tree` with folders moved (from, to) whole, files written (mode 100644) and stored
    blobs placed at new paths with their modes, as a new tree id."""
    changes: list[_Edit] = []
    parsed: dict[ObjectID, Tree] = {}
    for source, target in moves:
        folder = subtree_id(store, tree, source, parsed)
        if folder is None:
            raise StoreError(f"cannot move {source}: no such folder in the tree")
        changes.append((git_path(source), None, None))
        changes.append((git_path(target), TREE_MODE, folder))
    for path, data in files.items():
        blob = Blob.from_string(data)
        store.repo.object_store.add_object(blob)
        changes.append((git_path(path), FILE_MODE, blob.id))
    for path, (sha, mode) in copies.items():
        changes.append((git_path(path), mode, sha))
    return commit_tree_changes(store.repo.object_store, tree, changes)


@clears_stale_object_locks
def replace_paths(store: Store, tree: TreeId, edits: Iterable[tuple[str, Entry | None]]) -> TreeId:
    """`tree` with paths set to stored entries or (None) removed whole; removals go first, so
    a file may become a folder."""
    removals: list[_Edit] = []
    writes: list[_Edit] = []
    for path, entry in edits:
        key = git_path(path)
        if entry is None:
            removals.append((key, None, None))
        else:
            writes.append((key, entry[1], entry[0]))
    objects = store.repo.object_store
    if removals:
        tree = commit_tree_changes(objects, tree, removals)
    if writes:
        tree = commit_tree_changes(objects, tree, writes)
    return tree


def remove_folders(store: Store, tree: TreeId, folders: Iterable[str]) -> TreeId:
    """`tree` without these folders (each removed whole; parents left empty go too)."""
    return replace_paths(store, tree, [(f, None) for f in folders])
