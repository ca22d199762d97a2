"""The submodule links the index holds, cached by the index file's own checksum.

`list` warns about folders no commit can hold, among them a submodule added to the index and
not yet committed. `gitfiles/index_links` reads them from the file and keeps them by the
hash git ends it with; an index it does not take (another hash, a split or sparse index, a
damaged file) is parsed by dulwich here, its answer kept the same way.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from dulwich.index import IndexEntry

from gitcurator.gitfiles.index_links import checksum, index_links, keep_links
from gitcurator.statefiles import INDEX_LINKS_CACHE
from gitcurator.store.index import cached_index
from gitcurator.store.objects import GITLINK_MODE
from gitcurator.store.paths import text_path

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def index_gitlinks(store: Store) -> set[str]:
    """Repo-relative paths of the index's submodule links (mode 160000)."""
    index_path = index_file(store)
    cache = store.state_dir() / INDEX_LINKS_CACHE
    found = index_links(index_path, cache)
    if found is not None:
        return found
    key = checksum(index_path)
    found = {
        text_path(path)
        for path, entry in cached_index(store).items()
        if isinstance(entry, IndexEntry) and entry.mode == GITLINK_MODE
    }
    # Written only when the file did not change while it was read.
    if checksum(index_path) == key:
        keep_links(cache, key, found)
    return found


def index_file(store: Store) -> str:
    """The index file git reads: $GIT_INDEX_FILE (as store.index.open_index reads it), else
    the git dir's."""
    alt = os.environ.get("GIT_INDEX_FILE")
    return os.path.abspath(alt) if alt else store.repo.index_path()
