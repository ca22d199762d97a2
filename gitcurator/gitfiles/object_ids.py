"""The id git gives an object: the SHA-1 of its type, its size and its content, as
`git hash-object` computes it. One home for every reader and writer that hashes objects
itself instead of building dulwich objects (the notes write, init's scan, a fetched pack).
"""

from __future__ import annotations

import hashlib

COMMIT, TREE, BLOB, TAG = 1, 2, 3, 4  # git's type numbers (in packs, and dulwich's)
_TYPE_NAMES = {COMMIT: b"commit", TREE: b"tree", BLOB: b"blob", TAG: b"tag"}


def object_digest(type_num: int, raw: bytes) -> bytes:
    """The binary (20-byte) id of an object of this type and content."""
    digest = hashlib.sha1(b"%s %d\0" % (_TYPE_NAMES[type_num], len(raw)))
    digest.update(raw)
    return digest.digest()


def object_hex(type_num: int, raw: bytes) -> str:
    """The hex id of an object of this type and content."""
    digest = hashlib.sha1(b"%s %d\0" % (_TYPE_NAMES[type_num], len(raw)))
    digest.update(raw)
    return digest.hexdigest()
