"""Objects read once for a whole sync: every raw object the store gives is kept by id.

A sync reads the same objects several times: the tree diff that counts what a push sends,
then the push's walk and its deltas (498 fan-out trees at 10,000 notes); the merge's diff and
its 3,000 records, then the edit of the local tree and the push, whose objects and delta
bases are those same trees and records. An object's content never changes under its id, so
what was read is kept for the rest of the session, up to a bound.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dulwich.object_store import BaseObjectStore

# Bytes kept at most (the notes trees and records of 10,000 skills are ~15 MB), and the
# largest object kept: a large file is read again rather than held.
KEPT_BYTES = 64 * 1024 * 1024
LARGEST_KEPT = 1024 * 1024


@contextlib.contextmanager
def objects_kept(object_store: BaseObjectStore) -> Iterator[None]:
    """Within the block, each object `object_store.get_raw` reads is read only once."""
    read = object_store.get_raw
    own = "get_raw" in vars(object_store)  # an instance's reader (store.pack_reader's)
    kept: dict[bytes, tuple[int, bytes]] = {}
    held = 0

    def get_raw(name: bytes) -> tuple[int, bytes]:
        nonlocal held
        found = kept.get(name)
        if found is None:
            found = read(name)  # type: ignore[arg-type]
            size = len(found[1])
            if size <= LARGEST_KEPT and held + size <= KEPT_BYTES:
                kept[name] = found
                held += size
        return found

    object_store.get_raw = get_raw  # type: ignore[method-assign]
    try:
        yield
    finally:
        if own:
            object_store.get_raw = read  # type: ignore[method-assign]
        else:
            del object_store.get_raw
