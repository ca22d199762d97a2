"""What a grammar-constrained small model writes must still read as a plan: the schema's
`to` pattern cannot swallow the rest of the reply (a grammar built from `.*` lets a string run
over quotes), and a raw newline inside a string (which llama.cpp's JSON grammar allows) is
read, not refused."""

from __future__ import annotations

import re

from gitcurator import schemas
from gitcurator.curation.cluster_review import parse_answer

PLAN = '{"umbrellas": [], "keep": [{"skill": "a", "reason": "line one\nline two"}]}'


def _to_pattern() -> str:
    umbrella = schemas.load("consolidation-plan")["properties"]["umbrellas"]["items"]
    return str(umbrella["properties"]["demote"]["items"]["properties"]["to"]["pattern"])


def test_the_demote_path_pattern_takes_paths_and_no_quote_backslash_or_control_character() -> None:
    pattern = _to_pattern()
    assert re.search(pattern, "references/api notes.md")
    for bad in ('scripts/x", "y', "scripts/x\\y", "templates/a\nb", "scripts//x", "docs/x"):
        assert not re.search(pattern, bad), bad


def test_a_raw_newline_inside_a_string_is_read() -> None:
    doc = parse_answer(PLAN)
    assert isinstance(doc, dict) and doc["keep"][0]["reason"] == "line one\nline two"


def test_broken_json_is_still_refused() -> None:
    assert str(parse_answer('{"umbrellas": [}')).startswith("not JSON")
