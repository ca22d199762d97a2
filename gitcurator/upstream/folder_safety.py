"""Entries of a skill folder that must not be written into a library: paths that climb out or
into `.git`, and symlinks whose target leaves the folder.

Checked on the data alone (nothing is resolved on disk): a folder from a source is hostile
until shown otherwise, and the command refuses it with these reasons before writing anything.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gitcurator.upstream.folder_merge import EXECUTABLE, REGULAR, SYMLINK, FileEntry

MODES = {REGULAR, EXECUTABLE, SYMLINK}
# As the system's own bound on symlinks followed in one lookup (Linux: 40, counted in total,
# so links naming other links several times cannot multiply the work).
MAX_LINK_DEPTH = 40
MAX_TARGET_BYTES = 4095  # PATH_MAX less its NUL: a longer target no system can follow
MAX_NAME_BYTES = 255  # NAME_MAX of ext4, APFS, NTFS (in UTF-16 units there, close enough)
# Names git itself protects (verify_path, fsck): on NTFS trailing dots and spaces are dropped and
# 8.3 short names alias them; on HFS+ some code points are ignored; both compare case-blind.
PROTECTED_NAMES = (".git", ".gitmodules")
_NTFS_SHORT = re.compile(r"(git~1|gitmod~[1-4]|gi7eba~[1-9])", re.IGNORECASE)
_HFS_IGNORED = re.compile("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")


def unsafe_entries(files: Mapping[str, FileEntry]) -> list[str]:
    """The paths of `files` (relative to the skill folder) that are unsafe to write, sorted."""
    landed: dict[str, list[str]] = {}  # links resolved already, by path: each target read once
    return sorted(p for p, e in files.items() if _reason(p, e, files, landed) is not None)


def unsafe_reason(
    path: str, entry: FileEntry, files: Mapping[str, FileEntry] | None = None
) -> str | None:
    """Why `path` must not be written (one line naming it), or None when it is safe. With the
    whole folder as `files`, a symlink's target is resolved through the folder's other links."""
    return _reason(path, entry, files, {})


def _reason(
    path: str, entry: FileEntry, files: Mapping[str, FileEntry] | None, landed: dict[str, list[str]]
) -> str | None:
    problem = _path_problem(path)
    if problem:
        return f"{path!r}: {problem}"
    parents = ["/".join(path.split("/")[:k]) for k in range(1, path.count("/") + 1)]
    under = next((p for p in parents if p in (files or {})), None)
    if under is not None:
        # A tree with a blob and a folder of one name (git fsck: duplicateEntries): writing
        # it would put this file through `under`, a file or a link.
        return f"{path}: under {under}, which is a file or a link too"
    if entry.mode not in MODES:
        kind = "a submodule" if entry.mode == 0o160000 else f"mode {entry.mode:o}"
        return f"{path}: {kind}, not a file or a symlink"
    if entry.is_symlink:
        target = entry.content.decode("utf-8", errors="surrogateescape")
        problem = _target_problem(path, target, files, landed)
        if problem:
            return f"{path}: a symlink to {target!r}, {problem}"
    return None


def _path_problem(path: str) -> str | None:
    if not path or "\0" in path or "\\" in path:
        return "an empty name, a NUL or a backslash in the path"
    if path.startswith("/"):
        return "an absolute path"
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "a path with an empty, '.' or '..' part"
    if any(is_protected_name(part) for part in parts):
        return "a name git reads as .git or .gitmodules"
    if any(len(part.encode("utf-8", errors="surrogatepass")) > MAX_NAME_BYTES for part in parts):
        return f"a name longer than {MAX_NAME_BYTES} bytes, which no common file system holds"
    return None


def is_protected_name(part: str) -> bool:
    """Whether git (on any system) would take this path part for `.git` or `.gitmodules`."""
    name = _HFS_IGNORED.sub("", part).rstrip(" .").lower()
    return name in PROTECTED_NAMES or _NTFS_SHORT.fullmatch(part.rstrip(" .")) is not None


def _target_problem(
    path: str, target: str, files: Mapping[str, FileEntry] | None, landed: dict[str, list[str]]
) -> str | None:
    if not target or "\0" in target or "\\" in target:
        return "an empty target, or a NUL or a backslash in it"
    if len(target.encode("utf-8", errors="surrogatepass")) > MAX_TARGET_BYTES:
        return f"a target too long to follow (over {MAX_TARGET_BYTES} bytes)"
    if target.startswith("/"):
        return "an absolute target"
    resolved = _resolve(path.split("/")[:-1], target, files or {}, [MAX_LINK_DEPTH], landed)
    if resolved is None:
        return "outside the skill folder (or through too many links)"
    if not resolved or any(is_protected_name(part) for part in resolved):
        return "to the skill folder itself or into .git"
    return None


def _resolve(
    folder: list[str],
    target: str,
    files: Mapping[str, FileEntry],
    links_left: list[int],
    landed: dict[str, list[str]],
) -> list[str] | None:
    """The folder parts `target` leads to from `folder`, following the folder's own links as
    the system would (a `..` after a link climbs from where the link points); None if it
    climbs out of the folder or follows more links in all than `links_left` holds. Where a
    link lands depends on its own path only, so `landed` keeps it: a link then counts as one
    (more lenient than the system, which would refuse to follow, never less safe)."""
    if target.startswith("/") or "\\" in target:
        return None
    parts = list(folder)
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        parts.append(part)
        here = "/".join(parts)
        link = files.get(here)
        if link is not None and link.is_symlink:
            links_left[0] -= 1
            if links_left[0] < 0:
                return None
            found = landed.get(here)
            if found is None:
                inner = link.content.decode("utf-8", errors="surrogateescape")
                found = _resolve(parts[:-1], inner, files, links_left, landed)
                if found is None:
                    return None
                landed[here] = found
            parts = list(found)
    return parts
