"""store.kept_objects: within a sync each object is read from the packs once (up to a bound),
and the store reads as before afterwards."""

from __future__ import annotations

import pytest
from dulwich.objects import Blob, Tree

from gitcurator.store import Store, kept_objects
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


def test_an_object_is_read_once(store: Store) -> None:
    blob, tree = _stored(store)
    asked = _counting(store)
    objects = store.repo.object_store
    with kept_objects.objects_kept(objects):
        for _ in range(3):
            assert objects.get_raw(tree.id) == (Tree.type_num, tree.as_raw_string())
            assert objects.get_raw(blob.id) == (Blob.type_num, blob.as_raw_string())
    assert asked.count(tree.id) == 1
    assert asked.count(blob.id) == 1
    objects.get_raw(tree.id)
    assert asked.count(tree.id) == 2, "after the block, the store reads as before"


@pytest.mark.parametrize("bound", ["KEPT_BYTES", "LARGEST_KEPT"])
def test_an_object_past_a_bound_is_read_again(
    store: Store, monkeypatch: pytest.MonkeyPatch, bound: str
) -> None:
    _, tree = _stored(store)
    monkeypatch.setattr(kept_objects, bound, 1)
    asked = _counting(store)
    objects = store.repo.object_store
    with kept_objects.objects_kept(objects):
        objects.get_raw(tree.id)
        objects.get_raw(tree.id)
    assert asked.count(tree.id) == 2


def test_a_missing_object_stays_missing_and_the_reader_is_restored(store: Store) -> None:
    objects = store.repo.object_store
    before = objects.get_raw
    with pytest.raises(KeyError), kept_objects.objects_kept(objects):
        objects.get_raw(b"0" * 40)
    assert objects.get_raw == before
