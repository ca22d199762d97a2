"""schemas: the quick check (schema_subset) never accepts a document jsonschema refuses, so
`problems` (which asks jsonschema only when the quick check refuses) says what jsonschema
says."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_schemas import GOOD_RECORD

from gitcurator import schemas

# A record with every part the schema knows (sources too), from test_schemas' valid one.
RECORD: dict[str, Any] = copy.deepcopy(GOOD_RECORD)
RECORD["hosts"]["laptop-1a2b"]["sources"] = {
    "cli": {"use_count": 2, "view_count": 1, "patch_count": 0}
}

CONFIG: dict[str, Any] = {
    "skills_dir": "skills",
    "include": [".curated"],
    "curator": {"interval_hours": 24, "stale_after_days": 30, "archive_after_days": 90},
    "llm": {"timeout_seconds": 30, "budget_seconds": 120.5},
}

ODD_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    "",
    ".hidden",
    "a/b",
    "x\n",
    "2026-01-02T03:04:05Z",
    "2026-13-02T03:04:05Z",
    "2026-01-02 03:04:05",
    "agent",
    "elsewhere",
    [],
    ["a"],
    {},
    {"use_count": 1},
    2**70,
]


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found += _paths(value, (*prefix, i))
    return found


def _mutated(doc: dict[str, Any], edits: list[tuple[int, int, str]]) -> Any:
    out: Any = copy.deepcopy(doc)
    for where, what, how in edits:
        paths = _paths(out)
        path = paths[where % len(paths)]
        value = copy.deepcopy(ODD_VALUES[what % len(ODD_VALUES)])
        if not path:
            out = value
            continue
        parent = out
        for part in path[:-1]:
            parent = parent[part]
        if how == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[f"extra{what}"] = value
        else:
            parent[path[-1]] = value
    return out


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 200), st.integers(0, 200), st.sampled_from(["set", "delete", "add"])
        ),
        max_size=4,
    )
)
def test_the_compiled_check_agrees_with_jsonschema(edits: list[tuple[int, int, str]]) -> None:
    for kind, start in (("usage-record", RECORD), ("config", CONFIG)):
        doc = _mutated(start, edits)
        assert schemas.is_valid(doc, kind) == _jsonschema_accepts(doc, kind), kind


def _jsonschema_accepts(doc: object, kind: str) -> bool:
    return not list(schemas._validator(kind).iter_errors(doc))


def test_the_fixture_documents_are_valid_both_ways() -> None:
    for kind, doc in (("usage-record", RECORD), ("config", CONFIG)):
        assert schemas.is_valid(doc, kind) and _jsonschema_accepts(doc, kind), kind
        assert not schemas.problems(doc, kind)
