"""Small files gitcurator keeps in .git/gitcurator/: written atomically, read forgivingly.

Everything here is a cache or per-clone state; a file that is missing or unreadable reads as
None, so the caller rebuilds it instead of failing.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_read_only = False


@contextlib.contextmanager
def read_only() -> Iterator[None]:
    """Within this block cache writes are skipped: a dry run leaves .git/ byte for byte."""
    global _read_only
    previous, _read_only = _read_only, True
    try:
        yield
    finally:
        _read_only = previous


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` so readers see the old or the new file, never a half."""
    if _read_only:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # pid and a random part: threads of one process share the pid
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def read_json(path: Path) -> Any:
    """The JSON document in `path`, or None if it is missing or not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_json(path: Path, doc: object) -> None:
    """Write a compact JSON document atomically (ASCII, so surrogate-escaped paths survive)."""
    write_atomic(path, json.dumps(doc, separators=(",", ":")))
