"""Wanted: uses of an archived skill, folded per host since its archived_at and merged like the
other per-host counters (each event once, whatever order clones sync in)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from gitcurator.telemetry.events import Event, event_line, parse_line
from gitcurator.telemetry.fold import apply_events
from gitcurator.telemetry.records import (
    UsageRecord,
    decode_record,
    from_doc,
    merge_records,
    to_doc,
)
from gitcurator.telemetry.sources import digest

T0, T1, T2, T3 = (f"2026-0{m}-01T00:00:00Z" for m in (1, 2, 3, 4))


def _wanted(host: str, at: str, source: str | None = None, event_id: str | None = None) -> Event:
    return Event("wanted", ("x",), at, host, source, event_id)


def _fold(record: UsageRecord, *events: Event) -> UsageRecord:
    records = {"x": record}
    apply_events(records, events)
    return records["x"]


def test_a_wanted_line_reads_back_and_counts_as_no_use() -> None:
    line = event_line("wanted", ["x"], T1, "h1", "cli")
    event = parse_line(line.rstrip(b"\n"))
    assert event == Event("wanted", ("x",), T1, "h1", "cli", None)
    record = _fold(UsageRecord("x", archived_at=T0), event)
    assert (record.wanted_count, record.use_count, record.last_wanted_at) == (1, 0, T1)
    assert record.last_used_at is None


def test_wanted_counts_since_the_skill_was_last_archived() -> None:
    record = _fold(UsageRecord("x", archived_at=T0), _wanted("h1", T1), _wanted("h1", T1))
    assert record.wanted_count == 2
    again = replace(record, archived_at=T2)  # restored, then archived again
    assert again.wanted_count == 0, "wants from before the last archive no longer count"
    again = _fold(again, _wanted("h1", T3))
    assert again.wanted_count == 1 and again.last_wanted_at == T3


def test_an_agent_event_id_counts_once() -> None:
    record = _fold(
        UsageRecord("x", archived_at=T0),
        _wanted("h1", T1, "claude-code", "toolu_1"),
        _wanted("h1", T1, "claude-code", "toolu_1"),
    )
    record = _fold(record, _wanted("h1", T1, "claude-code", "toolu_1"))
    assert record.wanted_count == 1


def test_the_record_document_round_trips_and_passes_the_schema() -> None:
    record = _fold(UsageRecord("x", archived_at=T0), _wanted("h1", T1, "mcp", "r1"))
    doc = to_doc(record)
    assert doc["hosts"]["h1"]["wanted"] == {
        "count": 1,
        "since": T0,
        "last_at": T1,
        "ids": [digest("r1")],
    }
    assert from_doc(doc) == record
    assert decode_record("x", json.dumps(doc).encode()) == record


@pytest.mark.parametrize(
    "bad",
    [
        {"count": -1},
        {"count": "2"},
        {"since": T0},
        {"count": 1, "extra": 1},
        {"count": 1, "ids": ["x"]},
    ],
)
def test_a_damaged_wanted_count_is_refused_by_the_schema(bad: dict[str, object]) -> None:
    doc = to_doc(_fold(UsageRecord("x", archived_at=T0), _wanted("h1", T1)))
    doc["hosts"]["h1"]["wanted"] = bad
    assert isinstance(decode_record("x", json.dumps(doc).encode()), str)


def test_two_clones_merge_without_counting_twice() -> None:
    base = UsageRecord("x", archived_at=T0)
    a = _fold(base, _wanted("ha", T1))
    b = _fold(base, _wanted("hb", T2), _wanted("hb", T2))
    merged = merge_records(a, b)
    assert merged.wanted_count == 3
    assert merge_records(b, a) == merged, "commutative"
    assert merge_records(merged, a) == merged, "idempotent: a second sync adds nothing"
    # One host's older and newer version: the newer count wins, not a sum.
    newer = _fold(a, _wanted("ha", T3))
    assert merge_records(a, newer).wanted_count == 2
    # A count from before the skill was archived again loses to one since.
    rearchived = _fold(replace(a, archived_at=T2), _wanted("ha", T3))
    assert merge_records(newer, rearchived).hosts["ha"].wanted == rearchived.hosts["ha"].wanted


def test_a_backfilled_load_from_before_the_archive_is_a_use() -> None:
    record = _fold(UsageRecord("x", archived_at=T2), _wanted("h1", T1), _wanted("h1", T3))
    assert (record.use_count, record.last_used_at) == (1, T1)
    assert (record.wanted_count, record.last_wanted_at) == (1, T3)


def test_one_agent_event_counted_by_two_clones_is_wanted_once_after_they_sync() -> None:
    # Both clones read the same transcript (ingest) before they synced: like a use, the
    # event counts once in the merged record, in either order and after a second sync.
    base = UsageRecord("x", archived_at=T0)
    a = _fold(base, _wanted("ha", T1, "claude-code", "toolu_1"), _wanted("ha", T2))
    b = _fold(base, _wanted("hb", T1, "claude-code", "toolu_1"))
    merged = merge_records(a, b)
    assert merged.wanted_count == 2
    assert merge_records(b, a) == merged and merge_records(merged, b) == merged
    assert decode_record("x", json.dumps(to_doc(merged)).encode()) == merged
    # Archived again: the repeat belonged to the old count and takes nothing from the new one.
    again = _fold(replace(merged, archived_at=T2), _wanted("ha", T3), _wanted("hb", T3))
    assert again.wanted_count == 2


def test_a_want_backfilled_again_once_the_skill_is_back_counts_once() -> None:
    # The hook kept an agent's load as wanted while the skill was archived; after the restore,
    # `ingest` of the same transcript finds the skill live and reports the load as a use or a
    # view with the same id: it is the same event, already counted.
    wanted = _fold(UsageRecord("x", archived_at=T0), _wanted("h1", T1, "claude-code", "toolu_1"))
    again = _fold(
        wanted,
        Event("use", ("x",), T1, "h1", "claude-code", "toolu_1"),
        Event("view", ("x",), T1, "h1", "claude-code", "toolu_1"),
    )
    assert (again.use_count, again.view_count, again.last_used_at) == (0, 0, None)
    # and a load counted as a use is not wanted again when a backfill finds it archived
    used = _fold(UsageRecord("x"), Event("use", ("x",), T2, "h1", "claude-code", "toolu_2"))
    later = _fold(replace(used, archived_at=T1), _wanted("h1", T2, "claude-code", "toolu_2"))
    assert (later.use_count, later.wanted_count) == (1, 0)
