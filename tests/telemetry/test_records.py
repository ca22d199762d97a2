"""records.py: events applied to a record, the conflict-free merge, and the stored document."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcurator import schemas
from gitcurator.telemetry.records import (
    ORIGINS,
    HostCounters,
    Imported,
    Stamped,
    UsageRecord,
    Wanted,
    apply_event,
    check_doc,
    from_doc,
    merge_records,
    to_doc,
)

T1, T2, T3 = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"


def _rec(**hosts: HostCounters) -> UsageRecord:
    return UsageRecord("pdf-extract", hosts=hosts)


# -- apply_event ---------------------------------------------------------------------------

APPLY_CASES = [
    # (before, kind, at, host, count, after)
    (_rec(), "use", T1, "a", 1, _rec(a=HostCounters(1, 0, T1, None))),
    (_rec(), "view", T1, "a", 1, _rec(a=HostCounters(0, 1, None, T1))),
    (_rec(), "use", T2, "a", 5, _rec(a=HostCounters(5, 0, T2, None))),
    # a later event moves last_used_at forward
    (_rec(a=HostCounters(2, 0, T1, None)), "use", T2, "a", 1, _rec(a=HostCounters(3, 0, T2, None))),
    # an event recorded with a past --at counts but never moves the time back
    (_rec(a=HostCounters(2, 0, T2, None)), "use", T1, "a", 1, _rec(a=HostCounters(3, 0, T2, None))),
    # views leave the use side alone, and the other way round
    (_rec(a=HostCounters(2, 4, T1, T1)), "view", T3, "a", 1, _rec(a=HostCounters(2, 5, T1, T3))),
    # another host gets its own counters; ours stay as they were
    (
        _rec(a=HostCounters(2, 0, T1, None)),
        "use",
        T2,
        "b",
        1,
        _rec(a=HostCounters(2, 0, T1, None), b=HostCounters(1, 0, T2, None)),
    ),
]


@pytest.mark.parametrize(("before", "kind", "at", "host", "count", "after"), APPLY_CASES)
def test_apply_event(
    before: UsageRecord, kind: str, at: str, host: str, count: int, after: UsageRecord
) -> None:
    snapshot = copy.deepcopy(before)
    assert apply_event(before, kind, at, host, count) == after
    assert before == snapshot, "apply_event must not change the record it was given"


def test_apply_event_totals_sum_hosts_and_times_take_the_latest() -> None:
    record = _rec()
    for kind, at, host in [("use", T1, "a"), ("use", T3, "b"), ("use", T2, "a"), ("view", T2, "b")]:
        record = apply_event(record, kind, at, host)
    assert (record.use_count, record.view_count) == (3, 1)
    assert (record.last_used_at, record.last_viewed_at) == (T3, T2)


def test_apply_event_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="patch"):
        apply_event(_rec(), "patch", T1, "a")


# -- merge_records -------------------------------------------------------------------------

MERGE_CASES = [
    pytest.param(
        _rec(a=HostCounters(2, 1, T1, T1)),
        _rec(b=HostCounters(3, 0, T2, None)),
        _rec(a=HostCounters(2, 1, T1, T1), b=HostCounters(3, 0, T2, None)),
        id="disjoint hosts: both kept, totals add up",
    ),
    pytest.param(
        _rec(a=HostCounters(5, 1, T1, T3)),
        _rec(a=HostCounters(3, 4, T2, T1)),
        _rec(a=HostCounters(5, 4, T2, T3)),
        id="same host: each counter and time takes the larger",
    ),
    pytest.param(
        UsageRecord("x", origin=Stamped("agent", T1)),
        UsageRecord("x", origin=Stamped("hub", T2)),
        UsageRecord("x", origin=Stamped("hub", T2)),
        id="origin: last writer wins",
    ),
    pytest.param(
        UsageRecord("x", origin=Stamped("user", T1)),
        UsageRecord("x"),
        UsageRecord("x", origin=Stamped("user", T1)),
        id="origin: set beats unset",
    ),
    pytest.param(
        UsageRecord("x", pinned=Stamped(True, T2)),
        UsageRecord("x", pinned=Stamped(False, T1)),
        UsageRecord("x", pinned=Stamped(True, T2)),
        id="pin: a later pin beats an earlier unpin",
    ),
    pytest.param(
        UsageRecord("x", pinned=Stamped(True, T1)),
        UsageRecord("x", pinned=Stamped(False, T2)),
        UsageRecord("x", pinned=Stamped(False, T2)),
        id="pin: a later unpin beats an earlier pin",
    ),
    pytest.param(
        UsageRecord("x", imported=Imported(T2, 3, T2)),
        UsageRecord("x", imported=Imported(T1, 5, None)),
        UsageRecord("x", imported=Imported(T1, 5, T2)),
        id="imported: earliest creation, most patches, latest patch",
    ),
    pytest.param(
        UsageRecord("x", archived_at=T1),
        UsageRecord("x", archived_at=T2),
        UsageRecord("x", archived_at=T2),
        id="archived_at: latest",
    ),
    pytest.param(
        UsageRecord("x", absorbed_into="umbrella"),
        UsageRecord("x"),
        UsageRecord("x", absorbed_into="umbrella"),
        id="absorbed_into: kept from either side",
    ),
]


@pytest.mark.parametrize(("a", "b", "merged"), MERGE_CASES)
def test_merge_records(a: UsageRecord, b: UsageRecord, merged: UsageRecord) -> None:
    assert merge_records(a, b) == merged
    assert merge_records(b, a) == merged


def test_two_clones_that_both_recorded_see_every_event_after_merging() -> None:
    base = apply_event(_rec(), "use", T1, "laptop")
    laptop = apply_event(apply_event(base, "use", T2, "laptop"), "view", T2, "laptop")
    server = apply_event(apply_event(base, "use", T3, "server"), "use", T3, "server")
    merged = merge_records(laptop, server)
    assert (merged.use_count, merged.view_count) == (4, 1)
    assert merged.last_used_at == T3
    # merging again with either side (a second sync) changes nothing
    assert merge_records(merged, laptop) == merged
    assert merge_records(server, merged) == merged


def test_origin_tie_is_broken_the_same_way_on_both_sides() -> None:
    a = UsageRecord("x", origin=Stamped("agent", T1))
    b = UsageRecord("x", origin=Stamped("hub", T1))
    assert merge_records(a, b).origin == merge_records(b, a).origin


# -- property tests of the merge laws ------------------------------------------------------

TIMES = st.sampled_from([T1, T2, T3, "2025-12-31T23:59:59Z"])
HOSTS = st.sampled_from(["laptop", "server", "ci-1", "vm.local"])
COUNTERS = st.builds(
    HostCounters,
    st.integers(0, 1_000),
    st.integers(0, 1_000),
    st.none() | TIMES,
    st.none() | TIMES,
    wanted=st.none() | st.builds(Wanted, st.integers(0, 50), st.none() | TIMES, st.none() | TIMES),
)
RECORDS = st.builds(
    UsageRecord,
    st.just("pdf-extract"),
    origin=st.none() | st.builds(Stamped, st.sampled_from(ORIGINS), TIMES),
    pinned=st.none() | st.builds(Stamped, st.booleans(), TIMES),
    hosts=st.dictionaries(HOSTS, COUNTERS, max_size=4),
    imported=st.none()
    | st.builds(Imported, st.none() | TIMES, st.none() | st.integers(0, 50), st.none() | TIMES),
    archived_at=st.none() | TIMES,
    absorbed_into=st.none() | st.sampled_from(["umbrella", "other-umbrella"]),
)


@given(RECORDS, RECORDS)
def test_merge_is_commutative(a: UsageRecord, b: UsageRecord) -> None:
    assert merge_records(a, b) == merge_records(b, a)


@given(RECORDS, RECORDS, RECORDS)
def test_merge_is_associative(a: UsageRecord, b: UsageRecord, c: UsageRecord) -> None:
    assert merge_records(merge_records(a, b), c) == merge_records(a, merge_records(b, c))


@given(RECORDS)
def test_merge_is_idempotent(a: UsageRecord) -> None:
    assert merge_records(a, a) == a


@given(RECORDS, RECORDS)
def test_merge_never_lowers_a_total_or_a_time(a: UsageRecord, b: UsageRecord) -> None:
    merged = merge_records(a, b)
    for side in (a, b):
        assert merged.use_count >= side.use_count
        assert merged.view_count >= side.view_count
        for field in ("last_used_at", "last_viewed_at", "archived_at"):
            if getattr(side, field):
                assert getattr(merged, field) >= getattr(side, field)


@given(RECORDS, st.lists(st.tuples(st.sampled_from(["use", "view"]), TIMES, HOSTS), max_size=8))
def test_merging_with_a_later_version_gives_the_later_version(
    a: UsageRecord, events: list[tuple[str, str, str]]
) -> None:
    later = a
    for kind, at, host in events:
        later = apply_event(later, kind, at, host)
    assert merge_records(a, later) == merge_records(later, a) == merge_records(later, later)
    assert merge_records(a, later).use_count == later.use_count


# -- the stored document -------------------------------------------------------------------


@settings(max_examples=150)
@given(RECORDS)
def test_to_doc_from_doc_round_trip_and_the_doc_is_valid(record: UsageRecord) -> None:
    doc = to_doc(record)
    assert check_doc(doc, record.skill) == []
    assert from_doc(doc) == record


def test_to_doc_has_the_documented_shape() -> None:
    record = UsageRecord(
        "pdf-extract",
        origin=Stamped("agent", T1),
        pinned=Stamped(True, T2),
        hosts={"laptop": HostCounters(3, 1, T3, T2)},
        archived_at=T3,
    )
    assert to_doc(record) == {
        "version": 1,
        "skill": "pdf-extract",
        "origin": {"value": "agent", "at": T1},
        "pinned": {"value": True, "at": T2},
        "hosts": {
            "laptop": {
                "use_count": 3,
                "view_count": 1,
                "last_used_at": T3,
                "last_viewed_at": T2,
            }
        },
        "archived_at": T3,
    }
    assert schemas.problems(to_doc(record), "usage-record") == []


GOOD: dict[str, Any] = {
    "version": 1,
    "skill": "pdf-extract",
    "hosts": {"laptop": {"use_count": 1, "view_count": 0, "last_used_at": T1}},
}


def _bad(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """GOOD with the value at `path` replaced (or removed, for the `...` value)."""
    doc = copy.deepcopy(GOOD)
    target: dict[str, Any] = doc
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


CHECK_CASES = [
    pytest.param(GOOD, None, id="valid"),
    pytest.param(_bad(("hosts",), ...), "hosts", id="no hosts"),
    pytest.param(_bad(("version",), 2), "version", id="unknown version"),
    pytest.param(_bad(("hosts", "laptop", "use_count"), -1), "use_count", id="negative count"),
    pytest.param(_bad(("hosts", "laptop", "view_count"), "3"), "view_count", id="count as text"),
    pytest.param(_bad(("hosts",), {"bad host!": {"use_count": 1, "view_count": 0}}), "bad host"),
    pytest.param(_bad(("origin",), {"value": "robot", "at": T1}), "robot", id="unknown origin"),
    pytest.param(_bad(("pinned",), {"value": True}), "at", id="pin without time"),
    pytest.param(_bad(("skill",), "Bad_Name"), "Bad_Name", id="skill not a skill name"),
    pytest.param(_bad(("extra",), 1), "extra", id="unknown field"),
    pytest.param(["not", "an", "object"], "object", id="a list"),
    pytest.param("{bad", "object", id="a string"),
    pytest.param(_bad(("skill",), "docker-build"), "docker-build", id="filed under another skill"),
]


@pytest.mark.parametrize(("doc", "complaint"), CHECK_CASES)
def test_check_doc(doc: object, complaint: str | None) -> None:
    found = check_doc(doc, "pdf-extract")
    if complaint is None:
        assert found == []
    else:
        assert found, f"{doc!r} passed"
        assert complaint in " ".join(found)


def test_check_doc_says_which_skill_a_misfiled_record_names() -> None:
    (problem,) = check_doc(_bad(("skill",), "docker-build"), "pdf-extract")
    assert "'pdf-extract'" in problem and "'docker-build'" in problem


# Only the canonical ...Z form compares correctly as text, so nothing else is accepted.
@pytest.mark.parametrize("stamp", ["yesterday", "2026-01-01 10:00", "2026-01-01T10:00:00+02:00"])
def test_check_doc_rejects_a_time_that_is_not_a_canonical_utc_timestamp(stamp: str) -> None:
    assert check_doc(_bad(("hosts", "laptop", "last_used_at"), stamp), "pdf-extract")
