"""The history walk: commits as lists of changed paths, walked once and cached.

This module walks git; `lifecycle.skill_history` folds the walked commits into per-skill facts
(created, patched) and does no I/O. dulwich's path-limited walk diffs the whole tree once per
path and commit; one walk over all commits with one tree diff each (`store.diff`, a commit
costs what it changed) and a per-commit cache make a repeat cost only the commits that are new.

The cache (`.git/gitcurator/history-cache.json`) holds, per commit id, its parents, time,
message and changed paths. A commit's diff never changes, so entries stay true forever; after
a rewrite (amend, rebase) the commits no longer reachable are dropped and only the new ones
are diffed.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Container, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.objects import Commit, ObjectID

from gitcurator.lifecycle.skill_history import CommitChanges, SkillHistory, fold_history
from gitcurator.statefiles import HISTORY_CACHE, is_read_only, read_json, write_cache
from gitcurator.store.commits import commit_tree_of
from gitcurator.store.diff import Entry, TreeDiffer
from gitcurator.timeutil import format_time

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

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
    """The cache file, beside gitcurator's other per-clone state (`Store.state_dir`)."""
    return store.state_dir() / HISTORY_CACHE


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
    differ = TreeDiffer(store)
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


def _changed_paths(
    differ: TreeDiffer, store: Store, commit: Commit, parents: list[ObjectID]
) -> tuple[str, ...]:
    """Paths `commit` changed; for a merge, only what the merge itself changed.

    A merge's own changes are the paths that differ from every parent (git's combined diff):
    what a branch brought in is counted on the branch's own commits. A file one side moved
    and the other edited lands at the new path with the edited content, which differs from
    both parents; content some parent already had is carried, not written by the merge.
    """
    if not parents:
        return tuple(sorted(differ.diff(None, commit.tree).files))
    diffs = [differ.diff(commit_tree_of(store, parent), commit.tree).files for parent in parents]
    if len(diffs) == 1:
        return tuple(sorted(diffs[0]))
    changed = set(diffs[0]).intersection(*diffs[1:])
    carried = {old[0] for diff in diffs for old, _new in diff.values() if old is not None}
    return tuple(sorted(p for p in changed if _blob(diffs[0][p][1]) not in carried))


def _blob(entry: Entry | None) -> ObjectID | None:
    return entry[0] if entry is not None else None


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
    if is_read_only():
        return
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
        write_cache(path, json.dumps(doc, separators=(",", ":")))
