"""Who the umbrella pass may fold, and the one table of reasons a skill is left out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.skill_rows import skill_row

from gitcurator.config import CuratorPolicy
from gitcurator.umbrella.eligibility import (
    ARCHIVED,
    NOT_CURATED,
    PINNED,
    PROTECTED,
    REASONS,
    TOO_YOUNG,
    UNREADABLE,
    counted_left_out,
    ineligible,
    left_out_because,
    why_left_out,
)

NOW = datetime(2026, 3, 1, tzinfo=UTC)
POLICY = CuratorPolicy(min_age_days=7)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({}, None),
        ({"state": "stale"}, None),
        ({"state": "archived"}, ARCHIVED),
        ({"curated": False, "origin": "user"}, NOT_CURATED),
        ({"curated": False, "origin": "hub"}, NOT_CURATED),
        ({"pinned": True}, PINNED),
        ({"protected": True}, PROTECTED),
        ({"created_at": "2026-02-25T00:00:00Z"}, TOO_YOUNG),
        ({"created_at": "2026-02-22T00:00:00Z"}, None),  # exactly min_age_days old
        ({"created_at": None}, TOO_YOUNG),
    ],
)
def test_left_out_because(changes: dict[str, object], reason: str | None) -> None:
    assert left_out_because(skill_row(**changes), POLICY, NOW) == reason


@pytest.mark.parametrize(
    ("code", "origin", "words"),
    [
        (NOT_CURATED, "user", "origin user: only agent-made skills are curated"),
        (PINNED, "agent", "pinned"),
        (PROTECTED, "agent", "protected by the config's protect: list"),
        (TOO_YOUNG, "agent", "younger than min_age_days"),
        (ARCHIVED, "agent", "archived"),
        ("made-up", "agent", "made-up"),  # a code without wording is shown as it is
    ],
)
def test_why_one_skill_is_left_out(code: str, origin: str, words: str) -> None:
    assert why_left_out(code, origin) == words


def test_counts_of_skills_left_out_read_as_a_list() -> None:
    counts = {NOT_CURATED: 3, PINNED: 1, PROTECTED: 2, TOO_YOUNG: 1, UNREADABLE: 1}
    assert counted_left_out(counts) == (
        "3 not curated (user, hub or bundled), 1 pinned, 2 protected, "
        "1 younger than min_age_days, 1 unreadable"
    )


def test_every_code_has_both_wordings() -> None:
    for code in (ARCHIVED, NOT_CURATED, PINNED, PROTECTED, TOO_YOUNG, UNREADABLE):
        assert REASONS[code].one and REASONS[code].counted


def test_ineligible_names_every_skill_left_out_and_why() -> None:
    rows = [
        skill_row(name="mine", origin="user", curated=False),
        skill_row(name="kept", pinned=True),
        skill_row(name="free"),
    ]
    assert ineligible(rows, POLICY, NOW) == {
        "mine": "origin user: only agent-made skills are curated",
        "kept": "pinned",
    }
