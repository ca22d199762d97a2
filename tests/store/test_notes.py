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


# Texts json.loads reads, refuses, or reads through another encoding: read_json_blobs must
# give each document json.loads gives, and leave every other text to the caller.
_TEXTS = [
    b'{"n": 1}\n',
    b'{\n  "a": [\n    1,\n\t2\r\n  ],\n  "s": "x\\ny: \\"z\\"  "\n}\n',  # as indented
    b'{"n": 1}  \r\n\t',
    b'{"s": "caf\xc3\xa9 \\ud800"}',  # an escaped lone surrogate json.loads keeps
    b"{}",
    b'{"n": 1} {"m": 2}',  # extra data
    b'{"n": 1',  # cut short
    b'{"n": NaN}',
    b"\xef\xbb\xbf{}",  # a UTF-8 BOM
    '{"n": 1}'.encode("utf-16-le"),
    b'{"s": "\xff"}',  # not UTF-8
    b"[1, 2]",
    b"null",
    b" {}",
    b"",
    b"{" * 100_000,
]


def test_json_blobs_are_read_as_json_loads_reads_them(store: Store) -> None:
    import json

    from dulwich.objects import Blob

    ids = []
    for text in _TEXTS:
        blob = Blob.from_string(text)
        store.repo.object_store.add_object(blob)
        ids.append(blob.id)
    docs, others = notes.read_json_blobs(store, ids)
    assert set(docs) | set(others) == set(ids) and not set(docs) & set(others)
    for blob_id, text in zip(ids, _TEXTS, strict=True):
        if blob_id in docs:
            doc, line = docs[blob_id]
            assert doc == json.loads(text) == json.loads(line) and "\n" not in line
        else:
            assert others[blob_id] == text
    assert {text for i, text in zip(ids, _TEXTS, strict=True) if i in docs} == {
        b'{"n": 1}\n',
        _TEXTS[1],
        b'{"n": 1}  \r\n\t',
        b'{"s": "caf\xc3\xa9 \\ud800"}',
        b"{}",
        b'{"n": NaN}',
    }
