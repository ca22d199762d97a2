"""The archive respects references: a skill something staying live refers to is kept."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.rules import ARCHIVED, STALE, SkillFacts, plan_lifecycle

NOW = datetime(2026, 6, 1, tzinfo=UTC)
IDLE = "2026-01-01T00:00:00Z"  # over archive_after_days=90 before NOW
USED = "2026-05-30T00:00:00Z"


def _skill(name: str, used: str = IDLE, origin: str = "agent") -> SkillFacts:
    return SkillFacts(name, name, origin, False, used, "2025-12-01T00:00:00Z")


# Each case: the skills (name -> last use, origin), who refers to whom, what is archived.
CASES = [
    pytest.param({"a": IDLE}, {}, ["a"], [], id="nothing refers: archived"),
    pytest.param({"a": IDLE}, {"a": [("", "AGENTS.md:3")]}, [], ["a"], id="a reference file keeps"),
    pytest.param(
        {"a": IDLE, "b": USED}, {"a": [("b", "b/SKILL.md:9")]}, [], ["a"], id="a live skill keeps"
    ),
    pytest.param(
        {"a": IDLE, "b": IDLE},
        {"a": [("b", "b/SKILL.md:9")]},
        ["a", "b"],
        [],
        id="archived referrer",
    ),
    pytest.param(
        {"a": IDLE, "b": IDLE},
        {"a": [("b", "b/SKILL.md:9")], "b": [("a", "a/SKILL.md:9")]},
        ["a", "b"],
        [],
        id="a cycle of idle skills is archived",
    ),
    pytest.param(
        {"a": IDLE, "b": IDLE, "c": USED},
        {"a": [("b", "b/SKILL.md:9")], "b": [("a", "a/SKILL.md:9"), ("c", "c/SKILL.md:1")]},
        [],
        ["a", "b"],
        id="a kept skill keeps what it refers to",
    ),
    pytest.param(
        {"a": IDLE, "u": ("user", IDLE)},
        {"a": [("u", "u/SKILL.md:2")]},
        [],
        ["a"],
        id="a skill the curator leaves alone keeps",
    ),
]


@pytest.mark.parametrize(("skills", "refs", "archived", "kept"), CASES)
def test_kept_by_references(
    skills: dict[str, object],
    refs: dict[str, list[tuple[str, str]]],
    archived: list[str],
    kept: list[str],
) -> None:
    facts = [
        _skill(n, v[1], v[0]) if isinstance(v, tuple) else _skill(n, str(v))
        for n, v in skills.items()
    ]
    plan = plan_lifecycle(facts, CuratorPolicy(), NOW, refs)
    assert plan.names(ARCHIVED) == archived
    assert [k.name for k in plan.kept] == kept
    for k in plan.kept:
        # Stale marking is unchanged: a kept skill idle past stale_after_days goes stale.
        assert k.name in plan.names(STALE)
        assert k.referrers and all(w in k.reason for w in k.referrers)
        assert "archive_referenced is off" in k.reason


def test_archive_referenced_archives_them_anyway() -> None:
    policy = CuratorPolicy(archive_referenced=True)
    plan = plan_lifecycle([_skill("a")], policy, NOW, {"a": [("", "AGENTS.md:3")]})
    assert plan.names(ARCHIVED) == ["a"] and plan.kept == ()


def test_a_kept_skill_already_stale_makes_no_transition() -> None:
    facts = [SkillFacts("a", "a", "agent", False, IDLE, None, recorded_state=STALE)]
    plan = plan_lifecycle(facts, CuratorPolicy(), NOW, {"a": [("", "AGENTS.md:3")]})
    assert plan.transitions == () and [k.name for k in plan.kept] == ["a"]
