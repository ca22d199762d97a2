"""store.raw_pack: raw objects as one pack (small ones stored uncompressed) that git reads,
fsck accepts and dulwich inflates to the same bytes; a few go loose; a refused write is a
clear error that leaves nothing behind."""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path

import pytest
from dulwich.objects import Blob, ObjectID
from support.read_only import refuse_opening_in
from support.repos import git

from gitcurator.errors import StoreError
from gitcurator.store import Store
from gitcurator.store.pack_writer import LOOSE_BELOW
from gitcurator.store.raw_pack import BLOB, STORED_UP_TO, TREE, RawBatch, _deflated, object_id


@pytest.mark.parametrize("size", [0, 1, 213, STORED_UP_TO - 1, STORED_UP_TO, STORED_UP_TO + 1])
def test_every_size_inflates_to_its_bytes(size: int) -> None:
    raw = (bytes(range(256)) * (size // 256 + 1))[:size]
    assert zlib.decompress(_deflated(raw)) == raw
    assert zlib.decompressobj().decompress(_deflated(raw)) == raw


def test_object_ids_are_gits(lib: Path) -> None:
    done = subprocess.run(
        ["git", "hash-object", "--stdin"], cwd=lib, input=b"note\n", capture_output=True
    )
    assert object_id(BLOB, b"note\n").decode() == done.stdout.decode().strip()
    assert object_id(BLOB, b"note\n") == Blob.from_string(b"note\n").id


def _batch(count: int, big: bytes = b"") -> tuple[RawBatch, dict[ObjectID, bytes]]:
    batch = RawBatch()
    blobs = {}
    for i in range(count):
        raw = b'{\n  "n": %d\n}\n' % i
        blobs[batch.add_raw(BLOB, raw)] = raw
    if big:
        blobs[batch.add_raw(BLOB, big)] = big
    entries = sorted(blobs)[:3]
    tree = b"".join(
        b"100644 f%d\0%s" % (i, bytes.fromhex(s.decode())) for i, s in enumerate(entries)
    )
    batch.add_raw(TREE, tree)
    return batch, blobs


def test_a_pack_of_stored_and_compressed_objects_is_read_by_git_and_dulwich(
    lib: Path, store: Store
) -> None:
    big = bytes(range(256)) * 400  # past STORED_UP_TO: compressed
    batch, blobs = _batch(LOOSE_BELOW, big)
    batch.store_in(store)
    pack_dir = lib / ".git" / "objects" / "pack"
    packs = list(pack_dir.glob("*.pack"))
    assert len(packs) == 1 and not list(pack_dir.glob("tmp_*"))
    verified = git("verify-pack", "-v", str(packs[0]), cwd=lib)
    assert verified.returncode == 0, verified.stderr
    assert git("fsck", "--strict", cwd=lib).returncode == 0
    for sha, raw in blobs.items():
        assert store.repo.object_store[sha].as_raw_string() == raw
    shown = subprocess.run(
        ["git", "cat-file", "blob", object_id(BLOB, big).decode()], cwd=lib, capture_output=True
    )
    assert shown.stdout == big
    assert packs[0].stat().st_size < len(big) // 2, "the large object was compressed"


def test_a_few_objects_go_loose(lib: Path, store: Store) -> None:
    pack_dir = lib / ".git" / "objects" / "pack"
    before = sorted(pack_dir.iterdir()) if pack_dir.exists() else []
    batch, blobs = _batch(LOOSE_BELOW - 2)
    batch.store_in(store)
    assert (sorted(pack_dir.iterdir()) if pack_dir.exists() else []) == before
    for sha in blobs:
        assert (lib / ".git" / "objects" / sha.decode()[:2] / sha.decode()[2:]).is_file()
    assert git("fsck", "--strict", cwd=lib).returncode == 0


def test_a_refused_pack_folder_is_a_clear_error_and_leaves_no_file(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    batch, _ = _batch(LOOSE_BELOW)
    pack_dir = lib / ".git" / "objects" / "pack"
    pack_dir.mkdir(exist_ok=True)
    before = sorted(pack_dir.iterdir())
    with monkeypatch.context() as refused:
        refuse_opening_in(refused, pack_dir)
        with pytest.raises(StoreError, match=r"cannot write new objects into .*pack"):
            batch.store_in(store)
    assert sorted(pack_dir.iterdir()) == before
