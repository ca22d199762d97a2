"""What every skill's rows are computed from, read without dulwich: one home for the key of
the rows cache (`curation/rows_cache`) and of `list --json`'s kept text (`commands/list_quick`).

Read under the notes lock (shared), since a flush moves events from the journal into a notes
commit and the key must not see the one without the other: the commit whose tree and history
the rows fold, the notes commit, the bytes of every segment and of the journal; then the
config file's bytes and git's shallow and grafts files (they change the history a walk sees).
The caller says how the two commits are read: through the store, or from git's ref files.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator.locks import notes_lock
from gitcurator.statefiles import JOURNAL, read_regular
from gitcurator.telemetry import journal
from gitcurator.timeutil import CLOCK_SKEW, format_time


@dataclass(frozen=True, slots=True)
class KeyParts:
    """The labelled bytes a key digests, and what was read for them."""

    parts: tuple[tuple[str, bytes | None], ...]
    pending: tuple[Path, ...]  # the journal and the segments whose bytes are in `parts`
    head: bytes | None  # the commit whose rows they are


def key_parts(
    state: Path, common: Path, config: Path, commits: Callable[[], tuple[bytes | None, ...]]
) -> KeyParts:
    """The parts of the key: `commits()` gives (the rows' commit, the notes commit), read
    under the notes lock with the pending events; `config` is the config file's path."""
    with notes_lock(state, shared=True):
        head, notes = commits()
        segments = journal.segment_files(state)
        pending = (*segments, state / JOURNAL)
        read = [_part(p.name, p) for p in pending]
    parts = (
        ("head", head),
        ("notes", notes),
        _part("config", config),
        _part("shallow", common / "shallow"),
        _part("grafts", common / "info" / "grafts"),
        *read,
    )
    return KeyParts(parts, pending, head)


def _part(label: str, path: Path) -> tuple[str, bytes | None]:
    """`path`'s labelled bytes, None when there is none; something there that is not a regular
    file (a folder, a FIFO) is labelled apart, so that it never keys like no file at all (the
    journal replaced by a folder was answered with the rows of no pending events)."""
    data = read_regular(path)
    if data is None and os.path.lexists(path):
        return f"{label} (not a regular file)", None
    return label, data


def digest(opening: str, parts: tuple[tuple[str, bytes | None], ...]) -> str:
    """The hex SHA-256 of `opening` (a format and version) and every labelled part."""
    hashed = hashlib.sha256(f"{opening}\0".encode())
    for label, data in parts:
        _add(hashed, label.encode(), data)
    return hashed.hexdigest()


def latest_at(now: datetime) -> str:
    """The newest event time a reader of the records takes at `now` (as ledger.load does)."""
    return format_time(now + CLOCK_SKEW)


def _add(hashed: Any, label: bytes, data: bytes | None) -> None:
    # Lengths as well as bytes: no two different sequences of parts digest alike.
    size = b"-" if data is None else str(len(data)).encode()
    hashed.update(label + b" " + size + b"\0" + (data or b""))
