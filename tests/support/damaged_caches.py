"""A cache file damaged in the ways a crash, a disk or another tool leaves one."""

from __future__ import annotations

import os
from pathlib import Path

KINDS = ("garbage", "truncated", "symlink", "fifo")


def damage_cache(cache: Path, kind: str, elsewhere: Path) -> None:
    """Damage `cache` as `kind` (one of KINDS) says; a symlink points at a copy in
    `elsewhere` (a file path outside the repository)."""
    if kind == "garbage":
        cache.write_bytes(b"\x00\xff not json at all")
    elif kind == "truncated":
        cache.write_bytes(cache.read_bytes()[:-7])
    elif kind == "symlink":
        elsewhere.write_bytes(cache.read_bytes())
        cache.unlink()
        cache.symlink_to(elsewhere)
    elif kind == "fifo":
        cache.unlink()
        os.mkfifo(cache)
    else:
        raise ValueError(f"no such damage: {kind}")
