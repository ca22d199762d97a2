"""The submodule links the index holds, cached by the index file's own checksum.

`list` warns about folders no commit can hold, among them a submodule added to the index and
not yet committed. Parsing an index of 20,000 entries in dulwich costs ~0.3 s a command just
to learn that none is a link; git ends the file with a hash of everything before it, so that
hash keys the answer exactly (`index.skipHash` writes zeros there: then it is never cached).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.index import IndexEntry

from gitcurator.statefiles import INDEX_LINKS_CACHE, read_json, state_folder, write_cache_json
from gitcurator.store.index import cached_index
from gitcurator.store.objects import GITLINK_MODE
from gitcurator.store.paths import text_path

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

_VERSION = 1
_HASH_BYTES = 32  # a SHA-256 index's trailer; for SHA-1 the key also takes 12 entry bytes


def index_gitlinks(store: Store) -> set[str]:
    """Repo-relative paths of the index's submodule links (mode 160000)."""
    index_path = _index_path(store)
    key = _checksum(index_path)
    cache = state_folder(Path(store.repo.commondir())) / INDEX_LINKS_CACHE
    if key is not None:
        doc = read_json(cache)
        if (
            isinstance(doc, dict)
            and doc.get("version") == _VERSION
            and doc.get("index") == key
            and isinstance(doc.get("links"), list)
            and all(isinstance(p, str) for p in doc["links"])
        ):
            return set(doc["links"])
    found = {
        text_path(path)
        for path, entry in cached_index(store).items()
        if isinstance(entry, IndexEntry) and entry.mode == GITLINK_MODE
    }
    # Written only when the file did not change while it was read.
    if key is not None and _checksum(index_path) == key:
        write_cache_json(cache, {"version": _VERSION, "index": key, "links": sorted(found)})
    return found


def _index_path(store: Store) -> str:
    alt = os.environ.get("GIT_INDEX_FILE")  # as store.index.open_index reads it
    return os.path.abspath(alt) if alt else store.repo.index_path()


def _checksum(path: str) -> str | None:
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
    if tail[-20:] == bytes(20):
        return None
    return f"{size}:{tail.hex()}"
