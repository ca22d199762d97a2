"""Reading packed objects without dulwich's per-object Python layers (its results unchanged).

dulwich finds a packed object by asking each pack in turn (a bisection calling back into
Python for every step), then unpacks it through four layers of calls: about 30 µs an object,
so the 60,000 objects of a 10,000-skill library's tree and notes cost 1.7-2.2 s of every cold
`list`, `run` or `sync`. Here a pack's index becomes a dict (name -> slot) once the pack has
answered a few hundred lookups, and an object is inflated straight from the mapped pack: about
9 µs. Only what this module is sure of is read here (index version 2, SHA-1 names, whole
objects and both delta kinds); anything else, every object not in the packs known at the start
(loose objects, alternates, packs written since), and any error (a damaged pack) goes to
dulwich's own `get_raw`, so what is read, and every error message, stays dulwich's.
"""

from __future__ import annotations

import binascii
import contextlib
import itertools
import mmap
import os
import struct
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from dulwich._pack import apply_delta
from dulwich.objects import ObjectID, RawObjectID

from gitcurator.store.pack_entries import pack_entry

if TYPE_CHECKING:
    from dulwich.object_store import BaseObjectStore

_IDX_MAGIC = b"\377tOc"
_HEADER = 8 + 256 * 4  # magic, version, fan-out table
# Lookups a pack answers by bisection before its names become a dict (building it costs
# about 0.25 µs a name: worth it only for the commands that read thousands of objects).
_DICT_AFTER = 256
# Inflated objects kept as delta bases: chains share their bases, and a bound keeps 100,000
# skills from holding every object read.
_BASES_BYTES = 32 * 1024 * 1024

# git writes chains of at most 4,095 links; a longer one is damage (or a cycle) for dulwich to
# name.
_MAX_CHAIN = 4096
# Packs with more objects are searched by bisection only: their names as a dict would cost
# about 190 bytes each (a million-object pack: 190 MB).
_DICT_LIMIT = 250_000

RawObject = tuple[int, bytes]


class _PackFile:
    """One pack and its index, both mapped."""

    def __init__(self, idx_path: str, pack_path: str) -> None:
        self.name = os.path.basename(idx_path)
        self.lookups = 0
        self.slots: dict[bytes, int] | None = None
        self.idx = _mapped(idx_path)
        try:
            self.data = _mapped(pack_path)
        except BaseException:
            self.idx.close()
            raise
        try:
            self._check(idx_path, pack_path)
        except BaseException:
            self.close()
            raise

    def _check(self, idx_path: str, pack_path: str) -> None:
        if self.idx[:4] != _IDX_MAGIC or struct.unpack_from(">I", self.idx, 4)[0] != 2:
            raise ValueError(f"{idx_path}: not a version 2 pack index")
        self.count = struct.unpack_from(">I", self.idx, _HEADER - 4)[0]
        if self.data[:4] != b"PACK":
            raise ValueError(f"{pack_path}: not a pack")
        if len(self.idx) < _HEADER + self.count * 28 + 40 or len(self.data) < 32:
            raise ValueError(f"{idx_path}: truncated")
        # The index must be this pack's (it names the pack's checksum, the pack ends with
        # it), count what the pack holds, and have a fan-out table that only grows: else
        # dulwich reads the pair and says what is wrong.
        if self.idx[-40:-20] != self.data[-20:]:
            raise ValueError(f"{idx_path}: not the index of {pack_path}")
        if struct.unpack_from(">I", self.data, 8)[0] != self.count:
            raise ValueError(f"{pack_path}: its count differs from its index")
        fan_out = struct.unpack_from(">256I", self.idx, 8)
        if any(a > b for a, b in itertools.pairwise(fan_out)):
            raise ValueError(f"{idx_path}: its fan-out table is damaged")
        self.fan_out = fan_out

    def close(self) -> None:
        """Unmap the index and the pack."""
        for mapped in (self.idx, self.data):
            # A view of it still held elsewhere: the mapping goes with the view.
            with contextlib.suppress(BufferError):
                mapped.close()

    def offset(self, binsha: bytes) -> int | None:
        """Where the object named `binsha` starts in the pack, or None if it is not here."""
        slot = self._slot(binsha)
        return None if slot is None else self.offset_at(slot)

    def offset_at(self, slot: int) -> int:
        """Where the object of index slot `slot` starts in the pack."""
        idx, count = self.idx, self.count
        off = int(struct.unpack_from(">I", idx, _HEADER + count * 24 + slot * 4)[0])
        if off & 0x80000000:
            at = _HEADER + count * 28 + (off & 0x7FFFFFFF) * 8
            off = int(struct.unpack_from(">Q", idx, at)[0])
        return off

    def _slot(self, binsha: bytes) -> int | None:
        if self.slots is not None:
            return self.slots.get(binsha)
        self.lookups += 1
        if self.lookups > _DICT_AFTER and self.count <= _DICT_LIMIT:
            names = self.idx[_HEADER : _HEADER + self.count * 20]
            # The dict ignores the fan-out table a bisection goes by: both must find the
            # same, so a table that does not match the names leaves the pack to dulwich.
            self.slots = _slots(names) if _fan_out_matches(self.fan_out, names) else {}
            return self.slots.get(binsha)
        idx = self.idx
        fan = binsha[0]
        lo = int(struct.unpack_from(">I", idx, 8 + (fan - 1) * 4)[0]) if fan else 0
        hi = int(struct.unpack_from(">I", idx, 8 + fan * 4)[0])
        while lo < hi:
            mid = (lo + hi) // 2
            name = idx[_HEADER + mid * 20 : _HEADER + mid * 20 + 20]
            if name < binsha:
                lo = mid + 1
            elif name > binsha:
                hi = mid
            else:
                return mid
        return None


def _mapped(path: str) -> mmap.mmap:
    with open(path, "rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def _slots(names: bytes) -> dict[bytes, int]:
    return {names[i : i + 20]: n for n, i in enumerate(range(0, len(names), 20))}


def _fan_out_matches(fan_out: tuple[int, ...], names: bytes) -> bool:
    """Whether each first byte's names end where the fan-out table says they do."""
    start = 0
    for first, end in enumerate(fan_out):
        if end > start and (names[start * 20] != first or names[(end - 1) * 20] != first):
            return False
        start = end
    return True


class PackReader:
    """The packs of one object store, read directly; `get_raw` is a drop-in for dulwich's."""

    def __init__(
        self, pack_dir: str, fallback: Callable[[ObjectID | RawObjectID], RawObject]
    ) -> None:
        self.pack_dir = pack_dir
        self.fallback = fallback
        self.packs: list[_PackFile] = []
        self._listed: int | None = None
        self._bases: dict[tuple[_PackFile, int], RawObject] = {}
        self._bases_bytes = 0
        self.refresh()

    def refresh(self) -> bool:
        """Map the packs written since the last look (a fetch or a pass adds some) and unmap
        the ones gone (a repack removes them); whether the packs changed."""
        try:
            listed = os.stat(self.pack_dir).st_mtime_ns
            if listed == self._listed:
                return False
            names = set(os.listdir(self.pack_dir))
        except OSError:
            return False
        self._listed = listed
        kept = [p for p in self.packs if p.name in names]
        for gone in (p for p in self.packs if p.name not in names):
            gone.close()
            self._bases.clear()
            self._bases_bytes = 0
        self.packs = kept
        known = {p.name for p in kept}
        for name in sorted(names):
            if not name.endswith(".idx") or name in known:
                continue
            stem = os.path.join(self.pack_dir, name[: -len(".idx")])
            try:
                self.packs.append(_PackFile(stem + ".idx", stem + ".pack"))
            except (OSError, ValueError, struct.error):
                continue  # dulwich reads that one as it always did
        return True

    def close(self) -> None:
        """Unmap every pack (a view still held elsewhere keeps its mapping until dropped)."""
        for pack in self.packs:
            pack.close()
        self.packs = []
        self._listed = None
        self._bases.clear()

    def get_raw(self, name: ObjectID | RawObjectID) -> RawObject:
        """(type number, content) of the object `name` (hex or binary), as dulwich gives it."""
        found = None
        binsha = _binary(name)
        if binsha is not None:
            found = self._read(binsha)
            if found is None and self.refresh():
                found = self._read(binsha)
        return found if found is not None else self.fallback(name)

    def _read(self, binsha: bytes) -> RawObject | None:
        try:
            where = self._find(binsha)
            return None if where is None else self._resolve(*where)
        except (zlib.error, ValueError, IndexError, struct.error, OverflowError):
            return None  # damaged: dulwich reads it again and says what it found

    def _find(self, binsha: bytes) -> tuple[_PackFile, int] | None:
        for pack in self.packs:
            slots = pack.slots
            if slots is not None:  # the common case, without a call (30,000 reads a list)
                slot = slots.get(binsha)
                if slot is not None:
                    return pack, pack.offset_at(slot)
                continue
            off = pack.offset(binsha)
            if off is not None:
                return pack, off
        return None

    def _resolve(self, pack: _PackFile, off: int) -> RawObject:
        """The object at `off`: its delta chain followed down to a whole object (or a kept
        base), then applied back up. A loop, not recursion: chains may be 4,095 long."""
        key = (pack, off)
        base = self._bases.get(key)
        if base is not None:
            return base
        whole = _small_whole(pack.data, off)
        if whole is not None:
            return whole
        kind, body, base_at, _ = pack_entry(pack.data, off, len(pack.data))
        if base_at is None:
            return kind, body  # a whole object: no chain to follow
        chain: list[tuple[tuple[_PackFile, int], bytes]] = []
        seen = {key}
        while True:
            chain.append((key, body))
            if isinstance(base_at, int):
                off = base_at
            else:
                where = self._find(base_at)
                if where is None:
                    # A thin pack's base, kept loose or in a pack written since: dulwich
                    # finds it.
                    base = self.fallback(RawObjectID(base_at))
                    break
                pack, off = where
            key = (pack, off)
            base = self._bases.get(key)
            if base is not None:
                break
            if key in seen or len(chain) > _MAX_CHAIN:
                raise ValueError("a delta cycle, or a chain too long")  # dulwich says which
            seen.add(key)
            kind, body, base_at, _ = pack_entry(pack.data, off, len(pack.data))
            if base_at is None:
                base = (kind, body)
                self._remember(key, base)
                break
        for depth, (key, delta) in enumerate(reversed(chain)):
            base = (base[0], _joined(apply_delta(base[1], delta)))
            if depth < len(chain) - 1:
                self._remember(key, base)  # the base of the next link
        return base

    def _remember(self, key: tuple[_PackFile, int], obj: RawObject) -> None:
        if key in self._bases or len(obj[1]) > _BASES_BYTES // 8:
            return  # a huge base is inflated again rather than kept
        if self._bases_bytes + len(obj[1]) > _BASES_BYTES:
            self._bases.clear()
            self._bases_bytes = 0
        self._bases[key] = obj
        self._bases_bytes += len(obj[1])


def _small_whole(data: mmap.mmap, off: int) -> RawObject | None:
    """The whole object at `off` when its size fits its header's first two bytes and one
    window of its stream inflates to all of it (most trees and notes); else None, for
    pack_entry to read. pack_entry's steps, one call instead of two, and no loop: 30,000
    objects a cold `list` reads, about 1 µs each."""
    c = data[off]
    kind, size = (c >> 4) & 7, c & 15
    if not 1 <= kind <= 4:
        return None
    pos = off + 1
    if c & 0x80:
        c = data[pos]
        if c & 0x80:
            return None
        size |= c << 4
        pos += 1
    inflater = zlib.decompressobj()
    body = inflater.decompress(data[pos : pos + size + 64], size + 1)
    return (kind, body) if inflater.eof and len(body) == size else None


def _binary(name: object) -> bytes | None:
    """The 20-byte name of a 40-digit hex or 20-byte `name`; None for anything else."""
    if not isinstance(name, bytes):
        return None
    if len(name) == 20:
        return name
    if len(name) != 40:
        return None
    # One strict call: hex digits only (bytes.fromhex skips spaces, and wants a str first).
    try:
        return binascii.unhexlify(name)
    except binascii.Error:
        return None


def _joined(chunks: bytes | list[bytes]) -> bytes:
    return chunks if isinstance(chunks, bytes) else b"".join(chunks)


def install(object_store: BaseObjectStore) -> PackReader | None:
    """Make `object_store.get_raw` (and with it every read through the store) use a
    PackReader; None (dulwich left alone) for a store it cannot read (no pack folder, or
    names other than SHA-1)."""
    pack_dir = getattr(object_store, "pack_dir", None)
    object_format = getattr(object_store, "object_format", None)
    if not isinstance(pack_dir, str) or getattr(object_format, "oid_length", None) != 20:
        return None
    current = getattr(object_store.get_raw, "__self__", None)
    if isinstance(current, PackReader):
        return current  # a second Store over the same dulwich Repo
    reader = PackReader(pack_dir, object_store.get_raw)
    object_store.get_raw = reader.get_raw  # type: ignore[method-assign]
    return reader
