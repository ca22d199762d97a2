"""store.notes_diff: what differs between two notes commits, as read_notes would read it."""

from __future__ import annotations

from dulwich.objects import Blob, Tree

from gitcurator.store import ObjectID, Store
from gitcurator.store.commits import make_commit
from gitcurator.store.notes import key_id, read_notes, write_notes
from gitcurator.store.notes_diff import notes_diff, notes_keys
from gitcurator.store.objects import FILE_MODE, TREE_MODE


def _write(
    store: Store, records: dict[str, bytes], keep: dict[bytes, bytes] | None = None
) -> ObjectID:
    return write_notes(store, read_notes(store), records, "notes", keep=keep)


def _blob(store: Store, data: bytes) -> ObjectID:
    blob = Blob.from_string(data)
    store.repo.object_store.add_object(blob)
    return ObjectID(blob.id)


def test_the_diff_names_every_entry_that_differs_with_both_versions(store: Store) -> None:
    old = _write(store, {f"s{i}": b"one %d\n" % i for i in range(300)})  # fanned out
    aside = _blob(store, b"kept aside\n")
    new = _write(
        store, {"s1": b"two\n", "s2": b"two\n", "new-skill": b"new\n"}, {b"unreadable/x": aside}
    )
    differs = notes_diff(store, old, new)
    assert differs is not None
    after = read_notes(store)
    store.repo.refs[b"refs/notes/old"] = old
    before = read_notes(store, b"refs/notes/old")
    expected = {
        a: (before.notes.get(a), after.notes.get(a))
        for a in set(before.notes) | set(after.notes)
        if before.notes.get(a) != after.notes.get(a)
    }
    assert differs.notes == expected and len(expected) == 3
    assert differs.keys == {"new-skill": (None, ObjectID(key_id("new-skill").encode()))}
    assert differs.others == {b"unreadable/x": (None, (FILE_MODE, aside))}
    assert notes_keys(store, new) == after.keys


def test_a_note_that_moves_into_the_fan_out_is_one_change(store: Store) -> None:
    old = _write(store, {f"s{i}": b"one\n" for i in range(200)})  # flat: 200 notes
    new = _write(store, {f"t{i}": b"one\n" for i in range(100)})  # 300: fanned out
    differs = notes_diff(store, old, new)
    assert differs is not None
    moved = differs.notes[key_id("s0")]
    assert moved[0] == moved[1] is not None, "the same blob at its old and its new path"
    assert sum(1 for was, now in differs.notes.values() if was is None) == 100


def test_a_tree_where_a_note_should_be_is_left_to_the_whole_read(store: Store) -> None:
    old = _write(store, {"s": b"one\n"})
    tree = store.repo[store.repo[old].tree]  # type: ignore[attr-defined]
    assert isinstance(tree, Tree)
    inner = Tree()
    inner.add(b"x", FILE_MODE, _blob(store, b"odd\n"))
    store.repo.object_store.add_object(inner)
    odd = Tree()
    for entry in tree.iteritems():
        odd.add(entry.path, entry.mode, entry.sha)
    odd.add(("a" * 40).encode(), TREE_MODE, inner.id)
    store.repo.object_store.add_object(odd)
    commit = make_commit(store, ObjectID(odd.id), [old], "odd")
    store.repo.object_store.add_object(commit)
    assert notes_diff(store, old, ObjectID(commit.id)) is None
