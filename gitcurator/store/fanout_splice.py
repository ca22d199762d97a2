"""A fan-out folder of the notes tree edited as bytes: its entries spliced in, not parsed and
written again.

A folder holding notes only is git's tree of fixed 66-byte entries (`100644 `, the 38 hex
digits after the folder's two, NUL, the 20-byte blob id) in name order. A flush over 2,000
skills edits all 256 of them: parsing each into a dict and writing it out again cost ~70 µs a
folder, the splice ~15 µs. Anything else (another mode or name, entries out of order or
twice) answers None, and the caller edits the parsed tree as before, so the result is always
the tree store.notes_tree writes.
"""

from __future__ import annotations

import itertools
import re
from binascii import unhexlify
from bisect import bisect_left

_SIZE = 66  # len(b"100644 ") + 38 + 1 + 20
_FOLDER = re.compile(rb"(?:100644 [0-9a-f]{38}\x00.{20})*", re.DOTALL)

RawBlob = tuple[bytes, bytes | None]  # (hex id, content; None: already stored)


def spliced(raw: bytes, entries: dict[bytes, RawBlob]) -> tuple[bytes, list[RawBlob]] | None:
    """Folder `raw` with `entries` (38-hex name -> blob) set, and the blobs that changed an
    entry (to be stored); None when `raw` is not a folder of notes only, in order."""
    if len(raw) % _SIZE or _FOLDER.fullmatch(raw) is None:
        return None
    names = [raw[at + 7 : at + 45] for at in range(0, len(raw), _SIZE)]
    if any(a >= b for a, b in itertools.pairwise(names)):
        return None
    parts: list[bytes] = []
    changed: list[RawBlob] = []
    done = 0  # entries of `raw` copied so far
    for name in sorted(entries):
        blob = entries[name]
        binsha = unhexlify(blob[0])
        slot = bisect_left(names, name, done)
        parts.append(raw[done * _SIZE : slot * _SIZE])
        if slot < len(names) and names[slot] == name:
            done = slot + 1
            if raw[slot * _SIZE + 46 : done * _SIZE] == binsha:
                parts.append(raw[slot * _SIZE : done * _SIZE])
                continue
        else:
            done = slot
        parts.append(b"100644 " + name + b"\x00" + binsha)
        changed.append(blob)
    parts.append(raw[done * _SIZE :])
    return b"".join(parts), changed
