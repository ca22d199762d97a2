"""The work tree with each file's blob id known without reading it, when its stat data says it
did not change: from the stat data `validate` kept last time, else from the index's.

A file is taken as unchanged only when its mtime, ctime, size, inode and mode all match what
was recorded, and it was last written more than a second before that record was made (git's
"racily clean" rule: a write in the same clock tick as the record would not show). Any other
file's id is found when it is read, from the bytes read, so what is checked and what is
remembered are always the same content.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dulwich.index import IndexEntry

from gitcurator import timeutil
from gitcurator.gitfiles.object_ids import BLOB, object_hex
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER, VENV_MARKER
from gitcurator.skills.files import MAX_LOADED_BYTES, FileEntry, FileTree
from gitcurator.store.index import open_index
from gitcurator.store.index_gitlinks import index_gitlinks
from gitcurator.store.objects import EXEC_MODE, FILE_MODE, LINK_MODE
from gitcurator.store.paths import git_path
from gitcurator.store.worktree import nested_repositories
from gitcurator.store.worktree_walk import (
    DirRecord,
    Walk,
    ignore_sources,
    is_record,
    names,
    walk_folders,
)

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

# "mtime-ns ctime-ns size inode mode blob-id": one file's record (one string: a cache of
# 20,000 of them is read in a few milliseconds, where lists of numbers cost a tenth of a second).
StatRecord = str
_ID = 40
# Past this many files of unknown content, reading the index (~0.3 s at 20,000 entries)
# costs less than reading the files.
_INDEX_AFTER = 500


@dataclass(slots=True)
class WorktreeRecords:
    """What a walk of the work tree recorded at `recorded_ns` (time.time_ns) for the next:
    each file's stat record, each folder's listing, the ignore rules' stat data, and the
    nested repositories found with what they depend on (HEAD's tree, the index file)."""

    recorded_ns: int = 0
    files: dict[str, StatRecord] = field(default_factory=dict)
    dirs: dict[str, DirRecord] = field(default_factory=dict)
    ignores: dict[str, list[int]] = field(default_factory=dict)
    sources: list[object] = field(default_factory=list)
    nested_key: list[object] = field(default_factory=list)
    nested: list[str] = field(default_factory=list)


@dataclass(slots=True)
class StatTree:
    """The work tree as a FileTree, with the blob ids known so far (`contents`, filled in as
    files are read), the nested repositories, and the records for the next run."""

    tree: FileTree
    nested: list[str]
    records: WorktreeRecords
    contents: dict[str, tuple[str, int]] = field(default_factory=dict)
    # Each file's stat as the walk took it, before anything was read (worktree_fingerprint).
    seen: dict[str, os.stat_result] = field(default_factory=dict)


def stat_worktree(
    store: Store,
    old: WorktreeRecords,
    started_ns: int,
    seen: tuple[Mapping[str, int], Mapping[str, os.stat_result]] | None = None,
) -> StatTree:
    """The files `git add -A` would see, read through the records `old` holds; the new
    records are stamped `started_ns` (taken before anything was looked at). `seen` are
    folders' ctimes and files' lstat results (by repo-relative path) taken since `started_ns`,
    used instead of a stat again (worktree_fingerprint.live_stats's)."""
    ctimes, lstats = seen or ({}, {})
    sources = ignore_sources(store)
    limit = old.recorded_ns - timeutil.RACY_NS
    # An ignore file written in the tick its stat was taken keeps its stat: racy, as below.
    racy = any(isinstance(sig, list) and sig[:1] >= [limit] for sig in sources)
    same = sources == old.sources and not racy
    walk = walk_folders(store, old.dirs if same else None, old.recorded_ns, ctimes)
    rules_changed = walk.ignores != old.ignores or any(
        sig[:1] >= [limit] for sig in walk.ignores.values()
    )
    if rules_changed and len(walk.relisted) < len(walk.dirs):
        walk = walk_folders(store)  # listings kept under other ignore rules do not hold
    nested, depends_on = _nested(store, walk, old)
    fresh = WorktreeRecords(started_ns, {}, walk.dirs, walk.ignores, sources, depends_on, nested)
    where: dict[str, str] = {}
    links: dict[str, str] = {}
    unknown: dict[str, list[int]] = {}
    known = old.files

    def load(path: str) -> FileEntry:
        entry, sha, sig = read_hashed(where[path], path)
        if sha is not None:
            result.contents[path] = (sha, sig[4])
            fresh.files[path] = f"{_text(sig)} {sha}"
        return entry

    result = StatTree(FileTree((), links, load), nested, fresh)
    for full, rel in walk.files:
        where[rel] = full
        try:
            st = lstats.get(rel) or os.lstat(full)
        except OSError:
            continue  # gone since the walk: reading it reports that
        result.seen[rel] = st
        sig = _signature(st)
        if sig[4] == LINK_MODE:
            links[rel] = os.readlink(full)
        record = known.get(rel)
        if (
            record is not None
            and record[: -_ID - 1] == _text(sig)
            and sig[0] < limit
            and sig[1] < limit
        ):
            result.contents[rel] = (record[-_ID:], sig[4])
            fresh.files[rel] = record
        else:
            unknown[rel] = sig
    if len(unknown) > _INDEX_AFTER:
        _ids_from_index(store, unknown, result)
    result.tree = FileTree(tuple(sorted(where)), links, load)
    return result


def records_changed(old: WorktreeRecords, new: WorktreeRecords) -> bool:
    """Whether `new` says more than `old`: a record taken over from `old` is the very same
    object, any other was made by this walk."""
    return (
        new.files.keys() != old.files.keys()
        or any(record is not old.files[p] for p, record in new.files.items())
        or new.dirs.keys() != old.dirs.keys()
        or any(record is not old.dirs[p] for p, record in new.dirs.items())
        or (new.ignores, new.sources, new.nested_key, new.nested)
        != (old.ignores, old.sources, old.nested_key, old.nested)
    )


def sound_records(doc: object) -> WorktreeRecords:
    """The records a cache file holds (TypeError when they do not have their shape)."""
    if not isinstance(doc, dict):
        raise TypeError("no work-tree records")
    recorded, files, dirs = doc["recorded_ns"], doc["files"], doc["dirs"]
    ignores, sources, nested_key, nested = (
        doc["ignores"],
        doc["sources"],
        doc["nested_key"],
        doc["nested"],
    )
    if not (
        isinstance(recorded, int)
        and isinstance(files, dict)
        and isinstance(dirs, dict)
        and isinstance(ignores, dict)
        and isinstance(sources, list)
        and isinstance(nested_key, list)
        and isinstance(nested, list)
        and all(isinstance(n, str) for n in nested)
        and all(
            isinstance(v, list) and all(isinstance(i, int) for i in v) for v in ignores.values()
        )
        and all(is_record(v) for v in dirs.values())
    ):
        raise TypeError("not work-tree records")
    for record in files.values():
        if type(record) is not str or len(record) <= _ID or record[-_ID - 1] != " ":
            raise TypeError("not a stat record")
    return WorktreeRecords(recorded, files, dirs, ignores, sources, nested_key, nested)


def _nested(store: Store, walk: Walk, old: WorktreeRecords) -> tuple[list[str], list[object]]:
    """nested_repositories, unless nothing it depends on changed since `old` was recorded:
    HEAD's tree and the index (submodule links), and each folder listed afresh holds the same
    folders, nested repositories and skill markers as before."""
    key = nested_key(store)
    reused = len(walk.relisted) < len(walk.dirs)
    if (
        reused
        and old.nested_key == key
        and all(_shape(walk.dirs[rel]) == _shape(old.dirs.get(rel)) for rel in walk.relisted)
    ):
        return old.nested, key
    return nested_repositories(store), key


def nested_key(store: Store) -> list[object]:
    """What the nested repositories depend on besides the folders: HEAD's tree id and the
    index's submodule links (NUL-joined: by content, so a `git status` or `git add` that
    rewrites the index without changing its links keeps the key)."""
    head = store.head_commit()
    tree = store.repo[head].tree.decode() if head else ""  # type: ignore[attr-defined]
    return [tree, "\0".join(sorted(index_gitlinks(store)))]


_MARKERS = (SKILL_FILE, SKILL_FILE_LOWER, VENV_MARKER)


def _shape(record: DirRecord | None) -> object:
    """What nested_repositories sees of one folder."""
    if record is None:
        return None
    keep, files, nested = names(record[2]), names(record[3]), record[4]
    assert isinstance(nested, list)
    markers = sorted(n for n in (*keep, *files) if n in _MARKERS)
    return keep, [n[0] for n in nested], markers


def _text(sig: list[int]) -> str:
    return " ".join(map(str, sig))


def _signature(st: os.stat_result) -> list[int]:
    executable = EXEC_MODE if st.st_mode & 0o111 else FILE_MODE
    mode = LINK_MODE if stat.S_ISLNK(st.st_mode) else executable
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, mode]


def _ids_from_index(store: Store, unknown: Mapping[str, list[int]], result: StatTree) -> None:
    """Blob ids of files whose stat matches their index entry (after a checkout or a reset,
    which rewrite files and the index, not validate's records)."""
    index = open_index(store)
    try:
        limit = os.stat(index.path).st_mtime_ns - timeutil.RACY_NS
    except OSError:
        return
    for rel, sig in unknown.items():
        key = git_path(rel)
        if key not in index:
            continue
        entry = index[key]
        if isinstance(entry, IndexEntry) and _index_matches(entry, sig) and sig[0] < limit:
            sha = entry.sha.decode()
            result.contents[rel] = (sha, sig[4])
            # Not written after the index was: as trustworthy as a record of this run's.
            result.records.files[rel] = f"{_text(sig)} {sha}"


def _index_matches(entry: IndexEntry, sig: list[int]) -> bool:
    mtime, ctime = _ns(entry.mtime), _ns(entry.ctime)
    return (
        entry.mode == sig[4]
        and entry.size == sig[2] % 2**32  # the index keeps 32 bits of the size
        and entry.ino == sig[3] % 2**32
        and mtime == sig[0]
        and ctime == sig[1]
    )


def _ns(value: object) -> int:
    if isinstance(value, tuple):
        return int(value[0]) * 1_000_000_000 + int(value[1])
    return int(float(value) * 1_000_000_000) if isinstance(value, (int, float)) else -1


def read_hashed(full: str, rel: str) -> tuple[FileEntry, str | None, list[int]]:
    """What worktree._read_file reads, the blob id of exactly those bytes (None for a file
    that is no regular file or symlink), and the stat it was read with."""
    st = os.lstat(full)
    sig = _signature(st)
    if stat.S_ISLNK(st.st_mode):
        target = os.readlink(full)
        return (FileEntry(rel, st.st_size, link_target=target), _blob_id(os.fsencode(target)), sig)
    if not stat.S_ISREG(st.st_mode):  # a FIFO blocks for good
        return FileEntry(rel, st.st_size, bool(st.st_mode & 0o111)), None, sig
    with open(full, "rb") as f:
        data = f.read()
    loaded = data if len(data) <= MAX_LOADED_BYTES else None
    sig[2] = len(data)  # a file that grew while read is not taken as unchanged next time
    return FileEntry(rel, st.st_size, bool(st.st_mode & 0o111), data=loaded), _blob_id(data), sig


def _blob_id(data: bytes) -> str:
    return object_hex(BLOB, data)
