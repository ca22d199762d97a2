"""The folders of the repository holding a folder, found as dulwich's `Repo.discover` finds
them and spelled as it spells them (the store's root, git dir and common dir), so a fast path
reads the same files the store would.

Only the plain cases are answered: a work tree whose `.git` is a folder, or a `gitdir:` file
(a linked worktree, a submodule). A bare repository, a folder inside a `.git`, a `.git` file
of another form or a folder that is gone give None: the store's own discovery then says what
is wrong, with its message. What the config may change (`core.worktree`, extensions) the
caller checks against what the store found when it kept its answer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RepoPaths:
    root: str  # the work tree's top folder, symlinks resolved (Store.root)
    gitdir: str  # this work tree's git dir (repo.controldir())
    common: str  # where refs and objects live (repo.commondir())


def discover(start: str) -> RepoPaths | None:
    """The repository holding the folder `start`, or None when the store must decide."""
    if not os.path.isdir(start):
        return None
    path = os.path.realpath(start)
    while True:
        hidden = os.path.join(path, ".git")
        if os.path.isfile(hidden):
            return _linked(path, hidden)
        if os.path.isdir(os.path.join(hidden, "objects")):
            return _paths(path, hidden)
        if os.path.isdir(os.path.join(path, "objects")) and os.path.isdir(
            os.path.join(path, "refs")
        ):
            return None  # dulwich opens this folder as a bare repository
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def _linked(root: str, hidden: str) -> RepoPaths | None:
    """A `.git` file naming the git dir, read as dulwich's read_gitfile reads it."""
    try:
        with open(hidden, "rb") as file:
            text = file.read()
    except OSError:
        return None
    if not text.startswith(b"gitdir: "):
        return None
    try:
        gitdir = os.path.join(root, text[len(b"gitdir: ") :].rstrip(b"\r\n").decode("utf-8"))
    except UnicodeDecodeError:
        return None
    return _paths(root, gitdir)


def _paths(root: str, gitdir: str) -> RepoPaths | None:
    """With the common dir a `commondir` file in `gitdir` names, joined as dulwich joins it."""
    try:
        with open(os.path.join(gitdir, "commondir"), "rb") as file:
            text = file.read()
    except FileNotFoundError:
        return RepoPaths(root, gitdir, gitdir)
    except OSError:
        return None  # dulwich raises here: let it
    return RepoPaths(root, gitdir, os.path.join(gitdir, os.fsdecode(text.rstrip(b"\r\n"))))
