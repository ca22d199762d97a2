"""Notes trees written by hand: a folder entry naming a blob, a keys folder naming a skill
twice. Each is a clear StoreError or a clean rewrite, never an internal error."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.repos import git, mktree, run_cli

from gitcurator.errors import StoreError
from gitcurator.store import ObjectID, Store
from gitcurator.store.diff import diff_trees
from gitcurator.store.notes import KEYS_DIR, NOTES_REF, notes_tip, read_notes, write_notes
from gitcurator.store.notes_diff import notes_keys


def _object(lib: Path, kind: str, data: bytes) -> str:
    done = subprocess.run(
        ["git", "hash-object", "-t", kind, "-w", "--literally", "--stdin"],
        cwd=lib,
        input=data,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode().strip()


def _notes_commit(lib: Path, tree: str) -> ObjectID:
    commit = git("commit-tree", tree, "-m", "by hand", cwd=lib).stdout.strip()
    git("update-ref", NOTES_REF.decode(), commit, cwd=lib)
    return ObjectID(commit.encode())


def _entry(mode: bytes, name: bytes, sha: str) -> bytes:
    return mode + b" " + name + b"\0" + bytes.fromhex(sha)


def test_a_keys_entry_naming_a_blob_is_a_store_error(lib: Path, store: Store) -> None:
    blob = _object(lib, "blob", b"not a folder\n")
    tree = _object(lib, "tree", _entry(b"40000", KEYS_DIR, blob))
    commit = _notes_commit(lib, tree)
    with pytest.raises(StoreError, match=f"{blob} as a folder, but it is a blob"):
        notes_keys(store, commit)
    with pytest.raises(StoreError, match="as a folder"):
        read_notes(store)
    with pytest.raises(StoreError, match="not a readable tree"):
        diff_trees(store, None, ObjectID(tree.encode()))


def test_a_keys_folder_naming_a_skill_twice_is_written_clean(lib: Path, store: Store) -> None:
    write_notes(store, notes_tip(store), {"one": b'{"version": 1}\n'}, "first\n")
    keys = git("rev-parse", f"{NOTES_REF.decode()}^{{tree}}:skills", cwd=lib).stdout.strip()
    key_blob = git("ls-tree", keys, cwd=lib).stdout.split()[2]
    other = _object(lib, "blob", b"another\n")
    doubled = _object(
        lib, "tree", _entry(b"100644", b"one", key_blob) + _entry(b"100644", b"one", other)
    )
    root = git("ls-tree", NOTES_REF.decode(), cwd=lib).stdout.splitlines()
    lines = [line for line in root if not line.endswith("\tskills")]
    lines.append(f"040000 tree {doubled}\tskills")
    tree = mktree(lib, lines)
    _notes_commit(lib, tree)
    write_notes(store, notes_tip(store), {"two": b'{"version": 1}\n'}, "second\n")
    listed = git("ls-tree", f"{NOTES_REF.decode()}:skills", cwd=lib).stdout.split("\n")
    names = [line.split("\t")[1] for line in listed if line]
    assert names == ["one", "two"]


def test_notes_folders_written_by_hand_read_as_git_orders_them(lib: Path, store: Store) -> None:
    note = _object(lib, "blob", b"{}\n")
    annotated = "ab" + "c" * 38
    folder = _object(lib, "tree", _entry(b"100644", b"c" * 38, note))
    other = _object(lib, "blob", b"kept\n")
    unreadable = _object(lib, "tree", _entry(b"100644", b"x.json", other))
    # Out of git's order, and an "other" folder holding a blob: each read by name.
    root = _entry(b"40000", b"unreadable", unreadable) + _entry(b"40000", b"ab", folder)
    _notes_commit(lib, _object(lib, "tree", root))
    state = read_notes(store)
    assert state.notes == {annotated: note.encode()}
    assert state.others == {b"unreadable/x.json": (0o100644, other.encode())}
    blob_folder = _object(lib, "tree", _entry(b"40000", b"cd", note))
    _notes_commit(lib, blob_folder)
    with pytest.raises(StoreError, match=f"{note} as a folder, but it is a blob"):
        read_notes(store)
    _notes_commit(lib, _object(lib, "tree", _entry(b"40000", b"unreadable", note)))
    with pytest.raises(StoreError, match="as a folder"):
        read_notes(store)  # an "other" folder naming a blob: no AssertionError (exit 3)


@pytest.mark.parametrize(
    "raw",
    [
        b"abc x\0" + b"\x11" * 20,  # a mode that is not octal
        b"100644 x\0" + b"\x11" * 7,  # an id cut short
        b"100644 ",  # a name with no end
    ],
)
def test_a_notes_folder_that_is_no_readable_tree_is_a_store_error(
    lib: Path, store: Store, raw: bytes
) -> None:
    bad = _object(lib, "tree", raw)
    # The folder itself, and one a fan-out entry names.
    for tree in (bad, _object(lib, "tree", _entry(b"40000", b"ab", bad))):
        _notes_commit(lib, tree)
        with pytest.raises(StoreError, match=f"{bad} is named as a folder but is not a readable"):
            read_notes(store)
    done = run_cli("list", "--json", cwd=lib)
    assert done.code == 1 and "git fsck" in done.err  # not an internal error (exit 3)
