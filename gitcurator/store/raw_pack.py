"""New objects held as raw bytes and written as one pack: for a write of thousands of small
objects (a flush's note blobs and fan-out trees), where dulwich objects and zlib's default
settings cost more than the objects themselves.

Compressing costs a zlib stream's setup for every object: 10-50 µs in a fresh process, most of
a flush's pack write, for 200-byte notes that shrink by a third and fan-out trees (object ids)
that hardly shrink. Small objects are therefore stored as zlib's level 0 stores them (one
uncompressed block, at the cost of a checksum), larger ones compressed at level 1; git and
dulwich inflate both. The pack and its index are written as store/pack_writer writes them (whole
objects, synced, the index renamed last); a batch too small for a pack goes through
pack_writer, which stores it as loose objects.
"""

from __future__ import annotations

import binascii
import struct
import zlib
from typing import TYPE_CHECKING

from dulwich.objects import ObjectID, ShaFile

from gitcurator.gitfiles.object_ids import BLOB as BLOB
from gitcurator.gitfiles.object_ids import TREE as TREE
from gitcurator.gitfiles.object_ids import object_hex
from gitcurator.store.pack_writer import write_raw_pack
from gitcurator.store.stale_locks import clears_stale_object_locks

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

# Objects up to this size are stored, not compressed: setting up a zlib stream costs 10-50 µs,
# more than a 200-byte note or a fan-out tree of object ids (which hardly compress) is worth.
STORED_UP_TO = 16 * 1024
# A zlib header (deflate, no dictionary; its check bits) and a last stored block's first byte.
_STORED_HEAD = b"\x78\x01\x01"


def object_id(type_num: int, raw: bytes) -> ObjectID:
    """The hex id git gives an object of this type and content."""
    return ObjectID(object_hex(type_num, raw).encode())


class RawBatch:
    """New objects by hex id, as (type number, content), stored together as one pack."""

    def __init__(self) -> None:
        self.objects: dict[bytes, tuple[int, bytes]] = {}

    def add_raw(self, type_num: int, raw: bytes, sha: bytes | None = None) -> ObjectID:
        """Hold an object given as its content (its id computed unless given); its id."""
        sha = sha or object_id(type_num, raw)
        self.objects[sha] = (type_num, raw)
        return ObjectID(sha)

    def add_object(self, obj: ShaFile) -> None:
        """Hold a dulwich object (what dulwich.index.commit_tree hands its store)."""
        self.objects[obj.id] = (obj.type_num, obj.as_raw_string())

    def __contains__(self, sha: bytes) -> bool:
        return sha in self.objects

    @clears_stale_object_locks
    def store_in(self, store: Store) -> None:
        """Write every held object into the repository: one pack, or loose when few."""
        raws = [(t, binascii.unhexlify(sha), raw) for sha, (t, raw) in self.objects.items()]
        small = {binsha: _deflated(raw) for _t, binsha, raw in raws if len(raw) <= STORED_UP_TO}
        write_raw_pack(store, raws, small)


def _deflated(raw: bytes) -> bytes:
    """`raw` as a zlib stream: a small object as one stored (uncompressed) block, as zlib's
    level 0 writes it, a larger one at level 1."""
    if len(raw) > STORED_UP_TO:
        return zlib.compress(raw, 1)
    size = len(raw)
    return _STORED_HEAD + struct.pack("<HH", size, size ^ 0xFFFF) + raw + _adler(raw)


def _adler(raw: bytes) -> bytes:
    return struct.pack(">I", zlib.adler32(raw))
