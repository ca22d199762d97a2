"""The folders of the notes tree the last write left (fan-out folders, `skills/`), kept as
their raw tree objects by id, so the next write edits them without reading them from the packs.

A flush of events over 2,000 skills rewrites all 256 fan-out folders of a 10,000-note tree:
reading them from the packs cost 25 ms of its ~0.3 s (each one an index search through every
pack, enough searches that the largest pack's index is turned into a dict), the keys folder
8 ms more. Each kept tree is used only after its content hashes to the id it is asked for, so a
stale, damaged or forged file can cost a read from the packs, never change a tree.
"""

from __future__ import annotations

import binascii
import hashlib
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator.statefiles import NOTES_TREES_CACHE, read_regular, write_cache

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

_MAGIC = b"gitcurator notes trees 1\n"
_ENTRY = struct.Struct(">20sI")  # binary id, length of the tree's content


def _path(store: Store) -> Path:
    return store.state_dir() / NOTES_TREES_CACHE


def read_kept(store: Store) -> dict[bytes, bytes]:
    """Hex id -> content of the trees kept by the last write (not yet checked: see `kept`)."""
    data = read_regular(_path(store))
    if data is None or not data.startswith(_MAGIC):
        return {}
    found = {}
    at = len(_MAGIC)
    try:
        while at < len(data):
            binsha, size = _ENTRY.unpack_from(data, at)
            at += _ENTRY.size
            if at + size > len(data):
                return {}  # truncated
            found[binascii.hexlify(binsha)] = data[at : at + size]
            at += size
    except struct.error:
        return {}
    return found


def kept(trees: dict[bytes, bytes], tree_id: bytes) -> bytes | None:
    """The content of tree `tree_id` from `trees` if it truly is that tree's, else None."""
    raw = trees.get(tree_id)
    if raw is None:
        return None
    if hashlib.sha1(b"tree %d\x00" % len(raw) + raw).hexdigest().encode() != tree_id:
        return None
    return raw


def keep(store: Store, trees: dict[bytes, bytes]) -> None:
    """Keep `trees` (hex id -> content) for the next write, replacing what was kept."""
    parts = [_MAGIC]
    for tree_id, raw in trees.items():
        parts += [_ENTRY.pack(binascii.unhexlify(tree_id), len(raw)), raw]
    write_cache(_path(store), b"".join(parts))
