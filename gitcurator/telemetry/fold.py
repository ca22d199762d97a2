"""Journal events applied to records: counts per host and source, each event id once, and what
agents wrote (pure).

Kinds: `use` and `view` count; `edit` (an agent edited a skill) is a patch: it counts per
source and moves the skill's last patch time; `create` (an agent wrote a new skill) records
origin `agent` unless the skill already has an origin; `wanted` (a use of an archived skill)
counts per host since the skill's archived_at (records.Wanted), and as a use when it is dated
before that (a backfill of the agent's logs). An event with an id its
source already reported for that skill (on any host, in the notes or earlier in the same
batch) changes nothing: a hook and a backfill of the same event, or an ingest run twice, count
once; so does a load counted as wanted and backfilled again as a use or view once the skill is
restored (or the other way round). An id without a source is not deduplicated (ids are only
unique within the agent that made them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from gitcurator.telemetry import sources
from gitcurator.telemetry.events import WANTED
from gitcurator.telemetry.records import HostCounters, Stamped, UsageRecord, Wanted, with_hosts
from gitcurator.timeutil import later_of

if TYPE_CHECKING:  # the type only: this module stays pure (the journal does I/O)
    from gitcurator.telemetry.events import Event

AGENT_ORIGIN = "agent"
# The kinds one agent load may have been counted under, besides its own.
_SAME_LOAD = {"use": (WANTED,), "view": (WANTED,), WANTED: ("use", "view")}


@dataclass(slots=True)
class _SourceDelta:
    uses: int = 0
    views: int = 0
    patches: int = 0
    patched_at: str | None = None
    ids: dict[str, set[str]] = field(default_factory=dict)


@dataclass(slots=True)
class _HostDelta:
    uses: int = 0
    views: int = 0
    used_at: str | None = None
    viewed_at: str | None = None
    wanted: int = 0
    wanted_at: str | None = None
    wanted_ids: set[str] = field(default_factory=set)
    by_source: dict[str, _SourceDelta] = field(default_factory=dict)


@dataclass(slots=True)
class _Pending:
    """One skill's events of a batch, gathered before the record is rebuilt once (a record
    per event would copy its id sets per event: quadratic on a big backfill)."""

    record: UsageRecord
    hosts: dict[str, _HostDelta] = field(default_factory=dict)
    seen: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    created_at: str | None = None
    changed: bool = False

    def _seen(self, source: str, kind: str) -> set[str]:
        key = (source, kind)
        if key not in self.seen:
            self.seen[key] = {
                d
                for h in self.record.hosts.values()
                if source in h.sources
                for d in h.sources[source].ids.get(kind, ())
            }
        return self.seen[key]

    def add(self, event: Event) -> None:
        if event.kind == "create":
            self.created_at = min(self.created_at or event.at, event.at)
            return
        kind = "patch" if event.kind == "edit" else event.kind
        archived_at = self.record.archived_at
        if kind == WANTED and archived_at is not None and event.at < archived_at:
            # A backfill (`ingest`) of a load from before the skill was archived: a use then.
            kind = "use"
        digest = None
        if event.source is not None and event.event_id is not None:
            digest = sources.digest(event.event_id)
            seen = self._seen(event.source, kind)
            # A load is a use or view while the skill is live and wanted while it is archived:
            # the same event backfilled across a restore or an archive was counted already.
            if digest in seen or any(
                digest in self._seen(event.source, k) for k in _SAME_LOAD.get(kind, ())
            ):
                return
            seen.add(digest)
        if kind == "patch" and event.source is None:
            return  # only agents report edits; a patch needs a source to be kept under
        host = self.hosts.setdefault(event.host, _HostDelta())
        if kind == "use":
            host.uses += 1
            host.used_at = later_of(host.used_at, event.at)
        elif kind == "view":
            host.views += 1
            host.viewed_at = later_of(host.viewed_at, event.at)
        elif kind == WANTED:
            host.wanted += 1
            host.wanted_at = later_of(host.wanted_at, event.at)
            if digest is not None:
                host.wanted_ids.add(digest)
        if event.source is not None:
            delta = host.by_source.setdefault(event.source, _SourceDelta())
            if kind == "use":
                delta.uses += 1
            elif kind == "view":
                delta.views += 1
            elif kind == "patch":
                delta.patches += 1
                delta.patched_at = later_of(delta.patched_at, event.at)
            if digest is not None:
                delta.ids.setdefault(kind, set()).add(digest)
        self.changed = True

    def result(self) -> UsageRecord | None:
        record = self.record
        if self.created_at is not None and record.origin is None:
            record = replace(record, origin=Stamped(AGENT_ORIGIN, self.created_at))
            self.changed = True
        if not self.changed:
            return None
        hosts = dict(record.hosts)
        for name, delta in self.hosts.items():
            old = hosts.get(name, HostCounters())
            hosts[name] = HostCounters(
                old.use_count + delta.uses,
                old.view_count + delta.views,
                later_of(old.last_used_at, delta.used_at),
                later_of(old.last_viewed_at, delta.viewed_at),
                _add_sources(old.sources, delta.by_source),
                _add_wanted(old.wanted, delta, record.archived_at),
            )
        return with_hosts(record, hosts)


def _add_wanted(old: Wanted | None, delta: _HostDelta, archived_at: str | None) -> Wanted | None:
    """A host's wanted count after `delta`: counted since the skill's current archived_at, so
    wants from before it was last archived (and restored) no longer count."""
    if not delta.wanted:
        return old
    same = old is not None and old.since == archived_at
    base = old.count if old is not None and same else 0
    ids = (old.ids if old is not None and same else frozenset()) | delta.wanted_ids
    last = later_of(old.last_at if old is not None else None, delta.wanted_at)
    return Wanted(base + delta.wanted, archived_at, last, ids)


def _add_sources(
    old: sources.PerHost, deltas: dict[str, _SourceDelta]
) -> dict[str, sources.SourceCounters]:
    merged = dict(old)
    for name, d in deltas.items():
        c = merged.get(name, sources.SourceCounters())
        kinds = sorted(set(c.ids) | set(d.ids))
        merged[name] = sources.SourceCounters(
            c.use_count + d.uses,
            c.view_count + d.views,
            c.patch_count + d.patches,
            later_of(c.last_patched_at, d.patched_at),
            {k: c.ids.get(k, frozenset()) | frozenset(d.ids.get(k, ())) for k in kinds},
        )
    return dict(sorted(merged.items()))


def apply_events(records: dict[str, UsageRecord], events: Iterable[Event]) -> set[str]:
    """Fold `events` into `records` in place; return the skills whose record changed."""
    pending: dict[str, _Pending] = {}
    for event in events:
        for name in event.names:
            entry = pending.get(name)
            if entry is None:
                entry = pending[name] = _Pending(records.get(name) or UsageRecord(name))
            entry.add(event)
    touched = set()
    for name, entry in pending.items():
        record = entry.result()
        if record is not None:
            records[name] = record
            touched.add(name)
    return touched
