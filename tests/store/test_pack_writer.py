"""store.pack_writer: new objects as one pack git reads and fsck accepts."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from dulwich.objects import Blob, Tree
from support.read_only import refuse_opening_in
from support.repos import git, note_key, run_cli

from gitcurator.store import Store, pack_writer
from gitcurator.store.pack_writer import LOOSE_BELOW, write_pack, write_raw_pack


def test_a_written_pack_is_read_by_git_and_dulwich(lib: Path, store: Store) -> None:
    small, large = Blob.from_string(b"hello\n"), Blob.from_string(bytes(range(256)) * 4000)
    tree = Tree()
    tree.add(b"a.txt", 0o100644, small.id)
    tree.add(b"b.bin", 0o100644, large.id)
    filler = [Blob.from_string(b"%d\n" % i) for i in range(LOOSE_BELOW)]
    write_pack(store, [small, large, tree, *filler])
    assert store.repo.object_store[large.id].as_raw_string() == large.as_raw_string()
    assert git("cat-file", "-p", small.id.decode(), cwd=lib).stdout == "hello\n"
    assert git("cat-file", "-t", tree.id.decode(), cwd=lib).stdout.strip() == "tree"
    assert git("fsck", "--strict", cwd=lib).returncode == 0
    packs = list((lib / ".git" / "objects" / "pack").iterdir())
    assert sorted(p.suffix for p in packs if p.stem == packs[0].stem) == [".idx", ".pack"]
    assert not [p for p in packs if p.name.startswith("tmp_")]


def test_a_few_objects_go_loose_not_into_a_pack_of_their_own(lib: Path, store: Store) -> None:
    # A pack per small write (every hook-driven flush) piles up and slows every later read.
    pack_dir = lib / ".git" / "objects" / "pack"
    before = sorted(pack_dir.iterdir()) if pack_dir.exists() else []
    blobs = [Blob.from_string(b"loose %d\n" % i) for i in range(LOOSE_BELOW - 1)]
    write_pack(store, blobs)
    assert (sorted(pack_dir.iterdir()) if pack_dir.exists() else []) == before
    for blob in blobs:
        loose = lib / ".git" / "objects" / blob.id.decode()[:2] / blob.id.decode()[2:]
        assert loose.is_file()
    assert git("fsck", "--strict", cwd=lib).returncode == 0


def test_no_objects_write_no_pack(lib: Path, store: Store) -> None:
    before = sorted((lib / ".git" / "objects").rglob("*"))
    write_pack(store, [])
    assert sorted((lib / ".git" / "objects").rglob("*")) == before


def test_a_read_only_pack_folder_is_a_clear_error_and_loses_no_event(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_cli("record", "use", "pdf-extract", cwd=repo).code == 0
    objects = repo / ".git" / "objects"
    pack_dir = objects / "pack"
    with monkeypatch.context() as refused:
        refuse_opening_in(refused, objects, below=True)
        result = run_cli("flush", cwd=repo)
    assert result.code == 1, result.err
    assert str(objects) in result.err and "Traceback" not in result.err
    assert not [p for p in pack_dir.iterdir() if p.name.startswith("tmp_")]
    assert run_cli("flush", cwd=repo).code == 0, "the event waited for a writable store"
    key = note_key(repo, "pdf-extract")
    assert '"use_count": 1' in git("notes", "--ref=gitcurator", "show", key, cwd=repo).stdout


def test_the_pack_index_is_dulwich_s_byte_for_byte() -> None:
    import io
    import random

    from dulwich.pack import write_pack_index_v2

    rng = random.Random(15)
    entries = sorted(
        (rng.randbytes(20), rng.randrange(2**31), rng.randrange(2**32)) for _ in range(3000)
    )
    entries += [(b"\xff" * 20, 2**31 + 5, 7)]  # past 2 GiB: the table of 8-byte offsets
    checksum = rng.randbytes(20)
    theirs = io.BytesIO()
    write_pack_index_v2(theirs, entries, checksum)
    assert pack_writer._index_v2(entries, checksum) == theirs.getvalue()


def test_raw_objects_and_streams_compressed_ahead_are_written_as_given(
    lib: Path, store: Store
) -> None:
    blobs = [Blob.from_string(b"raw %d\n" % i) for i in range(LOOSE_BELOW + 1)]
    raw = [(3, bytes.fromhex(b.id.decode()), b.as_raw_string()) for b in blobs]
    first = raw[0][1]
    ahead = {first: zlib.compress(raw[0][2], 0)}  # stored: what the writer would not make
    assert ahead[first] != zlib.compress(raw[0][2], 1)
    write_raw_pack(store, raw, ahead)
    for blob in blobs:
        shown = git("cat-file", "-p", blob.id.decode(), cwd=lib).stdout
        assert shown == blob.as_raw_string().decode()
    assert git("fsck", "--strict", cwd=lib).returncode == 0
    pack = next((lib / ".git" / "objects" / "pack").glob("*.pack")).read_bytes()
    assert ahead[first] in pack
