"""hermes/formats.py: Hermes' timestamps, counters, .usage.json, hub lock, bundled manifest."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from gitcurator.importers.hermes import formats
from gitcurator.importers.hermes.formats import HermesUsage

NOW = datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-05-01T10:00:00+02:00", "2025-05-01T08:00:00Z"),
        ("2025-05-01T10:00:00.123456+00:00", "2025-05-01T10:00:00Z"),  # Hermes' isoformat()
        ("2025-05-01T10:00:00Z", "2025-05-01T10:00:00Z"),
        ("2025-05-01T10:00:00", "2025-05-01T10:00:00Z"),  # naive: UTC
        ("2025-05-01", "2025-05-01T00:00:00Z"),
        (1735689600, "2025-01-01T00:00:00Z"),  # epoch seconds
        (1735689600.75, "2025-01-01T00:00:00Z"),
        (None, None),
        ("", None),  # Hermes reads an empty value as missing
    ],
)
def test_timestamps_are_normalised(value: object, expected: str | None) -> None:
    assert formats.parse_stamp(value, NOW) == expected


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("yesterday", "not an ISO-8601 time"),
        ("2025-13-01", "not an ISO-8601 time"),
        (1.0e20, "not an ISO-8601 time or seconds"),
        (float("nan"), "not an ISO-8601 time or seconds"),
        (-86400, "before 1970"),
        ("0001-01-01T00:00:00+01:00", "before 1970 or after 9999"),
        ("1969-12-31T23:59:59Z", "before 1970"),
        ("2027-01-01T00:00:00Z", "in the future"),
        (True, "is a boolean"),
        ([2025], "is a list"),
        ({"t": 1}, "is an object"),
    ],
)
def test_bad_timestamps_raise_saying_why(value: object, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        formats.parse_stamp(value, NOW)


@pytest.mark.parametrize(
    ("value", "expected"), [(0, 0), (7, 7), (7.0, 7), ("12", 12), (" 3 ", 3), (None, None)]
)
def test_counts(value: object, expected: int | None) -> None:
    assert formats.parse_count(value) == expected


@pytest.mark.parametrize("value", [-1, 1.5, "many", "", True, [1], {"n": 1}])
def test_bad_counts_raise(value: object) -> None:
    with pytest.raises(ValueError, match="not a whole number"):
        formats.parse_count(value)


def _usage(doc: object) -> formats.UsageFile:
    return formats.parse_usage(json.dumps(doc).encode(), NOW)


def test_a_full_record_is_read() -> None:
    parsed = _usage(
        {
            "pdf": {
                "created_by": "agent",
                "use_count": 5,
                "view_count": 2,
                "patch_count": 3,
                "last_used_at": "2025-05-01T10:00:00+00:00",
                "last_viewed_at": "2025-05-02T10:00:00+00:00",
                "last_patched_at": "2025-04-01T10:00:00+00:00",
                "created_at": "2025-01-01T00:00:00+00:00",
                "state": "archived",
                "pinned": True,
                "archived_at": "2025-05-03T00:00:00+00:00",
            }
        }
    )
    assert parsed.problems == []
    assert parsed.keys == 1
    assert parsed.records["pdf"] == HermesUsage(
        agent=True,
        use_count=5,
        view_count=2,
        patch_count=3,
        last_used_at="2025-05-01T10:00:00Z",
        last_viewed_at="2025-05-02T10:00:00Z",
        last_patched_at="2025-04-01T10:00:00Z",
        created_at="2025-01-01T00:00:00Z",
        archived=True,
        archived_at="2025-05-03T00:00:00Z",
        pinned=True,
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({}, HermesUsage()),  # every field may be missing
        ({"created_by": None, "use_count": 1}, HermesUsage(use_count=1)),
        ({"created_by": "agent"}, HermesUsage(agent=True)),
        ({"agent_created": True}, HermesUsage(agent=True)),  # older Hermes
        ({"state": "stale"}, HermesUsage()),
        ({"state": "active", "archived_at": None}, HermesUsage()),
        ({"pinned": False, "patch_count": 0}, HermesUsage(patch_count=0)),
        ({"unknown_field": 1, "view_count": 2}, HermesUsage(view_count=2)),
    ],
)
def test_partial_records(raw: dict[str, Any], expected: HermesUsage) -> None:
    parsed = _usage({"k": raw})
    assert parsed.problems == []
    assert parsed.records == {"k": expected}


@pytest.mark.parametrize(
    ("raw", "expected", "problem"),
    [
        (
            {"use_count": "many", "view_count": 2},
            HermesUsage(view_count=2),
            "record 'k': use_count 'many' is not a whole number ≥ 0; field dropped",
        ),
        (
            {"last_used_at": "yesterday", "use_count": 1},
            HermesUsage(use_count=1),
            "record 'k': last_used_at 'yesterday' is not an ISO-8601 time",
        ),
        ({"pinned": "yes"}, HermesUsage(), "record 'k': pinned 'yes' is not true or false"),
        ({"state": "gone"}, HermesUsage(), "record 'k': state 'gone' is not one of active"),
        (
            {"created_by": "bot", "use_count": 1},
            HermesUsage(use_count=1),
            "record 'k': created_by 'bot' is not \"agent\" or null; taken as a user's skill",
        ),
        (
            {"created_at": 99999999999999},
            HermesUsage(),
            "record 'k': created_at 99999999999999 is not an ISO-8601 time or seconds",
        ),
    ],
)
def test_bad_fields_are_reported_and_dropped(
    raw: dict[str, Any], expected: HermesUsage, problem: str
) -> None:
    parsed = _usage({"k": raw})
    assert parsed.records == {"k": expected}
    assert len(parsed.problems) == 1
    assert parsed.problems[0].startswith(".usage.json: ")
    assert problem in parsed.problems[0]


@pytest.mark.parametrize(
    ("raw", "kind"), [([1, 2], "a list"), ("x", "a string"), (None, "null"), (3, "a number")]
)
def test_records_that_are_not_objects_are_skipped(raw: object, kind: str) -> None:
    parsed = _usage({"bad": raw, "good": {"use_count": 1}})
    assert parsed.records == {"good": HermesUsage(use_count=1)}
    assert parsed.keys == 2
    assert parsed.problems == [f".usage.json: record 'bad' is {kind}, not an object; skipped"]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b'{"a": {"use_count": 1}', "is not JSON (line 1, column 23"),
        (b"", "is not JSON"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b"[1, 2]", "is a list, not an object of records"),
        (b"null", "is null, not an object of records"),
        (b"[" * 100_000, "is not JSON"),
        (b'{"a": {"use_count": ' + b"9" * 5000 + b"}}", "is not JSON we can read"),
    ],
)
def test_a_usage_file_that_is_not_usable_is_one_problem(data: bytes, says: str) -> None:
    parsed = formats.parse_usage(data, NOW)
    assert parsed.records == {}
    assert len(parsed.problems) == 1
    assert says in parsed.problems[0]
    assert "were not imported" in parsed.problems[0]


def test_a_utf8_bom_is_accepted() -> None:
    parsed = formats.parse_usage(b'\xef\xbb\xbf{"a": {"use_count": 2}}', NOW)
    assert parsed.records == {"a": HermesUsage(use_count=2)}


def test_hub_lock() -> None:
    data = {
        "version": 1,
        "installed": {
            "a": {"install_path": "cat/a/", "source": "github"},
            "b": {"source": "github"},
            "c": "not an object",
            "d": {"install_path": "  "},
        },
    }
    found, problems = formats.parse_hub_lock(json.dumps(data).encode())
    assert found == {"a": "cat/a", "b": None, "c": None, "d": None}
    assert problems == []


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"{", "is not JSON"),
        (b'{"version": 1}', 'has no "installed" object'),
        (b'{"installed": []}', 'has no "installed" object'),
        (b"[]", 'has no "installed" object'),
    ],
)
def test_bad_hub_lock(data: bytes, says: str) -> None:
    found, problems = formats.parse_hub_lock(data)
    assert found == {}
    assert len(problems) == 1 and says in problems[0]
    assert problems[0].startswith(".hub/lock.json ")


def test_bundled_manifest_both_versions() -> None:
    text = b"plan:3f2a\n\n  arxiv : 99 \nlegacy-name\r\n:only-hash\n"
    assert formats.parse_bundled_manifest(text) == (["plan", "arxiv", "legacy-name"], [])


def test_bundled_manifest_not_utf8() -> None:
    names, problems = formats.parse_bundled_manifest(b"plan\n\xff\n")
    assert names == []
    assert "is not UTF-8 text" in problems[0]
