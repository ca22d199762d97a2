"""store.notes_history: each notes commit with the notes it changed, newest first."""

from __future__ import annotations

from pathlib import Path

from gitcurator.store import Store, notes
from gitcurator.store.notes_history import notes_history


def test_each_commit_lists_only_the_notes_it_changed(lib: Path, store: Store) -> None:
    notes.write_notes(store, notes.read_notes(store), {"alpha": b"1", "beta": b"1"}, "one")
    second = notes.write_notes(store, notes.read_notes(store), {"beta": b"2"}, "two")
    found = notes_history(store, since="2000-01-01T00:00:00Z")
    assert found[0].commit == second.decode()
    newest, oldest = found
    assert [c.annotated for c in newest.changes] == [notes.key_id("beta")]
    assert newest.changes[0].before is not None  # beta had a note before
    assert sorted(c.annotated for c in oldest.changes) == sorted(
        [notes.key_id("alpha"), notes.key_id("beta")]
    )
    assert all(c.before is None for c in oldest.changes)
    blobs = notes.read_blobs(store, [newest.changes[0].after])
    assert list(blobs.values()) == [b"2"]


def test_known_commits_are_listed_undiffed_and_since_stops_the_walk(
    lib: Path, store: Store
) -> None:
    first = notes.write_notes(store, notes.read_notes(store), {"alpha": b"1"}, "one")
    notes.write_notes(store, notes.read_notes(store), {"alpha": b"2"}, "two")
    found = notes_history(store, since="2000-01-01T00:00:00Z", known={first.decode()})
    assert [len(c.changes) for c in found] == [1, 0]
    assert notes_history(store, since="2999-01-01T00:00:00Z") == []
    assert len(notes_history(store, since="2000-01-01T00:00:00Z", limit=1)) == 1


def test_no_notes_is_no_history(lib: Path, store: Store) -> None:
    assert notes_history(store, since="2000-01-01T00:00:00Z") == []
