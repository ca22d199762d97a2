"""store.notes_tree_cache: the folders a notes write kept are used by the next write only when
they hash to the ids asked for; a stale, forged, damaged, linked or unwritable cache changes
no tree (every write below is compared with the full rebuild of the same notes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.read_only import refuse_opening_in
from support.repos import git

from gitcurator.statefiles import NOTES_TREES_CACHE, state_folder
from gitcurator.store import Store, notes
from gitcurator.store.notes_tree_cache import _ENTRY, _MAGIC, keep, kept, read_kept
from gitcurator.store.objects import ObjectBatch

POOL = [f"skill-{i:03d}" for i in range(300)]  # past the fan-out threshold


def _doc(name: str, n: int) -> bytes:
    return b'{"skill": "%s", "n": %d}\n' % (name.encode(), n)


def _cache(lib: Path) -> Path:
    return state_folder(lib / ".git") / NOTES_TREES_CACHE


def _write_and_compare(store: Store, records: dict[str, bytes]) -> bytes:
    """Write `records` by the edit, and check it is the tree a full rebuild writes."""
    expected = notes._rebuilt(notes.read_notes(store), records, None, ObjectBatch())
    commit = notes.write_notes(store, notes.notes_tip(store), records, "edit\n")
    tree = bytes(store.repo[commit].tree)  # type: ignore[attr-defined]
    assert tree == expected
    return tree


@pytest.fixture
def seeded(lib: Path, store: Store) -> Store:
    notes.write_notes(store, notes.read_notes(store), {n: _doc(n, 0) for n in POOL}, "seed\n")
    _write_and_compare(store, {POOL[0]: _doc(POOL[0], 1)})  # an edit: the cache is written
    assert read_kept(store), "the edit kept its folders"
    return store


def _folders(store: Store) -> set[bytes]:
    root = store.repo[store.repo[notes.notes_commit(store)].tree]  # type: ignore[attr-defined]
    return {entry.sha for entry in root.iteritems() if entry.mode == 0o040000}


def test_the_kept_folders_are_the_trees_of_the_notes_tip(lib: Path, seeded: Store) -> None:
    assert set(read_kept(seeded)) < _folders(seeded), "the folders that edit read or wrote"
    _write_and_compare(seeded, {n: _doc(n, 1) for n in POOL})
    assert set(read_kept(seeded)) == _folders(seeded)
    _write_and_compare(seeded, {POOL[1]: _doc(POOL[1], 2)})
    trees = read_kept(seeded)
    assert set(trees) == _folders(seeded), "the folders not read this time are kept too"
    for tree_id, raw in trees.items():
        assert kept(trees, tree_id) == raw
        assert seeded.repo.object_store.get_raw(tree_id) == (2, raw)


def test_the_next_edit_reads_its_folders_from_the_cache(
    lib: Path, seeded: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[bytes] = []
    real = seeded.repo.object_store.get_raw

    def counting(sha: bytes) -> tuple[int, bytes]:
        read.append(sha)
        return real(sha)  # type: ignore[arg-type]

    _write_and_compare(seeded, {n: _doc(n, 1) for n in POOL})
    records = {n: _doc(n, 2) for n in POOL[:200]}
    expected = notes._rebuilt(notes.read_notes(seeded), records, None, ObjectBatch())
    folders = _folders(seeded)
    monkeypatch.setattr(seeded.repo.object_store, "get_raw", counting)
    commit = notes.write_notes(seeded, notes.notes_tip(seeded), records, "edit\n")
    assert read and not folders & set(read), "the commit and its root, none of its folders"
    assert bytes(seeded.repo[commit].tree) == expected  # type: ignore[attr-defined]


def test_notes_changed_by_git_behind_our_back_are_not_hidden_by_the_cache(
    lib: Path, seeded: Store
) -> None:
    # plain git rewrites a note: the folder holding it changes id, the kept copy is stale
    key = notes.key_id(POOL[5])
    git("notes", "--ref=gitcurator", "add", "-f", "-m", "by git", key, cwd=lib)
    _write_and_compare(seeded, {POOL[6]: _doc(POOL[6], 3)})
    assert git("notes", "--ref=gitcurator", "show", key, cwd=lib).stdout == "by git\n"


def _forged(trees: dict[bytes, bytes]) -> bytes:
    """The cache with every tree's content swapped for another's, ids kept."""
    ids, raws = list(trees), list(trees.values())
    parts = [_MAGIC]
    for tree_id, raw in zip(ids, raws[1:] + raws[:1], strict=True):
        parts += [_ENTRY.pack(bytes.fromhex(tree_id.decode()), len(raw)), raw]
    return b"".join(parts)


@pytest.mark.parametrize("damage", ["forged", "truncated", "garbage", "empty", "folder", "link"])
def test_a_damaged_cache_changes_no_tree(lib: Path, seeded: Store, damage: str) -> None:
    path = _cache(lib)
    data = path.read_bytes()
    if damage == "forged":
        path.write_bytes(_forged(read_kept(seeded)))
        assert not [t for t in read_kept(seeded) if kept(read_kept(seeded), t)]
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(os.urandom(5000))
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "folder":
        path.unlink()
        path.mkdir()
    else:
        elsewhere = lib.parent / "elsewhere.bin"
        elsewhere.write_bytes(_forged(read_kept(seeded)))
        path.unlink()
        path.symlink_to(elsewhere)
    _write_and_compare(seeded, {n: _doc(n, 4) for n in POOL[::7]})
    assert git("fsck", "--strict", cwd=lib).returncode == 0


def test_an_unwritable_state_folder_only_skips_the_cache(
    lib: Path, seeded: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _cache(lib).read_bytes()
    with monkeypatch.context() as refused:
        refuse_opening_in(refused, state_folder(lib / ".git"))
        _write_and_compare(seeded, {POOL[9]: _doc(POOL[9], 5)})
    assert _cache(lib).read_bytes() == before
    _write_and_compare(seeded, {POOL[10]: _doc(POOL[10], 5)})  # the old copy: still checked


def test_keep_and_read_round_trip(seeded: Store) -> None:
    trees = {notes.key_id("x").encode(): b"", notes.key_id("y").encode(): b"\0" * 70000}
    keep(seeded, trees)
    assert read_kept(seeded) == trees
