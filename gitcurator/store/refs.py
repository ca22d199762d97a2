"""The local refs a sync moves and reads: compare-and-swap updates, mirrors of the remote,
and the graph and tree questions about them (dulwich only here and in the rest of store/)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from dulwich.file import FileLocked
from dulwich.graph import can_fast_forward
from dulwich.objects import ObjectID
from dulwich.refs import Ref

from gitcurator.errors import CuratorError
from gitcurator.store.branches import commit_tree_of
from gitcurator.store.repository import Store


def ref_value(store: Store, ref: bytes) -> ObjectID | None:
    """A local ref's value (None if absent)."""
    try:
        return store.repo.refs[Ref(ref)]
    except KeyError:
        return None


def move_ref(store: Store, ref: bytes, old: ObjectID | None, new: ObjectID) -> bool:
    """Compare-and-swap a local ref (old None: create only); False if someone moved it."""
    refs = store.repo.refs
    try:
        if old is None:
            return bool(refs.add_if_new(Ref(ref), new))
        return bool(refs.set_if_equals(Ref(ref), old, new))
    except FileLocked:
        return False  # plain git holds the ref's lock: as good as moved


def set_ref(store: Store, ref: bytes, new: ObjectID) -> None:
    """Set a local ref unconditionally (the side refs mirror the remote; they hold no work)."""
    try:
        store.repo.refs[Ref(ref)] = new
    except FileLocked:
        raise CuratorError(
            f"{ref.decode()} is locked by another git process; run `gitcurator sync` again"
        ) from None


def delete_ref(store: Store, ref: bytes) -> None:
    """Remove a local ref if it exists (only mirrors of the remote are removed this way)."""
    with contextlib.suppress(KeyError, FileLocked):
        del store.repo.refs[Ref(ref)]


def local_refs(store: Store, prefix: bytes) -> dict[bytes, ObjectID]:
    """Local refs under `prefix` (full names) and their values."""
    return {
        prefix + name: sha
        for name, sha in store.repo.refs.as_dict(Ref(prefix.rstrip(b"/"))).items()
    }


def is_ancestor(store: Store, ancestor: ObjectID, descendant: ObjectID) -> bool:
    """Whether `descendant`'s history contains `ancestor` (a fast-forward is possible).

    dulwich stops the walk at `ancestor`'s commit time, so a skewed clock can only make this
    say False (costing one merge commit more), never True wrongly.
    """
    return bool(can_fast_forward(store.repo, ancestor, descendant))


def changed_files(
    store: Store, old: ObjectID | None, new: ObjectID
) -> Iterator[tuple[bytes, ObjectID]]:
    """(path, blob id) of every file added or changed from commit `old`'s tree to `new`'s."""
    from dulwich.diff_tree import tree_changes

    old_tree = commit_tree_of(store, old) if old is not None else None
    for change in tree_changes(store.repo.object_store, old_tree, commit_tree_of(store, new)):
        if change.new is not None and change.new.path is not None and change.new.sha:
            yield change.new.path, change.new.sha


def object_kind(store: Store, sha: ObjectID) -> str:
    """'commit', 'tree', 'blob' or 'tag' (or 'missing')."""
    try:
        return str(store.repo[sha].type_name.decode())
    except KeyError:
        return "missing"
