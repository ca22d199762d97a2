"""Loose objects read as git reads them: the whole zlib stream, and the size its header says.
Blobs are read raw (store/objects.read_blob), not hashed again; dulwich's reader stops where the
file does, so a file cut short read as the start of its blob, into the worktree and the next
commit. git says "loose object ... is corrupt"."""

from __future__ import annotations

import zlib
from typing import Any

from dulwich.object_store import DiskObjectStore
from dulwich.objects import ObjectID, RawObjectID, ShaFile, object_class, sha_to_hex

from gitcurator.errors import StoreError


def install(object_store: Any) -> None:
    """Make `object_store` read loose objects so (one not a plain folder keeps dulwich's)."""
    if type(object_store) is not DiskObjectStore:
        return
    dulwich_reader = object_store._get_loose_object

    def strict(sha: ObjectID | RawObjectID) -> ShaFile | None:
        binary = len(sha) == object_store.object_format.oid_length  # as dulwich tells them
        hex_sha = sha_to_hex(RawObjectID(sha)) if binary else ObjectID(sha)
        path = object_store._get_shafile_path(hex_sha)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        if len(data) < 2 or (data[0] & 0x8F) != 0x08 or int.from_bytes(data[:2]) % 31:
            return dulwich_reader(hex_sha)  # not a zlib stream: dulwich says what it is
        kind, content = _inflated(data, object_store.loose_object_size_limit, hex_sha, path)
        return ShaFile.from_raw_string(
            kind, content, sha=hex_sha, object_format=object_store.object_format
        )

    object_store._get_loose_object = strict  # type: ignore[method-assign]


def _inflated(data: bytes, limit: int, sha: ObjectID, path: str) -> tuple[int, bytes]:
    """The type number and content of loose object `sha`, whose file holds `data`."""
    name, inflater = sha.decode(), zlib.decompressobj()
    try:
        text = inflater.decompress(data, limit + 64)  # and its header, `blob 123\0`
    except zlib.error as exc:
        raise _damaged(name, path, f"does not inflate ({exc})") from None
    head, nul, content = text.partition(b"\0")
    kind_name, _, size = head.partition(b" ")
    cls = object_class(kind_name) if nul and size.isdigit() else None
    if cls is None:
        raise _damaged(name, path, "has no object header")
    if inflater.unconsumed_tail:  # dulwich's bound (git's core.bigFileThreshold), not damage
        raise StoreError(
            f"object {name} is over {limit} bytes, too big to read loose: pack it "
            "(`git repack -d`) and run this again"
        )
    if not inflater.eof or inflater.unused_data:
        raise _damaged(name, path, "is cut short" if not inflater.eof else "runs on past it")
    if len(content) != int(size):
        raise _damaged(name, path, f"holds {len(content)} bytes where its header says {int(size)}")
    return cls.type_num, content


def _damaged(name: str, path: str, why: str) -> StoreError:
    return StoreError(
        f"object {name} is damaged: its file {path} {why}; `git fsck` names every damaged "
        "object: fetch it again (`git fetch`, `gitcurator sync`) or restore the repository "
        "from a copy"
    )
