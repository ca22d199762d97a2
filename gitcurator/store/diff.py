"""The one tree diff: files changed from one tree to another, at the cost of what changed.

Identical subtrees are skipped, and a folder's changed entries are found by a set difference
computed in C. dulwich's `tree_changes` visits every entry of each folder it enters in Python;
in a category folder of 1,500 skills that made each one-file commit cost ~40 ms. Every tree
comparison in gitcurator (history, merges, the work tree following a branch, the tree cache,
the notes a sync brings) goes through `TreeDiffer`.
"""

from __future__ import annotations

import posixpath
import stat
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dulwich.errors import ObjectFormatException
from dulwich.objects import ObjectID, parse_tree

from gitcurator.errors import StoreError
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER
from gitcurator.store.commits import commit_tree_of
from gitcurator.store.paths import git_path, text_path

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

_TREE = 2  # git's type number of a tree

Entry = tuple[ObjectID, int]  # a file in a tree: (blob id, mode)
_Items = set[tuple[bytes, int, bytes]]  # a tree's (name, mode, id) entries


@dataclass(frozen=True, slots=True)
class TreeDiff:
    """Files changed from one tree to another, and the folders only one of them has."""

    files: dict[str, tuple[Entry | None, Entry | None]]  # path -> (before, after)
    removed_dirs: set[str]
    added_dirs: set[str]

    def after(self, path: str) -> Entry | None:
        """What a changed path holds after the change (None: removed, or not changed)."""
        change = self.files.get(path)
        return change[1] if change else None

    def whole_skill_folders(self) -> set[str]:
        """Skill folders removed or created as a whole (a move is both)."""
        folders: set[str] = set()
        for path, (old, new) in self.files.items():
            folder, _, base = path.rpartition("/")
            if base not in (SKILL_FILE, SKILL_FILE_LOWER) or not folder:
                continue
            if (new is None and folder in self.removed_dirs) or (
                old is None and folder in self.added_dirs
            ):
                folders.add(folder)
        return folders


class TreeDiffer:
    """Diffs trees of one store, keeping the trees parsed last: a commit's old trees are
    mostly trees a recent commit made."""

    def __init__(self, store: Store, keep: int = 512) -> None:
        # Weakly: the store's own differ (diff_trees) is kept in a memo keyed weakly by it.
        self._store = weakref.ref(store)
        self.objects = store.repo.object_store
        self.id_length: int = store.repo.object_format.oid_length
        self.keep = keep
        self.parsed: dict[bytes, _Items] = {}  # least recently used first

    def diff(self, old_tree: ObjectID | None, new_tree: ObjectID | None) -> TreeDiff:
        """What changed from `old_tree` to `new_tree` (None: the empty tree); a move gives
        both paths."""
        if old_tree is None:
            # A whole listing diff_trees made already (head_entries' of HEAD's tree, which a
            # library's root commit often has): listing 20,000 trees again cost 0.3 s.
            store = self._store()
            known = None if store is None else _MEMO.get(store)
            listed = None if known is None else known[1].get((None, new_tree))
            if listed is not None:
                return listed
        out = TreeDiff({}, set(), set())
        self._diff(old_tree, new_tree, b"", out)
        return out

    def _entries(self, tree: bytes) -> list[tuple[bytes, int, bytes]]:
        """The (name, mode, id) entries of tree `tree`; StoreError for an object named as a
        folder that is no readable tree (a tree written by hand), never an internal error."""
        kind, raw = self.objects.get_raw(ObjectID(tree))
        try:
            if kind != _TREE:
                raise ObjectFormatException("not a tree")
            return list(parse_tree(raw, self.id_length))
        except ObjectFormatException as exc:
            raise StoreError(
                f"object {tree.decode()} is named as a folder but is not a readable tree "
                f"({exc}): this repository is damaged (run `git fsck`)"
            ) from None

    def _items(self, tree: bytes | None) -> _Items:
        if tree is None:
            return set()
        items = self.parsed.pop(tree, None)
        if items is None:
            items = set(self._entries(tree))
            if len(self.parsed) >= self.keep:
                del self.parsed[next(iter(self.parsed))]
        self.parsed[tree] = items
        return items

    def _diff(self, old: bytes | None, new: bytes | None, prefix: bytes, out: TreeDiff) -> None:
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
            if was_dir != now_dir:
                (out.removed_dirs if was_dir else out.added_dirs).add(text_path(path))
            if was_dir or now_dir:
                self._diff(
                    was[1] if was is not None and was_dir else None,
                    now[1] if now is not None and now_dir else None,
                    path + b"/",
                    out,
                )
            file_was = (ObjectID(was[1]), was[0]) if was is not None and not was_dir else None
            file_now = (ObjectID(now[1]), now[0]) if now is not None and not now_dir else None
            if file_was != file_now:
                out.files[text_path(path)] = (file_was, file_now)

    def _list(self, tree: bytes | None, prefix: bytes, out: TreeDiff, added: bool) -> None:
        """Every file and folder of a tree only one side has (the whole tree of a root
        commit), read without the cache so a large listing does not evict the trees that
        later diffs share."""
        if tree is None:
            return
        for name, mode, sha in self._entries(tree):
            path = prefix + name
            if stat.S_ISDIR(mode):
                (out.added_dirs if added else out.removed_dirs).add(text_path(path))
                self._list(sha, path + b"/", out, added)
            else:
                entry = (ObjectID(sha), mode)
                out.files[text_path(path)] = (None, entry) if added else (entry, None)


# A command diffs the same two trees to check, then to update the work tree: once per store
# (a TreeDiff is never changed once made).
_MEMO: weakref.WeakKeyDictionary[Store, tuple[TreeDiffer, dict[tuple[bytes | None, ...], TreeDiff]]]
_MEMO = weakref.WeakKeyDictionary()


def diff_trees(store: Store, old: ObjectID | None, new: ObjectID | None) -> TreeDiff:
    """What changed from tree `old` to tree `new` (None: the empty tree), remembered for the
    store's next few questions."""
    differ, known = _MEMO.setdefault(store, (TreeDiffer(store), {}))
    if (old, new) not in known:
        if len(known) > 8:
            known.clear()
        known[(old, new)] = differ.diff(old, new)
    return known[(old, new)]


def changed_files(
    store: Store, old: ObjectID | None, new: ObjectID
) -> Iterator[tuple[bytes, ObjectID]]:
    """(path, blob id) of every file added or changed from commit `old`'s tree to `new`'s."""
    old_tree = commit_tree_of(store, old) if old is not None else None
    diff = diff_trees(store, old_tree, commit_tree_of(store, new))
    for path, (_, after) in sorted(diff.files.items()):
        if after is not None:
            yield git_path(path), after[0]


def parent_folders(path: str) -> Iterator[str]:
    """The folders above `path`, nearest first."""
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)
