"""The usage records the notes hold, schema-checked, read through the records cache (whose
layout is telemetry/records_cache's) and read from the notes on a miss."""

from __future__ import annotations

from dataclasses import dataclass, field

from gitcurator.statefiles import RECORDS_CACHE
from gitcurator.store import Store
from gitcurator.store.notes import (
    NOTES_REF,
    NotesState,
    notes_commit,
    read_blobs,
    read_json_blobs,
    read_notes,
)
from gitcurator.telemetry import records_cache
from gitcurator.telemetry.records import UsageRecord, check_doc, decode_record, from_doc


@dataclass(slots=True)
class Loaded:
    """Every record (notes + events not yet flushed) and what could not be read."""

    records: dict[str, UsageRecord]
    problems: list[str] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)  # skill -> id of its bad note


def cached(store: Store) -> bool:
    """Whether the records cache is for the notes ref's commit (load_notes reads it then)."""
    commit = notes_commit(store)
    key = commit.decode() if commit else None
    return records_cache.holds(store.state_dir() / RECORDS_CACHE, key)


def load_notes(store: Store, state: NotesState | None = None) -> Loaded:
    """Records from the notes ref, schema-checked (a per-commit cache makes repeats cheap)."""
    cache_path = store.state_dir() / RECORDS_CACHE
    commit = state.commit if state else notes_commit(store)
    key = commit.decode() if commit else None
    cached = records_cache.read_whole(cache_path, key)
    if cached is not None:
        return Loaded(*cached)
    # Walking the notes tree costs ~0.3 s at 10,000 records: only on a cache miss.
    state = state or read_notes(store)
    by_key = {key_id.decode(): name for name, key_id in state.keys.items()}
    loaded = Loaded({})
    # Parsed as json.loads parses them; the notes it would not read are decoded one by one
    # below, which says what is wrong with each.
    docs, others = read_json_blobs(store, list(state.notes.values()))
    texts: dict[str, str] = {}  # a record's text for the cache: its note's, on one line
    for annotated, blob_id in sorted(state.notes.items()):
        name = by_key.get(annotated)
        if name is None:
            loaded.problems.append(
                f"note on object {annotated} in {NOTES_REF.decode()} is not a gitcurator record "
                "(written by plain `git notes`?); skipped"
            )
            continue
        if blob_id in others:
            record = decode_record(name, others[blob_id])
        else:
            doc, texts[name] = docs[blob_id]
            try:
                valid = not check_doc(doc, name)
            except RecursionError:
                valid = False
            # A note the schema refuses is decoded again as json.loads reads it: the scanner,
            # called a few frames higher, reads a note nested ~1,000 deep that json.loads
            # calls "nested too deeply", and the problem must say what it always said.
            record = (
                from_doc(doc)
                if valid
                else decode_record(name, read_blobs(store, [blob_id])[blob_id])
            )
        if isinstance(record, str):
            loaded.problems.append(f"record of {name} is invalid and was ignored: {record}")
            loaded.unreadable[name] = blob_id.decode()
            continue
        loaded.records[name] = record
    # Each record's text its note's where it has one: it reads back to the same record, and
    # encoding 10,000 records again cost 0.07-0.1 s.
    records_cache.write_whole(
        cache_path, key, loaded.records, loaded.problems, loaded.unreadable, texts
    )
    return loaded
