"""The folders of a work tree that hold a `.git` of their own, found through what an earlier
walk recorded of each folder (`statefiles.NESTED_WALK`).

As git's untracked cache (`core.untrackedCache`) does, a folder whose mtime, ctime and inode
are what was recorded holds the same entries: adding, removing or renaming an entry moves
the folder's mtime and ctime, and a chmod moves its ctime. A folder changed less than a second
before the record was made is listed again (git's "racily clean" rule: a change in the same
clock tick as the record would not show). What is kept per folder is only what the walk
decides from its listing: it holds `.git`, it is a skill (no deeper), or its sub-folders.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from gitcurator import __version__, timeutil
from gitcurator.skills.folder_names import SKILL_FILE, SKILL_FILE_LOWER, SKIPPED_DIRS, VENV_MARKER
from gitcurator.statefiles import NESTED_WALK, read_cache_json, write_cache_json

_FORMAT = f"1 {__version__}"  # the walk's rules (markers, skipped folders) are the version's
_WALK, _GIT, _LEAF = 0, 1, 2
_MARKERS = frozenset((SKILL_FILE, SKILL_FILE_LOWER, VENV_MARKER))


def git_folders(root: Path, state: Path) -> list[str]:
    """Folders below `root` (repo-relative) whose listing holds `.git`, walking every folder
    that could hold a skill; `state` is where the last walk's record is kept."""
    top = str(root)
    saved, saved_at = _saved(state / NESTED_WALK, top)
    trusted_before = saved_at - timeutil.RACY_NS
    started = time.time_ns()
    walked: dict[str, list[Any]] = {}
    found: list[str] = []
    listed = 0  # folders whose record could not be taken as it was
    pending = [""]
    lstat, stat = os.lstat, os.stat
    while pending:
        rel = pending.pop()
        try:
            st = lstat(f"{top}/{rel}") if rel else stat(top)
        except OSError:
            continue
        mtime, ctime = st.st_mtime_ns, st.st_ctime_ns
        old = saved.get(rel)
        if (
            type(old) is list
            and len(old) == 5
            and old[0] == mtime
            and old[1] == ctime
            and old[2] == st.st_ino
            and mtime < trusted_before
            and ctime < trusted_before
            and _well_formed(old[3], old[4])
        ):
            kind, children = old[3], old[4]
        else:
            listed += 1
            try:
                entries = list(os.scandir(f"{top}/{rel}" if rel else top))
            except OSError:
                continue
            kind, children = _decide(rel, entries)
        walked[rel] = [mtime, ctime, st.st_ino, kind, children]
        if kind == _WALK:
            pending.extend([f"{rel}/{c}" for c in children] if rel else children)
        elif kind == _GIT:
            found.append(rel)
    if listed or len(walked) != len(saved):
        doc = {"format": _FORMAT, "root": top, "at": started, "folders": walked}
        write_cache_json(state / NESTED_WALK, doc)
    return found


def _well_formed(kind: object, children: object) -> bool:
    """A kept folder's decision as _decide makes them (a forged one is listed again)."""
    if kind == _WALK:
        return type(children) is list and all(
            type(c) is str and c and "/" not in c and c != ".." for c in children
        )
    return type(kind) is int and kind in (_GIT, _LEAF) and children == []


def _decide(rel: str, entries: list[os.DirEntry[str]]) -> tuple[int, list[str]]:
    """What the walk takes from one folder's listing (the top folder is never nested)."""
    if rel and any(e.name == ".git" for e in entries):
        return _GIT, []
    if rel and any(e.name in _MARKERS for e in entries):
        return _LEAF, []  # a skill's own folders hold no skill (archive and merge check deeper)
    # Nor do dependency trees (find_skills skips them): a node_modules of 10^5 folders would
    # cost every `list` seconds.
    return _WALK, [
        e.name
        for e in entries
        if e.name != ".git" and e.name not in SKIPPED_DIRS and e.is_dir(follow_symlinks=False)
    ]


def _saved(path: Path, top: str) -> tuple[dict[str, Any], int]:
    doc = read_cache_json(path)
    if not (
        isinstance(doc, dict)
        and doc.get("format") == _FORMAT
        and doc.get("root") == top  # linked worktrees share the state folder
        and type(doc.get("at")) is int
        and isinstance(doc.get("folders"), dict)
    ):
        return {}, 0
    return doc["folders"], doc["at"]
