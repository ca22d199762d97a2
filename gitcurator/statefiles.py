"""The files gitcurator keeps in .git/gitcurator/: their names, and writing and reading them.

Every name of a file in that folder is defined here, once. Everything there is a cache or
per-clone state; a file that is missing or unreadable reads as None, so the caller rebuilds it
instead of failing. Standard library only: the `record` hot path imports this module.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# The folder, in git's common dir: linked worktrees of one clone share it.
STATE_DIR = "gitcurator"

# The hot path: usage events as they are recorded, and the segments a flush moved aside.
JOURNAL = "journal.jsonl"
SEGMENTS = "segments"
SEGMENT_SUFFIX = ".jsonl"
NAMES_CACHE = "names.tsv"  # name -> skill, for the HEAD it names on its first line
HOST_FILE = "host"  # this clone's host id in the usage records

# Locks (flock; see gitcurator.locks).
NOTES_LOCK = "notes.lock"  # every writer of the notes refs
PASS_LOCK = "pass.lock"  # one curator pass at a time
SCHEDULE_LOCK = "schedule.lock"  # a read and write of the schedule

# Per-clone state.
SCHEDULE_FILE = "schedule.json"  # when automatic passes last ran, whether they are paused

# Caches, rebuilt when missing or damaged.
RECORDS_CACHE = "records-cache.json"  # usage records of one notes commit
FRONTMATTER_NAMES_CACHE = "frontmatter-names.json"  # SKILL.md blob -> its `name:`
HISTORY_CACHE = "history-cache.json"  # commits walked, with the paths each changed
TREE_CACHE = "tree-cache.json"  # the file listing of the last tree asked for
# `name:SKILL.md blob` -> [description key, packed words] of the skills at HEAD: what the
# near-duplicate guard compares a new skill with, kept so a commit does not re-read and
# re-tokenise every SKILL.md (seconds at 10,000 skills). Content-addressed: never stale.
WORDS_CACHE = "similar-words.json"

_read_only = False


def state_folder(common_dir: Path) -> Path:
    """gitcurator's per-clone state folder inside the git common dir `common_dir`."""
    return common_dir / STATE_DIR


@contextlib.contextmanager
def read_only() -> Iterator[None]:
    """Within this block cache writes are skipped: a dry run leaves .git/ byte for byte."""
    global _read_only
    previous, _read_only = _read_only, True
    try:
        yield
    finally:
        _read_only = previous


def temporary_path(path: Path) -> Path:
    """A file beside `path` that no other process or thread writes (threads share the pid)."""
    return path.with_name(f"{path.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` so readers see the old or the new file, never a half."""
    if _read_only:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_path(path)
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
