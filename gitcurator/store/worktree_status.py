"""Is the work tree safe to move? Uncommitted changes to tracked files, and untracked files a
tree change would overwrite or strand, found the way `git status` finds them."""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.ignore import IgnoreFilterManager
from dulwich.index import IndexEntry
from dulwich.objects import Blob, ObjectID

from gitcurator.errors import StoreError
from gitcurator.store.commits import commit_tree_of
from gitcurator.store.diff import diff_trees, parent_folders
from gitcurator.store.index import cached_index, stat_unchanged
from gitcurator.store.objects import EXEC_MODE, FILE_MODE, GITLINK_MODE, LINK_MODE, TREE_MODE
from gitcurator.store.paths import git_path, text_path
from gitcurator.store.trees import tree_entries

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def dirty_paths(store: Store, within: Collection[str] = ()) -> list[str]:
    """Tracked files whose index or work-tree version differs from HEAD (staged or not, mode
    changes too), limited to files in the folders `within` when given. The index's stat data
    spares reading files that did not change, as git does."""
    head = store.head_commit()
    committed = tree_entries(store, commit_tree_of(store, head)) if head else {}
    index = cached_index(store)
    try:
        index_ns = os.stat(index.path).st_mtime_ns
    except FileNotFoundError:
        index_ns = 0
    dirty: set[str] = set()
    tracked: set[str] = set()
    prefixes = tuple(git_path(f) + b"/" for f in within)
    for key, entry in index.items():
        if prefixes and not key.startswith(prefixes):
            continue
        path = text_path(key)
        tracked.add(path)
        # A conflicted entry (an unfinished git merge) is dirty too.
        if (
            not isinstance(entry, IndexEntry)
            or committed.get(path) != (entry.sha, entry.mode)
            or _changed_on_disk(store, path, entry, index_ns)
        ):
            dirty.add(path)
    text_prefixes = tuple(f + "/" for f in within)
    dirty |= {
        p for p in committed if p not in tracked and (not within or p.startswith(text_prefixes))
    }
    return sorted(dirty)


def _changed_on_disk(store: Store, path: str, entry: IndexEntry, index_ns: int) -> bool:
    if entry.mode == GITLINK_MODE:
        return False
    try:
        st = os.lstat(store.root / path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    mode = _mode_of(st)
    if mode != entry.mode or not (stat.S_ISREG(st.st_mode) or mode == LINK_MODE):
        return True  # a FIFO, socket or device is no file git tracks (a FIFO blocks a read)
    mtime = entry.mtime if isinstance(entry.mtime, tuple) else (int(entry.mtime), 0)
    # Written in the second the index was: the stat cannot tell (git's "racily clean").
    racy = mtime[0] * 1_000_000_000 + mtime[1] >= index_ns - 1_000_000_000
    if stat_unchanged(entry, st) and not racy:
        return False
    return _hash_file(store.root / path, mode) != entry.sha


def _mode_of(st: os.stat_result) -> int:
    if stat.S_ISLNK(st.st_mode):
        return LINK_MODE
    if stat.S_ISDIR(st.st_mode):
        return TREE_MODE
    return EXEC_MODE if st.st_mode & 0o111 else FILE_MODE


def _hash_file(full: Path, mode: int) -> ObjectID:
    data = os.fsencode(os.readlink(full)) if mode == LINK_MODE else full.read_bytes()
    return Blob.from_string(data).id


def in_the_way(store: Store, old_tree: ObjectID, new_tree: ObjectID) -> list[str]:
    """Untracked files that going from `old_tree` to `new_tree` would overwrite, or leave behind
    alone in a skill folder that moves or goes (ignored files excepted)."""
    diff = diff_trees(store, old_tree, new_tree)
    tracked = {text_path(k) for k in cached_index(store).paths()}
    found: set[str] = set()
    checked: set[str] = set()
    for path, (old, new) in diff.files.items():
        if new is None:
            continue
        full = store.root / path
        taken = old is None and path not in tracked and os.path.lexists(full)
        # A folder holding only tracked files that go is no obstacle: it is emptied first.
        if taken and (
            not full.is_dir() or full.is_symlink() or any(_files_under(store, path, tracked))
        ):
            found.add(path)
        for folder in parent_folders(path):
            if folder in checked:
                break
            checked.add(folder)
            where = store.root / folder
            if folder not in tracked and (
                where.is_symlink() or (where.exists() and not where.is_dir())
            ):
                found.add(folder)
    ignore = IgnoreFilterManager.from_repo(store.repo)
    for folder in diff.whole_skill_folders():
        if folder in diff.removed_dirs:
            found.update(
                p for p in _files_under(store, folder, tracked) if not ignore.is_ignored(p)
            )
    return sorted(found)


def _files_under(store: Store, folder: str, tracked: Collection[str]) -> Iterator[str]:
    """Untracked files in a work-tree folder (repo-relative)."""
    for dirpath, dirs, files in os.walk(store.root / folder):
        rel = Path(dirpath).relative_to(store.root).as_posix()
        if ".git" in dirs or ".git" in files:
            # A nested repository: one obstacle, named once (its history must not be stranded).
            yield f"{rel}/.git"
            dirs[:] = [d for d in dirs if d != ".git"]
            files = [f for f in files if f != ".git"]
        for name in files:
            if f"{rel}/{name}" not in tracked:
                yield f"{rel}/{name}"


def refuse_unless_clean(
    store: Store,
    branch: str,
    old_tree: ObjectID,
    new_tree: ObjectID,
    action: str,
    within: Collection[str] = (),
) -> None:
    """Raise StoreError naming the paths if `branch` is checked out and its work tree cannot
    go from `old_tree` to `new_tree` safely: uncommitted changes to tracked files (under
    `within`, when given) or untracked files in the way."""
    if store.head_branch() != branch:
        return
    dirty = dirty_paths(store, within)
    if dirty:
        raise StoreError(
            f"cannot {action}: the work tree has uncommitted changes ({_some(dirty)}); nothing "
            "was changed. Commit them (`gitcurator commit -m ...`) or stash them (`git stash`), "
            "then run this again"
        )
    blocked = in_the_way(store, old_tree, new_tree)
    nested = [p.removesuffix("/.git") for p in blocked if p.endswith("/.git")]
    if nested:
        raise StoreError(
            f"cannot {action}: {_some(nested)} holds a nested repository (its own .git), which "
            "would be left behind; nothing was changed. Move it out of the library (or remove "
            "its .git), then run this again"
        )
    if blocked:
        raise StoreError(
            f"cannot {action}: untracked files are in the way ({_some(blocked)}); nothing was "
            "changed. Move them elsewhere or commit them, then run this again"
        )


def _some(paths: list[str], show: int = 8) -> str:
    more = len(paths) - show
    return ", ".join(paths[:show]) + (f" and {more} more" if more > 0 else "")
