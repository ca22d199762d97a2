"""Any journal bytes are read as events or skipped lines, never an exception; lines we write
read back equal, and a torn line loses only itself."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fuzz_events import events
from support.fuzz_inputs import FUZZ, json_values, mutated_json

from gitcurator.telemetry.events import LINE_START, Event, event_line, parse_line
from gitcurator.telemetry.journal import read_events

_KEYS = ("v", "k", "t", "h", "n", "s", "i")


def _line(e: Event) -> bytes:
    return event_line(e.kind, list(e.names), e.at, e.host, e.source, e.event_id)


@FUZZ
@given(events)
def test_a_line_we_write_reads_back_as_the_same_event(event: Event) -> None:
    line = _line(event)
    assert line.endswith(b"\n") and b"\n" not in line[:-1] and line.startswith(LINE_START)
    assert parse_line(line[:-1]) == event


_BASE = events.map(lambda e: json.loads(_line(e)))


@FUZZ
@given(st.one_of(mutated_json(_BASE, _KEYS).map(str.encode), st.binary(max_size=200)))
def test_any_line_is_an_event_that_writes_back_or_none(raw: bytes) -> None:
    event = parse_line(raw.replace(b"\n", b" "))
    if event is not None:
        assert parse_line(_line(event)[:-1]) == event


@FUZZ
@given(json_values)
def test_any_json_value_as_a_line_is_an_event_or_none(value: object) -> None:
    raw = json.dumps(value).encode()
    event = parse_line(raw)
    assert event is None or parse_line(_line(event)[:-1]) == event


_JUNK = st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"").replace(LINE_START, b""))
_CHUNKS = st.lists(
    st.one_of(
        st.tuples(st.just("whole"), events, st.just(0)),
        st.tuples(st.just("torn"), events, st.integers(min_value=0, max_value=120)),
        st.tuples(st.just("junk"), _JUNK, st.just(0)),
    ),
    max_size=10,
)


# One file in the test's tmp_path, rewritten by each example: the fixture is safely shared.
@settings(
    FUZZ, suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture]
)
@given(chunks=_CHUNKS)
def test_a_journal_of_whole_torn_and_junk_lines_keeps_exactly_the_whole_ones(
    tmp_path: Path, chunks: list[tuple[str, Event | bytes, int]]
) -> None:
    data, expected = b"", []
    for kind, item, cut in chunks:
        if isinstance(item, bytes):
            data += item + b"\n"
            continue
        line = _line(item)
        if kind == "whole":
            data += line
            expected.append(item)
        else:
            data += line[: min(cut, len(line) - 2)]  # its writer was killed mid-line
    path = tmp_path / "journal.jsonl"
    path.write_bytes(data)
    got, problems = read_events(path)
    assert got == expected
    assert all("unreadable journal line skipped" in p for p in problems)
