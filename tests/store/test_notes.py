"""store.notes: one note per skill in one notes commit, readable by git, moved by CAS."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.repos import git

from gitcurator.errors import StoreError
from gitcurator.store import Store, notes


def test_a_skill_s_key_is_the_blob_git_would_hash(lib: Path) -> None:
    done = subprocess.run(
        ["git", "hash-object", "--stdin"],
        input=notes.key_text("pdf-extract"),
        capture_output=True,
        cwd=lib,
        check=True,
    )
    assert notes.key_id("pdf-extract") == done.stdout.decode().strip()


def test_written_notes_read_back_and_git_shows_them(lib: Path, store: Store) -> None:
    assert notes.notes_commit(store) is None
    first = notes.write_notes(store, notes.read_notes(store), {"alpha": b'{"n": 1}\n'}, "one")
    state = notes.read_notes(store)
    assert state.commit == first and set(state.keys) == {"alpha"}
    shown = git("notes", "--ref=gitcurator", "show", notes.key_id("alpha"), cwd=lib).stdout
    assert shown == '{"n": 1}\n'
    second = notes.write_notes(store, state, {"beta": b"{}\n"}, "two")
    assert notes.recent_messages(store, second) == ["two", "one"]
    blobs = notes.read_blobs(store, list(notes.read_notes(store).notes.values()))
    assert sorted(blobs.values()) == [b'{"n": 1}\n', b"{}\n"]


def test_a_writer_that_lost_the_race_changes_nothing(lib: Path, store: Store) -> None:
    stale = notes.read_notes(store)
    notes.write_notes(store, stale, {"alpha": b"{}\n"}, "first writer")
    with pytest.raises(StoreError, match="moved while gitcurator was writing it"):
        notes.write_notes(store, stale, {"beta": b"{}\n"}, "second writer")
    assert set(notes.read_notes(store).keys) == {"alpha"}


def test_past_256_notes_the_tree_fans_out_as_git_s_does(lib: Path, store: Store) -> None:
    records = {f"skill-{n}": b"{}\n" for n in range(300)}
    notes.write_notes(store, notes.read_notes(store), records, "many")
    top = git("ls-tree", "--name-only", "refs/notes/gitcurator", cwd=lib).stdout.split()
    assert all(len(name) == 2 for name in top if name != "skills")
    assert len(notes.read_notes(store).notes) == 300
    listed = git("notes", "--ref=gitcurator", "list", cwd=lib).stdout.splitlines()
    assert len(listed) == 300
