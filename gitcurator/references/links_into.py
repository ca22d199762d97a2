"""Links of a Markdown file into a skill's folder (pure): the destination resolved against
the file's folder, then the skill folder that holds it (a sibling's SKILL.md, its folder, a
file of it). External URLs, anchors, absolute paths and links leaving the repository are no
skill's."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Iterator, Mapping
from urllib.parse import unquote

from gitcurator.references.mentions import LINK, Mention
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER
from gitcurator.skills.links import link_destinations

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class FolderIndex:
    """Skill folders (repo-relative) -> the skill's name, and the folder a path lies in."""

    def __init__(self, folders: Mapping[str, str]) -> None:
        self.folders = dict(folders)

    def owner(self, path: str) -> str | None:
        """The skill folder holding `path` (or being it), or None."""
        current = path
        while current:
            if current in self.folders:
                return current
            current = current[: max(current.rfind("/"), 0)]
        return None


def link_mentions(
    text: str, path: str, index: FolderIndex, dangling: Collection[str] = ()
) -> Iterator[tuple[Mention, str]]:
    """(mention, resolved target path) of each link of `text` (the file at `path`) that leads
    into a skill folder of `index`; the mention spans the destination's path part. A link to
    a folder no skill is in, named as one of `dangling` (`../pdf-forms/SKILL.md` once
    pdf-forms was archived), is a reference to that name too."""
    here = posixpath.dirname(path)
    for at, raw in link_paths(text):
        found = link_target(raw, here, index, dangling)
        if found is not None:
            yield Mention(found[0], LINK, at, at + len(raw)), found[1]


def link_paths(text: str) -> list[tuple[int, str]]:
    """(offset, path part: no #anchor or ?query) of every link destination of `text`."""
    if "](" not in text and "]:" not in text and "<" not in text:
        return []
    return [(at, dest.split("#", 1)[0].split("?", 1)[0]) for at, dest in link_destinations(text)]


def link_target(
    raw: str, here: str, index: FolderIndex, dangling: Collection[str] = ()
) -> tuple[str, str] | None:
    """(skill name, resolved path) a link's path part leads to from folder `here`, or None."""
    target = resolve_link(raw, here)
    if target is None:
        return None
    folder = index.owner(target)
    name = index.folders[folder] if folder is not None else _named_folder(target, dangling)
    return (name, target) if name else None


def _named_folder(target: str, names: Collection[str]) -> str | None:
    """The skill name a path to a missing skill folder (or its SKILL.md) carries."""
    if posixpath.basename(target) in (SKILL_FILE, SKILL_FILE_LOWER):
        target = posixpath.dirname(target)
    name = posixpath.basename(target)
    return name if name in names else None


def resolve_link(raw: str, here: str) -> str | None:
    """The repo path a relative link destination (no anchor) leads to from folder `here`."""
    stripped = raw.strip()
    if not stripped or stripped.startswith(("/", "~", "\\")) or _SCHEME.match(stripped):
        return None
    if "%" in stripped:
        stripped = unquote(stripped)
    # `..\pdf-forms\SKILL.md`, as written on Windows: the file it means, and where it points
    # once rewritten (with `/`, which every renderer takes).
    stripped = stripped.replace("\\", "/")
    target = posixpath.normpath(f"{here}/{stripped}" if here else stripped)
    if target in (".", "..") or target.startswith("../"):
        return None
    return target
