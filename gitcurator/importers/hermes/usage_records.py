"""What the import writes into gitcurator's usage records: Hermes' facts merged so that
importing again changes nothing, and the counts the import reports (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gitcurator.importers.hermes.plan import ImportPlan, SkillFacts
from gitcurator.skills.document import SkillLocation
from gitcurator.skills.identity import identity
from gitcurator.telemetry.records import ORIGINS, Stamped, UsageRecord
from gitcurator.timeutil import latest

# The host whose counters hold Hermes' totals: events recorded later on real hosts add to them,
# and a re-import replaces this host's counters instead of adding them a second time.
HOST = "hermes-import"


def merge_facts(record: UsageRecord | None, skill: str, facts: SkillFacts, now: str) -> UsageRecord:
    """`record` with Hermes' facts, so that importing again changes nothing.

    Hermes' counters replace the `hermes-import` host and its history the imported values
    (both are Hermes' current totals, never added twice). Origin and pin only fill gaps: a
    choice already recorded in gitcurator (`track`, `adopt`, `unpin`, an earlier import) wins.
    """
    record = record or UsageRecord(skill)
    changes: dict[str, Any] = {}
    if facts.has_usage:
        hosts = {h: c for h, c in record.hosts.items() if h != HOST}
        if facts.counters is not None:
            hosts[HOST] = facts.counters
        if hosts != dict(record.hosts):
            changes["hosts"] = dict(sorted(hosts.items()))
        if facts.imported is not None and facts.imported != record.imported:
            changes["imported"] = facts.imported
    if facts.origin and record.origin is None:
        changes["origin"] = Stamped(facts.origin, now)
    if facts.pinned and record.pinned is None:
        changes["pinned"] = Stamped(True, now)
    archived_at = latest(record.archived_at, facts.archived_at)
    if archived_at != record.archived_at:
        changes["archived_at"] = archived_at
    return replace(record, **changes) if changes else record


def summarise(
    locations: Sequence[SkillLocation], plan: ImportPlan, records: Mapping[str, UsageRecord]
) -> dict[str, Any]:
    """Counts for the import's report: skills, archived, origins, pins, usage records."""
    origins = dict.fromkeys(ORIGINS, 0)
    pinned = 0
    for skill in sorted({identity(loc) for loc in locations}):
        record = records.get(skill) or UsageRecord(skill)
        origins[record.origin_value] += 1
        pinned += record.is_pinned
    return {
        "skills": sum(1 for loc in locations if not loc.archived),
        "archived": sum(1 for loc in locations if loc.archived),
        "by_origin": origins,
        "pinned": pinned,
        "usage_records": {
            "read": plan.usage_records,
            "imported": plan.usage_matched,
            "skipped": plan.usage_records - plan.usage_matched,
        },
    }
