"""New objects written as one pack and its index in a single pass, as `git index-pack` would
find them: whole objects (no deltas), zlib level 1 (git's own for loose objects,
core.looseCompression; a pack of git's own would be level 6 and ~2% smaller, 1.5x slower).

dulwich's add_objects writes a pack, then reads every object back to index it and check
its chains (6 s for the 30,000 objects of a 10,000-skill `init`); here each object is
compressed once and its offset and CRC kept as it is written. The pack is complete on disk
(synced) before its index appears, and git and dulwich only use a pack with an index.

Objects come as dulwich objects (`write_pack`) or raw (`write_raw_pack`: type, binary id and
content, for a caller that hashed them itself and holds no ShaFile), and a caller may hand
over objects it compressed already. Compression is most of the cost (~10 us an object, the
40,000 of a 10,000-skill `init` 0.6 s): a big pack has a forked child compress half of them
on another core.
"""

from __future__ import annotations

import binascii
import contextlib
import hashlib
import os
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import IO, TYPE_CHECKING

from dulwich.objects import ShaFile

from gitcurator.errors import StoreError
from gitcurator.store.pack_compress import compressed_in_two

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


# Fewer new objects than this are written loose (git's transfer.unpackLimit).
LOOSE_BELOW = 100


# (type number, binary id, raw content): an object as the pack holds it.
RawObject = tuple[int, bytes, bytes]


def write_pack(store: Store, objects: Iterable[ShaFile]) -> None:
    """Store `objects` in the repository: one new pack, or loose files when there are fewer
    than LOOSE_BELOW (nothing when there are none)."""
    write_raw_pack(
        store,
        [(obj.type_num, binascii.unhexlify(obj.id), obj.as_raw_string()) for obj in objects],
    )


def write_raw_pack(
    store: Store, objects: Iterable[RawObject], deflated: Mapping[bytes, bytes] | None = None
) -> None:
    """write_pack for raw objects; `deflated` holds, by binary id, the zlib stream of any
    object already compressed (it is written as it is)."""
    todo = list(objects)
    if not todo:
        return
    objects_dir = os.fspath(store.repo.object_store.path)
    pack_dir = os.path.join(objects_dir, "pack")
    try:
        if len(todo) < LOOSE_BELOW or store.repo.object_format.oid_length != 20:
            # A few objects go loose, as git unpacks a fetch of fewer than 100
            # (transfer.unpackLimit): a pack for every small write (each hook-driven flush)
            # would pile up, and every pack more is one more index searched on every later
            # read; `git gc` packs loose objects. The single pass below writes SHA-1 packs, so
            # another object format also goes through dulwich (each file written atomically).
            pack_dir = objects_dir
            for type_num, _sha, raw in todo:
                store.repo.object_store.add_object(ShaFile.from_raw_string(type_num, raw))
            return
        _write_pack(pack_dir, todo, deflated or {})
    except OSError as exc:
        raise unwritable(pack_dir, exc) from None
    store.repo.object_store.packs  # noqa: B018  (reading it makes dulwich see the new pack)


def unwritable(folder: str, exc: OSError) -> StoreError:
    """The error for new objects that `folder` would not take (read-only, full): the
    caller's work is not lost (no ref moved, the journal is kept), and it says where and
    why."""
    return StoreError(
        f"cannot write new objects into {folder}: {exc.strerror or exc}; make that "
        "folder writable (or free some space) and run this again"
    )


def _write_pack(pack_dir: str, todo: list[RawObject], deflated: Mapping[bytes, bytes]) -> None:
    install_pack(pack_dir, lambda f: _write_pack_data(f, todo, deflated))


# A pack's index entries (binary id, offset, CRC32) and its checksum.
PackWritten = tuple[list[tuple[bytes, int, int]], bytes]


def install_pack(pack_dir: str, write: Callable[[IO[bytes]], PackWritten]) -> None:
    """Add to `pack_dir` the pack that `write` writes into the file it is given (returning
    its index entries and checksum), and that pack's index: temp files, synced, then
    renamed, the pack first, as git does. git and dulwich use only a pack that has an index,
    so an interrupt leaves no new pack in use or a whole one; what a killed process leaves
    (a tmp_pack_ file, or a pack without its index) is garbage `git gc` removes, never a
    damaged object."""
    os.makedirs(pack_dir, exist_ok=True)
    fd, tmp_pack = tempfile.mkstemp(dir=pack_dir, prefix="tmp_pack_")
    try:
        with os.fdopen(fd, "wb", buffering=1 << 20) as f:
            entries, checksum = write(f)
            f.flush()
            os.fsync(f.fileno())
        name = os.path.join(pack_dir, "pack-" + checksum.hex())
        fd_idx, tmp_idx = tempfile.mkstemp(dir=pack_dir, prefix="tmp_idx_")
        try:
            with os.fdopen(fd_idx, "wb") as f:
                f.write(_index_v2(sorted(entries), checksum))
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp_pack, 0o444)
            os.chmod(tmp_idx, 0o444)
            os.replace(tmp_pack, name + ".pack")
            os.replace(tmp_idx, name + ".idx")
        except BaseException:
            _remove(tmp_idx)
            raise
    except BaseException:
        _remove(tmp_pack)
        raise


def _write_pack_data(
    f: IO[bytes], objects: list[RawObject], deflated: Mapping[bytes, bytes]
) -> PackWritten:
    """The pack file's bytes into `f`; each object's (binary id, offset, CRC32), the pack's
    checksum."""
    ready = compressed_in_two(objects, deflated)
    entries: list[tuple[bytes, int, int]] = []
    digest = hashlib.sha1()
    head = b"PACK" + struct.pack(">II", 2, len(objects))
    f.write(head)
    digest.update(head)
    offset = len(head)
    crc32, compress, write, update = zlib.crc32, zlib.compress, f.write, digest.update
    for type_num, sha, raw in objects:
        # Each stream let go once written: a 100,000-skill pack is not held twice.
        stream = ready.pop(sha, None) or compress(raw, 1)
        header = object_header(type_num, len(raw))
        entries.append((sha, offset, crc32(stream, crc32(header))))
        write(header)
        write(stream)
        update(header)
        update(stream)
        offset += len(header) + len(stream)
    checksum = digest.digest()
    f.write(checksum)
    return entries, checksum


def _index_v2(entries: list[tuple[bytes, int, int]], pack_checksum: bytes) -> bytes:
    """A version-2 pack index of the sorted `entries`, byte for byte what dulwich's
    write_pack_index_v2 writes (and git's index-pack), in one piece rather than a write per
    field (0.27 s for 40,000 objects)."""
    fan_out = [0] * 256
    for sha, _offset, _crc in entries:
        fan_out[sha[0]] += 1
    total = 0
    for i, count in enumerate(fan_out):
        total += count
        fan_out[i] = total
    offsets: list[int] = []
    large: list[int] = []
    for _sha, offset, _crc in entries:
        if offset < 2**31:
            offsets.append(offset)
        else:  # past 2 GiB: an index into the table of 8-byte offsets
            offsets.append(2**31 + len(large))
            large.append(offset)
    n = len(entries)
    body = b"".join(
        [
            b"\377tOc",
            struct.pack(">L", 2),
            struct.pack(">256L", *fan_out),
            b"".join([sha for sha, _offset, _crc in entries]),
            struct.pack(f">{n}L", *[crc for _sha, _offset, crc in entries]),
            struct.pack(f">{n}L", *offsets),
            struct.pack(f">{len(large)}Q", *large),
            pack_checksum,
        ]
    )
    return body + hashlib.sha1(body).digest()


def object_header(type_num: int, size: int) -> bytes:
    """A whole object's header: type and size, 4 bits then 7 at a time (git's pack format)."""
    out = bytearray()
    byte = (type_num << 4) | (size & 15)
    size >>= 4
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
