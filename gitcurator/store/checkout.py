"""The work tree and index following a branch from one tree to another, as `git checkout` does.

Only the paths that differ are touched, so `git status` stays clean and a library of 10,000
skills costs what changed.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.index import index_entry_from_stat
from dulwich.objects import ObjectID

from gitcurator.store.diff import diff_trees, parent_folders
from gitcurator.store.index import cached_index, write_cached_index
from gitcurator.store.objects import EXEC_MODE, GITLINK_MODE, LINK_MODE, read_blob
from gitcurator.store.paths import git_path
from gitcurator.store.stale_locks import refuse_if_locked

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def sync_worktree(store: Store, old_tree: ObjectID, new_tree: ObjectID) -> None:
    """Make the work tree and index go from `old_tree` to `new_tree`, touching only the files
    that differ (removed, written with their mode, symlinks as links); folders left empty go."""
    diff = diff_trees(store, old_tree, new_tree)
    index = cached_index(store)
    # The index is written last: with its lock taken (a killed git or gitcurator), refuse
    # before a single file moves rather than leave the work tree on one tree, the index on
    # the other.
    refuse_if_locked(Path(os.fsdecode(index.path)))
    # Every new file read before any old one goes: a blob that cannot be read (a damaged
    # store) stops the move with the work tree untouched, where its file there may be the
    # only sound copy left. What changed is held at once: the files of the moved skills.
    contents = {
        path: read_blob(store, new[0])
        for path, (_, new) in diff.files.items()
        if new is not None and new[1] != GITLINK_MODE
    }
    emptied: set[str] = set()
    for path, (_, new) in diff.files.items():
        if new is None:
            with contextlib.suppress(FileNotFoundError, IsADirectoryError, NotADirectoryError):
                os.unlink(store.root / path)
            key = git_path(path)
            if key in index:
                del index[key]
            emptied.update(parent_folders(path))
    for folder in sorted(emptied, key=lambda f: f.count("/"), reverse=True):
        with contextlib.suppress(OSError):  # not empty: it holds other files
            os.rmdir(store.root / folder)
    for path, (_, new) in sorted(diff.files.items()):
        if new is not None:
            st = _write_file(store.root / path, *new, contents.get(path, b""))
            index[git_path(path)] = index_entry_from_stat(st, *new)
    write_cached_index(store, index)


def _write_file(full: Path, sha: ObjectID, mode: int, data: bytes) -> os.stat_result:
    full.parent.mkdir(parents=True, exist_ok=True)
    if mode == GITLINK_MODE:  # a submodule: git leaves an empty folder until it is initialised
        full.mkdir(exist_ok=True)
        return os.lstat(full)
    # Written beside and renamed over: a kill never leaves half a file. Named by the blob, not
    # the file: a name near the file system's 255-byte limit leaves no room for a suffix.
    tmp = full.with_name(f".{sha.decode()[:16]}.gitcurator-tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    if mode == LINK_MODE:
        os.symlink(os.fsdecode(data), tmp)
    else:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o777 if mode == EXEC_MODE else 0o666
        )
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    os.replace(tmp, full)
    return os.lstat(full)
