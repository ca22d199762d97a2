"""The commit graph, walked by parents alone (the dulwich side of log, merge and rollback).

dulwich's merge-base and walker order commits by time and go wrong when times tie (passes and
merges often share a second), so these walks follow parents only. The walk that derives facts
from history, with its cache, is `store.history`.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from dulwich.graph import can_fast_forward

from gitcurator.store.commits import CommitId, CommitInfo, load_commit, read_commit

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def _parents_of(store: Store, sha: CommitId, shallow: AbstractSet[bytes]) -> list[CommitId]:
    if sha in shallow:
        return []
    parents: list[CommitId] = load_commit(store, sha).parents
    return parents


def ancestors(store: Store, tips: Iterable[CommitId]) -> set[CommitId]:
    """Every commit reachable from `tips`, the tips included."""
    shallow = store.repo.get_shallow()
    seen: set[CommitId] = set()
    todo = list(tips)
    while todo:
        sha = todo.pop()
        if sha not in seen:
            seen.add(sha)
            todo.extend(_parents_of(store, sha, shallow))
    return seen


def commits_between(
    store: Store, tip: CommitId, known: AbstractSet[CommitId] = frozenset()
) -> list[CommitInfo]:
    """Commits reachable from `tip` short of the `known` ones (a set closed under ancestry,
    e.g. `ancestors(...)`), newest first: every commit before its parents."""
    shallow = store.repo.get_shallow()
    order: list[CommitInfo] = []
    seen: set[CommitId] = set()
    stack: list[tuple[CommitId, bool]] = [(tip, False)]
    while stack:
        sha, done = stack.pop()
        if done:
            order.append(read_commit(store, sha))
            continue
        if sha in seen or sha in known:
            continue
        seen.add(sha)
        stack.append((sha, True))
        stack.extend((p, False) for p in reversed(_parents_of(store, sha, shallow)))
    order.reverse()
    return order


def merge_bases(
    store: Store, a: CommitId, b: CommitId, of_a: AbstractSet[CommitId] | None = None
) -> list[CommitId]:
    """The best common ancestors of two commits (none of them an ancestor of another);
    `of_a` may give `ancestors(store, [a])` when the caller has it already."""
    of_a = ancestors(store, [a]) if of_a is None else of_a
    if b in of_a:
        return [b]
    shallow = store.repo.get_shallow()
    found: set[CommitId] = set()
    seen: set[CommitId] = set()
    todo = [b]
    while todo:
        sha = todo.pop()
        if sha in seen:
            continue
        seen.add(sha)
        if sha in of_a:
            found.add(sha)  # its own ancestors are common too, but not best
        else:
            todo.extend(_parents_of(store, sha, shallow))
    if len(found) > 1:
        found -= ancestors(store, [p for c in found for p in _parents_of(store, c, shallow)])
    return sorted(found)


def is_ancestor(store: Store, ancestor: CommitId, descendant: CommitId) -> bool:
    """Whether `descendant`'s history contains `ancestor` (a fast-forward is possible).

    dulwich stops the walk at `ancestor`'s commit time, so a skewed clock can only make this
    say False (costing one merge commit more), never True wrongly.
    """
    return bool(can_fast_forward(store.repo, ancestor, descendant))
