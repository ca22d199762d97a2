"""The Skills extension's entry: frontmatter as JSON, digests, the per-skill limits."""

from __future__ import annotations

import datetime as dt

from gitcurator.mcp.manifest import (
    MAX_RESOURCES,
    MAX_TOTAL_BYTES,
    FileDigest,
    jsonable,
    mime_type,
    over_limits,
    skill_entry,
)


def test_an_entry_lists_every_file_with_its_digest_and_size() -> None:
    files = [FileDigest("SKILL.md", "sha256:" + "a" * 64, 10), FileDigest("x/y.md", "sha256:b", 3)]
    entry = skill_entry(
        lambda p: f"skill://s/{p}", {"name": "s", "description": "d", "license": "MIT"}, files
    )
    assert entry == {
        "uri": "skill://s/SKILL.md",
        "frontmatter": {"name": "s", "description": "d", "license": "MIT"},
        "resources": [
            {"uri": "skill://s/SKILL.md", "digest": "sha256:" + "a" * 64, "size": 10},
            {"uri": "skill://s/x/y.md", "digest": "sha256:b", "size": 3},
        ],
    }


def test_yaml_values_become_json_values() -> None:
    doc = {"created": dt.date(2026, 1, 2), "tags": ("a", "b"), 3: None, "n": 1.5, "o": object}
    assert jsonable(doc) == {
        "created": "2026-01-02",
        "tags": ["a", "b"],
        "3": None,
        "n": 1.5,
        "o": str(object),
    }


def test_the_limits_of_the_extension() -> None:
    assert over_limits([FileDigest("a", "", MAX_TOTAL_BYTES)]) is None
    assert "16 MiB" in (over_limits([FileDigest("a", "", MAX_TOTAL_BYTES + 1)]) or "")
    many = [FileDigest(str(i), "", 1) for i in range(MAX_RESOURCES + 1)]
    assert "allows 512" in (over_limits(many) or "")


def test_markdown_is_text_markdown() -> None:
    assert mime_type("SKILL.md") == "text/markdown"
    assert mime_type("scripts/run.py") == "text/x-python"
    assert mime_type("blob") == "application/octet-stream"
