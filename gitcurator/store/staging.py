"""From the work tree to a commit on the checked-out branch, the way `git add` + `git commit` do.

The work tree is staged as blobs held in memory (validation reads what will be committed),
then committed in one pack; the index is updated to match, so `git status` stays clean, and
the branch moves by compare-and-swap. Each file is read and hashed once: its blob id names
its content in the scan, its tree entry and its index entry.
"""

from __future__ import annotations

import binascii
import os
import pickle
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dulwich.index import IndexEntry
from dulwich.object_store import commit_tree_changes
from dulwich.objects import Blob, ObjectID, Tree
from dulwich.refs import Ref

from gitcurator import forked
from gitcurator.errors import StoreError
from gitcurator.gitfiles.object_ids import BLOB, object_hex
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.skills.document import has_ancestor_in
from gitcurator.skills.files import FileEntry, FileTree
from gitcurator.store.commits import make_commit
from gitcurator.store.index import entry_from_stat, open_index, stat_unchanged, write_cached_index
from gitcurator.store.objects import EXEC_MODE, FILE_MODE, LINK_MODE, file_entry
from gitcurator.store.pack_writer import RawObject, write_raw_pack
from gitcurator.store.paths import git_path
from gitcurator.store.refs import move_ref
from gitcurator.store.stale_locks import clears_stale_object_locks
from gitcurator.store.tree_build import build_trees
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


Blobs = dict[ObjectID, bytes]  # a staged file's content by its blob id (hex)
_BLOB = 3  # the pack's type number of a blob


@dataclass(frozen=True, slots=True)
class WorktreeScan:
    """What `git add -A` would stage: the files and their blobs' contents."""

    files: list[StagedFile]
    blobs: Blobs

    def add(self, full: str, rel: str) -> None:
        """Stage one more file (one written after the scan)."""
        self.files.append(_stage_file(full, rel, self.blobs))
        self.files.sort(key=lambda f: f.path)

    def file_entry(self, staged: StagedFile) -> FileEntry:
        """The staged file as validation sees it."""
        return file_entry(staged.path, self.blobs[staged.sha], staged.mode)


@dataclass(frozen=True, slots=True)
class WorktreeChanges:
    """Work-tree files that differ from HEAD: changed or new (staged as blobs) and removed."""

    changed: list[StagedFile]
    removed: list[str]
    blobs: Blobs

    @property
    def paths(self) -> list[str]:
        """Every changed or removed path, sorted."""
        return sorted([f.path for f in self.changed] + self.removed)


def blob_id(data: bytes) -> ObjectID:
    """The id git gives a blob of `data` (`git hash-object`)."""
    return ObjectID(object_hex(BLOB, data).encode("ascii"))


def _stage_file(full: str, rel: str, blobs: Blobs) -> StagedFile:
    st = os.lstat(full)
    if stat.S_ISLNK(st.st_mode):
        data = os.fsencode(os.readlink(full))
        mode = LINK_MODE
    elif not stat.S_ISREG(st.st_mode):  # the walk leaves these out: it became one since
        raise StoreError(
            f"cannot add {full}: it is not a file or a link (a FIFO, socket or device, which "
            "git does not store); remove it or add it to .gitignore, then run this again"
        )
    else:
        data = _read_all(full, st.st_size)
        mode = EXEC_MODE if st.st_mode & 0o111 else FILE_MODE
    sha = blob_id(data)
    blobs[sha] = data
    return StagedFile(rel, mode, sha, st)


def _read_all(full: str, size: int) -> bytes:
    """The file's bytes to its end, in one read when it still has the size its stat gave:
    three system calls, where open() and read() make seven (20,000 files: ~0.1 s)."""
    try:
        fd = os.open(full, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError as exc:
        raise _changed(full, exc) from None
    try:
        data = os.read(fd, size + 1)
        if len(data) == size:
            return data
        # Shorter: it shrank, or one read gave less (Linux stops at 2 GiB - 4 KiB, FUSE and
        # network file systems earlier). Longer: it grew. Either way, read on to its end.
        chunks = [data]
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _changed(full, exc) from None
    finally:
        os.close(fd)


def _changed(full: str, exc: OSError) -> StoreError:
    """A file gone, or turned into a folder or a link, between the walk and its read."""
    return StoreError(
        f"cannot read {full} ({exc.strerror or exc}): it changed while it was being read "
        "(removed, or replaced by a folder or a link); run this again"
    )


def _blob_objects(files: list[StagedFile], blobs: Blobs) -> list[RawObject]:
    """The blobs of `files` as raw objects for the pack, each once."""
    shas = dict.fromkeys(f.sha for f in files)
    return [(_BLOB, binascii.unhexlify(sha), blobs[sha]) for sha in shas]


def scan_worktree(store: Store, progress: Progress = NO_PROGRESS) -> WorktreeScan:
    """Stage every file `git add -A` would, as blobs held in memory until committed;
    `progress` hears how many files are read."""
    blobs: Blobs = {}
    found = list(walk_worktree(store))
    # Many files: a forked child reads and hashes every other one on another core.
    child = _second_reader(found[::2]) if len(found) > _SHARED_ABOVE else None
    try:
        files = [
            _stage_file(full, rel, blobs)
            for at, (full, rel) in enumerate(counted(found, "reading files", progress))
            if child is None or at % 2
        ]
        if child is not None:
            theirs = _unpickled(child.result())
            child = None
            if theirs is None:  # it failed: its share is read here
                files += [_stage_file(full, rel, blobs) for full, rel in found[::2]]
            else:
                handed, left = theirs
                for staged, data in handed:
                    files.append(staged)
                    blobs[staged.sha] = data
                files += [_stage_file(full, rel, blobs) for full, rel in left]
    finally:
        if child is not None:  # an interrupt or a failure here: the child is stopped
            child.stop()
    files.sort(key=lambda f: f.path)
    return WorktreeScan(files, blobs)


# Above this many files a second reader saves more than its fork costs.
_SHARED_ABOVE = 5000


def _second_reader(share: list[tuple[str, str]]) -> forked.Child | None:
    """A child staging `share`, when another core may (None: this process reads it all)."""
    if not forked.another_core():
        return None

    def staged() -> bytes:
        contents: Blobs = {}
        # Large files are left to the parent: handed over, each would be held three times
        # there at once (the pickle, the copy it makes, the scan's).
        small = [(full, rel) for full, rel in share if _size(full) <= _HANDED_UP_TO]
        files = [_stage_file(full, rel, contents) for full, rel in small]
        left = [(full, rel) for full, rel in share if _size(full) > _HANDED_UP_TO]
        staged = [(f, contents[f.sha]) for f in files]
        return pickle.dumps((staged, left), pickle.HIGHEST_PROTOCOL)

    return forked.start(staged)


# A second reader hands back files up to this size; larger ones the parent reads itself.
_HANDED_UP_TO = 1 << 20


def _size(full: str) -> int:
    try:
        return os.lstat(full).st_size
    except OSError:
        return 0  # the read says what happened to it


def _unpickled(
    data: bytes | None,
) -> tuple[list[tuple[StagedFile, bytes]], list[tuple[str, str]]] | None:
    """What a second reader staged, and the files it left to the parent (None if it
    failed)."""
    if not data:
        return None
    handed: tuple[list[tuple[StagedFile, bytes]], list[tuple[str, str]]]
    handed = pickle.loads(data)  # our own fork, a private pipe
    return handed


def scan_tree(scan: WorktreeScan) -> FileTree:
    """A scan as a FileTree, so what is checked is what gets committed."""
    by_path = {f.path: f for f in scan.files}
    links = {f.path: os.fsdecode(scan.blobs[f.sha]) for f in scan.files if f.mode == LINK_MODE}
    return FileTree(tuple(sorted(by_path)), links, lambda p: scan.file_entry(by_path[p]))


def worktree_changes(store: Store, folders: set[str]) -> WorktreeChanges:
    """Files added, modified or removed under `folders`, work tree against HEAD.

    A file whose index entry matches both HEAD and its stat is not re-read, so a large
    library with a few edits costs a walk and a handful of hashes.
    """
    head = store.head_entries()
    index = open_index(store)
    blobs: Blobs = {}
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
        staged = _stage_file(full, rel, blobs)
        if known != (staged.sha, staged.mode):
            changed.append(staged)
    removed = sorted(p for p in head if has_ancestor_in(p, folders) and p not in seen)
    return WorktreeChanges(changed, removed, blobs)


@clears_stale_object_locks
def commit_scan(store: Store, scan: WorktreeScan, message: str) -> ObjectID:
    """Commit exactly the scanned files as the new tree of the checked-out branch.

    Objects go in as one pack; the index is rewritten to match, so `git status` is clean.
    """
    unhexlify = binascii.unhexlify
    root, trees = build_trees((git_path(f.path), f.mode, unhexlify(f.sha)) for f in scan.files)
    parent = store.head_commit()
    commit = make_commit(store, ObjectID(root.hex().encode()), [parent] if parent else [], message)
    objects: list[RawObject] = [(commit.type_num, unhexlify(commit.id), commit.as_raw_string())]
    objects += [(Tree.type_num, sha, raw) for sha, raw in trees.items()]
    objects += _blob_objects(scan.files, scan.blobs)
    write_raw_pack(store, objects)
    index = open_index(store)
    index.clear()
    for f in scan.files:
        index[git_path(f.path)] = entry_from_stat(f.stat, f.sha, f.mode)
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
    index[git_path(path)] = entry_from_stat(os.lstat(full), blob.id, FILE_MODE)
    index.write()
    _advance_head(store, parent, commit.id)
    return commit.id


@clears_stale_object_locks
def commit_changes(store: Store, changes: WorktreeChanges, message: str) -> ObjectID:
    """Commit exactly these changes on top of HEAD and update their index entries."""
    parent = store.head_commit()
    write_raw_pack(store, _blob_objects(changes.changed, changes.blobs))
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
        index[git_path(f.path)] = entry_from_stat(f.stat, f.sha, f.mode)
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
