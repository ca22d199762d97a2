"""hermes/usage_records.py: Hermes' facts merged into records, so a re-import changes nothing."""

from __future__ import annotations

from gitcurator.importers.hermes.plan import SkillFacts
from gitcurator.importers.hermes.usage_records import merge_facts
from gitcurator.telemetry.records import HostCounters, Imported, Stamped, UsageRecord

NOW_TEXT = "2026-06-01T12:00:00Z"


FACTS = SkillFacts(
    archived=True,
    origin="agent",
    pinned=True,
    has_usage=True,
    counters=HostCounters(5, 2, "2025-05-01T00:00:00Z", None),
    imported=Imported("2025-01-01T00:00:00Z", 3, None),
    archived_at="2025-06-01T00:00:00Z",
)


def test_merge_into_a_new_record() -> None:
    assert merge_facts(None, "x", FACTS, NOW_TEXT) == UsageRecord(
        "x",
        origin=Stamped("agent", NOW_TEXT),
        pinned=Stamped(True, NOW_TEXT),
        hosts={"hermes-import": FACTS.counters},  # type: ignore[dict-item]
        imported=FACTS.imported,
        archived_at="2025-06-01T00:00:00Z",
    )


def test_merging_again_changes_nothing() -> None:
    once = merge_facts(None, "x", FACTS, NOW_TEXT)
    assert merge_facts(once, "x", FACTS, "2026-07-01T00:00:00Z") == once


def test_new_hermes_counts_replace_the_imported_host_and_keep_real_hosts() -> None:
    laptop = HostCounters(1, 1, "2026-05-01T00:00:00Z", None)
    before = UsageRecord("x", hosts={"hermes-import": HostCounters(5, 2), "laptop": laptop})
    later = SkillFacts(archived=False, has_usage=True, counters=HostCounters(9, 2))
    after = merge_facts(before, "x", later, NOW_TEXT)
    assert after.hosts == {"hermes-import": HostCounters(9, 2), "laptop": laptop}
    assert after.use_count == 10
    emptied = SkillFacts(archived=False, has_usage=True, counters=None)
    assert merge_facts(after, "x", emptied, NOW_TEXT).hosts == {"laptop": laptop}


def test_gitcurators_own_choices_win_over_hermes() -> None:
    mine = UsageRecord(
        "x",
        origin=Stamped("user", "2026-01-01T00:00:00Z"),
        pinned=Stamped(False, "2026-01-01T00:00:00Z"),
        archived_at="2026-02-01T00:00:00Z",
    )
    after = merge_facts(mine, "x", FACTS, NOW_TEXT)
    assert after.origin == mine.origin and after.pinned == mine.pinned
    assert after.archived_at == "2026-02-01T00:00:00Z"  # the later archive time


def test_facts_without_usage_leave_counters_alone() -> None:
    before = UsageRecord("x", hosts={"hermes-import": HostCounters(5, 2)})
    after = merge_facts(before, "x", SkillFacts(archived=False, origin="hub"), NOW_TEXT)
    assert after.hosts == before.hosts
    assert after.origin == Stamped("hub", NOW_TEXT)
