"""A SkillRow with every field given a plain default: tests change only what they test."""

from __future__ import annotations

from typing import Any

from gitcurator.lifecycle.inventory import SkillRow


def skill_row(**changes: Any) -> SkillRow:
    """An agent-made, live, unpinned skill created on 2026-01-01 and never used."""
    base: dict[str, Any] = {
        "name": "pdf-extract-tables",
        "path": "pdf-extract-tables",
        "state": "active",
        "origin": "agent",
        "pinned": False,
        "curated": True,
        "protected": False,
        "use_count": 0,
        "view_count": 0,
        "patch_count": 0,
        "last_used_at": None,
        "last_viewed_at": None,
        "last_patched_at": None,
        "last_activity_at": None,
        "created_at": "2026-01-01T00:00:00Z",
        "archived_at": None,
        "absorbed_into": None,
    }
    return SkillRow(**{**base, **changes})
