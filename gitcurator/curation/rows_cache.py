"""Every skill's row kept for what it was computed from (`statefiles.ROWS_CACHE`), so `list`,
`status` and a pass's load need not decode 10,000 records and fold the history again when
nothing moved.

The key is content: the commit whose tree and history the rows fold (HEAD, or the default
branch's tip for a pass), the notes commit, the bytes of the journal and of every segment
(events not yet flushed), the config file's bytes, git's shallow and grafts files (they
change the history a walk sees), and gitcurator's version with this file's format. Only the
state moves with the clock: it is judged again at `now` for every row read, from each row's
idle anchor (`inventory.rows_at`). A pending event dated after the clock a reader allows
(`ledger.load` leaves such events out meanwhile) makes the rows depend on that clock, so they
are kept only when every pending event is in the past, and used only while it still is.
Beside the rows: HEAD's submodule links and the SKILL.md files left out (list's warnings),
and each row's JSON text split around its state (`list --json` joins them).

A file that is missing, a link, damaged, of another format or shaped wrongly reads as a miss.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator import __version__
from gitcurator.config import CONFIG_FILE
from gitcurator.curation.rows_key import KeyParts, digest, key_parts, latest_at
from gitcurator.json_values import is_count
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.inventory import (
    FIELD_TYPES,
    FIELDS,
    SkillRow,
    idle_anchor,
    row_values,
    rows_at,
)
from gitcurator.statefiles import (
    ROWS_CACHE,
    read_cache_bytes,
    read_cache_json,
    write_cache_json,
)
from gitcurator.store import ObjectID
from gitcurator.store.notes import notes_commit
from gitcurator.store.objects import GITLINK_MODE
from gitcurator.telemetry import journal
from gitcurator.timeutil import utc_now

# Raise when what a row is computed from changes without a field of SkillRow changing.
ROWS_FORMAT = 3


@dataclass(frozen=True, slots=True)
class RowsKey:
    """What the rows were computed from, and the pending files read for it."""

    digest: str
    pending: tuple[Path, ...]  # the journal and the segments whose bytes are in the digest
    commit: ObjectID | None = None  # the commit whose rows they are
    parts: KeyParts | None = field(default=None, compare=False)  # what the digest was made of


@dataclass(frozen=True, slots=True)
class CachedRows:
    rows: list[SkillRow]
    problems: list[str]  # records (or journal lines) that could not be read
    hidden: tuple[str, ...]  # SKILL.md files left out under dot-folders
    links: tuple[str, ...]  # HEAD's submodule links
    # Each row's JSON text split around its state (inventory.encoded_parts), when kept
    texts: tuple[tuple[str, str], ...] | None = None
    newest: str = ""  # the latest time a pending event they counted carries
    anchors: tuple[int | None, ...] = ()  # each row's idle_anchor, when kept


def rows_key(repo: SkillsRepo, commit: ObjectID | None = None) -> RowsKey:
    """The digest of everything a skill's rows are computed from, except the clock: the rows
    of `commit`'s tree and history (default HEAD)."""
    store = repo.store

    def commits() -> tuple[ObjectID | None, ObjectID | None]:
        return (store.head_commit() if commit is None else commit), notes_commit(store)

    common = Path(store.repo.commondir())
    parts = key_parts(store.state_dir(), common, repo.root / CONFIG_FILE, commits)
    opening = f"{ROWS_FORMAT} {__version__}"
    head = None if parts.head is None else ObjectID(parts.head)
    return RowsKey(digest(opening, parts.parts), parts.pending, head, parts)


def reader_latest() -> str:
    """The newest event time a reader of the records takes now (as ledger.load does)."""
    return latest_at(utc_now())


def links_of(entries: Mapping[str, tuple[ObjectID, int]]) -> tuple[str, ...]:
    """The submodule links (mode 160000) among a tree's `entries`, sorted."""
    return tuple(sorted(p for p, (_sha, mode) in entries.items() if mode == GITLINK_MODE))


def keep(repo: SkillsRepo, key: RowsKey, latest: str, built: CachedRows) -> CachedRows | None:
    """Keep rows built from what `key` names, unless a pending event was left out for its
    time (after `latest`: then they depend on the clock) or the key no longer holds (a record
    or a flush landed while they were built). What was kept (with the rows' texts, anchors
    and newest pending event) when they hold for `key`, even if the file cannot be written;
    else None."""
    newest = newest_event(key)
    if newest <= latest and rows_key(repo, key.commit) == key:
        kept = replace(
            built,
            texts=row_texts(built.rows),
            newest=newest,
            anchors=tuple(idle_anchor(r) for r in built.rows),
        )
        write_rows(repo, key, kept)
        return kept
    return None


def newest_event(key: RowsKey) -> str:
    """The latest time any pending event carries ('' when there is none)."""
    return max((e.at for path in key.pending for e in journal.read_events(path)[0]), default="")


def read_rows(repo: SkillsRepo, key: RowsKey, latest: str, now: datetime) -> CachedRows | None:
    """The rows kept under `key`, their states at `now`; None on any doubt (then rebuild).
    `latest` is the newest event time a reader takes now."""
    # The key opens the file (write_rows puts it first): another key's 4 MB is not parsed.
    opening = b'{"key":"' + key.digest.encode() + b'"'
    doc = read_cache_json(repo.store.state_dir() / ROWS_CACHE, opening)
    return _kept_rows(repo, doc, key, latest, now)


def read_rows_only(repo: SkillsRepo, key: RowsKey, latest: str, now: datetime) -> CachedRows | None:
    """read_rows without the texts `list --json` keeps (None in their place), for a reader
    that renders none (a pass): two thirds of the file are those texts, and write_rows puts
    them last, so the document is parsed only up to them."""
    opening = b'{"key":"' + key.digest.encode() + b'"'
    data = read_cache_bytes(repo.store.state_dir() / ROWS_CACHE, opening)
    # A quote inside a string is escaped, so the texts' own strings never hold this: the
    # last one is the document's own key.
    cut = -1 if data is None else data.rfind(b',"texts":')
    if data is None or cut < 0:
        return None
    try:
        doc = json.loads(data[:cut] + b',"texts":null}')
    except (ValueError, RecursionError):
        return None
    return _kept_rows(repo, doc, key, latest, now)


def _kept_rows(
    repo: SkillsRepo, doc: Any, key: RowsKey, latest: str, now: datetime
) -> CachedRows | None:
    """The rows of the parsed cache `doc` if it holds for `key`, their states at `now`."""
    try:
        if doc["key"] != key.digest or doc["fields"] != list(FIELDS):
            return None
        if doc["newest_event"] > latest:  # an event the clock now leaves out was counted
            return None
        problems, hidden, links = doc["problems"], doc["hidden"], doc["links"]
        values, anchors = doc["rows"], doc["anchors"]
        if not (_strings(problems) and _strings(hidden) and _strings(links)):
            return None
        if not (isinstance(values, list) and _rows_ok(values) and _anchors_ok(anchors, values)):
            return None
        texts = doc["texts"]
        if texts is not None and not _texts_ok(texts, values):
            return None
        rows = rows_at(values, anchors, repo.config.curator, now)
        kept = None if texts is None else tuple(map(tuple, texts))
        newest = doc["newest_event"]
        return CachedRows(rows, problems, tuple(hidden), tuple(links), kept, newest, tuple(anchors))
    except (KeyError, TypeError, ValueError, IndexError, OverflowError):
        return None


def write_rows(repo: SkillsRepo, key: RowsKey, cached: CachedRows) -> None:
    """Keep `cached` (its texts, anchors and newest event made by keep) under `key` (skipped
    when it cannot be written)."""
    write_cache_json(
        repo.store.state_dir() / ROWS_CACHE,
        {
            "key": key.digest,
            "fields": list(FIELDS),
            "newest_event": cached.newest,
            "problems": cached.problems,
            "hidden": list(cached.hidden),
            "links": list(cached.links),
            "rows": [row_values(r) for r in cached.rows],
            "anchors": list(cached.anchors),
            "texts": None if cached.texts is None else list(cached.texts),
        },
    )


# What a state is while row_texts encodes the rows: json.dumps of "\x00". A value holding it
# as well shows as one opening too many, and no texts are kept.
_OPEN = '"\\u0000"'
# No string's text holds it (a quote inside one is escaped, and a string's closing quote is
# never followed by a letter), and no row holds an object in a list: it is where rows meet.
_NEXT_ROW = '}, {"name": '
_ROW_OPENING = _NEXT_ROW[3:]


def row_texts(rows: list[SkillRow]) -> tuple[tuple[str, str], ...] | None:
    """Each row's JSON text split around its state, as inventory.encoded_parts splits it, from
    one json.dumps of every row cut at each row's start (10,000 rows: 0.3 s of four dumps a
    row down to 0.08 s); None when a value holds the opening the states are written as."""
    if not rows:
        return ()
    docs = [r.to_json() for r in rows]
    for doc in docs:
        doc["state"] = "\0"
    whole = json.dumps(docs, ensure_ascii=False)[1:-1].split(_NEXT_ROW)  # inside the [ ]
    if len(whole) != len(rows):
        return None
    texts = []
    last = len(whole) - 1
    for i, piece in enumerate(whole):
        parts = piece.split(_OPEN)
        if len(parts) != 2:
            return None
        head, tail = parts
        # The cut took the first row's "}" before it and the next one's opening after it.
        texts.append((head if i == 0 else _ROW_OPENING + head, tail if i == last else tail + "}"))
    return tuple(texts)


def _strings(values: object) -> bool:
    return isinstance(values, list) and set(map(type, values)) <= {str}


# What each field's values may be, checked a column at a time (10,000 rows in milliseconds).
_TYPES: dict[str, set[type]] = {
    "str": {str},
    "bool": {bool},
    "int": {int},
    "str | None": {str, type(None)},
    "Mapping[str, int]": {dict},
}
# A field of a type not named above fails at import, so a new field cannot go unchecked.
_COLUMN_TYPES = tuple(_TYPES[FIELD_TYPES[name]] for name in FIELDS)


def _rows_ok(rows: list[Any]) -> bool:
    """Whether every row is a list of FIELDS' values of the types SkillRow declares."""
    if not rows:
        return True
    if set(map(type, rows)) != {list} or set(map(len, rows)) != {len(FIELDS)}:
        return False
    for column, types in zip(zip(*rows, strict=True), _COLUMN_TYPES, strict=True):
        if not set(map(type, column)) <= types:
            return False
        if types == {int} and not (is_count(min(column)) and is_count(max(column))):
            return False
        if types == {dict} and not all(_counts(v) for v in column if v):
            return False
    return True


def _anchors_ok(anchors: object, rows: list[Any]) -> bool:
    """One anchor a row: an int (microseconds from the epoch) or None."""
    if not (isinstance(anchors, list) and len(anchors) == len(rows)):
        return False
    present = [a for a in anchors if a is not None]
    return set(map(type, present)) <= {int}


def _texts_ok(texts: object, rows: list[Any]) -> bool:
    """One [head, tail] pair of strings a row."""
    return (
        isinstance(texts, list)
        and len(texts) == len(rows)
        and set(map(type, texts)) <= {list}
        and set(map(len, texts)) <= {2}
        and all(type(h) is str and type(t) is str for h, t in texts)
    )


def _counts(value: dict[Any, Any]) -> bool:
    return all(type(k) is str and is_count(v) for k, v in value.items())
