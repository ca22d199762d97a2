"""One digest of the whole work tree's stat data: every folder's ctime and every file's
mtime, ctime, size and inode, as a walk saw them. Checking it again costs one stat call an
entry and no parse of the per-file records, which is what lets `validate` answer for an
unchanged library in a fraction of a full walk's time.

A digest is made only when every entry it covers was last changed more than a second before
the walk began (git's racy rule, as in store/worktree_stat): a later change then always moves
a ctime, so an equal digest means nothing was added, removed, renamed, written or chmodded.
Folders holding a symlink are not covered (their listings are never reused either).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from gitcurator import timeutil
from gitcurator.store.worktree_stat import StatTree


@dataclass(frozen=True, slots=True)
class TreePrint:
    """The folders and files (repo-relative, '' for the top) a digest covers, and the digest;
    with what it was made of (each folder's ctime, each file's stat text) and each folder's
    kind (FOLDER_KINDS), for a later run to find which entries changed."""

    dirs: tuple[str, ...]
    files: tuple[str, ...]
    digest: str
    ctimes: tuple[int, ...] = ()
    texts: tuple[str, ...] = ()
    kinds: str = ""


# A folder of a TreePrint: walked with ignore rules ("1") or without ("0"), or a nested
# repository ("n", never walked into).
FOLDER_KINDS = "01n"


def print_of(scan: StatTree, started_ns: int) -> TreePrint | None:
    """The fingerprint of what the walk behind `scan` saw (it began at `started_ns`), or
    None when some entry was too recent to vouch for, or is not covered."""
    limit = started_ns - timeutil.RACY_NS
    dirs: list[str] = []
    ctimes: list[int] = []
    kinds: list[str] = []
    for rel, record in scan.records.dirs.items():
        nested = record[4]
        if record[5] or not isinstance(nested, list) or not isinstance(record[0], int):
            return None
        dirs.append(rel)
        ctimes.append(record[0])
        kinds.append("1" if record[1] else "0")
        prefix = rel + "/" if rel else ""
        for name, ctime in nested:
            dirs.append(prefix + name)
            ctimes.append(ctime)
            kinds.append("n")
    if any(c < 0 or c >= limit for c in ctimes):
        return None
    files = tuple(sorted({*scan.tree.paths, *scan.records.ignores}))
    texts = []
    for rel in files:
        st = scan.seen.get(rel)
        if st is None or st.st_mtime_ns >= limit or st.st_ctime_ns >= limit:
            return None
        texts.append(_text(st))
    return TreePrint(
        tuple(dirs), files, digest_of(ctimes, texts), tuple(ctimes), tuple(texts), "".join(kinds)
    )


@dataclass(slots=True)
class Seen:
    """What live_stats stat-ed, by repo-relative path: for store/worktree_stat to take over."""

    ctimes: dict[str, int] = field(default_factory=dict)
    lstats: dict[str, os.stat_result] = field(default_factory=dict)


def live_stats(
    root: str, dirs: tuple[str, ...], files: tuple[str, ...], seen: Seen | None = None
) -> tuple[list[int], list[str]] | None:
    """Each folder's ctime and each file's stat text now (None if one is gone); `seen`
    hears every stat taken."""
    stat = os.stat
    try:
        # Relative to the top's descriptor: the kernel walks one or two names a path, not
        # the top's own (a fifth less time over 40,000 paths).
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        ctimes = [stat(rel or ".", dir_fd=fd).st_ctime_ns for rel in dirs]
        lstats = [stat(rel, dir_fd=fd, follow_symlinks=False) for rel in files]
    except OSError:
        return None
    finally:
        os.close(fd)
    if seen is not None:
        seen.ctimes.update(zip(dirs, ctimes, strict=True))
        seen.lstats.update(zip(files, lstats, strict=True))
    return ctimes, [_text(st) for st in lstats]


def _text(st: os.stat_result) -> str:
    return f"{st.st_mtime_ns} {st.st_ctime_ns} {st.st_size} {st.st_ino}"


def digest_of(ctimes: Sequence[int], texts: Sequence[str]) -> str:
    """The digest of these ctimes and stat texts (a TreePrint's)."""
    body = f"{len(ctimes)} {len(texts)}\n{' '.join(map(str, ctimes))}\n" + "\n".join(texts)
    return hashlib.sha1(body.encode()).hexdigest()
