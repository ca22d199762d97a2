"""The records a flush touches, read by name from the records cache, and that cache moved to
the flush's notes commit.

A flush of 2,000 events into 10,000 records decoded and re-encoded all 10,000 (the cache is
keyed by notes commit, and every flush makes a new one). The cache is read here as JSON and
only the records the events name are decoded; after the notes commit, the JSON is moved to it
with just the touched records replaced. The document is the one ledger's load side writes
(`notes`, `records`, `problems`, `unreadable`); one of any other shape is not used.

Each record is kept in the document as its compact JSON text (`cache_text`), not as nested
JSON: reading and writing 10,000 strings costs the C scanner ~10 ms each way, 10,000 nested
objects ~45 ms, in every flush.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitcurator.statefiles import read_json, write_cache_json
from gitcurator.telemetry.records import UsageRecord, from_doc, to_doc

_FIELDS = {"notes", "records", "problems", "unreadable"}


@dataclass(slots=True)
class Subset:
    """Some records of one notes commit, with every problem and unreadable note of it."""

    records: dict[str, UsageRecord]
    problems: list[str]
    unreadable: dict[str, str]
    document: dict[str, Any]  # the cache as read: every record still as its JSON text


def cache_text(record: UsageRecord) -> str:
    """A record as the cache keeps it: its document's compact JSON (ASCII, as the cache is)."""
    return doc_text(to_doc(record))


def doc_text(doc: dict[str, Any]) -> str:
    """A record's document (records.to_doc) as the cache keeps it."""
    return json.dumps(doc, separators=(",", ":"))


def from_cache_text(text: object) -> UsageRecord:
    """A record from its text in the cache (TypeError, ValueError...: a damaged cache)."""
    if type(text) is not str:
        raise TypeError("a cached record is its JSON text")
    return from_doc(json.loads(text))


def read_subset(path: Path, notes: str | None, names: Iterable[str]) -> Subset | None:
    """The records named (those that exist) from the cache at `path`, if it is for notes
    commit `notes` and well formed; else None (the caller loads every record)."""
    doc = read_json(path)
    if not isinstance(doc, dict) or set(doc) != _FIELDS or doc["notes"] != notes:
        return None
    records, problems, unreadable = doc["records"], doc["problems"], doc["unreadable"]
    if not isinstance(records, dict) or not isinstance(unreadable, dict):
        return None
    if not all(type(text) is str for text in records.values()):
        return None  # a cache of another version: every record is read from the notes
    if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in unreadable.items()):
        return None
    try:
        subset = {n: from_cache_text(records[n]) for n in set(names) if n in records}
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
        return None
    return Subset(subset, list(problems), dict(unreadable), doc)


def write_moved(
    path: Path,
    subset: Subset,
    notes: str,
    changed: dict[str, UsageRecord],
    problems: list[str],
    unreadable: dict[str, str],
    texts: dict[str, str] | None = None,
) -> None:
    """Cache the records of notes commit `notes`: those of `subset`'s commit with `changed`
    replaced (what the flush wrote; `texts`: their cache texts where already made), and the
    problems and unreadable notes left."""
    records = subset.document["records"]
    texts = texts or {}
    records.update({n: texts.get(n) or cache_text(r) for n, r in changed.items()})
    write_cache_json(
        path, {"notes": notes, "records": records, "problems": problems, "unreadable": unreadable}
    )
