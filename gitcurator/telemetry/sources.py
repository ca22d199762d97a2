"""Usage by source, and the agent event ids already counted, per host (pure).

Each host keeps, per source (claude-code, codex, hermes, mcp, ...), its counters and the
digests of the event ids it counted. A host only ever adds to its own, so two versions of one
host merge by maxima and set union, like the host counters themselves.

Dedupe: an event whose id a record already holds (on any host, same source and kind) is not
counted again. Two hosts that counted one event before they synced (both read the same
transcript) each hold its digest; the totals subtract such repeats, so the event counts once
after the sync too. That subtraction is a pure function of the merged state, so merging stays
commutative and idempotent.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gitcurator.timeutil import latest

ID_KINDS = ("use", "view", "patch", "wanted")
DIGEST_CHARS = 12  # 48 bits: a collision among 100,000 ids of one skill has odds of 2e-5


@dataclass(frozen=True, slots=True)
class SourceCounters:
    """What one source reported on one host, and the ids of the events it counted."""

    use_count: int = 0
    view_count: int = 0
    patch_count: int = 0
    last_patched_at: str | None = None
    ids: Mapping[str, frozenset[str]] = field(default_factory=dict)  # kind -> digests


PerHost = Mapping[str, SourceCounters]  # source -> counters, for one host


def digest(event_id: str) -> str:
    """The stored form of an agent's event id: short, fixed-size, and free of its text."""
    return hashlib.sha256(event_id.encode("utf-8", "surrogatepass")).hexdigest()[:DIGEST_CHARS]


def merge_source(a: SourceCounters, b: SourceCounters) -> SourceCounters:
    """Two versions of one host's counters for one source (maxima and unions)."""
    kinds = sorted(set(a.ids) | set(b.ids))
    return SourceCounters(
        max(a.use_count, b.use_count),
        max(a.view_count, b.view_count),
        max(a.patch_count, b.patch_count),
        latest(a.last_patched_at, b.last_patched_at),
        {k: a.ids.get(k, frozenset()) | b.ids.get(k, frozenset()) for k in kinds},
    )


def merge_sources(a: PerHost, b: PerHost) -> dict[str, SourceCounters]:
    """Two versions of one host's per-source counters."""
    merged = dict(a)
    for source, theirs in b.items():
        ours = merged.get(source)
        merged[source] = theirs if ours is None else merge_source(ours, theirs)
    return dict(sorted(merged.items()))


def repeats(per_host: Iterable[PerHost]) -> Counter[tuple[str, str]]:
    """(source, kind) -> how many counted events another host had counted already."""
    hosts = [h for h in per_host if h]
    found: Counter[tuple[str, str]] = Counter()
    if len(hosts) < 2:
        return found  # the common case: one host reports, nothing can repeat
    for source in {s for h in hosts for s in h}:
        for kind in ID_KINDS:
            sets = [h[source].ids.get(kind, frozenset()) for h in hosts if source in h]
            if len(sets) > 1:
                found[(source, kind)] = sum(len(s) for s in sets) - len(frozenset().union(*sets))
    return found


def repeated(per_host: Iterable[PerHost], kind: str) -> int:
    """Events of `kind` counted on more than one host, beyond their first count."""
    return sum(n for (_, k), n in repeats(per_host).items() if k == kind)


def uses_by_source(per_host: Iterable[PerHost]) -> dict[str, int]:
    """Uses per source, each event once."""
    hosts = list(per_host)
    totals: Counter[str] = Counter()
    for host in hosts:
        for source, counters in host.items():
            totals[source] += counters.use_count
    for (source, kind), n in repeats(hosts).items():
        if kind == "use":
            totals[source] -= n
    return {s: n for s, n in sorted(totals.items()) if n}


def last_patched_at(per_host: Iterable[PerHost]) -> str | None:
    """The newest edit an agent reported (not yet, or not only, in history)."""
    return latest(*(c.last_patched_at for host in per_host for c in host.values()))


def to_doc(sources: PerHost) -> dict[str, Any]:
    """The `sources` object of a host in the usage record (ids sorted: equal records encode
    to equal bytes on every machine)."""
    doc: dict[str, Any] = {}
    for source, c in sorted(sources.items()):
        entry: dict[str, Any] = {
            "use_count": c.use_count,
            "view_count": c.view_count,
            "patch_count": c.patch_count,
        }
        if c.last_patched_at:
            entry["last_patched_at"] = c.last_patched_at
        ids = {k: sorted(v) for k, v in sorted(c.ids.items()) if v}
        if ids:
            entry["ids"] = ids
        doc[source] = entry
    return doc


def from_doc(doc: Mapping[str, Any] | None) -> dict[str, SourceCounters]:
    """Per-source counters from a schema-checked `sources` object (absent: none)."""
    if not doc:
        return {}
    return {
        source: SourceCounters(
            entry["use_count"],
            entry["view_count"],
            entry["patch_count"],
            entry.get("last_patched_at"),
            {k: frozenset(v) for k, v in entry.get("ids", {}).items()},
        )
        for source, entry in doc.items()
    }
