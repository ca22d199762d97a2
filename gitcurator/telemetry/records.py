"""Per-skill usage and provenance records: the data, events applied to it, merge (pure).

A record keeps counters per host (one id per clone) so records written on many machines merge
without conflict: a host only ever raises its own counters, so merging two versions of one host
takes the larger; totals are sums over hosts and timestamps maxima. Origin and pin merge by
last writer, which is why each carries the time it was set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from gitcurator import schemas
from gitcurator.frozen_rows import frozen_row
from gitcurator.telemetry import sources
from gitcurator.timeutil import latest

ORIGINS = ("agent", "user", "bundled", "hub")
DEFAULT_ORIGIN = "user"
EVENT_KINDS = ("use", "view")


@dataclass(frozen=True, slots=True)
class Wanted:
    """Uses of a skill while it was archived, counted on one host since `since` (the record's
    archived_at when they were folded: archiving it again starts a new count)."""

    count: int
    since: str | None
    last_at: str | None
    # Digests of the agent event ids in `count`: two clones that counted one event before they
    # synced both hold it, and wanted_count subtracts such repeats (as use_count does).
    ids: frozenset[str] = frozenset()


@frozen_row
class HostCounters:
    use_count: int = 0
    view_count: int = 0
    last_used_at: str | None = None
    last_viewed_at: str | None = None
    # Per source: what agents reported and the ids of the events counted (telemetry.sources).
    sources: Mapping[str, sources.SourceCounters] = field(default_factory=dict)
    wanted: Wanted | None = None


@frozen_row
class Stamped:
    """A value and when it was set (for last-writer-wins merges)."""

    value: Any
    at: str


@frozen_row
class Imported:
    """History an importer brought that predates this repository's own commits."""

    created_at: str | None = None
    patch_count: int | None = None
    last_patched_at: str | None = None


@frozen_row
class UsageRecord:
    skill: str
    origin: Stamped | None = None
    pinned: Stamped | None = None
    hosts: Mapping[str, HostCounters] = field(default_factory=dict)
    imported: Imported | None = None
    archived_at: str | None = None
    absorbed_into: str | None = None
    lifecycle: Stamped | None = None  # "active" | "stale", as the last pass left it
    # Where a hub skill came from (upstream.provenance.Provenance as a dict): url, path, ref,
    # commit; set by `add` and `update`.
    source: Stamped | None = None

    @property
    def origin_value(self) -> str:
        return str(self.origin.value) if self.origin else DEFAULT_ORIGIN

    @property
    def is_pinned(self) -> bool:
        return bool(self.pinned and self.pinned.value)

    @property
    def use_count(self) -> int:
        # An event two hosts both counted (before they synced) counts once.
        repeated = sources.repeated((h.sources for h in self.hosts.values()), "use")
        return sum(h.use_count for h in self.hosts.values()) - repeated

    @property
    def view_count(self) -> int:
        repeated = sources.repeated((h.sources for h in self.hosts.values()), "view")
        return sum(h.view_count for h in self.hosts.values()) - repeated

    @property
    def wanted_count(self) -> int:
        """Uses of the skill since it was last archived, on every host, each event once."""
        now = [
            h.wanted
            for h in self.hosts.values()
            if h.wanted is not None and h.wanted.since == self.archived_at
        ]
        repeated = sum(len(w.ids) for w in now) - len(frozenset().union(*(w.ids for w in now)))
        return sum(w.count for w in now) - repeated

    @property
    def last_wanted_at(self) -> str | None:
        return latest(*(h.wanted.last_at for h in self.hosts.values() if h.wanted is not None))

    @property
    def last_used_at(self) -> str | None:
        return latest(*(h.last_used_at for h in self.hosts.values()))

    @property
    def last_viewed_at(self) -> str | None:
        return latest(*(h.last_viewed_at for h in self.hosts.values()))


_RECORD_FIELDS = tuple(f.name for f in fields(UsageRecord))


def absorbed_of(records: Mapping[str, UsageRecord]) -> dict[str, str]:
    """Skill -> the umbrella that absorbed it, for every record that says so."""
    return {n: r.absorbed_into for n, r in records.items() if r.absorbed_into}


def with_hosts(record: UsageRecord, hosts: Mapping[str, HostCounters]) -> UsageRecord:
    """`replace(record, hosts=hosts)`, at half its cost (a flush makes one per record)."""
    values = {name: getattr(record, name) for name in _RECORD_FIELDS}
    values["hosts"] = hosts
    return UsageRecord(**values)


def apply_event(record: UsageRecord, kind: str, at: str, host: str, count: int = 1) -> UsageRecord:
    """`record` after `count` use or view events at `at` on `host`."""
    old = record.hosts.get(host, HostCounters())
    if kind == "use":
        new = replace(
            old, use_count=old.use_count + count, last_used_at=latest(old.last_used_at, at)
        )
    elif kind == "view":
        new = replace(
            old, view_count=old.view_count + count, last_viewed_at=latest(old.last_viewed_at, at)
        )
    else:
        raise ValueError(f"unknown event kind {kind!r}")
    return replace(record, hosts={**record.hosts, host: new})


def merge_records(a: UsageRecord, b: UsageRecord) -> UsageRecord:
    """The union of two versions of one skill's record (commutative, idempotent)."""
    hosts = dict(a.hosts)
    for host, theirs in b.hosts.items():
        ours = hosts.get(host)
        hosts[host] = (
            theirs
            if ours is None
            else HostCounters(
                max(ours.use_count, theirs.use_count),
                max(ours.view_count, theirs.view_count),
                latest(ours.last_used_at, theirs.last_used_at),
                latest(ours.last_viewed_at, theirs.last_viewed_at),
                sources.merge_sources(ours.sources, theirs.sources),
                merge_wanted(ours.wanted, theirs.wanted),
            )
        )
    return UsageRecord(
        skill=a.skill,
        origin=_last_writer(a.origin, b.origin),
        pinned=_last_writer(a.pinned, b.pinned),
        lifecycle=_last_writer(a.lifecycle, b.lifecycle),
        source=_last_writer(a.source, b.source),
        hosts=dict(sorted(hosts.items())),
        imported=_merge_imported(a.imported, b.imported),
        archived_at=latest(a.archived_at, b.archived_at),
        # Both set and different cannot come from our own writes; pick one deterministically.
        absorbed_into=max((x for x in (a.absorbed_into, b.absorbed_into) if x), default=None),
    )


def merge_wanted(a: Wanted | None, b: Wanted | None) -> Wanted | None:
    """Two versions of one host's wanted count: the newer archive's count, else the larger
    (a host only raises its count, and starts again only when the skill is archived again)."""
    if a is None or b is None:
        return a or b
    top = max(a, b, key=lambda w: (w.since or "", w.count))
    ids = a.ids | b.ids if a.since == b.since else top.ids
    return Wanted(top.count, top.since, latest(a.last_at, b.last_at), ids)


def _last_writer(a: Stamped | None, b: Stamped | None) -> Stamped | None:
    if a is None or b is None:
        return a or b
    # Ties broken by value so both sides of a merge pick the same one.
    return max(a, b, key=lambda s: (s.at, repr(s.value)))


def _merge_imported(a: Imported | None, b: Imported | None) -> Imported | None:
    if a is None or b is None:
        return a or b
    created = min((x for x in (a.created_at, b.created_at) if x), default=None)
    counts = [c for c in (a.patch_count, b.patch_count) if c is not None]
    return Imported(
        created, max(counts) if counts else None, latest(a.last_patched_at, b.last_patched_at)
    )


def to_doc(record: UsageRecord) -> dict[str, Any]:
    """The JSON document stored in the skill's note (schema: usage-record)."""
    doc: dict[str, Any] = {"version": 1, "skill": record.skill}
    if record.origin:
        doc["origin"] = {"value": record.origin.value, "at": record.origin.at}
    if record.pinned:
        doc["pinned"] = {"value": bool(record.pinned.value), "at": record.pinned.at}
    if record.lifecycle:
        doc["lifecycle"] = {"value": record.lifecycle.value, "at": record.lifecycle.at}
    if record.source:
        doc["source"] = {"value": dict(record.source.value), "at": record.source.at}
    doc["hosts"] = {
        host: {
            "use_count": c.use_count,
            "view_count": c.view_count,
            "last_used_at": c.last_used_at,
            "last_viewed_at": c.last_viewed_at,
            # Only when an agent reported: records from before sources encode as they did.
            **({"sources": sources.to_doc(c.sources)} if c.sources else {}),
            **({"wanted": _wanted_doc(c.wanted)} if c.wanted else {}),
        }
        for host, c in sorted(record.hosts.items())
    }
    if record.imported:
        doc["imported"] = {
            k: v
            for k, v in (
                ("created_at", record.imported.created_at),
                ("patch_count", record.imported.patch_count),
                ("last_patched_at", record.imported.last_patched_at),
            )
            if v is not None
        }
    if record.archived_at:
        doc["archived_at"] = record.archived_at
    if record.absorbed_into:
        doc["absorbed_into"] = record.absorbed_into
    return doc


def from_doc(doc: Mapping[str, Any]) -> UsageRecord:
    """A record from a document that already passed the usage-record schema."""
    imported = doc.get("imported")
    return UsageRecord(
        skill=doc["skill"],
        origin=Stamped(doc["origin"]["value"], doc["origin"]["at"]) if "origin" in doc else None,
        pinned=Stamped(doc["pinned"]["value"], doc["pinned"]["at"]) if "pinned" in doc else None,
        lifecycle=Stamped(doc["lifecycle"]["value"], doc["lifecycle"]["at"])
        if "lifecycle" in doc
        else None,
        source=Stamped(dict(doc["source"]["value"]), doc["source"]["at"])
        if "source" in doc
        else None,
        hosts={
            h: HostCounters(
                c["use_count"],
                c["view_count"],
                c.get("last_used_at"),
                c.get("last_viewed_at"),
                sources.from_doc(c.get("sources")),
                _wanted(c.get("wanted")),
            )
            for h, c in doc["hosts"].items()
        },
        imported=Imported(
            imported.get("created_at"), imported.get("patch_count"), imported.get("last_patched_at")
        )
        if imported is not None
        else None,
        archived_at=doc.get("archived_at"),
        absorbed_into=doc.get("absorbed_into"),
    )


def _wanted_doc(wanted: Wanted) -> dict[str, Any]:
    doc: dict[str, Any] = {"count": wanted.count, "since": wanted.since, "last_at": wanted.last_at}
    if wanted.ids:
        doc["ids"] = sorted(wanted.ids)
    return doc


def _wanted(doc: Mapping[str, Any] | None) -> Wanted | None:
    if doc is None:
        return None
    return Wanted(doc["count"], doc.get("since"), doc.get("last_at"), frozenset(doc.get("ids", ())))


def decode_record(name: str, data: bytes) -> UsageRecord | str:
    """A note's record of `name`, or the first reason it is not a valid one."""
    try:
        doc = json.loads(data)
    except ValueError as exc:
        return f"not JSON ({exc})"
    except RecursionError:
        return "not a record (JSON nested too deeply to read)"
    problems = check_doc(doc, name)
    return problems[0] if problems else from_doc(doc)


def check_doc(doc: object, skill: str) -> list[str]:
    """Schema problems of a note's document, plus a record filed under the wrong skill."""
    # Every note read and every record written is checked: the compiled check first (a flush
    # of 2,000 records spent ~1 s in jsonschema), the messages only for a document it refuses.
    found = schemas.problems(doc, "usage-record")
    if not found and isinstance(doc, dict) and doc.get("skill") != skill:
        found.append(f"at skill: the note is filed under {skill!r} but names {doc.get('skill')!r}")
    return found
