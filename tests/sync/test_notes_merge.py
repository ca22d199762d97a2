"""sync_merge.py: the notes merge is commutative and idempotent and keeps every version."""

from __future__ import annotations

import json
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcurator.store.notes import key_id
from gitcurator.sync.notes_merge import (
    MergedNotes,
    NotesSide,
    blob_id,
    blobs_needed,
    merge_notes,
)
from gitcurator.telemetry.ledger import encode_record
from gitcurator.telemetry.records import (
    HostCounters,
    Stamped,
    UsageRecord,
    Wanted,
    apply_event,
    decode_record,
    to_doc,
)

T1, T2, T3 = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"
NAMES = ["x", "y", "pdf-extract"]
FOREIGN = "f" * 40  # a commit someone annotated with plain `git notes`


# -- strategies ------------------------------------------------------------------------------

TIMES = st.sampled_from([T1, T2, T3])
HOSTS = st.sampled_from(["laptop", "server", "ci-1"])
COUNTERS = st.builds(
    HostCounters,
    st.integers(0, 50),
    st.integers(0, 50),
    st.none() | TIMES,
    st.none() | TIMES,
    wanted=st.none() | st.builds(Wanted, st.integers(0, 9), st.none() | TIMES, st.none() | TIMES),
)


def records_for(name: str) -> st.SearchStrategy[UsageRecord]:
    return st.builds(
        UsageRecord,
        st.just(name),
        origin=st.none() | st.builds(Stamped, st.sampled_from(["agent", "user", "hub"]), TIMES),
        pinned=st.none() | st.builds(Stamped, st.booleans(), TIMES),
        hosts=st.dictionaries(HOSTS, COUNTERS, max_size=3),
    )


# A note's content on one side: a record, a broken document, or (for FOREIGN) free text.
NOTE = st.one_of(
    st.sampled_from(NAMES).flatmap(
        lambda n: records_for(n).map(lambda r: (key_id(n), encode_record(r)))
    ),
    st.sampled_from(NAMES).map(lambda n: (key_id(n), b"{not json")),
    st.sampled_from([b"hello\n", b"reviewed by bob\n"]).map(lambda t: (FOREIGN, t)),
)


@st.composite
def sides(draw: st.DrawFn) -> tuple[NotesSide, dict[str, bytes]]:
    """A notes tree version and the blobs it holds."""
    notes: dict[str, str] = {}
    blobs: dict[str, bytes] = {}
    for annotated, data in draw(st.lists(NOTE, max_size=5)):
        notes[annotated] = blob_id(data)
        blobs[blob_id(data)] = data
    keys = {n: key_id(n) for n in NAMES if key_id(n) in notes or draw(st.booleans())}
    return NotesSide(notes, keys), blobs


def _merge(
    a: tuple[NotesSide, Mapping[str, bytes]], b: tuple[NotesSide, Mapping[str, bytes]]
) -> tuple[NotesSide, dict[str, bytes]]:
    blobs = {**a[1], **b[1]}
    assert blobs_needed(a[0], b[0]) <= blobs.keys()
    merged = merge_notes(a[0], b[0], blobs, encode_record)
    for data in merged.written.values():
        blobs[blob_id(data)] = data
    return _as_side(merged), blobs


def _as_side(merged: MergedNotes) -> NotesSide:
    return NotesSide(merged.notes, merged.keys, merged.others)


def _tree(side: NotesSide) -> tuple[object, ...]:
    return (dict(side.notes), dict(side.keys), dict(side.others))


# -- laws --------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(sides(), sides())
def test_merge_notes_is_commutative(
    a: tuple[NotesSide, dict[str, bytes]], b: tuple[NotesSide, dict[str, bytes]]
) -> None:
    assert _tree(_merge(a, b)[0]) == _tree(_merge(b, a)[0])


@settings(max_examples=200)
@given(sides(), sides(), sides())
def test_merge_notes_is_associative(
    a: tuple[NotesSide, dict[str, bytes]],
    b: tuple[NotesSide, dict[str, bytes]],
    c: tuple[NotesSide, dict[str, bytes]],
) -> None:
    # Three clones syncing in any order end with the same notes.
    assert _tree(_merge(_merge(a, b), c)[0]) == _tree(_merge(a, _merge(b, c))[0])


@settings(max_examples=200)
@given(sides(), sides())
def test_merging_the_same_thing_twice_changes_nothing(
    a: tuple[NotesSide, dict[str, bytes]], b: tuple[NotesSide, dict[str, bytes]]
) -> None:
    once = _merge(a, b)
    assert _tree(_merge(once, b)[0]) == _tree(once[0])
    assert _tree(_merge(once, a)[0]) == _tree(once[0])
    again = merge_notes(once[0], once[0], once[1], encode_record)
    assert again.same_as(once[0]) and not again.written and not again.warnings


@settings(max_examples=200)
@given(sides(), sides())
def test_merge_notes_keeps_every_blob_of_both_sides(
    a: tuple[NotesSide, dict[str, bytes]], b: tuple[NotesSide, dict[str, bytes]]
) -> None:
    merged, blobs = _merge(a, b)
    present = set(merged.notes.values()) | {e[1] for e in merged.others.values()}
    for side, side_blobs in (a, b):
        for annotated, blob in side.notes.items():
            record = _record(annotated, blob, side_blobs)
            if blob in present:
                continue
            # Only a valid record may be replaced, and only by one that contains it.
            assert record is not None, (annotated, side_blobs[blob])
            kept = _record(annotated, merged.notes[annotated], blobs)
            assert kept is not None
            assert kept.use_count >= record.use_count
            assert kept.view_count >= record.view_count


def _record(annotated: str, blob: str, blobs: Mapping[str, bytes]) -> UsageRecord | None:
    names = {key_id(n): n for n in NAMES}
    if annotated not in names:
        return None
    found = decode_record(names[annotated], blobs[blob])
    return found if isinstance(found, UsageRecord) else None


# -- cases -------------------------------------------------------------------------------------


def _side(**records: UsageRecord | bytes) -> tuple[NotesSide, dict[str, bytes]]:
    notes, blobs = {}, {}
    for name, value in records.items():
        data = encode_record(value) if isinstance(value, UsageRecord) else value
        notes[key_id(name)] = blob_id(data)
        blobs[blob_id(data)] = data
    return NotesSide(notes, {n: key_id(n) for n in records}), blobs


def _uses(name: str, host: str, count: int, at: str) -> UsageRecord:
    return apply_event(UsageRecord(name), "use", at, host, count)


def test_counts_of_two_hosts_add_up_and_the_newest_time_wins() -> None:
    a = _side(x=_uses("x", "a", 37, T1), y=_uses("y", "a", 5, T1))
    b = _side(x=_uses("x", "b", 11, T2))
    merged = merge_notes(a[0], b[0], {**a[1], **b[1]}, encode_record)
    doc = json.loads(merged.written["x"])
    assert sum(h["use_count"] for h in doc["hosts"].values()) == 48
    assert doc["hosts"]["b"]["last_used_at"] == T2
    assert merged.notes[key_id("y")] == a[0].notes[key_id("y")]  # untouched, not rewritten
    assert merged.changed_from(a[0]) == [key_id("x")]
    assert sorted(merged.changed_from(b[0])) == sorted([key_id("x"), key_id("y")])
    assert merged.warnings == []


def test_a_side_that_contains_the_other_is_reused_as_it_is() -> None:
    old = _uses("x", "a", 3, T1)
    new = apply_event(old, "use", T2, "a")
    a, b = _side(x=old), _side(x=new)
    merged = merge_notes(a[0], b[0], {**a[1], **b[1]}, encode_record)
    assert merged.same_as(b[0]) and not merged.written


def test_an_invalid_record_is_kept_aside_and_the_valid_one_stays_the_note() -> None:
    good = _side(x=_uses("x", "a", 3, T1))
    bad = _side(x=b'{"version": 1, "skill": "x", "hosts": "many"}\n')
    for first, second in ((good, bad), (bad, good)):
        merged = merge_notes(first[0], second[0], {**good[1], **bad[1]}, encode_record)
        assert merged.notes[key_id("x")] == good[0].notes[key_id("x")]
        bad_blob = bad[0].notes[key_id("x")]
        assert merged.others == {f"unreadable/x-{bad_blob[:12]}".encode(): (0o100644, bad_blob)}
        assert "record of x is invalid" in merged.warnings[0]


def test_a_foreign_note_is_reported_kept_and_never_read() -> None:
    local = _side(x=_uses("x", "a", 1, T1))
    remote = NotesSide({**local[0].notes, FOREIGN: "e" * 40}, local[0].keys)
    merged = merge_notes(local[0], remote, local[1], encode_record)  # no blob for the note
    assert merged.notes[FOREIGN] == "e" * 40
    assert merged.warnings == [
        f"note on object {FOREIGN} is not a gitcurator record (written by plain `git notes`?); "
        "skipped, and kept as it is"
    ]


def test_two_versions_of_a_foreign_note_are_both_kept() -> None:
    a = NotesSide({FOREIGN: "1" * 40}, {})
    b = NotesSide({FOREIGN: "2" * 40}, {})
    merged = merge_notes(a, b, {}, encode_record)
    assert merged.notes == {FOREIGN: "1" * 40}
    assert list(merged.others.values()) == [(0o100644, "2" * 40)]


def test_pins_and_origins_merge_by_last_writer() -> None:
    a = _side(x=UsageRecord("x", pinned=Stamped(True, T2), origin=Stamped("agent", T1)))
    b = _side(x=UsageRecord("x", pinned=Stamped(False, T1), origin=Stamped("user", T3)))
    merged = merge_notes(a[0], b[0], {**a[1], **b[1]}, encode_record)
    doc = json.loads(merged.written["x"])
    assert doc["pinned"] == {"value": True, "at": T2}
    assert doc["origin"] == {"value": "user", "at": T3}


def test_the_written_note_is_what_telemetry_writes() -> None:
    record = _uses("x", "a", 2, T1)
    assert json.loads(encode_record(record)) == to_doc(record)
