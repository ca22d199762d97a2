"""The walk over the work tree that `git add -A` makes, one folder listing at a time, each
listing reusable by a later walk while the folder's mtime says it did not change (what git's
untracked cache does).

A folder's mtime changes when an entry is added to it, removed or renamed, not when a file
in it is written; so a kept listing is trusted only while the folder's ctime (which moves
with the mtime, and with a chmod) is the one seen, the folder was last changed more than a
second before the listing was recorded (git's racy rule), it holds no symlink (whose
target's folder could change unseen), the nested repositories next to it kept their ctimes,
and no ignore rule changed (every `.gitignore` seen,
`.git/info/exclude`, `core.excludesFile` and the user's ignore file keep their stat data).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.ignore import IgnoreFilterManager

from gitcurator import timeutil

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

# [ctime ns, ignore rules apply (0/1), folders walked into, files kept (each NUL-joined: no
# name holds a NUL, and one string costs a cache reader far less than a list of them),
# [[nested repository folder, its ctime ns]...], holds a symlink (0/1), a .gitignore (0/1)]
DirRecord = list[object]


@dataclass(slots=True)
class Walk:
    """The files found (absolute, repo-relative), each folder's listing, and which folders
    were listed afresh rather than taken from the records."""

    files: list[tuple[str, str]] = field(default_factory=list)
    dirs: dict[str, DirRecord] = field(default_factory=dict)
    relisted: list[str] = field(default_factory=list)
    ignores: dict[str, list[int]] = field(default_factory=dict)  # .gitignore -> stat data


def walk_folders(
    store: Store,
    known: Mapping[str, DirRecord] | None = None,
    recorded_ns: int = 0,
    ctimes: Mapping[str, int] | None = None,
) -> Walk:
    """Every file `git add -A` would see: ignore rules honoured, `.git` and nested
    repositories left out, a symlink to a folder taken as a file (as git records it).
    `known` are listings recorded at `recorded_ns` by an earlier walk; `ctimes` are folders'
    ctimes (by repo-relative path, '' for the top) taken since this run began, used instead
    of a stat again."""
    everywhere, ignore = has_global_ignores(store), _ignore_rules(store)
    walk = Walk()
    root = str(store.root)
    limit = recorded_ns - timeutil.RACY_NS
    pending: list[tuple[str, str, bool]] = [(root, "", False)]
    while pending:
        dirpath, rel, parent_check = pending.pop()
        record = _reused(dirpath, rel, known.get(rel) if known else None, limit, ctimes or {})
        if record is None:
            record = listing(dirpath, rel, everywhere or parent_check, ignore)
            if record is None:
                continue  # unreadable, as os.walk passes it over
            if known and rel and os.path.exists(os.path.join(dirpath, ".git")):
                # A repository made inside a folder (`git init`) changes only that folder's
                # mtime: the parent's kept listing still walks into it.
                return walk_folders(store)
            walk.relisted.append(rel)
        walk.dirs[rel] = record
        prefix = rel + "/" if rel else ""
        # Joined by hand, not os.path.join: 40,000 calls of it cost a warm walk 0.1 s.
        base = dirpath if dirpath.endswith("/") else dirpath + "/"
        walk.files.extend((base + name, prefix + name) for name in names(record[3]))
        if record[6]:
            walk.ignores[prefix + ".gitignore"] = _signature(os.path.join(dirpath, ".gitignore"))
        keep = names(record[2])
        pending.extend((base + d, prefix + d, bool(record[1])) for d in reversed(keep))
    return walk


def _reused(
    dirpath: str, rel: str, record: DirRecord | None, limit: int, ctimes: Mapping[str, int]
) -> DirRecord | None:
    """A recorded listing that still holds, else None."""
    if record is None or record[5]:
        return None
    mtime = ctimes.get(rel) or _mtime(dirpath)
    if mtime != record[0] or mtime >= limit:
        return None
    nested = record[4]
    assert isinstance(nested, list)
    prefix = rel + "/" if rel else ""
    for name, seen in nested:
        if (ctimes.get(prefix + name) or _mtime(os.path.join(dirpath, name))) != seen:
            return None
    return record


def listing(
    dirpath: str, rel: str, inherited: bool, ignore: Callable[[], IgnoreFilterManager]
) -> DirRecord | None:
    """One folder as os.walk lists it and walk_worktree keeps it."""
    mtime = _mtime(dirpath)
    try:
        with os.scandir(dirpath) as it:
            entries = list(it)
    except OSError:
        return None
    dirnames: list[str] = []
    filenames: list[str] = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()  # a symlink to a folder counts, as in os.walk
            # git adds files and links only: a FIFO, socket or device is left out (and
            # reading a FIFO would wait for a writer for good).
            kept = is_dir or entry.is_file(follow_symlinks=False) or entry.is_symlink()
        except OSError:
            is_dir, kept = False, True
        if kept:
            (dirnames if is_dir else filenames).append(entry.name)
    check = inherited or ".gitignore" in filenames
    prefix = rel + "/" if rel else ""
    keep: list[str] = []
    nested: list[list[object]] = []
    linked = False
    for d in sorted(dirnames):
        full = os.path.join(dirpath, d)
        if d == ".git":
            continue
        if os.path.exists(os.path.join(full, ".git")):
            nested.append([d, _mtime(full)])
        elif os.path.islink(full):
            filenames.append(d)
            linked = True
        elif not (check and ignore().is_ignored(prefix + d + "/")):
            keep.append(d)
    files = [n for n in filenames if not (check and ignore().is_ignored(prefix + n))]
    linked = linked or any(os.path.islink(os.path.join(dirpath, n)) for n in files)
    has_ignore = int(".gitignore" in filenames)
    return [mtime, int(check), "\0".join(keep), "\0".join(files), nested, int(linked), has_ignore]


def relist(store: Store, folders: Mapping[str, bool]) -> dict[str, DirRecord] | None:
    """Each folder (repo-relative, '' for the top) listed now as walk_folders lists it, given
    whether ignore rules applied in its parent folder (None when one cannot be read)."""
    everywhere, ignore = has_global_ignores(store), _ignore_rules(store)
    root = str(store.root)
    found = {}
    for rel, parent_check in folders.items():
        record = listing(f"{root}/{rel}" if rel else root, rel, everywhere or parent_check, ignore)
        if record is None:
            return None
        found[rel] = record
    return found


def _ignore_rules(store: Store) -> Callable[[], IgnoreFilterManager]:
    """The repository's ignore rules, read when first asked for (most walks never ask)."""
    manager: list[IgnoreFilterManager] = []

    def ignore() -> IgnoreFilterManager:
        if not manager:
            manager.append(IgnoreFilterManager.from_repo(store.repo))
        return manager[0]

    return ignore


def names(joined: object) -> list[str]:
    """The names a DirRecord field holds."""
    assert isinstance(joined, str)
    return joined.split("\0") if joined else []


def _mtime(path: str) -> int:
    # The ctime: it moves whenever the mtime does, and on a chmod too (a folder made
    # unreadable keeps its mtime, and a kept listing would still name its files).
    try:
        return os.stat(path).st_ctime_ns
    except OSError:
        return -1


def is_record(value: object) -> bool:
    """Whether `value` has the shape of a DirRecord (one read from a cache file)."""
    return (
        type(value) is list
        and len(value) == 7
        and type(value[0]) is int
        and type(value[1]) is int
        and type(value[2]) is str
        and type(value[3]) is str
        and type(value[4]) is list
        and type(value[5]) is int
        and type(value[6]) is int
        and all(
            isinstance(n, list) and len(n) == 2 and isinstance(n[0], str) and isinstance(n[1], int)
            for n in value[4]
        )
    )


def _signature(path: str) -> list[int]:
    try:
        st = os.lstat(path)
    except OSError:
        return []
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino]


def ignore_sources(store: Store) -> list[object]:
    """The stat data of the ignore rules outside the work tree's `.gitignore` files."""
    exclude = Path(store.repo.controldir()) / "info" / "exclude"
    configured = store.config_value("core", "excludesFile")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    user = os.path.join(xdg, "git", "ignore")
    sources: list[object] = [_signature(str(exclude)), configured, _signature(user)]
    if configured:
        sources.append(_signature(os.path.expanduser(configured)))
    return sources


def has_global_ignores(store: Store) -> bool:
    """Whether ignore rules may apply outside the folders holding a `.gitignore`."""
    exclude = Path(store.repo.controldir()) / "info" / "exclude"
    if exclude.exists() and any(
        ln.strip() and not ln.startswith("#")
        for ln in exclude.read_text("utf-8", "replace").splitlines()
    ):
        return True
    if store.config_value("core", "excludesFile"):
        return True
    # Where git itself looks for the user's ignore file.
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    return os.path.exists(os.path.join(xdg, "git", "ignore"))
