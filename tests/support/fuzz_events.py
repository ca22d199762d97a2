"""Hypothesis strategies for valid usage events and the records they fold into."""

from __future__ import annotations

from hypothesis import strategies as st

from gitcurator.telemetry.events import KINDS, Event
from gitcurator.telemetry.fold import apply_events
from gitcurator.telemetry.records import ORIGINS, Stamped, UsageRecord
from support.fuzz_inputs import SKILL_NAMES, TIMES

HOSTS = ("host-a", "h.1", "B_2")
SOURCES = (None, "cli", "mcp", "claude-code")

events = st.builds(
    Event,
    st.sampled_from(KINDS),
    st.lists(st.sampled_from(SKILL_NAMES), min_size=1, max_size=3).map(tuple),
    st.sampled_from(TIMES),
    st.sampled_from(HOSTS),
    st.sampled_from(SOURCES),
    st.none() | st.text(min_size=1, max_size=20).filter(lambda s: "\x00" not in s),
)


def _record(name: str, batch: list[Event], origin: str | None, pinned: bool | None) -> UsageRecord:
    records: dict[str, UsageRecord] = {}
    apply_events(records, [e._replace(names=(name,)) for e in batch])
    record = records.get(name) or UsageRecord(name)
    if origin is not None:
        record = type(record)(**{**_fields(record), "origin": Stamped(origin, TIMES[0])})
    if pinned is not None:
        record = type(record)(**{**_fields(record), "pinned": Stamped(pinned, TIMES[1])})
    return record


def _fields(record: UsageRecord) -> dict[str, object]:
    return {f: getattr(record, f) for f in record.__slots__}  # type: ignore[attr-defined]


# Records as flushes build them: events folded, sometimes an origin or a pin set.
records = st.builds(
    _record,
    st.sampled_from(SKILL_NAMES),
    st.lists(events, max_size=8),
    st.none() | st.sampled_from(ORIGINS),
    st.none() | st.booleans(),
)
