"""Merging, reverting and checking out trees, file by file (the dulwich side of merge/rollback).

dulwich's own merge has no rename detection and can corrupt the index when one side moved a
folder the other edited, and its revert fails on conflicts with a KeyError (DULWICH-NOTES.md).
So results are computed here in memory, at the level of files: a change is applied only when
no path was changed differently on both sides, and moves (an archive is `x/` -> `.archive/x/`)
are recognised, so a person's edit or deletion inside a folder the curator moved is a conflict
that names the person's path. Only a clean result is ever written.

The checked-out branch moves together with its work tree and index, and only the paths that
differ are touched, so `git status` stays clean and a library of 10,000 skills costs what
changed. Every ref moves by compare-and-swap.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import signal
import stat
import sys
import threading
import weakref
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from dulwich.ignore import IgnoreFilterManager
from dulwich.index import Index, IndexEntry, index_entry_from_stat
from dulwich.object_store import commit_tree_changes
from dulwich.objects import Blob, ObjectID, parse_tree
from dulwich.refs import Ref

from gitcurator.errors import StoreError
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER
from gitcurator.store.graph import load_commit
from gitcurator.store.repository import Store, _stat_unchanged

CommitId = ObjectID
TreeId = ObjectID
Entry = tuple[ObjectID, int]  # a file in a tree: (blob id, mode)
_FILE, _EXEC, _LINK, _GITLINK = 0o100644, 0o100755, 0o120000, 0o160000


@dataclass(frozen=True, slots=True)
class TreeDiff:
    """Files changed from one tree to another, and the folders only one of them has."""

    files: dict[str, tuple[Entry | None, Entry | None]]  # path -> (before, after)
    removed_dirs: set[str]
    added_dirs: set[str]


# A command diffs the same two trees to check, then to update the work tree, and reads the
# index for both: each is done once per store (a TreeDiff is never changed once made).
_DIFFS: weakref.WeakKeyDictionary[Store, dict[tuple[bytes | None, bytes | None], TreeDiff]]
_DIFFS = weakref.WeakKeyDictionary()
_INDEXES: weakref.WeakKeyDictionary[Store, tuple[Index, tuple[int, ...]]]
_INDEXES = weakref.WeakKeyDictionary()


def diff_trees(store: Store, old: ObjectID | None, new: ObjectID | None) -> TreeDiff:
    """What changed from `old` to `new` (None = the empty tree); identical subtrees are skipped,
    so the cost is what changed."""
    known = _DIFFS.setdefault(store, {})
    if (old, new) not in known:
        if len(known) > 8:
            known.clear()
        known[(old, new)] = diff = TreeDiff({}, set(), set())
        _diff(store, old, new, "", diff)
    return known[(old, new)]


def _index(store: Store) -> Index:
    """The index, read again only when its file changed (git add, another process)."""
    index, seen = _INDEXES.get(store, (None, ()))
    if index is None or _signature(index) != seen:
        index = store._open_index()
        _INDEXES[store] = (index, _signature(index))
    return index


def _write_index(store: Store, index: Index) -> None:
    index.write()
    _INDEXES[store] = (index, _signature(index))


def _signature(index: Index) -> tuple[int, ...]:
    try:
        st = os.stat(index.path)
    except FileNotFoundError:
        return ()
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)


def _items(store: Store, tree: ObjectID | None) -> dict[str, tuple[int, ObjectID]]:
    if tree is None:
        return {}
    _kind, raw = store.repo.object_store.get_raw(tree)
    return {
        name.decode("utf-8", "surrogateescape"): (mode, ObjectID(sha))
        for name, mode, sha in parse_tree(raw, store.repo.object_format.oid_length)
    }


def _diff(
    store: Store, old: ObjectID | None, new: ObjectID | None, prefix: str, out: TreeDiff
) -> None:
    if old == new:
        return
    before, after = _items(store, old), _items(store, new)
    for name in before.keys() | after.keys():
        was, now = before.get(name), after.get(name)
        if was == now:
            continue
        path = prefix + name
        was_dir = was is not None and stat.S_ISDIR(was[0])
        now_dir = now is not None and stat.S_ISDIR(now[0])
        if was_dir and not now_dir:
            out.removed_dirs.add(path)
        if now_dir and not was_dir:
            out.added_dirs.add(path)
        if was_dir or now_dir:
            sub_old = was[1] if was is not None and was_dir else None
            sub_new = now[1] if now is not None and now_dir else None
            _diff(store, sub_old, sub_new, path + "/", out)
        file_was = (was[1], was[0]) if was is not None and not was_dir else None
        file_now = (now[1], now[0]) if now is not None and not now_dir else None
        if file_was != file_now:
            out.files[path] = (file_was, file_now)


# -- three-way -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Applied:
    """The merged tree, or (when `conflicts` is not empty) no tree and the paths in the way."""

    tree: ObjectID | None
    conflicts: tuple[str, ...]


def three_way(store: Store, base: ObjectID, ours: ObjectID, theirs: ObjectID) -> Applied:
    """`ours` plus what `theirs` changed since `base`, when no path changed differently on both
    sides. Conflicts are also: a file one side moved that the other deleted or edited, and a
    file one side added inside a skill folder the other side removed or created whole."""
    if theirs in (base, ours):
        return Applied(ours, ())
    if ours == base:
        return Applied(theirs, ())
    mine, other = diff_trees(store, base, ours), diff_trees(store, base, theirs)
    conflicts = {
        p for p, (_, new) in mine.files.items() if p in other.files and other.files[p][1] != new
    }
    conflicts |= _crossed(mine, other) | _crossed(other, mine)
    if conflicts:
        return Applied(None, tuple(sorted(conflicts)))
    edits = [(p, new) for p, (_, new) in other.files.items() if p not in mine.files]
    return Applied(_edit(store, ours, edits), ())


def revert_tree(store: Store, commit: CommitId, onto: ObjectID) -> Applied:
    """`onto` with the changes of `commit` (against its first parent) undone."""
    obj = load_commit(store, commit)
    if len(obj.parents) != 1:
        raise StoreError(
            f"commit {commit.decode()[:12]} is a merge or a root; it cannot be reverted"
        )
    return three_way(store, obj.tree, onto, load_commit(store, obj.parents[0]).tree)


def _crossed(a: TreeDiff, b: TreeDiff) -> set[str]:
    """Paths where `b` changed something `a` moved away or replaced whole."""
    found: set[str] = set()
    landed: dict[Entry, list[str]] = {}
    for path, (_, new) in a.files.items():
        if new is not None:
            landed.setdefault(new, []).append(path)
    for path, (old, new) in a.files.items():
        if new is not None or old is None or old not in landed:
            continue
        # `a` moved this file away; `b` deleting it is fine only if `b` made the same move.
        deleted_by_b = path in b.files and b.files[path][1] is None
        if deleted_by_b and not any(_after(b, q) == old for q in landed[old]):
            found.add(path)
    whole = _whole_skill_folders(a)
    added_by_b = {p for p, (old, new) in b.files.items() if old is None and new is not None}
    for path in added_by_b:
        same = _after(a, path) == _after(b, path)
        if not same and any(f in whole for f in _parents(path)):
            found.add(path)
        # a file where the other side put a folder (or the reverse)
        if any(f in a.files and a.files[f][1] is not None for f in _parents(path)):
            found.add(path)
    return found


def _after(diff: TreeDiff, path: str) -> Entry | None:
    """What a changed path holds after the change (None: removed, or not changed at all)."""
    change = diff.files.get(path)
    return change[1] if change else None


def _whole_skill_folders(diff: TreeDiff) -> set[str]:
    """Skill folders this side removed or created as a whole (a move is both)."""
    folders: set[str] = set()
    for path, (old, new) in diff.files.items():
        folder, _, base = path.rpartition("/")
        if base not in (SKILL_FILE, SKILL_FILE_LOWER) or not folder:
            continue
        if (new is None and folder in diff.removed_dirs) or (
            old is None and folder in diff.added_dirs
        ):
            folders.add(folder)
    return folders


def _parents(path: str) -> Iterator[str]:
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


def _edit(store: Store, tree: ObjectID, edits: Iterable[tuple[str, Entry | None]]) -> ObjectID:
    """`tree` with files set or (None) removed; removals first, so a file may become a folder."""
    removals: list[tuple[bytes, int | None, ObjectID | None]] = []
    writes: list[tuple[bytes, int | None, ObjectID | None]] = []
    for path, entry in edits:
        key = path.encode("utf-8", "surrogateescape")
        if entry is None:
            removals.append((key, None, None))
        else:
            writes.append((key, entry[1], entry[0]))
    objects = store.repo.object_store
    if removals:
        tree = commit_tree_changes(objects, tree, removals)
    if writes:
        tree = commit_tree_changes(objects, tree, writes)
    return tree


# -- the work tree ---------------------------------------------------------------------------


def sync_worktree(store: Store, old_tree: ObjectID, new_tree: ObjectID) -> None:
    """Make the work tree and index go from `old_tree` to `new_tree`, touching only the files
    that differ (removed, written with their mode, symlinks as links); folders left empty go."""
    diff = diff_trees(store, old_tree, new_tree)
    index = _index(store)
    emptied: set[str] = set()
    for path, (_, new) in diff.files.items():
        if new is None:
            with contextlib.suppress(FileNotFoundError, IsADirectoryError, NotADirectoryError):
                os.unlink(store.root / path)
            key = path.encode("utf-8", "surrogateescape")
            if key in index:
                del index[key]
            emptied.update(_parents(path))
    for folder in sorted(emptied, key=lambda f: f.count("/"), reverse=True):
        with contextlib.suppress(OSError):  # not empty: it holds other files
            os.rmdir(store.root / folder)
    for path, (_, new) in sorted(diff.files.items()):
        if new is not None:
            st = _write_file(store, store.root / path, *new)
            index[path.encode("utf-8", "surrogateescape")] = index_entry_from_stat(st, *new)
    _write_index(store, index)


def _write_file(store: Store, full: Path, sha: ObjectID, mode: int) -> os.stat_result:
    full.parent.mkdir(parents=True, exist_ok=True)
    if mode == _GITLINK:  # a submodule: git leaves an empty folder until it is initialised
        full.mkdir(exist_ok=True)
        return os.lstat(full)
    data = store.read_blob(sha)
    # Written beside and renamed over: a kill never leaves half a file.
    tmp = full.with_name(f".{full.name}.gitcurator-tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    if mode == _LINK:
        os.symlink(os.fsdecode(data), tmp)
    else:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o777 if mode == _EXEC else 0o666)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    os.replace(tmp, full)
    return os.lstat(full)


def dirty_paths(store: Store, within: Collection[str] = ()) -> list[str]:
    """Tracked files whose index or work-tree version differs from HEAD (staged or not, mode
    changes too), limited to files in the folders `within` when given. The index's stat data
    spares reading files that did not change, as git does."""
    head = store.head_commit()
    committed = store.tree_entries(load_commit(store, head).tree) if head else {}
    index = _index(store)
    try:
        index_ns = os.stat(index.path).st_mtime_ns
    except FileNotFoundError:
        index_ns = 0
    dirty: set[str] = set()
    tracked: set[str] = set()
    prefixes = tuple(f.encode("utf-8", "surrogateescape") + b"/" for f in within)
    for key, entry in index.items():
        if prefixes and not key.startswith(prefixes):
            continue
        path = key.decode("utf-8", "surrogateescape")
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
    if entry.mode == _GITLINK:
        return False
    try:
        st = os.lstat(store.root / path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    mode = _mode_of(st)
    if mode != entry.mode:
        return True
    mtime = entry.mtime if isinstance(entry.mtime, tuple) else (int(entry.mtime), 0)
    # Written in the second the index was: the stat cannot tell (git's "racily clean").
    racy = mtime[0] * 1_000_000_000 + mtime[1] >= index_ns - 1_000_000_000
    if _stat_unchanged(entry, st) and not racy:
        return False
    return _hash_file(store.root / path, mode) != entry.sha


def _mode_of(st: os.stat_result) -> int:
    if stat.S_ISLNK(st.st_mode):
        return _LINK
    if stat.S_ISDIR(st.st_mode):
        return 0o040000
    return _EXEC if st.st_mode & 0o111 else _FILE


def _hash_file(full: Path, mode: int) -> ObjectID:
    data = os.fsencode(os.readlink(full)) if mode == _LINK else full.read_bytes()
    return Blob.from_string(data).id


def in_the_way(store: Store, old_tree: ObjectID, new_tree: ObjectID) -> list[str]:
    """Untracked files that going from `old_tree` to `new_tree` would overwrite, or leave behind
    alone in a skill folder that moves or goes (ignored files excepted)."""
    diff = diff_trees(store, old_tree, new_tree)
    tracked = {k.decode("utf-8", "surrogateescape") for k in _index(store).paths()}
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
        for folder in _parents(path):
            if folder in checked:
                break
            checked.add(folder)
            where = store.root / folder
            if folder not in tracked and (
                where.is_symlink() or (where.exists() and not where.is_dir())
            ):
                found.add(folder)
    ignore = IgnoreFilterManager.from_repo(store.repo)
    for folder in _whole_skill_folders(diff):
        if folder in diff.removed_dirs:
            found.update(
                p for p in _files_under(store, folder, tracked) if not ignore.is_ignored(p)
            )
    return sorted(found)


def _files_under(store: Store, folder: str, tracked: Collection[str]) -> Iterator[str]:
    """Untracked files in a work-tree folder (repo-relative)."""
    for dirpath, _dirs, files in os.walk(store.root / folder):
        rel = Path(dirpath).relative_to(store.root).as_posix()
        for name in files:
            if f"{rel}/{name}" not in tracked:
                yield f"{rel}/{name}"


# -- branches -----------------------------------------------------------------------------


_deferring = False


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) until the block is done, then raise KeyboardInterrupt.

    For steps that must happen together or not at all: the work tree moving with its branch
    ref (seconds at thousands of skills), a merge and the archive times it records. Nested
    blocks defer to the outermost; outside the main thread, or where SIGINT is ignored, it is
    a no-op.
    """
    global _deferring
    if (
        _deferring
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ):
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: object) -> None:
        if not caught:
            print("gitcurator: finishing this step first, then stopping", file=sys.stderr)
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    _deferring = True
    try:
        yield
    finally:
        _deferring = False
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def advance_branch(store: Store, branch: str, old: CommitId, new: CommitId, why: str) -> bool:
    """Move refs/heads/<branch> from `old` to `new` by compare-and-swap. When the branch is
    checked out its work tree and index follow (only paths that differ); returns whether it
    was. If the branch moved meanwhile, nothing changes and StoreError says so. Ctrl-C waits
    until the work tree, index and ref all agree again."""
    with interrupts_deferred():
        return _advance_branch(store, branch, old, new, why)


def _advance_branch(store: Store, branch: str, old: CommitId, new: CommitId, why: str) -> bool:
    ref = Ref(f"refs/heads/{branch}".encode())
    refs = store.repo.refs
    checked_out = store.head_branch() == branch
    old_tree, new_tree = load_commit(store, old).tree, load_commit(store, new).tree
    if checked_out:
        if refs[ref] != old:
            raise _moved(branch)
        sync_worktree(store, old_tree, new_tree)
    if not refs.set_if_equals(ref, old, new, committer=store._identity(), message=why.encode()):
        if checked_out:
            sync_worktree(store, new_tree, old_tree)
        raise _moved(branch)
    return checked_out


def _moved(branch: str) -> StoreError:
    return StoreError(
        f"branch {branch} moved while gitcurator was working; nothing was changed, run it again"
    )


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
    if blocked:
        raise StoreError(
            f"cannot {action}: untracked files are in the way ({_some(blocked)}); nothing was "
            "changed. Move them elsewhere or commit them, then run this again"
        )


def _some(paths: list[str], show: int = 8) -> str:
    more = len(paths) - show
    return ", ".join(paths[:show]) + (f" and {more} more" if more > 0 else "")


def remove_folders(store: Store, tree: ObjectID, folders: Iterable[str]) -> ObjectID:
    """`tree` without these folders (each removed whole; parents left empty go too)."""
    removals = [(f.encode("utf-8", "surrogateescape"), None, None) for f in folders]
    return commit_tree_changes(store.repo.object_store, tree, removals)
