"""Which committed file of a skill a client's path names, confined to the skill folder (pure).

Paths are looked up in the skill's committed files, never on disk, so nothing outside the
skill can be reached by a path; a symlink inside the skill is followed only while its target
stays inside the skill folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

# git's file modes: a symlink's blob holds its target; a gitlink is a submodule's commit.
LINK_MODE = 0o120000
GITLINK_MODE = 0o160000
MAX_LINK_HOPS = 8
_DRIVE = re.compile(r"[A-Za-z]:")


class PathRefused(Exception):
    """A path that names no servable file of the skill; the message says why."""


def resolve(requested: str, modes: Mapping[str, int], link_target: Callable[[str], str]) -> str:
    """The skill-relative path of the file `requested` names, symlinks followed inside the
    skill; `modes` maps each committed file of the skill to its git mode."""
    pending = list(_parts(requested))
    folders = {f for path in modes for f in _parents(path)}
    done: list[str] = []
    hops = 0
    while pending:
        part = pending.pop(0)
        here = "/".join([*done, part])
        if modes.get(here) == LINK_MODE:
            hops += 1
            if hops > MAX_LINK_HOPS:
                raise PathRefused(f"{requested}: too many symlinks (a loop?)")
            pending = _follow(requested, here, done, link_target(here)) + pending
            done = []
            continue
        if here not in modes and here not in folders:
            raise PathRefused(f"{requested}: no such file in the skill")
        done.append(part)
    found = "/".join(done)
    if not found or found in folders:
        raise PathRefused(f"{requested} is a folder; name one of its files")
    if modes[found] == GITLINK_MODE:
        raise PathRefused(f"{requested} is a git submodule, not a file")
    return found


def _parts(requested: str) -> list[str]:
    if not requested or "\x00" in requested:
        raise PathRefused("give the path of a file inside the skill, e.g. references/notes.md")
    if requested.startswith("/") or "\\" in requested or _DRIVE.match(requested):
        raise PathRefused(f"{requested}: give a path relative to the skill folder")
    parts = [p for p in requested.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise PathRefused(f"{requested}: `..` is not allowed; paths stay inside the skill folder")
    if not parts:
        raise PathRefused(f"{requested}: give the path of a file inside the skill")
    return parts


def _follow(requested: str, link: str, above: list[str], target: str) -> list[str]:
    """The skill-relative parts a symlink at `link` (in folder `above`) points to."""
    if target.startswith("/") or _DRIVE.match(target):
        raise PathRefused(f"{requested}: {link} is a symlink out of the skill ({target})")
    parts = list(above)
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part != "..":
            parts.append(part)
        elif parts:
            parts.pop()
        else:
            raise PathRefused(f"{requested}: {link} is a symlink out of the skill ({target})")
    return parts


def _parents(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]
