"""The shipped JSON Schemas: well-formed draft 2020-12, and checking real documents."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from gitcurator import schemas
from gitcurator.errors import SchemaError


@pytest.mark.parametrize("kind", schemas.KINDS)
def test_schema_is_valid_draft_2020_12(kind: str) -> None:
    doc = schemas.load(kind)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(doc)


def test_top_level_schemas_dir_matches_kinds() -> None:
    names = sorted(p.name for p in schemas.schema_dir().glob("*.schema.json"))
    assert names == sorted(f"{k}.schema.json" for k in schemas.KINDS)


GOOD_RECORD = {
    "version": 1,
    "skill": "pdf-extract",
    "origin": {"value": "agent", "at": "2026-01-02T03:04:05Z"},
    "pinned": {"value": False, "at": "2026-01-02T03:04:05Z"},
    "hosts": {
        "laptop-1a2b": {
            "use_count": 3,
            "view_count": 1,
            "last_used_at": "2026-02-01T00:00:00Z",
            "last_viewed_at": None,
        }
    },
}

GOOD_PLAN = {
    "umbrellas": [
        {
            "name": "pdf-tools",
            "description": "Work with PDF files.",
            "body": "# PDF tools\n",
            "absorb": ["pdf-extract", "pdf-merge"],
            "demote": [{"skill": "pdf-ocr", "to": "references/ocr.md"}],
            "reason": "siblings",
        }
    ],
    "keep": [{"skill": "pdf-sign", "reason": "distinct"}],
}


@pytest.mark.parametrize(
    ("kind", "doc"),
    [
        ("usage-record", GOOD_RECORD),
        ("consolidation-plan", GOOD_PLAN),
        ("consolidation-plan", {"umbrellas": [], "keep": []}),
        ("skill-frontmatter", {"name": "a", "description": "d", "metadata": {"k": "v"}}),
        ("config", {"curator": {"protect": ["a*"]}, "llm": {"model": None}}),
    ],
)
def test_good_documents_pass(kind: str, doc: object) -> None:
    assert schemas.problems(doc, kind) == []


@pytest.mark.parametrize(
    ("kind", "doc", "where"),
    [
        (
            "usage-record",
            {**GOOD_RECORD, "hosts": {"h": {"use_count": -1, "view_count": 0}}},
            "hosts.h.use_count",
        ),
        (
            "usage-record",
            {**GOOD_RECORD, "origin": {"value": "robot", "at": "2026-01-01T00:00:00Z"}},
            "origin.value",
        ),
        (
            "usage-record",
            {**GOOD_RECORD, "hosts": {"bad host!": {"use_count": 1, "view_count": 0}}},
            "hosts",
        ),
        ("usage-record", {k: v for k, v in GOOD_RECORD.items() if k != "skill"}, "(top level)"),
        (
            "consolidation-plan",
            {
                "umbrellas": [
                    {
                        **GOOD_PLAN["umbrellas"][0],  # type: ignore[dict-item]
                        "demote": [{"skill": "x", "to": "../../etc/passwd"}],
                    }
                ],
                "keep": [],
            },
            "umbrellas.0.demote.0.to",
        ),
        ("consolidation-plan", {"umbrellas": []}, "(top level)"),
        ("skill-frontmatter", {"name": "A", "description": "d"}, "name"),
        ("skill-frontmatter", {"name": "a", "description": "d", "version": "1"}, "(top level)"),
    ],
)
def test_bad_documents_name_where(kind: str, doc: object, where: str) -> None:
    found = schemas.problems(doc, kind)
    assert found, f"{kind} accepted {json.dumps(doc)}"
    assert any(p.startswith(f"at {where}:") for p in found), found


def test_check_raises_with_what() -> None:
    with pytest.raises(SchemaError, match=r"note of pdf-extract does not match the usage-record"):
        schemas.check({"version": 2}, "usage-record", "note of pdf-extract")
