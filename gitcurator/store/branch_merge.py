"""A reviewed branch merged into the default branch's tip, in memory: a fast-forward when the
tip is the branch's base, else the three-way tree of `store.tree_merge` (nothing is written)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitcurator.errors import CuratorError
from gitcurator.store import graph
from gitcurator.store.commits import CommitId, TreeId, commit_tree_of
from gitcurator.store.tree_merge import three_way

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


@dataclass(frozen=True, slots=True)
class BranchMerge:
    """The tree the merge leaves (None: `conflicts` name the paths both sides changed)."""

    tree: TreeId | None
    fast_forward: bool
    conflicts: tuple[str, ...] = ()


def merge_branch_tree(
    store: Store,
    tip: CommitId,
    other: CommitId,
    merged: AbstractSet[CommitId],
    branch: str,
    target: str,
) -> BranchMerge:
    """`other` (the tip of `branch`) merged into `tip` (of `target`), whose history is
    `merged`; CuratorError when they share no single base."""
    bases = graph.merge_bases(store, tip, other, merged)
    if len(bases) != 1:
        raise CuratorError(
            f"{branch} and {target} share no single base commit; merge it with git "
            f"(`git merge {branch}`) and review the result"
        )
    if bases[0] == tip:
        return BranchMerge(commit_tree_of(store, other), True)
    joined = three_way(
        store,
        commit_tree_of(store, bases[0]),
        commit_tree_of(store, tip),
        commit_tree_of(store, other),
    )
    return BranchMerge(joined.tree, False, joined.conflicts)
