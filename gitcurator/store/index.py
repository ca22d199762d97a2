"""The index (git's staging area): opening it, reading what is staged, and its stat data."""

from __future__ import annotations

import binascii
import hashlib
import os
import struct
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING

from dulwich.errors import ChecksumMismatch
from dulwich.file import FileLocked, GitFile
from dulwich.index import Index, IndexEntry
from dulwich.objects import ObjectID

from gitcurator.errors import StoreError
from gitcurator.skills.files import FileEntry, FileTree
from gitcurator.store.objects import LINK_MODE, stored_file_entry
from gitcurator.store.paths import text_path
from gitcurator.store.stale_locks import lock_left

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

# A command reads the index to check the work tree, then to update it: once per store.
_CACHED: weakref.WeakKeyDictionary[Store, tuple[Index, tuple[int, ...]]]
_CACHED = weakref.WeakKeyDictionary()


def open_index(store: Store) -> Index:
    """The index as it is on disk now (GIT_INDEX_FILE's, when git set one); StoreError
    naming the file and the fix for one dulwich cannot read."""
    # git runs hooks of `commit -a` / `commit PATH` with a temporary index named here.
    alt = os.environ.get("GIT_INDEX_FILE")
    path = os.path.abspath(alt) if alt else store.repo.index_path()
    try:
        return Index(path)
    except (ChecksumMismatch, AssertionError, ValueError, IndexError, struct.error) as exc:
        # A split or sparse index (dulwich reads neither: a checksum error), or a damaged
        # file; with a plain index git and gitcurator read the same entries.
        raise StoreError(
            f"cannot read the index {path} ({type(exc).__name__}: {exc}): if it is a split or "
            "sparse index, run `git update-index --no-split-index` or `git sparse-checkout "
            f"disable`; if it is damaged, `rm {path} && git reset` rebuilds it from HEAD"
        ) from None


def cached_index(store: Store) -> Index:
    """The index, read again only when its file changed (git add, another process)."""
    index, seen = _CACHED.get(store, (None, ()))
    if index is None or _file_signature(index) != seen:
        index = open_index(store)
        _CACHED[store] = (index, _file_signature(index))
    return index


def write_cached_index(store: Store, index: Index) -> None:
    """Write an index got from cached_index, keeping it cached (LockLeft if its lock is
    taken)."""
    try:
        data = _plain_index_bytes(index)
        if data is None:
            index.write()
        else:
            _write_file(index, data)
    except FileLocked as exc:
        raise lock_left(exc) from None
    _CACHED[store] = (index, _file_signature(index))


def entry_from_stat(st: os.stat_result, sha: ObjectID, mode: int) -> IndexEntry:
    """The index entry of a file staged with this stat data (dulwich's
    index_entry_from_stat, without its checks: a third of its cost at 20,000 files)."""
    ctime, mtime = st.st_ctime_ns, st.st_mtime_ns
    return IndexEntry(
        ctime=(ctime // 1_000_000_000, ctime % 1_000_000_000),
        mtime=(mtime // 1_000_000_000, mtime % 1_000_000_000),
        dev=st.st_dev,
        ino=st.st_ino,
        mode=mode,
        uid=st.st_uid,
        gid=st.st_gid,
        size=st.st_size,
        sha=sha,
        flags=0,
        extended_flags=0,
    )


_ENTRY = struct.Struct(">LLLLLLLLLL20sH")
_NAME_MASK = 0xFFF


def _plain_index_bytes(index: Index) -> bytes | None:
    """The file dulwich's Index.write writes, for a plain index (version 2, SHA-1, no
    extensions, no flags, one stage per path), built in one piece: dulwich writes it a field
    at a time (0.25 s at 20,000 entries). None for any other index: dulwich writes that."""
    if (
        index._version not in (None, 2)
        or index._extensions
        or index._skip_hash
        or index._object_format.oid_length != 20
    ):
        return None
    parts = [b"DIRC", struct.pack(">LL", 2, len(index._byname))]
    pack, unhexlify = _ENTRY.pack, binascii.unhexlify
    try:
        for name in sorted(index._byname):
            e = index._byname[name]
            if (
                not isinstance(e, IndexEntry)
                or e.flags
                or e.extended_flags
                or len(name) >= _NAME_MASK
                or not isinstance(e.ctime, tuple)
                or not isinstance(e.mtime, tuple)
            ):
                return None
            parts.append(
                pack(
                    *e.ctime,
                    *e.mtime,
                    e.dev & 0xFFFFFFFF,
                    e.ino & 0xFFFFFFFF,
                    e.mode,
                    e.uid,
                    e.gid,
                    e.size,
                    unhexlify(e.sha),
                    len(name),
                )
            )
            # The name, then NULs (at least one) to the next multiple of 8 bytes.
            parts.append(name + b"\0" * (8 - (62 + len(name)) % 8))
    except (struct.error, binascii.Error, TypeError, ValueError):
        return None  # a value dulwich would refuse: it says so
    body = b"".join(parts)
    return body + hashlib.sha1(body).digest()


def _write_file(index: Index, data: bytes) -> None:
    """Replace the index file with `data` through its lock file, as Index.write does."""
    f = GitFile(index.path, "wb", shared_perm=index._shared_perm)
    try:
        f.write(data)
    except BaseException:
        f.abort()
        raise
    f.close()


def _file_signature(index: Index) -> tuple[int, ...]:
    try:
        st = os.stat(index.path)
    except FileNotFoundError:
        return ()
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)


def stat_unchanged(entry: IndexEntry, st: os.stat_result) -> bool:
    """Whether a file's stat matches its index entry (so its content need not be read)."""
    mtime = entry.mtime if isinstance(entry.mtime, tuple) else (int(entry.mtime), 0)
    return (
        entry.size == st.st_size
        and mtime == (st.st_mtime_ns // 1_000_000_000, st.st_mtime_ns % 1_000_000_000)
        and entry.ino == st.st_ino
    )


def staged_entries(store: Store) -> Iterator[tuple[str, ObjectID, int]]:
    """(path, blob sha, mode) of every stage-0 entry of the index."""
    index = open_index(store)
    for path, entry in index.items():
        if isinstance(entry, IndexEntry):
            yield text_path(path), entry.sha, entry.mode


def staged_tree(store: Store) -> FileTree:
    """What is staged for the next commit (honours GIT_INDEX_FILE, as git's hooks need)."""
    return stored_tree(store, {path: (sha, mode) for path, sha, mode in staged_entries(store)})


def staged_changes(store: Store) -> set[str]:
    """The paths the next commit adds, changes (content or mode) or removes against HEAD."""
    head = store.head_entries()
    staged = {path: (sha, mode) for path, sha, mode in staged_entries(store)}
    return {p for p in head.keys() | staged.keys() if head.get(p) != staged.get(p)}


def staged_snapshot(store: Store) -> tuple[FileTree, set[str], dict[str, tuple[ObjectID, int]]]:
    """staged_tree, staged_changes and the staged entries, from one read of the index (which
    costs ~0.3 s at 20,000 entries)."""
    staged = {path: (sha, mode) for path, sha, mode in staged_entries(store)}
    head = store.head_entries()
    changes = {p for p in head.keys() | staged.keys() if head.get(p) != staged.get(p)}
    return stored_tree(store, staged), changes, staged


def stored_tree(store: Store, entries: dict[str, tuple[ObjectID, int]]) -> FileTree:
    """Stored files (path -> (blob id, mode)) as a FileTree; blobs are read when asked for."""
    links = {
        p: os.fsdecode(store.repo.object_store[sha].as_raw_string())
        for p, (sha, mode) in entries.items()
        if mode == LINK_MODE
    }

    def load(path: str) -> FileEntry:
        sha, mode = entries[path]
        return stored_file_entry(store, path, sha, mode)

    return FileTree(tuple(sorted(entries)), links, load)
