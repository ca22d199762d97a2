"""The submodule links (mode 160000) of the index, read from the file git writes, and kept
by the file's own checksum (`statefiles.INDEX_LINKS_CACHE`).

`list` warns about folders no commit can hold, among them a submodule added to the index and
not yet committed. dulwich parses an index of 20,000 entries in 0.3-0.6 s to learn that none is
a link; this reader walks the entries' fixed fields in 0.02 s. Git ends the file with a hash of
everything before it, so that hash keys the answer exactly (`index.skipHash` writes zeros
there: then it is never kept). Only a SHA-1 index whose trailing hash is right, of version 2,
3 or 4, without a split or sparse index, is read here; anything else is left to the store's
dulwich parse (`store/index_gitlinks`), so its errors stay dulwich's.
"""

from __future__ import annotations

import hashlib
import os
from struct import error as struct_error
from struct import unpack_from

from gitcurator.statefiles import read_cache_json, write_cache_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

_VERSION = 1
_HASH_BYTES = 32  # a SHA-256 index's trailer; for SHA-1 the key also takes 12 entry bytes
_GITLINK = 0o160000
_EXTENDED = 0x4000  # an entry flag: two more bytes of flags follow (version 3 and up)


def checksum(path: str) -> str | None:
    """The index's size and trailing hash, or None (no file, too short, or no hash kept)."""
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size < 12 + _HASH_BYTES:
                return None
            file.seek(size - _HASH_BYTES)
            tail = file.read(_HASH_BYTES)
    except OSError:
        return None
    return _key(size, tail)


def kept_links(cache: Path, key: str | None) -> set[str] | None:
    """The links kept for the index whose checksum is `key`, or None (none kept, or damaged)."""
    if key is None:
        return None
    doc = read_cache_json(cache)
    if (
        isinstance(doc, dict)
        and doc.get("version") == _VERSION
        and doc.get("index") == key
        and isinstance(doc.get("links"), list)
        and all(isinstance(p, str) for p in doc["links"])
    ):
        return set(doc["links"])
    return None


def keep_links(cache: Path, key: str | None, links: set[str]) -> None:
    """Keep `links` for the index whose checksum is `key` (nothing when it has none)."""
    if key is not None:
        doc = {"version": _VERSION, "index": key, "links": sorted(links)}
        write_cache_json(cache, doc)


def index_links(index: str, cache: Path) -> set[str] | None:
    """The links of the index file `index`: kept ones when its checksum matches, else read
    from the file (and kept); None when this reader leaves the file to dulwich (a missing
    index has none)."""
    found = kept_links(cache, checksum(index))
    if found is not None:
        return found
    try:
        with open(index, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        return set()  # as dulwich reads a missing index: empty
    except OSError:
        return None
    found = scan_links(data)
    if found is not None and len(data) >= 12 + _HASH_BYTES:
        keep_links(cache, _key(len(data), data[-_HASH_BYTES:]), found)
    return found


def scan_links(data: bytes) -> set[str] | None:
    """The stage-0 entries of mode 160000 in an index file's bytes, as dulwich names them
    (UTF-8, other bytes kept as escapes); None for a form this reader does not take."""
    if len(data) < 32 or data[:4] != b"DIRC" or hashlib.sha1(data[:-20]).digest() != data[-20:]:
        return None
    version, count = unpack_from(">LL", data, 4)
    if version not in (2, 3, 4):
        return None
    end = len(data) - 20
    found: set[str] = set()
    pos, previous = 12, b""
    try:
        for _ in range(count):
            (mode,) = unpack_from(">L", data, pos + 24)
            (flags,) = unpack_from(">H", data, pos + 60)
            at = pos + 62
            if flags & _EXTENDED:
                if version < 3:
                    return None
                at += 2
            if version == 4:
                strip, at = _varint(data, at)
                stop = data.index(b"\0", at)
                if strip > len(previous):
                    return None
                path = previous[: len(previous) - strip] + data[at:stop]
                pos = stop + 1
            else:
                size = flags & 0xFFF
                stop = at + size if size < 0xFFF else data.index(b"\0", at)
                path = data[at:stop]
                pos = pos + ((stop - pos + 8) & ~7)  # 1-8 NULs pad the entry to 8 bytes
            if pos > end or b"\0" in path:
                return None
            previous = path
            if mode == _GITLINK and not (flags >> 12) & 3:
                found.add(path.decode("utf-8", "surrogateescape"))
        if not _plain_extensions(data, pos, end):
            return None
    except (ValueError, IndexError, struct_error):  # struct.error is no ValueError
        return None
    return found


def _plain_extensions(data: bytes, pos: int, end: int) -> bool:
    """Whether the extensions after the entries leave every entry where it is: no split
    index (`link`: the entries live in another file) and no sparse index (`sdir`)."""
    while pos < end:
        if end - pos < 8:
            return False
        signature = data[pos : pos + 4]
        (size,) = unpack_from(">L", data, pos + 4)
        if signature in (b"link", b"sdir"):
            return False
        pos += 8 + size
    return pos == end


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """git's offset varint (index version 4's stripped length) at `at`, and where it ends."""
    byte = data[at]
    value = byte & 0x7F
    at += 1
    while byte & 0x80:
        byte = data[at]
        value = ((value + 1) << 7) | (byte & 0x7F)
        at += 1
    return value, at


def _key(size: int, tail: bytes) -> str | None:
    if tail[-20:] == bytes(20):
        return None
    return f"{size}:{tail.hex()}"
