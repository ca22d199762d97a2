"""gitcurator's porcelain over dulwich: the only package that imports dulwich.

`Store` (repository.py) is the façade most code needs: it opens a repository and reads HEAD,
the work tree, the index and trees. One module per concept holds the rest: worktree (walking
it), staging (`git add` + `git commit` of it), index, objects, trees and diff (the one tree
diff), commits, refs (the one compare-and-swap), branches (advance one with its work tree;
publish a commit on it), checkout (the work tree following a tree change), worktree_status
(whether it safely can), tree_merge (three-way merges and reverts in memory), graph (parent
walks), history (the cached walk `lifecycle.skill_history` folds), notes and
notes_history (what each notes commit changed), interrupts,
lock_files (dulwich's `.lock` files made safe against interrupts), stale_locks (those a
killed process left), and remotes (remote, remote_url, transport, remote_deadline,
credentials). Who commits and when is a `Signature` that the shell (`gitcurator.library`)
reads once and hands to the Store.

Importing this module loads the Store and its values only, not every module (staging's
values are loaded when first asked for: `from gitcurator.store import WorktreeScan` works as
before), and makes dulwich's lock files interrupt-safe (`lock_files.guard_lock_files`) before
anything writes: every write goes through a Store, and this runs before one can be opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dulwich.objects import ObjectID

from gitcurator.store.lock_files import guard_lock_files
from gitcurator.store.repository import DEFAULT_BRANCH, Store
from gitcurator.store.signature import Identity, Signature

if TYPE_CHECKING:
    from gitcurator.store.staging import StagedFile, WorktreeChanges, WorktreeScan

guard_lock_files()

# Imported when first asked for (PEP 562): staging pulls in the index, the work tree walk and
# the skills model, which a flush or a record's names rebuild never use.
_FROM_STAGING = frozenset({"StagedFile", "WorktreeChanges", "WorktreeScan"})


if not TYPE_CHECKING:  # seen by mypy, a module __getattr__ makes any misspelt import `Any`

    def __getattr__(name: str) -> Any:
        if name in _FROM_STAGING:
            from gitcurator.store import staging

            return getattr(staging, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_BRANCH",
    "Identity",
    "ObjectID",
    "Signature",
    "StagedFile",
    "Store",
    "WorktreeChanges",
    "WorktreeScan",
]
