"""The work tree as git sees it: the files `git add -A` would take, ignore rules honoured."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.ignore import IgnoreFilterManager

from gitcurator.gitfiles.nested_walk import git_folders
from gitcurator.skills.files import MAX_LOADED_BYTES, FileEntry, FileTree
from gitcurator.store.index_gitlinks import index_gitlinks
from gitcurator.store.objects import GITLINK_MODE
from gitcurator.store.worktree_walk import walk_folders

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def walk_worktree(store: Store) -> Iterator[tuple[str, str]]:
    """(absolute path, repo-relative posix path) of every file `git add -A` would see.

    Ignore rules are honoured, `.git` and nested repositories are left out, and a symlink
    to a folder is a file (as git records it).
    """
    yield from walk_folders(store).files


def nested_repositories(store: Store, head_links: Iterable[str] | None = None) -> list[str]:
    """Folders (repo-relative) that `git add -A` leaves out because each is a repository of
    its own: a nested `.git` folder or file (a clone, a worktree, a submodule's checkout), or
    a submodule link in the index or HEAD. Ignored folders are not listed. `head_links`, when
    the caller has them, are head_links(store) already found."""
    found = set(head_links_of(store) if head_links is None else head_links)
    found |= index_gitlinks(store)  # cached by the index's checksum: no parse a command
    ignore: IgnoreFilterManager | None = None
    # A folder is nested when its own listing holds .git; a folder whose stat data did not
    # move since the last walk is not listed again (gitfiles/nested_walk).
    state = store.state_dir()
    for rel in git_folders(store.root, state):
        ignore = ignore or IgnoreFilterManager.from_repo(store.repo)
        if not ignore.is_ignored(rel + "/"):
            found.add(rel)
    return sorted(found)


def head_links_of(store: Store) -> list[str]:
    """The submodule links (mode 160000) of HEAD's tree, sorted."""
    return sorted(p for p, (_sha, mode) in store.head_entries().items() if mode == GITLINK_MODE)


def worktree_tree(store: Store) -> FileTree:
    """The work tree as a FileTree; files are read when a check asks for them."""
    where: dict[str, str] = {}
    links: dict[str, str] = {}
    for full, rel in walk_worktree(store):
        where[rel] = full
        if os.path.islink(full):
            links[rel] = os.readlink(full)
    return FileTree(tuple(sorted(where)), links, lambda p: _read_file(where[p], p))


def folder_tree(folder: Path) -> FileTree:
    """A folder outside any repository as a FileTree whose paths begin with the folder's
    name (so a skill folder keeps its name); `.git` is left out, symlinks are files."""
    where: dict[str, str] = {}
    links: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        rel_dir = os.path.relpath(dirpath, folder).replace(os.sep, "/")
        prefix = folder.name if rel_dir == "." else f"{folder.name}/{rel_dir}"
        keep = []
        for d in sorted(dirnames):
            if os.path.islink(os.path.join(dirpath, d)):
                filenames.append(d)
            elif d != ".git":
                keep.append(d)
        dirnames[:] = keep
        for name in filenames:
            full = os.path.join(dirpath, name)
            # Files and symlinks only, as git takes them: reading a FIFO would block for
            # good, and what cannot be listed (`/proc/1/cwd`) is no skill's file.
            try:
                mode = os.lstat(full).st_mode
                if stat.S_ISLNK(mode):
                    links[f"{prefix}/{name}"] = os.readlink(full)
                elif not stat.S_ISREG(mode):
                    continue
            except OSError:
                continue
            where[f"{prefix}/{name}"] = full
    return FileTree(tuple(sorted(where)), links, lambda p: _read_file(where[p], p))


def _read_file(full: str, rel: str) -> FileEntry:
    st = os.lstat(full)
    if stat.S_ISLNK(st.st_mode):
        return FileEntry(rel, st.st_size, link_target=os.readlink(full))
    data = None
    if st.st_size <= MAX_LOADED_BYTES and stat.S_ISREG(st.st_mode):  # a FIFO blocks for good
        with open(full, "rb") as f:
            data = f.read()
    return FileEntry(rel, st.st_size, bool(st.st_mode & 0o111), data=data)
