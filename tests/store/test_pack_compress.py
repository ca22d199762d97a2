"""store.pack_compress: a big pack compressed on two cores is the pack compressed on one."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from dulwich.objects import Blob
from support.repos import git

from gitcurator import forked
from gitcurator.store import Store, pack_compress
from gitcurator.store.pack_writer import write_raw_pack


@pytest.mark.parametrize("child_fails", [False, True])
def test_a_big_pack_compressed_on_two_cores_is_the_same_pack(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch, child_fails: bool
) -> None:
    blobs = [Blob.from_string(b"shared %d\n" % i * (i % 7 + 1)) for i in range(300)]
    raw = [(3, bytes.fromhex(b.id.decode()), b.as_raw_string()) for b in blobs]
    alone = pack_compress.compressed_in_two(raw, {})
    assert alone == {}, "few objects: no second compressor"
    monkeypatch.setattr(pack_compress, "_SHARED_ABOVE", 0)
    monkeypatch.setattr(forked.os, "cpu_count", lambda: 2)
    if child_fails:  # the parent then compresses the child's share itself
        monkeypatch.setattr(pack_compress, "_streams", lambda raws: b"\0" * 3)
    shared = pack_compress.compressed_in_two(raw, {})
    assert len(shared) == (150 if child_fails else 300)
    assert all(zlib.compress(data, 1) == shared[sha] for _t, sha, data in raw if sha in shared)
    write_raw_pack(store, raw)
    assert git("fsck", "--strict", cwd=lib).returncode == 0
    shown = git("cat-file", "-p", blobs[-1].id.decode(), cwd=lib).stdout
    assert shown == blobs[-1].as_raw_string().decode()
