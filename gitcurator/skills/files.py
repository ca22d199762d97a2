"""A skill's files as plain data, whatever they were read from (work tree, index, commit)."""

from __future__ import annotations

import bisect
import posixpath
from collections.abc import Callable
from dataclasses import dataclass

# Files over this size are listed but not loaded: they are reported, never scanned whole.
MAX_LOADED_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file: repo-relative posix `path`; `data` is None when the file was too large to load."""

    path: str
    size: int
    executable: bool = False
    link_target: str | None = None
    data: bytes | None = None

    @property
    def is_symlink(self) -> bool:
        return self.link_target is not None


@dataclass(frozen=True, slots=True)
class SkillFiles:
    """A skill folder and every file under it."""

    folder: str
    skill_md: str
    entries: tuple[FileEntry, ...]

    def get(self, path: str) -> FileEntry | None:
        return next((e for e in self.entries if e.path == path), None)


def resolve_link(link_path: str, target: str, links: dict[str, str], limit: int = 40) -> str | None:
    """Where a symlink points, repo-relative, following chains of known links.

    None means the target leaves the repository (absolute, or `..` above the root) or the
    chain loops.
    """
    current, dest = link_path, target
    for _ in range(limit):
        if dest.startswith("/"):
            return None
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(current), dest))
        if joined == ".." or joined.startswith("../"):
            return None
        if joined not in links:
            return "" if joined == "." else joined
        current, dest = joined, links[joined]
    return None


@dataclass(frozen=True, slots=True)
class FileTree:
    """A listing of repo-relative files with a loader: a work tree, the index or a commit."""

    paths: tuple[str, ...]  # sorted
    links: dict[str, str]  # symlink path -> target, for every symlink in the listing
    load: Callable[[str], FileEntry]

    def under(self, folder: str) -> list[str]:
        """The paths inside `folder` (all of them for the root, '')."""
        if not folder:
            return list(self.paths)
        lo = bisect.bisect_left(self.paths, folder + "/")
        hi = bisect.bisect_left(self.paths, folder + "0")  # '0' sorts right after '/'
        return list(self.paths[lo:hi])

    def skill_files(self, folder: str, skill_md: str) -> SkillFiles:
        """Every file of one skill, loaded."""
        return SkillFiles(folder, skill_md, tuple(self.load(p) for p in self.under(folder)))
