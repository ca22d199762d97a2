"""A fetched (thin) pack stored as `git index-pack --fix-thin` stores it, in one pass.

dulwich's add_thin_pack walks the pack's delta chains three times in Python (to complete it,
to index it, to verify it) and hashes the whole pack three times: 0.45-0.75 s of the 540 KB
a sync's merge step fetches at 10,000 skills, more than the transfer. Here each entry is
inflated once, each delta applied once (a worklist: bases before what is built on them, so
no recursion however long the chains), each object hashed once; the received bytes are kept
as they came (deltas and all, as git keeps them), the bases the remote left out (a thin pack
deltas against objects we already hold) are appended whole, and the index is written from
what was found. Anything this module is not sure of goes to dulwich: another pack version or
object format, a pack too large to hold in memory. A damaged pack is refused, naming what is
wrong, and nothing is stored.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import IO, TYPE_CHECKING

from dulwich._pack import apply_delta
from dulwich.errors import ApplyDeltaError, ChecksumMismatch
from dulwich.objects import ObjectID, RawObjectID
from dulwich.pack import UnresolvedDeltas

from gitcurator.errors import StoreError
from gitcurator.gitfiles.object_ids import object_digest
from gitcurator.store.pack_entries import ObjectTooLarge, pack_entry
from gitcurator.store.pack_writer import PackWritten, install_pack, object_header, unwritable

if TYPE_CHECKING:
    from dulwich.object_store import BaseObjectStore
    from dulwich.pack import Pack

# Packs larger than this go to dulwich, which streams them: every object is held inflated here.
FAST_LIMIT = 32 * 1024 * 1024
# And so does a pack whose objects inflate to more than this (deep chains of large files, or a
# hostile remote's pack of highly compressible bytes).
HELD_LIMIT = 256 * 1024 * 1024


class DamagedPack(StoreError):
    """The remote sent a pack that does not read back (or leans on objects we lack)."""


class ForeignPack(StoreError):
    """The remote sent a pack of another object format (a SHA-256 repository's)."""


@dataclass(slots=True)
class _Entry:
    offset: int
    end: int
    kind: int
    body: bytes
    base: int | bytes | None  # an offset, a binary name, or None for a whole object


@dataclass(slots=True)
class _Resolved:
    """What the pack holds once every delta is applied."""

    objects: dict[int, tuple[int, bytes]] = field(default_factory=dict)  # offset -> object
    ids: dict[int, bytes] = field(default_factory=dict)  # offset -> binary name
    names: dict[bytes, int] = field(default_factory=dict)  # binary name -> offset
    external: dict[bytes, tuple[int, bytes]] = field(default_factory=dict)  # bases we held
    held: int = 0  # bytes of every entry and object inflated so far

    def hold(self, size: int) -> None:
        """Count `size` more bytes about to be held; ObjectTooLarge past HELD_LIMIT."""
        if self.held + size > HELD_LIMIT:
            raise ObjectTooLarge(f"{self.held + size} bytes inflated")
        self.held += size


def store_fetched_pack(
    object_store: BaseObjectStore,
    read: Callable[[int], bytes],
    size: int,
    progress: Callable[[bytes], None] | None = None,
) -> None:
    """Store the fetched pack of `size` bytes that `read` gives in `object_store`, completed
    with the bases it leaves out: here for a store of SHA-1 objects with a pack folder and a
    pack of at most FAST_LIMIT bytes inflating to at most HELD_LIMIT, else through dulwich's
    add_thin_pack. DamagedPack, nothing stored, when it does not read back; StoreError naming
    the folder when it cannot be written."""
    pack_dir = getattr(object_store, "pack_dir", None)
    oid_length = getattr(getattr(object_store, "object_format", None), "oid_length", None)
    if size > FAST_LIMIT or not isinstance(pack_dir, str) or oid_length != 20:
        _stored_by_dulwich(object_store, read, progress)
        return
    data = read(size)
    resolved = _Resolved()
    too_large = False
    try:
        entries = _entries(data, resolved)
        _resolve(entries, object_store, resolved)
    except ObjectTooLarge:
        too_large = True
    if too_large:
        # Outside the except block, so that its traceback no longer holds what was inflated
        # when dulwich inflates it again.
        del resolved
        _stored_by_dulwich(object_store, io.BytesIO(data).read, progress)
        return
    try:
        install_pack(pack_dir, lambda f: _write_completed(f, data, entries, resolved))
    except OSError as exc:
        raise unwritable(pack_dir, exc) from None
    object_store.packs  # noqa: B018  (reading it makes dulwich see the new pack)


def _stored_by_dulwich(
    object_store: BaseObjectStore,
    read: Callable[[int], bytes],
    progress: Callable[[bytes], None] | None,
) -> None:
    # What dulwich raises for a damaged pack (some of it plain assertions), and for an object
    # too large to hold, as DamagedPack: the remote's doing, never an internal error.
    try:
        object_store.add_thin_pack(read, None, progress=progress)  # type: ignore[attr-defined]
    except (
        zlib.error,
        ChecksumMismatch,
        ApplyDeltaError,
        UnresolvedDeltas,
        AssertionError,
        ValueError,
        IndexError,
        KeyError,
        struct.error,
        OverflowError,
        MemoryError,
    ) as exc:
        what = "an object too large to hold in memory" if isinstance(exc, MemoryError) else exc
        raise DamagedPack(f"the pack the remote sent could not be stored: {what}") from None


def _entries(data: bytes, done: _Resolved) -> list[_Entry]:
    """Every entry of the pack `data`, after its checksum, header and layout are checked."""
    if len(data) < 32 or data[:4] != b"PACK":
        raise DamagedPack("the remote sent something that is not a git pack")
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3):
        raise DamagedPack(f"the remote sent a pack of version {version}, which git never writes")
    if hashlib.sha1(memoryview(data)[:-20]).digest() != data[-20:]:
        if len(data) >= 44 and hashlib.sha256(memoryview(data)[:-32]).digest() == data[-32:]:
            raise ForeignPack(
                "it is a SHA-256 repository (its pack is checksummed with SHA-256); "
                "gitcurator works with SHA-1 repositories only (git's default)"
            )
        raise DamagedPack(
            "the pack the remote sent does not match its checksum (damaged in transit)"
        )
    entries = []
    pos = 12
    try:
        for _ in range(count):
            kind, body, base, end = pack_entry(data, pos, len(data) - 20, HELD_LIMIT - done.held)
            done.hold(len(body))
            entries.append(_Entry(pos, end, kind, body, base))
            pos = end
    except (zlib.error, ValueError, IndexError, struct.error, OverflowError) as exc:
        raise DamagedPack(f"the pack the remote sent is damaged at byte {pos}: {exc}") from None
    if pos != len(data) - 20:
        raise DamagedPack("the pack the remote sent holds more than its header counts")
    return entries


def _resolve(entries: list[_Entry], object_store: BaseObjectStore, done: _Resolved) -> None:
    """Every entry as a whole object: whole objects first, then each delta as soon as its
    base is known, with the bases the pack lacks read from `object_store`."""
    by_offset: dict[int, list[_Entry]] = {}
    by_name: dict[bytes, list[_Entry]] = {}
    ready: list[tuple[_Entry, tuple[int, bytes]]] = []
    for entry in entries:
        if entry.base is None:
            ready.append((entry, (entry.kind, entry.body)))
        elif isinstance(entry.base, int):
            by_offset.setdefault(entry.base, []).append(entry)
        else:
            by_name.setdefault(entry.base, []).append(entry)
    _settle(ready, done, by_offset, by_name)
    # What still waits leans on a base outside the pack (a thin pack's) or on nothing at all.
    # The store's packs are asked first: most names waiting here are this pack's own deltas
    # still waiting on their base, and each miss of dulwich's get_raw lists the pack folder
    # again and looks for a loose file (0.08 s of a fetch of the merge at 10,000 skills).
    packs: list[Pack] = list(getattr(object_store, "packs", ()))
    for lookup in (partial(_packed, packs), partial(_held, object_store)):
        for name in sorted(by_name):
            if name not in by_name:
                continue  # settled meanwhile, its base built from another
            try:
                base = lookup(name)
            except KeyError:
                continue
            done.hold(len(base[1]))
            done.external[name] = base
            waiting = by_name.pop(name)
            _settle([(e, _applied(base, e, done)) for e in waiting], done, by_offset, by_name)
    left = len(entries) - len(done.objects)
    if left:
        raise DamagedPack(
            f"{left} object(s) in the pack the remote sent are deltas against objects neither "
            "the pack nor this repository holds (or a delta cycle)"
        )


def _packed(packs: list[Pack], name: bytes) -> tuple[int, bytes]:
    """The object of binary name `name` from the first of `packs` holding it (KeyError if
    none does)."""
    for pack in packs:
        if RawObjectID(name) in pack:
            return pack.get_raw(RawObjectID(name))
    raise KeyError(name)


def _held(object_store: BaseObjectStore, name: bytes) -> tuple[int, bytes]:
    """The object of binary name `name` wherever the store holds it (KeyError if nowhere)."""
    return object_store.get_raw(ObjectID(name.hex().encode()))


def _settle(
    ready: list[tuple[_Entry, tuple[int, bytes]]],
    done: _Resolved,
    by_offset: dict[int, list[_Entry]],
    by_name: dict[bytes, list[_Entry]],
) -> None:
    """Record each ready object, and make ready what was waiting on it."""
    while ready:
        entry, obj = ready.pop()
        if entry.offset in done.objects:
            continue
        name = _name(obj)
        done.objects[entry.offset] = obj
        done.ids[entry.offset] = name
        done.names.setdefault(name, entry.offset)
        for waiting in by_offset.pop(entry.offset, ()):
            ready.append((waiting, _applied(obj, waiting, done)))
        for waiting in by_name.pop(name, ()):
            ready.append((waiting, _applied(obj, waiting, done)))


def _applied(base: tuple[int, bytes], entry: _Entry, done: _Resolved) -> tuple[int, bytes]:
    """`entry`'s delta applied to `base`; its result's size, read from the delta's header,
    counted against HELD_LIMIT before anything is built."""
    try:
        done.hold(_target_size(entry.body))
        chunks = apply_delta(base[1], entry.body)
    except (ApplyDeltaError, ValueError, IndexError) as exc:
        raise DamagedPack(
            f"the pack the remote sent holds a damaged delta at byte {entry.offset}: {exc}"
        ) from None
    return base[0], chunks if isinstance(chunks, bytes) else b"".join(chunks)


def _target_size(delta: bytes) -> int:
    """The size of what `delta` builds: the second of the two varints it starts with."""
    pos = 0
    for _ in range(2):
        size = shift = 0
        while True:
            byte = delta[pos]
            pos += 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
    return size


def _name(obj: tuple[int, bytes]) -> bytes:
    return object_digest(*obj)


def _write_completed(
    f: IO[bytes], data: bytes, entries: list[_Entry], done: _Resolved
) -> PackWritten:
    """The completed pack's bytes into `f`: the received entries as they came, then the
    external bases whole; its index entries and checksum."""
    digest = hashlib.sha1()
    extra = [(name, obj) for name, obj in done.external.items() if name not in done.names]
    head = b"PACK" + struct.pack(">II", 2, len(entries) + len(extra))
    body = memoryview(data)[12:-20]
    digest.update(head)
    digest.update(body)
    f.write(head)
    f.write(body)
    index = []
    for entry in entries:
        crc = zlib.crc32(memoryview(data)[entry.offset : entry.end])
        index.append((done.ids[entry.offset], entry.offset, crc))
    offset = len(data) - 20
    for name, (kind, raw) in extra:
        record = object_header(kind, len(raw)) + zlib.compress(raw, 1)
        index.append((name, offset, zlib.crc32(record)))
        digest.update(record)
        f.write(record)
        offset += len(record)
    checksum = digest.digest()
    f.write(checksum)
    return index, checksum
