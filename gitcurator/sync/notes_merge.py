"""Merging two versions of the telemetry notes (pure): records joined per skill, nothing dropped.

A record is a join-semilattice (records.merge_records: per-host maxima, last writer for
stamped values), so two notes trees merge without a base and in any order. The note-level
merge below keeps that: it is commutative and idempotent on everything it returns (tests
check both with hypothesis), so every clone converges on byte-identical notes whatever order
the syncs ran in. What it cannot merge (a record that is not valid JSON of our schema, a note
that plain `git notes` put on some other object) is never dropped: one version stays the note
(the valid one, else the smaller blob id, so both sides choose alike) and the other is kept
under `unreadable/` in the notes tree, with a warning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gitcurator.gitfiles.object_ids import BLOB, object_hex
from gitcurator.telemetry.records import UsageRecord, decode_record, merge_records

UNREADABLE = "unreadable/"


@dataclass(frozen=True, slots=True)
class NotesSide:
    """One version of the notes tree, by object ids (hex)."""

    notes: Mapping[str, str]  # annotated object id -> note blob id
    keys: Mapping[str, str]  # skill name -> key blob id
    others: Mapping[bytes, tuple[int, str]] = field(default_factory=dict)  # path -> (mode, id)


@dataclass(slots=True)
class MergedNotes:
    """The merged tree, the note blobs it needs written, and what was kept aside and why."""

    notes: dict[str, str]
    keys: dict[str, str]
    others: dict[bytes, tuple[int, str]]
    written: dict[str, bytes] = field(default_factory=dict)  # skill name -> new note JSON
    warnings: list[str] = field(default_factory=list)

    def same_as(self, side: NotesSide) -> bool:
        """Whether the merge is exactly `side` (then no notes commit is needed for it)."""
        return (
            self.notes == dict(side.notes)
            and self.keys == dict(side.keys)
            and self.others == dict(side.others)
        )

    def changed_from(self, side: NotesSide) -> list[str]:
        """Annotated ids whose note differs from `side`'s (new there, or a new version)."""
        return sorted(a for a, blob in self.notes.items() if side.notes.get(a) != blob)


def blob_id(data: bytes) -> str:
    """The git object id of a blob holding `data`."""
    return object_hex(BLOB, data)


def blobs_needed(local: NotesSide, remote: NotesSide) -> set[str]:
    """The note blobs merge_notes reads: both versions of every note the sides disagree on."""
    needed: set[str] = set()
    for annotated, theirs in remote.notes.items():
        ours = local.notes.get(annotated)
        if ours is not None and ours != theirs:
            needed |= {ours, theirs}
    return needed


def merge_notes(
    local: NotesSide,
    remote: NotesSide,
    blobs: Mapping[str, bytes],
    encode: Callable[[UsageRecord], bytes],
) -> MergedNotes:
    """The union of two notes trees; `blobs` holds the contents blobs_needed() names."""
    keys = dict(local.keys)
    for name, key in remote.keys.items():
        # Key ids follow from the name; two differing ones are hand-made: pick alike.
        keys[name] = min(keys[name], key) if name in keys else key
    owner = {key: name for name, key in keys.items()}
    merged = MergedNotes(dict(local.notes), keys, _merge_others(local.others, remote.others))
    for annotated, theirs in sorted(remote.notes.items()):
        ours = local.notes.get(annotated)
        if ours == theirs:
            continue
        skill = owner.get(annotated)
        if skill is None:
            _merge_foreign(merged, annotated, ours, theirs)
        elif ours is None:
            merged.notes[annotated] = theirs
        else:
            _merge_record(merged, skill, annotated, ours, theirs, blobs, encode)
    return merged


def _merge_record(
    merged: MergedNotes,
    name: str,
    annotated: str,
    ours: str,
    theirs: str,
    blobs: Mapping[str, bytes],
    encode: Callable[[UsageRecord], bytes],
) -> None:
    a, b = decode_record(name, blobs[ours]), decode_record(name, blobs[theirs])
    if isinstance(a, UsageRecord) and isinstance(b, UsageRecord):
        record = merge_records(a, b)
        # Reuse a side's blob when the merge equals it: no new blob, no churn.
        if record == a and record == b:
            merged.notes[annotated] = min(ours, theirs)
        elif record == a:
            merged.notes[annotated] = ours
        elif record == b:
            merged.notes[annotated] = theirs
        else:
            data = encode(record)
            merged.written[name] = data
            merged.notes[annotated] = blob_id(data)
        return
    if isinstance(a, UsageRecord) or isinstance(b, UsageRecord):
        kept, aside, why = (ours, theirs, b) if isinstance(a, UsageRecord) else (theirs, ours, a)
    else:
        kept, aside = sorted((ours, theirs))
        why = b if aside == theirs else a
    merged.notes[annotated] = kept
    path = f"{UNREADABLE}{name}-{aside[:12]}"
    merged.others[path.encode()] = (0o100644, aside)
    merged.warnings.append(
        f"one version of the record of {name} is invalid ({why}); the valid one is kept as the "
        f"note and the other as {path} in the notes"
    )


def _merge_foreign(merged: MergedNotes, annotated: str, ours: str | None, theirs: str) -> None:
    """A note on an object that is no skill's key: not ours to read; keep every version."""
    what = f"note on object {annotated} is not a gitcurator record (written by plain `git notes`?)"
    if ours is None:
        merged.notes[annotated] = theirs
        merged.warnings.append(f"{what}; skipped, and kept as it is")
        return
    kept, aside = sorted((ours, theirs))
    merged.notes[annotated] = kept
    path = f"{UNREADABLE}foreign-{annotated[:12]}-{aside[:12]}"
    merged.others[path.encode()] = (0o100644, aside)
    merged.warnings.append(f"{what} and differs on the two sides; skipped, one kept as {path}")


def _merge_others(
    a: Mapping[bytes, tuple[int, str]], b: Mapping[bytes, tuple[int, str]]
) -> dict[bytes, tuple[int, str]]:
    merged = dict(a)
    for path, entry in b.items():
        mine = merged.get(path)
        if mine is None or mine == entry:
            merged[path] = entry
            continue
        kept, aside = sorted((mine, entry), key=lambda e: (e[1], e[0]))
        merged[path] = kept
        base = path.rsplit(b"/", 1)[-1]
        merged[f"{UNREADABLE}conflict-{aside[1][:12]}-".encode() + base] = aside
    return merged
