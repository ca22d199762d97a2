"""events.py: the journal line format of one event."""

from __future__ import annotations

import json

import pytest

from gitcurator.telemetry.events import (
    MAX_EVENT_ID,
    Event,
    event_line,
    invalid_name_hint,
    parse_line,
)


def test_event_line_is_one_json_line_holding_every_name_of_the_call() -> None:
    line = event_line("use", ["pdf-extract", "café"], "2026-01-01T00:00:00Z", "h")
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {
        "v": 1,
        "k": "use",
        "t": "2026-01-01T00:00:00Z",
        "h": "h",
        "n": ["pdf-extract", "café"],
    }


def test_source_and_event_id_are_written_only_when_given_and_read_back() -> None:
    plain = event_line("use", ["a"], "2026-01-01T00:00:00Z", "h")
    assert b'"s"' not in plain and b'"i"' not in plain
    assert parse_line(plain.rstrip(b"\n")) == Event("use", ("a",), "2026-01-01T00:00:00Z", "h")
    full = event_line("view", ["a"], "2026-01-01T00:00:00Z", "h", "claude-code", "evt-1")
    assert json.loads(full)["s"] == "claude-code" and json.loads(full)["i"] == "evt-1"
    assert parse_line(full.rstrip(b"\n")) == Event(
        "view", ("a",), "2026-01-01T00:00:00Z", "h", "claude-code", "evt-1"
    )


@pytest.mark.parametrize(
    "fields",
    [
        '"s":"Claude Code"',
        '"s":7',
        '"i":""',
        '"i":"' + "x" * (MAX_EVENT_ID + 1) + '"',
        '"i":12',
    ],
)
def test_a_line_with_a_bad_source_or_event_id_is_no_event(fields: str) -> None:
    line = '{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":["a"],' + fields + "}"
    assert parse_line(line.encode()) is None


@pytest.mark.parametrize(
    ("names", "hint"),
    [
        (["pdf-extract"], ""),
        (["My Skill", "zoho_books-automation", "-21risk", "v1.2", "PDF-Tools"], ""),
        (["data/csv-clean"], "; 'data/csv-clean' is a path; name the skill by its folder alone"),
        ([".hidden", "a"], "; '.hidden' starts with '.'"),
        (["a\nb", ""], "; 'a\\nb' holds a control character"),
    ],
)
def test_invalid_name_hint(names: list[str], hint: str) -> None:
    assert invalid_name_hint(names).startswith(hint)


def test_event_line_writes_what_json_dumps_writes() -> None:
    # event_line spells JSON by hand (the hot path imports no json): byte for byte the same,
    # escapes, non-ASCII, DEL and lone surrogates (refused by both) included.
    import json
    import random

    rng = random.Random(15)
    alphabet = [chr(i) for i in range(0x80)] + ["é", "\u2028", "\ud800", "\U0001f600", "\x85"]

    def text() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))

    for _ in range(20_000):
        kind, at, host = text(), text(), text()
        names = [text() for _ in range(rng.randint(0, 3))]
        source = text() if rng.random() < 0.5 else None
        event_id = text() if rng.random() < 0.5 else None
        doc: dict[str, object] = {"v": 1, "k": kind, "t": at, "h": host, "n": names}
        if source is not None:
            doc["s"] = source
        if event_id is not None:
            doc["i"] = event_id
        try:
            want: object = (
                json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
            ).encode()
        except UnicodeEncodeError:
            want = UnicodeEncodeError
        try:
            got: object = event_line(kind, names, at, host, source, event_id)
        except UnicodeEncodeError:
            got = UnicodeEncodeError
        assert got == want, doc


def test_host_and_source_checks_are_the_schema_patterns() -> None:
    import re

    from gitcurator.telemetry.events import is_host_id, is_source

    host, source = re.compile(r"[A-Za-z0-9._-]{1,64}"), re.compile(r"[a-z][a-z0-9-]{0,31}")
    samples = ["", "a", "A", "-", "a-b", "cli", "Cli", "1cli", "claude-code", "a.b_c", "x" * 32]
    samples += ["x" * 33, "h" * 64, "h" * 65, "é", "a b", "a\n", "\n", "ab/", "٣"]
    for value in samples:
        assert is_host_id(value) == bool(host.fullmatch(value)), value
        assert is_source(value) == bool(source.fullmatch(value)), value
