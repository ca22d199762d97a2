"""The work tree as git sees it: the files `git add -A` would take, ignore rules honoured."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.ignore import IgnoreFilterManager

from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER, SKIPPED_DIRS, VENV_MARKER
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


def nested_repositories(store: Store) -> list[str]:
    """Folders (repo-relative) that `git add -A` leaves out because each is a repository of
    its own: a nested `.git` folder or file (a clone, a worktree, a submodule's checkout), or
    a submodule link in the index or HEAD. Ignored folders are not listed."""
    found = {p for p, (_sha, mode) in store.head_entries().items() if mode == GITLINK_MODE}
    found |= index_gitlinks(store)  # cached by the index's checksum: no parse a command
    ignore: IgnoreFilterManager | None = None
    # One scandir a folder and no stat: a folder is nested when its own listing holds .git.
    pending = [(str(store.root), "")]
    while pending:
        path, rel = pending.pop()
        try:
            entries = list(os.scandir(path))
        except OSError:
            continue
        if rel and any(e.name == ".git" for e in entries):
            ignore = ignore or IgnoreFilterManager.from_repo(store.repo)
            if not ignore.is_ignored(rel + "/"):
                found.add(rel)
            continue
        if rel and any(e.name in (SKILL_FILE, SKILL_FILE_LOWER, VENV_MARKER) for e in entries):
            continue  # a skill's own folders hold no skill (archive and merge check deeper)
        # Nor do dependency trees (find_skills skips them): a node_modules of 10^5 folders
        # would cost every `list` seconds.
        pending.extend(
            (e.path, f"{rel}/{e.name}" if rel else e.name)
            for e in entries
            if e.name != ".git" and e.name not in SKIPPED_DIRS and e.is_dir(follow_symlinks=False)
        )
    return sorted(found)


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
