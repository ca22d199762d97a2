"""What exists around a skill: its files, the repository's, and the symlinks between them."""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Mapping

from gitcurator.skills.files import SkillFiles, resolve_link


class KnownPaths:
    """Answers "does this path exist?" for links and symlinks of one skill."""

    def __init__(
        self, skill: SkillFiles, repo_paths: frozenset[str], links: Mapping[str, str] | None
    ) -> None:
        self.skill = skill
        # Set once an answer depended on something outside the skill's own files: its
        # findings then cannot be cached by the folder's content alone (skills/check_memo).
        self.looked_outside = False
        self.entries = {e.path: e for e in skill.entries}
        self.repo_paths = repo_paths
        own_links = {e.path: e.link_target for e in skill.entries if e.link_target is not None}
        if links is None:
            self.links = own_links
        else:
            # Copying the repo-wide map for each of thousands of skills would be quadratic.
            self.links = links if isinstance(links, dict) else dict(links)
            if any(path not in self.links for path in own_links):
                self.links = {**self.links, **own_links}

    def exists(self, path: str, depth: int = 0) -> bool:
        """A file or folder at `path`, following symlinked folders on the way; True when
        `path` is outside the skill and the repository's file list is unknown."""
        folder = self.skill.folder
        if path in ("", folder) or path in self.entries:
            return True
        inside = path.startswith(folder + "/")
        if not inside:
            self.looked_outside = True
        if inside and any(p.startswith(path + "/") for p in self.entries):
            return True
        if self.repo_paths and (path in self.repo_paths or path in folders_of(self.repo_paths)):
            return True
        if not inside and not self.repo_paths:
            return True
        return depth < 8 and self._exists_through_link(path, depth)

    def _exists_through_link(self, path: str, depth: int) -> bool:
        parts = path.split("/")
        for i in range(1, len(parts)):
            prefix = "/".join(parts[:i])
            if prefix in self.links:
                resolved = resolve_link(prefix, self.links[prefix], self.links)
                if resolved is None:
                    return False
                rest = "/".join(parts[i:])
                return self.exists(posixpath.join(resolved, rest) if resolved else rest, depth + 1)
        return False


@functools.lru_cache(maxsize=4)
def folders_of(paths: frozenset[str]) -> frozenset[str]:
    """Every folder holding a file of `paths`; cached because one repository's paths serve
    every skill of a run (frozensets cache their hash, so the lookup is cheap)."""
    folders: set[str] = set()
    for path in paths:
        folder = posixpath.dirname(path)
        while folder and folder not in folders:
            folders.add(folder)
            folder = posixpath.dirname(folder)
    return frozenset(folders)
