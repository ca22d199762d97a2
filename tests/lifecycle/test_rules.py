"""The lifecycle rules (SPEC §4.1), table-driven on the pure functions."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.rules import (
    SkillFacts,
    idle_days,
    is_curated,
    is_protected,
    last_activity,
    plan_lifecycle,
    state_of,
)

NOW = datetime(2026, 6, 1, tzinfo=UTC)
POLICY = CuratorPolicy(stale_after_days=30, archive_after_days=90)


@pytest.mark.parametrize(
    ("origin", "prune_builtins", "curated"),
    [
        ("agent", False, True),
        ("user", False, False),
        ("hub", False, False),
        ("bundled", False, False),
        ("bundled", True, True),
        ("user", True, False),
        ("hub", True, False),
    ],
)
def test_only_agent_and_opted_in_bundled_skills_are_curated(
    origin: str, prune_builtins: bool, curated: bool
) -> None:
    assert is_curated(origin, CuratorPolicy(prune_builtins=prune_builtins)) is curated


@pytest.mark.parametrize(
    ("protect", "name", "path", "protected"),
    [
        ((), "a", "a", False),
        (("a",), "a", "cat/a", True),
        (("pdf-*",), "pdf-merge", "docs/pdf-merge", True),
        (("pdf-*",), "csv-merge", "docs/csv-merge", False),
        (("docs/*",), "csv-merge", "docs/csv-merge", True),
        (("A",), "a", "a", False),
    ],
)
def test_protect_matches_names_and_paths(
    protect: tuple[str, ...], name: str, path: str, protected: bool
) -> None:
    assert is_protected(name, path, CuratorPolicy(protect=protect)) is protected


@pytest.mark.parametrize(
    ("used", "viewed", "patched", "expected"),
    [
        (None, None, None, None),
        ("2026-01-01T00:00:00Z", None, None, "2026-01-01T00:00:00Z"),
        (
            "2026-01-01T00:00:00Z",
            "2026-03-01T00:00:00Z",
            "2026-02-01T00:00:00Z",
            "2026-03-01T00:00:00Z",
        ),
        (None, None, "2026-02-01T00:00:00Z", "2026-02-01T00:00:00Z"),
    ],
)
def test_activity_is_the_newest_of_use_view_patch(
    used: str | None, viewed: str | None, patched: str | None, expected: str | None
) -> None:
    assert last_activity(used, viewed, patched) == expected


@pytest.mark.parametrize(
    ("archived", "managed", "activity", "created", "state"),
    [
        # Recently used: active.
        (False, True, "2026-05-20T00:00:00Z", "2025-01-01T00:00:00Z", "active"),
        # Idle past stale_after_days: stale.
        (False, True, "2026-04-01T00:00:00Z", "2025-01-01T00:00:00Z", "stale"),
        # Exactly at the threshold is not yet stale.
        (False, True, "2026-05-02T00:00:00Z", None, "active"),
        # Never used: the anchor is creation; young skills are left alone.
        (False, True, None, "2026-05-20T00:00:00Z", "active"),
        (False, True, None, "2026-01-01T00:00:00Z", "stale"),
        # Pinned, protected or not curated skills (managed=False) never go stale.
        (False, False, "2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z", "active"),
        # Archived stays archived, whatever its activity.
        (True, True, "2026-05-31T00:00:00Z", None, "archived"),
        (True, False, None, None, "archived"),
        # Nothing known at all: active.
        (False, True, None, None, "active"),
    ],
)
def test_state(
    archived: bool, managed: bool, activity: str | None, created: str | None, state: str
) -> None:
    assert (
        state_of(
            archived=archived,
            managed=managed,
            last_activity_at=activity,
            created_at=created,
            policy=POLICY,
            now=NOW,
        )
        == state
    )


def test_idle_days_prefers_activity_over_creation() -> None:
    assert idle_days("2026-05-31T00:00:00Z", "2020-01-01T00:00:00Z", NOW) == 1
    assert idle_days(None, "2026-05-01T00:00:00Z", NOW) == 31
    assert idle_days(None, None, NOW) is None


# -- the pass plan --------------------------------------------------------------------------


def _facts(
    name: str = "s",
    *,
    origin: str = "agent",
    pinned: bool = False,
    activity: str | None = None,
    created: str | None = "2025-01-01T00:00:00Z",
    recorded: str | None = None,
    path: str | None = None,
) -> SkillFacts:
    return SkillFacts(name, path or f"cat/{name}", origin, pinned, activity, created, recorded)


@pytest.mark.parametrize(
    ("facts", "policy", "outcome"),
    [
        # Idle past archive_after_days: archived, from whatever state it was in.
        (_facts(activity="2026-02-01T00:00:00Z"), POLICY, ("active", "archived")),
        (_facts(activity="2026-02-01T00:00:00Z", recorded="stale"), POLICY, ("stale", "archived")),
        # Idle past stale_after_days only: stale (once; a stale skill stays quiet).
        (_facts(activity="2026-04-01T00:00:00Z"), POLICY, ("active", "stale")),
        (_facts(activity="2026-04-01T00:00:00Z", recorded="stale"), POLICY, None),
        # New activity on a stale skill: active again.
        (_facts(activity="2026-05-30T00:00:00Z", recorded="stale"), POLICY, ("stale", "active")),
        # Recently active: nothing to do.
        (_facts(activity="2026-05-30T00:00:00Z"), POLICY, None),
        # Never used: anchored at creation; old enough to archive...
        (_facts(created="2026-01-01T00:00:00Z"), POLICY, ("active", "archived")),
        # ...but never archived (or staled) before stale_after_days old.
        (_facts(created="2026-05-20T00:00:00Z"), POLICY, "too young"),
        # A patch (edit, restore, rollback) is activity: it keeps the skill.
        (_facts(activity="2026-05-31T00:00:00Z", created="2020-01-01T00:00:00Z"), POLICY, None),
        # Never touched: pinned, protected, user, hub; bundled unless prune_builtins.
        (_facts(pinned=True, activity="2020-01-01T00:00:00Z"), POLICY, "pinned"),
        (
            _facts(name="keep-me", activity="2020-01-01T00:00:00Z"),
            CuratorPolicy(protect=("keep-*",)),
            "protected",
        ),
        (_facts(origin="user", activity="2020-01-01T00:00:00Z"), POLICY, "origin user"),
        (_facts(origin="hub", activity="2020-01-01T00:00:00Z"), POLICY, "origin hub"),
        (_facts(origin="bundled", activity="2020-01-01T00:00:00Z"), POLICY, "bundled"),
        (
            _facts(origin="bundled", activity="2020-01-01T00:00:00Z"),
            CuratorPolicy(prune_builtins=True),
            ("active", "archived"),
        ),
        # Nothing known at all: left alone, said why.
        (_facts(created=None), POLICY, "no creation date"),
        # Thresholds come from the config.
        (
            _facts(activity="2026-05-10T00:00:00Z"),
            CuratorPolicy(stale_after_days=14, archive_after_days=20),
            ("active", "archived"),
        ),
    ],
)
def test_plan_pass_rules(
    facts: SkillFacts, policy: CuratorPolicy, outcome: tuple[str, str] | str | None
) -> None:
    plan = plan_lifecycle([facts], policy, NOW)
    if outcome is None:
        assert plan.transitions == () and plan.skipped == ()
    elif isinstance(outcome, str):
        assert plan.transitions == ()
        (skip,) = plan.skipped
        assert outcome in skip.reason
    else:
        (t,) = plan.transitions
        assert (t.before, t.after) == outcome
        assert t.name == facts.name and t.path == facts.path
        assert "days" in t.reason or "active again" in t.reason


def test_plan_reasons_name_the_threshold_and_the_idle_days() -> None:
    plan = plan_lifecycle([_facts(activity="2026-02-01T00:00:00Z")], POLICY, NOW)
    assert plan.transitions[0].reason == (
        "idle 120 days (last activity 2026-02-01), over archive_after_days=90"
    )


def test_plan_lists_and_is_deterministic() -> None:
    skills = [
        _facts("b", activity="2026-01-01T00:00:00Z"),
        _facts("a", activity="2026-04-01T00:00:00Z"),
        _facts("c", activity="2026-05-31T00:00:00Z", recorded="stale"),
    ]
    plan = plan_lifecycle(skills, POLICY, NOW)
    assert plan.names("archived") == ["b"]
    assert plan.names("stale") == ["a"]
    assert plan.names("active", "stale") == ["c"]
    assert plan == plan_lifecycle(list(reversed(skills)), POLICY, NOW)
