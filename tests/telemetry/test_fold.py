"""fold.py: events with sources and ids become records; each event id counts once."""

from __future__ import annotations

from gitcurator.telemetry.fold import apply_events
from gitcurator.telemetry.journal import Event
from gitcurator.telemetry.records import Stamped, UsageRecord, decode_record, merge_records
from gitcurator.telemetry.sources import uses_by_source

T1, T2 = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"


def _use(name: str, host: str = "laptop", source: str | None = "claude-code", id: str | None = None,
         at: str = T1, kind: str = "use") -> Event:  # fmt: skip
    return Event(kind, (name,), at, host, source, id)


def _by_source(record: UsageRecord) -> dict[str, int]:
    return uses_by_source(h.sources for h in record.hosts.values())


def test_an_event_id_counts_once_in_a_batch_and_across_batches() -> None:
    records: dict[str, UsageRecord] = {}
    assert apply_events(records, [_use("pdf", id="toolu_1"), _use("pdf", id="toolu_1")]) == {"pdf"}
    assert records["pdf"].use_count == 1
    # a later flush, the same id again (hook, then a backfill of the same session)
    assert apply_events(records, [_use("pdf", id="toolu_1", at=T2)]) == set()
    assert records["pdf"].use_count == 1
    assert records["pdf"].last_used_at == T1


def test_ids_are_per_source_and_events_without_id_always_count() -> None:
    records: dict[str, UsageRecord] = {}
    apply_events(
        records,
        [
            _use("pdf", id="x"),
            _use("pdf", source="codex", id="x"),  # another agent's id space
            _use("pdf", source=None),
            _use("pdf", source=None),
            _use("pdf", source=None, id="x"),  # no source: not deduplicated
        ],
    )
    assert records["pdf"].use_count == 5
    assert _by_source(records["pdf"]) == {"claude-code": 1, "codex": 1}


def test_two_hosts_that_counted_one_event_count_it_once_after_a_merge() -> None:
    a: dict[str, UsageRecord] = {}
    b: dict[str, UsageRecord] = {}
    apply_events(a, [_use("pdf", host="laptop", id="t1"), _use("pdf", host="laptop", id="t2")])
    apply_events(b, [_use("pdf", host="server", id="t1")])
    merged = merge_records(a["pdf"], b["pdf"])
    assert merged.use_count == 2
    assert _by_source(merged) == {"claude-code": 2}
    assert merge_records(merged, merged) == merged
    assert merge_records(b["pdf"], a["pdf"]) == merged
    # after the merge, the id is known on every host: a third arrival changes nothing
    records = {"pdf": merged}
    assert apply_events(records, [_use("pdf", host="laptop", id="t1")]) == set()


def test_an_agent_write_gives_origin_agent_unless_an_origin_is_recorded() -> None:
    records = {"mine": UsageRecord("mine", origin=Stamped("user", T1))}
    apply_events(
        records,
        [
            _use("new", kind="create", at=T2),
            _use("new", kind="create", at=T1),
            _use("mine", kind="create"),
        ],
    )
    assert records["new"].origin == Stamped("agent", T1)
    assert records["mine"].origin == Stamped("user", T1)


def test_an_edit_is_a_patch_by_source_with_its_time() -> None:
    records: dict[str, UsageRecord] = {}
    apply_events(
        records, [_use("pdf", kind="edit", id="e1", at=T2), _use("pdf", kind="edit", id="e1")]
    )
    counters = records["pdf"].hosts["laptop"]
    assert counters.use_count == 0
    assert counters.sources["claude-code"].patch_count == 1
    assert counters.sources["claude-code"].last_patched_at == T2


def test_a_record_with_sources_round_trips_through_its_note() -> None:
    from gitcurator.telemetry.ledger import encode_record

    records: dict[str, UsageRecord] = {}
    apply_events(
        records, [_use("pdf", id="t1"), _use("pdf", kind="edit", id="e"), _use("pdf", source=None)]
    )
    data = encode_record(records["pdf"])
    assert decode_record("pdf", data) == records["pdf"]
    assert b"t1" not in data, "ids are stored as digests, never as the agent's text"


def test_a_record_without_sources_encodes_as_before() -> None:
    from gitcurator.telemetry.ledger import encode_record

    records: dict[str, UsageRecord] = {}
    apply_events(records, [_use("pdf", source=None)])
    assert b"sources" not in encode_record(records["pdf"])
