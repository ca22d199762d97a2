"""Local branches: listed, created atomically, advanced with their work tree, and the one way a
commit is published on a branch a person may have checked out.

Every move is a compare-and-swap (`refs.move_ref`): a concurrent writer is detected, never
overwritten. A curator pass creates its branch last, so until that ref exists its objects
are unreachable garbage and a pass killed at any point leaves every ref as it was.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dulwich.refs import Ref

from gitcurator.errors import StoreError
from gitcurator.store.branch_clash import refuse_clash, with_folders
from gitcurator.store.checkout import sync_worktree
from gitcurator.store.commits import CommitId, TreeId, commit_tree_of, write_commit
from gitcurator.store.interrupts import interrupts_deferred
from gitcurator.store.refs import move_ref, ref_value
from gitcurator.store.worktree_status import refuse_unless_clean

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def branch_names(store: Store, prefix: str) -> list[str]:
    """Local branch names starting with `prefix` (e.g. 'curator/')."""
    names = store.repo.refs.keys(base=Ref(b"refs/heads/" + prefix.encode()))
    return sorted(prefix + n.decode() for n in names)


def taken_names(store: Store, prefix: str) -> set[str]:
    """Branch names starting with `prefix`, and their folders (branch_clash.with_folders)."""
    return with_folders(branch_names(store, prefix), prefix)


def branch_locked(store: Store, name: str) -> bool:
    """Whether refs/heads/<name>.lock exists (a writer is creating that branch, or one killed
    while it did left the lock), or a folder is where its ref would go: create_branch would
    fail on either (git removes an empty one; dulwich cannot rename onto it)."""
    ref = os.path.join(store.repo.commondir(), "refs", "heads", *name.split("/"))
    return os.path.lexists(ref + ".lock") or os.path.isdir(ref)


def create_branch(store: Store, name: str, commit: CommitId) -> bool:
    """Create refs/heads/<name> at `commit` only if it does not exist yet (StoreError naming
    a branch in its way: branch_clash)."""
    refuse_clash(store, name)
    return move_ref(store, f"refs/heads/{name}".encode(), None, commit)


def advance_branch(store: Store, branch: str, old: CommitId, new: CommitId, why: str) -> bool:
    """Move refs/heads/<branch> from `old` to `new` by compare-and-swap. When the branch is
    checked out its work tree and index follow (only paths that differ); returns whether it
    was. If the branch moved meanwhile, nothing changes and StoreError says so. Ctrl-C waits
    until the work tree, index and ref all agree again."""
    with interrupts_deferred():
        return _advance_branch(store, branch, old, new, why)


def _advance_branch(store: Store, branch: str, old: CommitId, new: CommitId, why: str) -> bool:
    ref = f"refs/heads/{branch}".encode()
    checked_out = store.head_branch() == branch
    old_tree, new_tree = commit_tree_of(store, old), commit_tree_of(store, new)
    if checked_out:
        if ref_value(store, ref) != old:
            raise _moved(branch)
        sync_worktree(store, old_tree, new_tree)
    try:
        moved = move_ref(store, ref, old, new, reflog=why)
    except BaseException:
        # A lock left by a killed process raises: the work tree must not stay on `new`.
        if checked_out:
            sync_worktree(store, new_tree, old_tree)
        raise
    if not moved:
        if checked_out:
            sync_worktree(store, new_tree, old_tree)
        raise _moved(branch)
    return checked_out


def _moved(branch: str) -> StoreError:
    return StoreError(
        f"branch {branch} moved while gitcurator was working; nothing was changed, run it again"
    )


@dataclass(frozen=True, slots=True)
class Published:
    """The commit now at the branch's tip, and whether the work tree followed it (the branch
    is the checked-out one)."""

    commit: CommitId
    checked_out: bool


def publish(
    store: Store,
    branch: str,
    tip: CommitId,
    tree: TreeId,
    action: str,
    *,
    message: str | None = None,
    merging: Sequence[CommitId] = (),
    fast_forward: CommitId | None = None,
    within: Collection[str] = (),
    reflog: str | None = None,
    together: Callable[[], object] | None = None,
) -> Published:
    """Put `tree` on `branch` (whose tip is `tip`) the way a person's command does.

    First it refuses, changing nothing, if the branch is checked out and its work tree cannot
    follow (uncommitted changes, under `within` when given, or untracked files in the way;
    `action` says what was refused). Then it writes a commit of `tree` with `message` and
    parents `tip` + `merging` (or takes `fast_forward`, an existing commit of `tree`) and
    advances the branch by compare-and-swap, work tree and index following. Ctrl-C waits
    until the branch, the work tree and `together` (steps that belong with it) are all done.
    The reflog says `reflog`, by default "gitcurator: <action>".
    """
    refuse_unless_clean(store, branch, commit_tree_of(store, tip), tree, action, within)
    if fast_forward is not None:
        new = fast_forward
    elif message is not None:
        new = write_commit(store, tree, [tip, *merging], message)
    else:
        raise ValueError("publish needs a message for the new commit, or a commit to take")
    with interrupts_deferred():
        checked_out = advance_branch(store, branch, tip, new, reflog or f"gitcurator: {action}")
        if together is not None:
            together()
    return Published(new, checked_out)
