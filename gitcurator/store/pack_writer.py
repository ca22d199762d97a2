"""New objects written as one pack and its index in a single pass, as `git index-pack` would
find them: whole objects (no deltas), zlib level 1 (git's own for loose objects).

dulwich's add_objects writes a pack, then reads every object back to index it and check
its chains (6 s for the 30,000 objects of a 10,000-skill `init`); here each object is
compressed once and its offset and CRC kept as it is written. The pack is complete on disk
(synced) before its index appears, and git and dulwich only use a pack with an index.
"""

from __future__ import annotations

import binascii
import contextlib
import hashlib
import os
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterable
from typing import IO, TYPE_CHECKING

from dulwich.objects import ShaFile
from dulwich.pack import write_pack_index

from gitcurator.errors import StoreError

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


# Fewer new objects than this are written loose (git's transfer.unpackLimit).
LOOSE_BELOW = 100


def write_pack(store: Store, objects: Iterable[ShaFile]) -> None:
    """Store `objects` in the repository: one new pack, or loose files when there are fewer
    than LOOSE_BELOW (nothing when there are none)."""
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
            for obj in todo:
                store.repo.object_store.add_object(obj)
            return
        _write_pack(pack_dir, todo)
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


def _write_pack(pack_dir: str, todo: list[ShaFile]) -> None:
    install_pack(pack_dir, lambda f: _write_pack_data(f, todo))


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
        with os.fdopen(fd, "wb") as f:
            entries, checksum = write(f)
            f.flush()
            os.fsync(f.fileno())
        name = os.path.join(pack_dir, "pack-" + checksum.hex())
        fd_idx, tmp_idx = tempfile.mkstemp(dir=pack_dir, prefix="tmp_idx_")
        try:
            with os.fdopen(fd_idx, "wb") as f:
                write_pack_index(f, sorted(entries), checksum, version=2)
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


def _write_pack_data(f: IO[bytes], objects: list[ShaFile]) -> PackWritten:
    """The pack file's bytes; each object's (binary id, offset, CRC32), the pack's checksum."""
    digest = hashlib.sha1()
    entries: list[tuple[bytes, int, int]] = []
    head = b"PACK" + struct.pack(">II", 2, len(objects))
    f.write(head)
    digest.update(head)
    offset = len(head)
    for obj in objects:
        raw = obj.as_raw_string()
        record = object_header(obj.type_num, len(raw)) + zlib.compress(raw, 1)
        entries.append((binascii.unhexlify(obj.id), offset, zlib.crc32(record)))
        f.write(record)
        digest.update(record)
        offset += len(record)
    checksum = digest.digest()
    f.write(checksum)
    return entries, checksum


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
