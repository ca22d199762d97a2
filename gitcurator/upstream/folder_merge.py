"""A three-way merge of one skill folder, file by file: base, ours (the library), theirs (upstream).

A file changed on one side only takes that side; changed on both, text is merged line by line
(`text_merge`) and anything else conflicts unless both made the same change. A file
upstream renamed (deleted at one path, added at another with the same or a similar content)
carries the local edits of its old path to the new one. Nothing is ever dropped: in a
conflict the merged folder keeps the local version (or the modified one, when the other side
deleted it), with conflict markers in text; where one side has a file and the other a folder
of one name, the local one keeps the path and upstream's moves to `NAME~upstream`. Symlinks are
data here: their content is the link target, never followed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from gitcurator.upstream.folder_renames import find_renames
from gitcurator.upstream.text_merge import merge_text

REGULAR = 0o100644
EXECUTABLE = 0o100755
SYMLINK = 0o120000
LABELS = ("local", "base", "upstream")

ConflictKind = Literal[
    "content", "binary", "modify/delete", "add/add", "mode", "rename", "file/folder"
]


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file of a skill folder: its bytes (a symlink's target) and its git mode."""

    content: bytes
    mode: int = REGULAR

    @property
    def is_symlink(self) -> bool:
        """True for a symbolic link (mode 120000)."""
        return self.mode == SYMLINK


@dataclass(frozen=True, slots=True)
class Conflict:
    """A path the merge could not settle, what kind of clash it is and why."""

    path: str
    kind: ConflictKind
    message: str


@dataclass(frozen=True, slots=True)
class FolderMerge:
    """The merged folder, its conflicts, the paths upstream changed, and the renames followed."""

    files: dict[str, FileEntry]
    conflicts: tuple[Conflict, ...]
    changed_upstream: tuple[str, ...]
    renames: tuple[tuple[str, str], ...] = ()

    @property
    def clean(self) -> bool:
        """True when nothing conflicted: the folder can be committed as it is."""
        return not self.conflicts


def is_binary(content: bytes) -> bool:
    """Binary as git decides it: a NUL byte in the first 8000 bytes."""
    return b"\0" in content[:8000]


def merge_folder(
    base: Mapping[str, FileEntry],
    ours: Mapping[str, FileEntry],
    theirs: Mapping[str, FileEntry],
) -> FolderMerge:
    """Merge a skill folder three-way; paths are posix, relative to the folder."""
    upstream = dict(_renames(base, theirs))
    local = dict(_renames(base, ours))
    files: dict[str, FileEntry] = {}
    conflicts: list[Conflict] = []
    consumed: set[str] = set()
    followed: list[tuple[str, str]] = []

    def keep(entry: FileEntry | None, conflict: Conflict | None, path: str) -> None:
        if entry is not None:
            files[path] = entry
        if conflict is not None:
            conflicts.append(conflict)

    for old in sorted(set(upstream) | set(local)):
        to_t, to_o = upstream.get(old), local.get(old)
        paths = {old} | {p for p in (to_t, to_o) if p}
        if paths & consumed or (to_t and to_o != to_t and to_t in ours):
            continue  # another rename took one of these paths: each merges on its own
        if to_o and to_o != to_t and to_o in theirs:
            continue
        consumed |= paths
        if to_t and to_o and to_t != to_o:
            files[to_o], files[to_t] = ours[to_o], theirs[to_t]
            why = f"{old} was renamed to {to_o} locally and to {to_t} upstream; kept both"
            conflicts.append(Conflict(to_o, "rename", why))
        elif to_t and to_o is None and old not in ours:
            files[to_t] = theirs[to_t]
            why = f"upstream renamed {old} to {to_t}, which was deleted locally; kept upstream's"
            conflicts.append(Conflict(to_t, "rename", why))
        elif to_o and to_t is None and old not in theirs:
            files[to_o] = ours[to_o]
            why = f"{old} was renamed to {to_o} locally and deleted upstream; kept the local file"
            conflicts.append(Conflict(to_o, "rename", why))
        else:
            target = to_t or to_o
            assert target is not None
            mine, other = ours.get(target, ours.get(old)), theirs.get(target, theirs.get(old))
            entry, conflict = merge_entry(target, base[old], mine, other)
            if conflict is not None:
                side = "upstream" if to_t else "locally"
                note = f"{conflict.message} (renamed {side} from {old})"
                conflict = Conflict(target, conflict.kind, note)
            keep(entry, conflict, target)
            if to_t:
                followed.append((old, to_t))
    for path in sorted((set(base) | set(ours) | set(theirs)) - consumed):
        keep(*merge_entry(path, base.get(path), ours.get(path), theirs.get(path)), path)
    conflicts += move_file_folder_clashes(files, ours)
    changed = sorted(p for p in set(base) | set(theirs) if base.get(p) != theirs.get(p))
    return FolderMerge(
        dict(sorted(files.items())),
        tuple(sorted(conflicts, key=lambda c: c.path)),
        tuple(changed),
        tuple(followed),
    )


def move_file_folder_clashes(
    files: dict[str, FileEntry], ours: Mapping[str, FileEntry]
) -> list[Conflict]:
    """Where the merge kept a file at `p` and files under `p/` (one side made `p` a folder, or
    a link, the other kept or added a file), no tree can hold both: the local side keeps the
    path and upstream's moves aside to `p~upstream` (edited in `files`), as a conflict."""
    folders = {p.rsplit("/", 1)[0] for p in files if "/" in p}
    folders = {"/".join(d.split("/")[: k + 1]) for d in folders for k in range(d.count("/") + 1)}
    found: list[Conflict] = []
    for path in sorted(p for p in files if p in folders):
        if path not in files:
            continue
        inside = sorted(p for p in files if p.startswith(path + "/"))
        aside = _free_name(files, f"{path}~upstream")
        if path in ours:
            for old in inside:
                files[aside + old[len(path) :]] = files.pop(old)
            what = f"kept the local file and moved upstream's folder to {aside}/"
        else:
            files[aside] = files.pop(path)
            what = f"kept the local folder and moved upstream's file to {aside}"
        why = f"{path} is a file on one side and a folder on the other; {what}"
        found.append(Conflict(path, "file/folder", why))
    return found


def _free_name(files: Mapping[str, FileEntry], wanted: str) -> str:
    """`wanted`, or `wanted2`, `wanted3`...: a name no file has and no file sits under."""
    name, n = wanted, 1
    while name in files or any(p.startswith(name + "/") for p in files):
        n += 1
        name = f"{wanted}{n}"
    return name


def _renames(base: Mapping[str, FileEntry], side: Mapping[str, FileEntry]) -> list[tuple[str, str]]:
    """The renames one side made: a base path it lacks and a new path with like content."""
    gone = {p: e.content for p, e in base.items() if p not in side}
    new = {p: e.content for p, e in side.items() if p not in base}
    return find_renames(gone, new)


def merge_entry(
    path: str, base: FileEntry | None, ours: FileEntry | None, theirs: FileEntry | None
) -> tuple[FileEntry | None, Conflict | None]:
    """One path three-way: the entry to keep (None: absent) and the conflict, if any."""
    if ours == theirs:
        return ours, None
    if ours == base:
        return theirs, None
    if theirs == base:
        return ours, None
    if base is None:
        return _both_added(path, ours, theirs)
    if ours is None or theirs is None:
        kept = theirs if ours is None else ours
        side = "locally" if ours is None else "upstream"
        other = "upstream" if ours is None else "locally"
        why = f"{path} was deleted {side} and changed {other}; kept the changed file"
        return kept, Conflict(path, "modify/delete", why)
    return _both_changed(path, base, ours, theirs)


def _both_added(
    path: str, ours: FileEntry | None, theirs: FileEntry | None
) -> tuple[FileEntry | None, Conflict | None]:
    assert ours is not None and theirs is not None  # one side absent is settled by the caller
    if ours.content == theirs.content:
        why = f"{path} was added on both sides with modes {ours.mode:o} and {theirs.mode:o}"
        return ours, Conflict(path, "mode", why + "; kept the local mode")
    why = f"{path} was added on both sides with different content"
    if _mergeable(ours, theirs):
        merged = merge_text(b"", ours.content, theirs.content, LABELS)
        return FileEntry(merged.content, ours.mode), Conflict(path, "add/add", why)
    return ours, Conflict(path, "add/add", why + "; kept the local file")


def _both_changed(
    path: str, base: FileEntry, ours: FileEntry, theirs: FileEntry
) -> tuple[FileEntry | None, Conflict | None]:
    mode, mode_clash = _merge_mode(base.mode, ours.mode, theirs.mode)
    if mode_clash or ours.is_symlink != theirs.is_symlink:
        # One side made it a link (or a file again) and the other changed it otherwise.
        return _mode_conflict(path, ours, theirs)
    if base.content in (ours.content, theirs.content) or ours.content == theirs.content:
        content = theirs.content if ours.content == base.content else ours.content
        return FileEntry(content, mode), None
    if ours.is_symlink:
        why = f"{path} is a symlink retargeted differently on both sides; kept the local target"
        return ours, Conflict(path, "content", why)
    if base.is_symlink:
        why = f"{path} was a symlink and became a different file on each side; kept the local one"
        return ours, Conflict(path, "content", why)
    if any(is_binary(e.content) for e in (base, ours, theirs)):
        why = f"{path} is binary and was changed on both sides; kept the local file"
        return ours, Conflict(path, "binary", why)
    merged = merge_text(base.content, ours.content, theirs.content, LABELS)
    entry = FileEntry(merged.content, mode)
    if merged.conflicts:
        blocks = "block" if merged.conflicts == 1 else "blocks"
        why = f"{path} was changed on both sides in the same lines ({merged.conflicts} {blocks})"
        return entry, Conflict(path, "content", why)
    return entry, None


def _merge_mode(base: int, ours: int, theirs: int) -> tuple[int, bool]:
    if ours in (base, theirs):
        return theirs, False
    if theirs == base:
        return ours, False
    return ours, True


def _mode_conflict(path: str, ours: FileEntry, theirs: FileEntry) -> tuple[FileEntry, Conflict]:
    why = (
        f"{path} changed mode or type on both sides (local {ours.mode:o}, upstream "
        f"{theirs.mode:o}); kept the local file"
    )
    return ours, Conflict(path, "mode", why)


def _mergeable(*entries: FileEntry) -> bool:
    return not any(e.is_symlink or is_binary(e.content) for e in entries)
