"""One entry of a git pack read from its bytes (mapped or in memory): its header, its delta
base, its inflated body and where the next entry starts. The pack reader follows delta
chains through it; a fetched pack is walked entry by entry through it (store/thin_pack).
"""

from __future__ import annotations

import mmap
import zlib

OFS_DELTA, REF_DELTA = 6, 7


class ObjectTooLarge(Exception):
    """A pack entry larger than the caller's budget (checked before it is inflated)."""


def pack_entry(
    data: bytes | mmap.mmap, off: int, limit: int, budget: int | None = None
) -> tuple[int, bytes, int | bytes | None, int]:
    """The pack entry at `off` (of a pack whose entries end at `limit`): its type, its
    inflated body (a delta for the delta kinds), its base (an offset, a name, or None for a
    whole object) and where the next entry starts. ObjectTooLarge, before inflating, for a
    body larger than `budget`."""
    c = data[off]
    pos = off + 1
    kind, size, shift = (c >> 4) & 7, c & 15, 4
    while c & 0x80:
        c = data[pos]
        pos += 1
        size |= (c & 0x7F) << shift
        shift += 7
    if budget is not None and size > budget:
        raise ObjectTooLarge(f"an object of {size} bytes")
    base_at: int | bytes | None = None
    if kind == OFS_DELTA:
        c = data[pos]
        pos += 1
        back = c & 0x7F
        while c & 0x80:
            c = data[pos]
            pos += 1
            back = ((back + 1) << 7) | (c & 0x7F)
        if not 0 < back <= off - 12:
            raise ValueError("delta base outside the pack")
        base_at = off - back
    elif kind == REF_DELTA:
        base_at = bytes(data[pos : pos + 20])
        pos += 20
    elif not 1 <= kind <= 4:
        raise ValueError(f"object type {kind}")
    body, end = _inflate(data, pos, size, limit)
    return kind, body, base_at, end


def _inflate(data: bytes | mmap.mmap, pos: int, size: int, limit: int) -> tuple[bytes, int]:
    """The `size` bytes zlib-compressed at `pos`, and where their stream ends. The compressed
    length is not stored: a window a little larger than the result is read, more while the
    stream goes on; the output is bounded by `size`, so a stream that inflates to more than
    its header says (a pack crafted to fill memory) stops one byte past it."""
    inflater = zlib.decompressobj()
    window = size + 64
    fed = min(pos + window, len(data))
    parts = [inflater.decompress(data[pos:fed], size + 1)]
    got = len(parts[0])
    while not inflater.eof:
        if got > size:
            raise ValueError("object larger than its header says")
        if fed >= limit:
            raise ValueError("object runs past the end of the pack")
        window *= 2
        chunk = data[fed : fed + window]
        fed += len(chunk)
        parts.append(inflater.decompress(inflater.unconsumed_tail + chunk, size + 1 - got))
        got += len(parts[-1])
    if got != size:
        raise ValueError("object size differs from its header")
    out = parts[0] if len(parts) == 1 else b"".join(parts)
    return out, fed - len(inflater.unused_data) - len(inflater.unconsumed_tail)
