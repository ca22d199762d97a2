"""Commits as lists of changed paths, walked once and cached, for the facts history gives.

dulwich's path-limited walk diffs the whole tree once per path and commit; one walk over all
commits with one tree diff each (a commit costs what it changed) and a per-commit cache make
a repeat cost only the commits that are new.

The cache (`.git/gitcurator/history-cache.json`) holds, per commit id, its parents, time,
message and changed paths. A commit's diff never changes, so entries stay true forever; after
a rewrite (amend, rebase) the commits no longer reachable are dropped and only the new ones
are diffed.
"""

from __future__ import annotations

import contextlib
import json
import stat
from collections.abc import Container, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dulwich.objects import Commit, ObjectID, parse_tree

from gitcurator.lifecycle.skill_history import CommitChanges, SkillHistory, fold_history
from gitcurator.statefiles import HISTORY_CACHE, read_json, state_folder, write_atomic
from gitcurator.store.repository import Store
from gitcurator.timeutil import format_time

_CACHE_VERSION = 1


@dataclass(frozen=True, slots=True)
class _Entry:
    """One walked commit: its changes and the parents they were taken against."""

    parents: tuple[str, ...]
    changes: CommitChanges


def skill_histories(
    store: Store,
    skill_folders: Mapping[str, str],
    skills_dir: str = "",
    head: ObjectID | None = None,
) -> dict[str, SkillHistory]:
    """created_at / patch_count / last_patched_at per identity, from the history of `head`
    (default HEAD); `skill_folders` maps every tracked skill folder to its identity."""
    head = head or store.head_commit()
    changes = history_changes(store, head) if head is not None else []
    return fold_history(changes, skill_folders, skills_dir)


def history_changes(store: Store, head: ObjectID) -> list[CommitChanges]:
    """Every commit reachable from `head`, oldest first, through the cache (which it updates)."""
    path = cache_path(store)
    shallow = sorted(s.decode() for s in store.repo.get_shallow())
    cached_head, cached = _read_cache(path, shallow)
    if cached_head == head.decode():
        return [entry.changes for entry in cached.values()]
    new = _walk(store, head, cached)
    kept = _reachable(head.decode(), new, cached)
    entries = {sha: entry for sha, entry in cached.items() if sha in kept}
    entries.update(new)
    _write_cache(path, head.decode(), shallow, entries)
    return [entry.changes for entry in entries.values()]


def cache_path(store: Store) -> Path:
    """The cache file, beside gitcurator's other per-clone state (as `telemetry.state_of`)."""
    return state_folder(Path(store.repo.commondir())) / HISTORY_CACHE


def walk_changes(
    store: Store, head: ObjectID, stop_at: AbstractSet[ObjectID] = frozenset()
) -> list[CommitChanges]:
    """Commits reachable from `head`, oldest first, with the paths each changed (no cache).

    The walk does not enter `stop_at` commits; give it every commit already processed (a set
    closed under ancestry), not just a tip, or side branches below the tip are walked again.
    """
    known = {sha.decode() for sha in stop_at}
    return [entry.changes for entry in _walk(store, head, known).values()]


def _walk(store: Store, head: ObjectID, known: Container[str]) -> dict[str, _Entry]:
    """Diff every commit reachable from `head` and not in `known`, parents before children."""
    shallow = store.repo.get_shallow()
    differ = _TreeDiffer(store)
    entries: dict[str, _Entry] = {}
    for commit in _unknown_commits(store, head, known, shallow):
        parents = [] if commit.id in shallow else list(commit.parents)
        entries[commit.id.decode()] = _Entry(
            tuple(p.decode() for p in parents),
            CommitChanges(
                commit.id.decode(),
                format_time(datetime.fromtimestamp(commit.commit_time, UTC)),
                _message(commit),
                _changed_paths(differ, store, commit, parents),
            ),
        )
    return entries


def _unknown_commits(
    store: Store, head: ObjectID, known: Container[str], shallow: Container[ObjectID]
) -> list[Commit]:
    """Commits reachable from `head` short of `known` ones, each after all its parents.

    An iterative depth-first walk emitting a commit once its parents are done (first parent
    first), so deep histories do not hit Python's recursion limit.
    """
    order: list[Commit] = []
    seen: set[ObjectID] = set()
    stack: list[tuple[ObjectID, Commit | None]] = [(head, None)]
    while stack:
        sha, done = stack.pop()
        if done is not None:
            order.append(done)
            continue
        if sha in seen or sha.decode() in known:
            continue
        seen.add(sha)
        commit = store.repo[sha]
        if not isinstance(commit, Commit):
            raise TypeError(f"{sha.decode()} is not a commit")
        stack.append((sha, commit))
        parents = [] if sha in shallow else commit.parents
        stack.extend((parent, None) for parent in reversed(parents))
    return order


_Items = set[tuple[bytes, int, bytes]]  # a tree's (name, mode, id) entries
_Changed = dict[str, tuple[bytes | None, bytes | None]]  # path -> (old id, new id)


class _TreeDiffer:
    """Tree diffs that cost what changed: identical subtrees are skipped, and a folder's
    changed entries are found by a set difference computed in C.

    dulwich's `tree_changes` visits every entry of each folder it enters in Python; in a
    category folder of 1,500 skills that made each one-file commit cost ~40 ms. The trees
    parsed last are kept, since a commit's old trees are mostly trees a recent commit made.
    """

    def __init__(self, store: Store, keep: int = 512) -> None:
        self.objects = store.repo.object_store
        self.id_length: int = store.repo.object_format.oid_length
        self.keep = keep
        self.parsed: dict[bytes, _Items] = {}  # least recently used first

    def diff(self, old_tree: bytes | None, new_tree: bytes) -> _Changed:
        """Paths added, modified or deleted between two trees; a move gives both paths."""
        changed: _Changed = {}
        self._diff(old_tree, new_tree, b"", changed)
        return changed

    def _items(self, tree: bytes | None) -> _Items:
        if tree is None:
            return set()
        items = self.parsed.pop(tree, None)
        if items is None:
            # Root trees come as hex ids, subtrees as raw ones; get_raw takes both.
            _kind, raw = self.objects.get_raw(ObjectID(tree))
            items = set(parse_tree(raw, self.id_length))
            if len(self.parsed) >= self.keep:
                del self.parsed[next(iter(self.parsed))]
        self.parsed[tree] = items
        return items

    def _diff(self, old: bytes | None, new: bytes | None, prefix: bytes, out: _Changed) -> None:
        if old == new:
            return
        if old is None or new is None:
            self._list(new if old is None else old, prefix, out, added=old is None)
            return
        old_items, new_items = self._items(old), self._items(new)
        before = {name: (mode, sha) for name, mode, sha in old_items - new_items}
        after = {name: (mode, sha) for name, mode, sha in new_items - old_items}
        for name in before.keys() | after.keys():
            path = prefix + name
            was, now = before.get(name), after.get(name)
            was_dir = was is not None and stat.S_ISDIR(was[0])
            now_dir = now is not None and stat.S_ISDIR(now[0])
            if was_dir or now_dir:
                self._diff(
                    was[1] if was and was_dir else None,
                    now[1] if now and now_dir else None,
                    path + b"/",
                    out,
                )
            was_file, now_file = was if not was_dir else None, now if not now_dir else None
            if was_file or now_file:
                out[path.decode("utf-8", "surrogateescape")] = (
                    was_file[1] if was_file else None,
                    now_file[1] if now_file else None,
                )

    def _list(self, tree: bytes | None, prefix: bytes, out: _Changed, added: bool) -> None:
        """Every file of a folder only one side has (the whole tree of a root commit)."""
        if tree is None:
            return
        _kind, raw = self.objects.get_raw(ObjectID(tree))
        for name, mode, sha in parse_tree(raw, self.id_length):
            if stat.S_ISDIR(mode):
                self._list(sha, prefix + name + b"/", out, added)
            else:
                path = (prefix + name).decode("utf-8", "surrogateescape")
                out[path] = (None, sha) if added else (sha, None)


def _changed_paths(
    differ: _TreeDiffer, store: Store, commit: Commit, parents: list[ObjectID]
) -> tuple[str, ...]:
    """Paths `commit` changed; for a merge, only what the merge itself changed.

    A merge's own changes are the paths that differ from every parent (git's combined diff):
    what a branch brought in is counted on the branch's own commits. A file one side moved
    and the other edited lands at the new path with the edited content, which differs from
    both parents; content some parent already had is carried, not written by the merge.
    """
    if not parents:
        return tuple(sorted(differ.diff(None, commit.tree)))
    diffs = [differ.diff(_tree_of(store, parent), commit.tree) for parent in parents]
    if len(diffs) == 1:
        return tuple(sorted(diffs[0]))
    changed = set(diffs[0]).intersection(*diffs[1:])
    carried = {old for diff in diffs for old, _new in diff.values() if old is not None}
    return tuple(sorted(p for p in changed if diffs[0][p][1] not in carried))


def _tree_of(store: Store, commit_id: ObjectID) -> ObjectID:
    commit = store.repo[commit_id]
    if not isinstance(commit, Commit):
        raise TypeError(f"{commit_id.decode()} is not a commit")
    tree: ObjectID = commit.tree
    return tree


def _message(commit: Commit) -> str:
    encoding = commit.encoding.decode("ascii", "replace") if commit.encoding else "utf-8"
    try:
        return bytes(commit.message).decode(encoding, "replace")
    except LookupError:  # an encoding header Python does not know
        return bytes(commit.message).decode("utf-8", "replace")


def _reachable(head: str, new: Mapping[str, _Entry], cached: Mapping[str, _Entry]) -> set[str]:
    """Cached commits still reachable from `head`: those the new commits stand on."""
    todo = [p for entry in new.values() for p in entry.parents if p in cached]
    if head in cached:
        todo.append(head)
    kept: set[str] = set()
    while todo:
        sha = todo.pop()
        if sha in kept:
            continue
        kept.add(sha)
        todo.extend(cached[sha].parents)
    return kept


# -- the cache file --------------------------------------------------------------------------


_NO_CACHE: tuple[str | None, dict[str, _Entry]] = (None, {})


def _read_cache(path: Path, shallow: list[str]) -> tuple[str | None, dict[str, _Entry]]:
    """(head it was written for, entries in walk order); nothing when missing, unreadable or
    written for another set of shallow commits (a deepened clone has more history)."""
    doc = read_json(path)
    try:
        if doc["version"] != _CACHE_VERSION or doc["shallow"] != shallow:
            return _NO_CACHE
        head = str(doc["head"])
        entries = {
            sha: _Entry(tuple(parents), CommitChanges(sha, time, message, tuple(paths)))
            for sha, parents, time, message, paths in doc["commits"]
        }
    except (KeyError, TypeError, ValueError):
        return _NO_CACHE
    # The walk stops at cached commits, so a cache missing an ancestor would hide history.
    if head not in entries or any(p not in entries for e in entries.values() for p in e.parents):
        return _NO_CACHE
    return head, entries


def _write_cache(path: Path, head: str, shallow: list[str], entries: Mapping[str, _Entry]) -> None:
    doc = {
        "version": _CACHE_VERSION,
        "head": head,
        "shallow": shallow,
        "commits": [
            [sha, list(e.parents), e.changes.time, e.changes.message, list(e.changes.paths)]
            for sha, e in entries.items()
        ],
    }
    # The cache only saves time: a read-only .git must not fail a reading command.
    with contextlib.suppress(OSError):
        # ASCII JSON: paths that are not UTF-8 travel as escaped surrogates.
        write_atomic(path, json.dumps(doc, separators=(",", ":")))
