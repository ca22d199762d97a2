"""Hand-made pack entries: what git accepts but does not write itself, and damage."""

from __future__ import annotations

import hashlib
import struct
import zlib


def blob_name(data: bytes) -> bytes:
    """The binary id of a blob holding `data`."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).digest()


def varint(n: int) -> bytes:
    """A delta's size field."""
    out = bytearray()
    while n > 0x7F:
        out.append(0x80 | (n & 0x7F))
        n >>= 7
    return bytes([*out, n])


def delta_of(base: bytes, target: bytes) -> bytes:
    """A delta making `target` of `base`: one copy of their common prefix, the rest inserted."""
    common = 0
    while common < min(len(base), len(target), 0xFFFF) and base[common] == target[common]:
        common += 1
    out = bytearray(varint(len(base)) + varint(len(target)))
    if common:
        out += bytes([0x80 | 0x10 | 0x20, common & 0xFF, common >> 8])  # copy 0..common
    rest = target[common:]
    for at in range(0, len(rest), 127):
        out += bytes([len(rest[at : at + 127])]) + rest[at : at + 127]
    return bytes(out)


def entry_header(kind: int, size: int) -> bytes:
    """A pack entry's type-and-size header."""
    out = bytearray()
    c = (kind << 4) | (size & 15)
    size >>= 4
    while size:
        out.append(c | 0x80)
        c, size = size & 0x7F, size >> 7
    return bytes([*out, c])


def ref_delta(base: bytes, target: bytes) -> bytes:
    """A pack entry: `target` as a delta against the blob `base`, named by its id."""
    delta = delta_of(base, target)
    return entry_header(7, len(delta)) + blob_name(base) + zlib.compress(delta)


def whole_blob(data: bytes) -> bytes:
    """A pack entry: the blob `data`, whole."""
    return entry_header(3, len(data)) + zlib.compress(data)


def pack_of(entries: list[bytes], count: int | None = None) -> bytes:
    """A version 2 pack of `entries` (its header saying `count`, default their number) and
    its checksum."""
    body = b"PACK" + struct.pack(">II", 2, len(entries) if count is None else count)
    body += b"".join(entries)
    return body + hashlib.sha1(body).digest()
