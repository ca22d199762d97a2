"""sources.py: per-source counters merge like host counters (commutative, idempotent)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gitcurator.telemetry.records import HostCounters, UsageRecord, merge_records
from gitcurator.telemetry.sources import SourceCounters, digest, uses_by_source

DIGESTS = st.sampled_from([digest(str(i)) for i in range(6)])
SOURCE = st.builds(
    SourceCounters,
    st.integers(0, 9),
    st.integers(0, 9),
    st.integers(0, 9),
    st.none() | st.sampled_from(["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"]),
    st.dictionaries(st.sampled_from(["use", "view", "patch"]), st.frozensets(DIGESTS), max_size=3),
)
HOST = st.builds(
    HostCounters,
    st.integers(0, 20),
    st.integers(0, 20),
    st.none(),
    st.none(),
    st.dictionaries(st.sampled_from(["claude-code", "codex"]), SOURCE, max_size=2),
)
RECORD = st.builds(
    UsageRecord,
    st.just("pdf"),
    hosts=st.dictionaries(st.sampled_from(["a", "b", "c"]), HOST, max_size=3),
)


@given(RECORD, RECORD, RECORD)
def test_merge_with_sources_is_commutative_associative_idempotent(
    a: UsageRecord, b: UsageRecord, c: UsageRecord
) -> None:
    assert merge_records(a, b) == merge_records(b, a)
    assert merge_records(merge_records(a, b), c) == merge_records(a, merge_records(b, c))
    assert merge_records(a, a) == a


def test_repeats_across_hosts_are_subtracted_per_source() -> None:
    ids = {"use": frozenset({digest("t1"), digest("t2")})}
    laptop = HostCounters(2, 0, sources={"claude-code": SourceCounters(2, ids=ids)})
    server = HostCounters(
        3, 0, sources={"claude-code": SourceCounters(1, ids={"use": frozenset({digest("t1")})})}
    )
    record = UsageRecord("pdf", hosts={"laptop": laptop, "server": server})
    assert record.use_count == 4  # 5 counted, t1 twice
    assert uses_by_source(h.sources for h in record.hosts.values()) == {"claude-code": 2}
