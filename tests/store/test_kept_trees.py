"""store.kept_trees: within a command each tree is read from the packs once, blobs every time,
and the store reads as before afterwards."""

from __future__ import annotations

import pytest
from dulwich.objects import Blob, Tree

from gitcurator.store import Store, kept_trees
from gitcurator.store.objects import ObjectBatch


def _stored(store: Store) -> tuple[Blob, Tree]:
    blob = Blob.from_string(b"a record\n")
    tree = Tree()
    tree.add(b"note", 0o100644, blob.id)
    batch = ObjectBatch()
    batch.add_object(blob)
    batch.add_object(tree)
    batch.store_in(store)
    return blob, tree


def _counting(store: Store) -> list[bytes]:
    """Every name the store's reader is asked for, from now on."""
    objects = store.repo.object_store
    read = objects.get_raw
    asked: list[bytes] = []

    def get_raw(name: bytes) -> tuple[int, bytes]:
        asked.append(name)
        return read(name)  # type: ignore[arg-type]

    objects.get_raw = get_raw  # type: ignore[assignment,method-assign]
    return asked


def test_a_tree_is_read_once_and_a_blob_each_time(store: Store) -> None:
    blob, tree = _stored(store)
    asked = _counting(store)
    objects = store.repo.object_store
    with kept_trees.trees_kept(objects):
        for _ in range(3):
            assert objects.get_raw(tree.id) == (Tree.type_num, tree.as_raw_string())
            assert objects.get_raw(blob.id) == (Blob.type_num, blob.as_raw_string())
    assert asked.count(tree.id) == 1
    assert asked.count(blob.id) == 3
    objects.get_raw(tree.id)
    assert asked.count(tree.id) == 2, "after the block, the store reads as before"


def test_a_tree_past_the_bound_is_read_again(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _, tree = _stored(store)
    monkeypatch.setattr(kept_trees, "KEPT_BYTES", 1)
    asked = _counting(store)
    objects = store.repo.object_store
    with kept_trees.trees_kept(objects):
        objects.get_raw(tree.id)
        objects.get_raw(tree.id)
    assert asked.count(tree.id) == 2


def test_a_missing_object_stays_missing_and_the_reader_is_restored(store: Store) -> None:
    objects = store.repo.object_store
    before = objects.get_raw
    with pytest.raises(KeyError), kept_trees.trees_kept(objects):
        objects.get_raw(b"0" * 40)
    assert objects.get_raw == before
