"""Any note blob decodes to a record or a reason, never an exception; a record we encode
decodes back equal, byte-equal when encoded again."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from support.fuzz_events import records
from support.fuzz_inputs import FUZZ, json_values, mutated_json

from gitcurator.telemetry.ledger import encode_record
from gitcurator.telemetry.records import UsageRecord, decode_record

_KEYS = ("version", "skill", "origin", "pinned", "lifecycle", "hosts", "imported")
_KEYS += ("archived_at", "absorbed_into")


@FUZZ
@given(records)
def test_a_record_we_encode_decodes_back_equal(record: UsageRecord) -> None:
    data = encode_record(record)
    assert decode_record(record.skill, data) == record
    again = decode_record(record.skill, data)
    assert isinstance(again, UsageRecord) and encode_record(again) == data


def _decodes_safely(data: bytes, name: str = "pdf-tools") -> None:
    found = decode_record(name, data)
    if isinstance(found, str):
        assert found
        return
    assert found.skill == name
    # What we accepted we can write again, and it reads back the same.
    assert decode_record(name, encode_record(found)) == found


_BASE = records.map(lambda r: json.loads(encode_record(r)))


@FUZZ
@given(mutated_json(_BASE, _KEYS))
def test_a_damaged_record_decodes_to_a_record_or_a_reason(text: str) -> None:
    doc = json.loads(text) if text.startswith("{") and _is_json(text) else None
    name = doc["skill"] if isinstance(doc, dict) and isinstance(doc.get("skill"), str) else "a"
    _decodes_safely(text.encode("utf-8", "surrogatepass"), name)


@FUZZ
@given(st.one_of(st.binary(max_size=300), json_values.map(lambda v: json.dumps(v).encode())))
def test_any_blob_decodes_to_a_record_or_a_reason(data: bytes) -> None:
    _decodes_safely(data)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
