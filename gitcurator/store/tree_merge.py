"""Three-way merges and reverts of trees, computed in memory file by file (nothing is written).

dulwich's own merge has no rename detection and can corrupt the index when one side moved a
folder the other edited, and its revert fails on conflicts with a KeyError (DULWICH-NOTES.md).
So a change is applied here only when no path was changed differently on both sides, and moves
(an archive is `x/` -> `.archive/x/`) are recognised, so a person's edit or deletion inside a
folder the curator moved is a conflict that names the person's path. Only a clean result is
ever committed, by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dulwich.objects import ObjectID

from gitcurator.errors import StoreError
from gitcurator.store.commits import CommitId, TreeId, load_commit
from gitcurator.store.diff import Entry, TreeDiff, diff_trees, parent_folders
from gitcurator.store.trees import replace_paths

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


@dataclass(frozen=True, slots=True)
class Applied:
    """The merged tree, or (when `conflicts` is not empty) no tree and the paths in the way."""

    tree: TreeId | None
    conflicts: tuple[str, ...]


def three_way(store: Store, base: TreeId, ours: TreeId, theirs: TreeId) -> Applied:
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
    return Applied(replace_paths(store, ours, edits), ())


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
        if deleted_by_b and not any(b.after(q) == old for q in landed[old]):
            found.add(path)
    whole = a.whole_skill_folders()
    added_by_b = {p for p, (old, new) in b.files.items() if old is None and new is not None}
    for path in added_by_b:
        same = a.after(path) == b.after(path)
        if not same and any(f in whole for f in parent_folders(path)):
            found.add(path)
        # a file where the other side put a folder (or the reverse)
        if any(f in a.files and a.files[f][1] is not None for f in parent_folders(path)):
            found.add(path)
    return found
