"""From the work tree to a commit on the checked-out branch, the way `git add` + `git commit` do.

The work tree is staged as blobs held in memory (validation reads what will be committed),
then committed in one pack; the index is updated to match, so `git status` stays clean, and
the branch moves by compare-and-swap.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dulwich.index import IndexEntry, commit_tree, index_entry_from_stat
from dulwich.object_store import commit_tree_changes
from dulwich.objects import Blob, ObjectID, Tree
from dulwich.refs import Ref

from gitcurator.errors import StoreError
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.skills.document import has_ancestor_in
from gitcurator.skills.files import FileEntry, FileTree
from gitcurator.store.commits import make_commit
from gitcurator.store.index import open_index, stat_unchanged, write_cached_index
from gitcurator.store.objects import EXEC_MODE, FILE_MODE, LINK_MODE, ObjectBatch, file_entry
from gitcurator.store.pack_writer import write_pack
from gitcurator.store.paths import git_path
from gitcurator.store.refs import move_ref
from gitcurator.store.stale_locks import clears_stale_object_locks
from gitcurator.store.worktree import walk_worktree

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


@dataclass(frozen=True, slots=True)
class StagedFile:
    """A file as the work tree has it, ready to become an index entry."""

    path: str
    mode: int
    sha: ObjectID
    stat: os.stat_result


@dataclass(frozen=True, slots=True)
class WorktreeScan:
    """What `git add -A` would stage: the files and their blobs."""

    files: list[StagedFile]
    batch: ObjectBatch

    def add(self, full: str, rel: str) -> None:
        """Stage one more file (one written after the scan)."""
        self.files.append(_stage_file(full, rel, self.batch))
        self.files.sort(key=lambda f: f.path)

    def file_entry(self, staged: StagedFile) -> FileEntry:
        """The staged file as validation sees it."""
        return file_entry(staged.path, self.batch.objects[staged.sha].as_raw_string(), staged.mode)


@dataclass(frozen=True, slots=True)
class WorktreeChanges:
    """Work-tree files that differ from HEAD: changed or new (staged as blobs) and removed."""

    changed: list[StagedFile]
    removed: list[str]
    batch: ObjectBatch

    @property
    def paths(self) -> list[str]:
        """Every changed or removed path, sorted."""
        return sorted([f.path for f in self.changed] + self.removed)


def _stage_file(full: str, rel: str, batch: ObjectBatch) -> StagedFile:
    st = os.lstat(full)
    if stat.S_ISLNK(st.st_mode):
        blob = Blob.from_string(os.fsencode(os.readlink(full)))
        mode = LINK_MODE
    else:
        with open(full, "rb") as f:
            blob = Blob.from_string(f.read())
        mode = EXEC_MODE if st.st_mode & 0o111 else FILE_MODE
    batch.add_object(blob)
    return StagedFile(rel, mode, blob.id, st)


def scan_worktree(store: Store, progress: Progress = NO_PROGRESS) -> WorktreeScan:
    """Stage every file `git add -A` would, as blobs held in memory until committed;
    `progress` hears how many files are read."""
    batch = ObjectBatch()
    found = list(walk_worktree(store))
    files = [
        _stage_file(full, rel, batch) for full, rel in counted(found, "reading files", progress)
    ]
    files.sort(key=lambda f: f.path)
    return WorktreeScan(files, batch)


def scan_tree(scan: WorktreeScan) -> FileTree:
    """A scan as a FileTree, so what is checked is what gets committed."""
    by_path = {f.path: f for f in scan.files}
    links = {
        f.path: os.fsdecode(scan.batch.objects[f.sha].as_raw_string())
        for f in scan.files
        if f.mode == LINK_MODE
    }
    return FileTree(tuple(sorted(by_path)), links, lambda p: scan.file_entry(by_path[p]))


def worktree_changes(store: Store, folders: set[str]) -> WorktreeChanges:
    """Files added, modified or removed under `folders`, work tree against HEAD.

    A file whose index entry matches both HEAD and its stat is not re-read, so a large
    library with a few edits costs a walk and a handful of hashes.
    """
    head = store.head_entries()
    index = open_index(store)
    batch = ObjectBatch()
    changed: list[StagedFile] = []
    seen: set[str] = set()
    for full, rel in walk_worktree(store):
        if not has_ancestor_in(rel, folders):
            continue
        seen.add(rel)
        known = head.get(rel)
        entry = index[git_path(rel)] if known and git_path(rel) in index else None
        if (
            known
            and isinstance(entry, IndexEntry)
            and entry.sha == known[0]
            and stat_unchanged(entry, os.lstat(full))
        ):
            continue
        staged = _stage_file(full, rel, batch)
        if known != (staged.sha, staged.mode):
            changed.append(staged)
    removed = sorted(p for p in head if has_ancestor_in(p, folders) and p not in seen)
    return WorktreeChanges(changed, removed, batch)


@clears_stale_object_locks
def commit_scan(store: Store, scan: WorktreeScan, message: str) -> ObjectID:
    """Commit exactly the scanned files as the new tree of the checked-out branch.

    Objects go in as one pack; the index is rewritten to match, so `git status` is clean.
    """
    batch = scan.batch
    tree_id = commit_tree(batch, ((git_path(f.path), f.sha, f.mode) for f in scan.files))  # type: ignore[arg-type]
    parent = store.head_commit()
    commit = make_commit(store, tree_id, [parent] if parent else [], message)
    batch.add_object(commit)
    write_pack(store, batch.objects.values())
    index = open_index(store)
    index.clear()
    for f in scan.files:
        index[git_path(f.path)] = index_entry_from_stat(f.stat, f.sha, f.mode)
    # Kept cached: init asks for the index's submodule links next (a re-read, 0.3 s).
    write_cached_index(store, index)
    _advance_head(store, parent, commit.id)
    return commit.id


@clears_stale_object_locks
def commit_new_file(store: Store, path: str, data: bytes, message: str) -> ObjectID:
    """Write `path` to the work tree and commit it on top of HEAD, leaving all else as is."""
    parent = store.head_commit()
    if parent is None:
        raise StoreError("commit_new_file needs a repository with at least one commit")
    full = store.root / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_bytes(data)
    blob = Blob.from_string(data)
    store.repo.object_store.add_object(blob)
    base_tree = store.repo[parent].tree  # type: ignore[attr-defined]
    tree = commit_tree_changes(
        store.repo.object_store, base_tree, [(git_path(path), FILE_MODE, blob.id)]
    )
    commit = make_commit(store, tree, [parent], message)
    store.repo.object_store.add_object(commit)
    index = open_index(store)
    index[git_path(path)] = index_entry_from_stat(os.lstat(full), blob.id, FILE_MODE)
    index.write()
    _advance_head(store, parent, commit.id)
    return commit.id


@clears_stale_object_locks
def commit_changes(store: Store, changes: WorktreeChanges, message: str) -> ObjectID:
    """Commit exactly these changes on top of HEAD and update their index entries."""
    parent = store.head_commit()
    changes.batch.store_in(store)
    edits: list[tuple[bytes, int | None, ObjectID | None]] = [
        (git_path(f.path), f.mode, f.sha) for f in changes.changed
    ]
    edits += [(git_path(p), None, None) for p in changes.removed]
    base = store.repo[parent].tree if parent else None  # type: ignore[attr-defined]
    if base is None:
        empty = Tree()
        store.repo.object_store.add_object(empty)
        base = empty.id
    tree = commit_tree_changes(store.repo.object_store, base, edits)
    commit = make_commit(store, tree, [parent] if parent else [], message)
    store.repo.object_store.add_object(commit)
    index = open_index(store)
    for f in changes.changed:
        index[git_path(f.path)] = index_entry_from_stat(f.stat, f.sha, f.mode)
    for path in changes.removed:
        if git_path(path) in index:
            del index[git_path(path)]
    index.write()
    _advance_head(store, parent, commit.id)
    return commit.id


def _advance_head(store: Store, old: ObjectID | None, new: ObjectID) -> None:
    """Move the checked-out branch (whose index now matches `new`) from `old` to `new`,
    refusing if someone moved it."""
    branch = store.repo.refs.get_symrefs().get(Ref(b"HEAD")) or Ref(b"HEAD")
    if not move_ref(store, branch, old, new):
        raise StoreError("the branch moved while gitcurator was committing; run it again")
