"""The quick check may only say "valid" where jsonschema says so too (it is never a verdict
of "invalid"): every schema the package ships, real documents and thousands of mutants."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from gitcurator import schema_subset, schemas
from gitcurator.config import DEFAULT_CONFIG_TEXT
from gitcurator.schema_subset import compile_schema
from gitcurator.telemetry.records import UsageRecord, to_doc

_T = "2026-03-01T10:00:00Z"
RECORD: dict[str, Any] = {
    "version": 1,
    "skill": "pdf-tools",
    "origin": {"value": "agent", "at": _T},
    "pinned": {"value": True, "at": _T},
    "hosts": {
        "vm-1": {
            "use_count": 3,
            "view_count": 0,
            "last_used_at": _T,
            "last_viewed_at": None,
            "sources": {
                "claude-code": {
                    "use_count": 2,
                    "view_count": 0,
                    "patch_count": 1,
                    "last_patched_at": _T,
                    "ids": {"use": ["0123456789ab"], "patch": ["ba9876543210"]},
                }
            },
            "wanted": {"count": 1, "since": _T, "last_at": None, "ids": ["0123456789ab"]},
        }
    },
    "imported": {"created_at": _T, "patch_count": 2, "last_patched_at": None},
    "archived_at": None,
    "absorbed_into": "pdf",
    "lifecycle": {"value": "stale", "at": _T},
    "source": {
        "value": {"url": "https://example.com/x.git", "path": "a", "ref": None, "commit": "a" * 40},
        "at": _T,
    },
}
FRONTMATTER = {"name": "pdf-tools", "description": "Fill PDF forms.", "license": "MIT"}
DOCS = {
    "usage-record": RECORD,
    "config": yaml.safe_load(DEFAULT_CONFIG_TEXT),
    "skill-frontmatter": FRONTMATTER,
}
ODD = [None, True, False, 0, 1, -1, 1.0, 2.5, float("nan"), float("inf"), "", "x", "2026", _T,
       "0123456789ab", [], ["x"], {}, {"x": 1}, "a" * 2000, 10**20]  # fmt: skip


def _mutants(doc: object, rng: random.Random, n: int) -> list[object]:
    out = []
    for _ in range(n):
        mutant = copy.deepcopy(doc)
        for _ in range(rng.randint(1, 3)):
            mutant = _mutate(mutant, rng)
        out.append(mutant)
    return out


def _mutate(doc: object, rng: random.Random) -> object:
    if not isinstance(doc, (dict, list)) or not doc or rng.random() < 0.15:
        return rng.choice(ODD)
    if isinstance(doc, list):
        i = rng.randrange(len(doc))
        doc[i] = _mutate(doc[i], rng)
        return doc
    key = rng.choice(sorted(doc))
    roll = rng.random()
    if roll < 0.15:
        del doc[key]
    elif roll < 0.3:
        doc[rng.choice(["extra", "Bad Key", "codex", "use"])] = rng.choice(ODD)
    else:
        doc[key] = _mutate(doc[key], rng)
    return doc


@pytest.mark.parametrize("kind", schemas.KINDS)
def test_every_shipped_schema_compiles(kind: str) -> None:
    assert compile_schema(schemas.load(kind)) is not None


@pytest.mark.parametrize("kind", sorted(DOCS))
def test_a_real_document_passes_without_jsonschema(kind: str) -> None:
    check = compile_schema(schemas.load(kind))
    assert check is not None and check(DOCS[kind])


@pytest.mark.parametrize("kind", sorted(DOCS))
def test_quick_valid_is_never_jsonschema_invalid(kind: str) -> None:
    check = compile_schema(schemas.load(kind))
    assert check is not None
    full = Draft202012Validator(schemas.load(kind))
    rng = random.Random(kind)
    said_valid = said_invalid = 0
    for mutant in _mutants(DOCS[kind], rng, 3000):
        errors = list(full.iter_errors(mutant))
        if check(mutant):
            assert not errors, (mutant, errors[0].message)
            said_valid += 1
        elif errors:
            said_invalid += 1
    assert said_valid > 100 and said_invalid > 100  # both sides were exercised


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#/$defs/x"},
        {"patternProperties": {"^x": {}}, "additionalProperties": False},
        {"items": [{"type": "string"}]},
        {"type": "decimal"},
        False,
        {"if": {"type": "string"}},
    ],
)
def test_a_keyword_it_does_not_know_leaves_every_document_to_jsonschema(schema: object) -> None:
    assert compile_schema(schema) is None


@pytest.mark.parametrize(
    ("schema", "doc"),
    [
        ({"type": "integer"}, 1.0),  # jsonschema takes it; the quick check leaves it to it
        ({"minimum": 0}, float("nan")),  # jsonschema lets NaN through every bound
        ({"const": 1}, True),
        ({"type": "object"}, {"x": 1}.items()),
    ],
)
def test_odd_values_are_left_to_jsonschema(schema: dict[str, Any], doc: object) -> None:
    check = compile_schema(schema)
    assert check is not None and not check(doc)


def test_problems_still_come_from_jsonschema() -> None:
    bad = {**RECORD, "hosts": {"vm-1": {"use_count": -1, "view_count": 0}}}
    assert schemas.problems(bad, "usage-record") == [
        "at hosts.vm-1.use_count: -1 is less than the minimum of 0"
    ]
    assert schemas.problems(RECORD, "usage-record") == []


@pytest.mark.parametrize("schema", [{"minimum": 0}, {"maximum": 1.5}, {"exclusiveMinimum": 0}])
@pytest.mark.parametrize("doc", [10**400, -(10**400)], ids=["huge", "-huge"])
def test_an_int_past_floats_range_gets_jsonschemas_verdict(
    schema: dict[str, Any], doc: int
) -> None:
    # A usage note edited by hand can carry any integer JSON can write; math.isfinite of it
    # raised OverflowError (an exit 3) where jsonschema just compares.
    check = compile_schema(schema)
    assert check is not None
    assert check(doc) == Draft202012Validator(schema).is_valid(doc)


def test_a_huge_count_in_a_record_is_judged_not_crashed() -> None:
    record = copy.deepcopy(RECORD)
    record["hosts"]["vm-1"]["use_count"] = 10**400
    assert schemas.problems(record, "usage-record") == []


def test_names_and_values_in_a_schema_are_data_not_code() -> None:
    # The check is generated Python: a property name or constant must never become its text.
    odd = 'x"): return True\n#'
    schema = {"properties": {odd: {"const": odd}}, "required": [odd], "additionalProperties": False}
    check = compile_schema(schema)
    assert check is not None
    assert check({odd: odd})
    assert not check({odd: "y"}) and not check({}) and not check({odd: odd, "x": 1})


def test_the_shipped_schemas_generated_code_is_kept_and_nothing_else() -> None:
    wanted = {}
    for kind in schemas.KINDS:
        source = schema_subset.generated_code(schemas.load(kind))
        if source is not None:
            wanted[schema_subset.code_name(source)] = source
    kept = {p.name: p.read_text(encoding="utf-8") for p in schema_subset.KEPT_CODE.glob("*.code")}
    fix = (
        "regenerate: schema_subset.keep_code(schemas.load(kind)) for each kind, stale files removed"
    )
    assert kept == wanted, fix


def test_kept_code_that_is_not_the_generated_text_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = schemas.load("usage-record")
    source = schema_subset.generated_code(schema)
    assert source is not None
    # A file under the right name whose checks all say "valid" (edited, or another version's).
    forged = source.replace("return False", "return True")
    (tmp_path / schema_subset.code_name(source)).write_text(forged, encoding="utf-8")
    monkeypatch.setattr(schema_subset, "KEPT_CODE", tmp_path)
    check = schema_subset.compile_schema(schema)
    assert check is not None
    assert check({"version": 1}) is False, "the generated text was compiled, not the file"
    assert check(to_doc(UsageRecord("pdf-extract"))) is True
