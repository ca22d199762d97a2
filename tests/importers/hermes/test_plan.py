"""hermes/plan.py: Hermes' keys mapped to skills, and the facts of each skill."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from support.hermes import hub_lock

from gitcurator.importers.hermes.plan import ImportPlan, SkillFacts, name_index, plan_import
from gitcurator.importers.hermes.state_files import HermesFiles
from gitcurator.skills.document import SkillLocation
from gitcurator.telemetry.records import HostCounters, Imported

NOW = datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC)


LOCATIONS = [
    SkillLocation("mlops/inference/vllm", "mlops/inference/vllm/SKILL.md"),
    SkillLocation("notes", "notes/SKILL.md"),
    SkillLocation("swap", "swap/SKILL.md"),
    SkillLocation(".archive/old", ".archive/old/SKILL.md", archived=True),
    SkillLocation(".archive/notes", ".archive/notes/SKILL.md", archived=True),
]


NAMES = {
    "mlops/inference/vllm": "serving-llms-vllm",
    "swap": "notes-two",
    ".archive/old": "old",
    ".archive/notes": "notes",
}


@pytest.mark.parametrize(
    ("key", "skill"),
    [
        ("serving-llms-vllm", "vllm"),  # frontmatter name: Hermes' own key
        ("vllm", "vllm"),  # folder name
        ("mlops/inference/vllm", "vllm"),  # category/name
        ("mlops/inference/serving-llms-vllm", "vllm"),
        ("notes-two", "swap"),
        ("old", "old"),  # archived
        ("notes", "notes"),  # the live skill, never its archived namesake
        ("nothing", None),
        ("inference/vllm", None),
    ],
)
def test_keys_map_to_identities(key: str, skill: str | None) -> None:
    assert name_index(LOCATIONS, NAMES).get(key) == skill


def test_a_frontmatter_name_wins_over_another_skills_folder_name() -> None:
    locations = [SkillLocation("x", "x/SKILL.md"), SkillLocation("y", "y/SKILL.md")]
    # Hermes keys records by `name:`, so "y" is the skill in folder x.
    assert name_index(locations, {"x": "y", "y": "z"})["y"] == "x"


def _plan(usage: object = None, hub: object = None, bundled: str | None = None) -> ImportPlan:
    files = HermesFiles(
        json.dumps(usage).encode() if usage is not None else None,
        json.dumps(hub).encode() if hub is not None else None,
        bundled.encode() if bundled is not None else None,
    )
    return plan_import(LOCATIONS, NAMES, files, NOW)


@pytest.mark.parametrize(
    ("usage", "hub", "bundled", "origin"),
    [
        (None, None, None, None),  # no evidence: no recorded origin (reads as user)
        ({"notes": {}}, None, None, "user"),  # missing created_by
        ({"notes": {"created_by": None}}, None, None, "user"),
        ({"notes": {"created_by": "agent"}}, None, None, "agent"),
        ({"notes": {"created_by": "agent"}}, None, "notes:1f", "bundled"),
        ({"notes": {"created_by": "agent"}}, hub_lock(notes="notes"), "notes", "hub"),
        (None, hub_lock(other="notes"), None, "hub"),  # found by install_path
        (None, None, "notes", "bundled"),
    ],
)
def test_origin_precedence(usage: object, hub: object, bundled: str | None, origin: str) -> None:
    assert _plan(usage, hub, bundled).facts["notes"].origin == origin


def test_facts_of_a_used_skill() -> None:
    plan = _plan(
        {
            "serving-llms-vllm": {
                "created_by": "agent",
                "use_count": 4,
                "view_count": 1,
                "last_used_at": "2025-05-01T00:00:00Z",
                "created_at": "2025-01-01T00:00:00Z",
                "patch_count": 2,
                "pinned": True,
            }
        }
    )
    assert plan.problems == []
    assert (plan.usage_records, plan.usage_matched) == (1, 1)
    assert plan.facts["vllm"] == SkillFacts(
        archived=False,
        origin="agent",
        pinned=True,
        has_usage=True,
        counters=HostCounters(4, 1, "2025-05-01T00:00:00Z", None),
        imported=Imported("2025-01-01T00:00:00Z", 2, None),
    )
    assert plan.facts["swap"] == SkillFacts(archived=False)
    assert set(plan.facts) == {"vllm", "notes", "swap", "old"}


def test_archived_at_comes_only_with_an_archived_folder() -> None:
    archived = {"state": "archived", "archived_at": "2025-03-01T00:00:00Z"}
    plan = _plan({"old": archived, "swap": archived})
    assert plan.facts["old"].archived and plan.facts["old"].archived_at == "2025-03-01T00:00:00Z"
    assert plan.facts["swap"].archived_at is None
    assert plan.problems == [
        ".usage.json says swap is archived, but it is live at swap (not under .archive/); "
        "it was imported as live"
    ]


def test_unknown_keys_and_names_are_reported() -> None:
    plan = _plan(
        {"ghost": {"use_count": 1}, "notes": {"use_count": 1}},
        hub_lock(gone="cat/gone"),
        "notes:1\nmissing-a\nmissing-b\n",
    )
    assert (plan.usage_records, plan.usage_matched) == (2, 1)
    assert plan.problems == [
        ".usage.json: record 'ghost' names no skill in the folder; skipped",
        ".hub/lock.json lists skills not in the folder, ignored: gone",
        ".bundled_manifest lists skills not in the folder, ignored: missing-a, missing-b",
    ]


def test_two_keys_for_one_skill_are_added_up() -> None:
    plan = _plan(
        {
            "serving-llms-vllm": {"use_count": 2, "last_used_at": "2025-01-01T00:00:00Z"},
            "vllm": {"use_count": 3, "created_by": "agent", "created_at": "2024-01-01"},
        }
    )
    facts = plan.facts["vllm"]
    assert facts.counters == HostCounters(5, 0, "2025-01-01T00:00:00Z", None)
    assert facts.origin == "agent"
    assert facts.imported == Imported("2024-01-01T00:00:00Z", None, None)
    assert plan.problems == [
        ".usage.json: records 'serving-llms-vllm', 'vllm' all name skill vllm; "
        "their counts were added up"
    ]


def test_a_folder_off_the_spec_name_rule_gets_its_record() -> None:
    # `list` shows `My_Skill`, so its Hermes usage is imported under that name.
    locations = [SkillLocation("My_Skill", "My_Skill/SKILL.md")]
    plan = plan_import(locations, {}, HermesFiles(b'{"My_Skill": {"use_count": 1}}'), NOW)
    assert plan.facts["My_Skill"].counters.use_count == 1
    assert plan.problems == []


def test_a_folder_that_can_be_no_name_gets_no_record() -> None:
    locations = [SkillLocation("bad\nname", "bad\nname/SKILL.md")]
    plan = plan_import(locations, {}, HermesFiles(b'{"bad\\nname": {"use_count": 1}}'), NOW)
    assert plan.facts == {}
    assert "skill folder 'bad\\nname' holds a control character" in plan.problems[0]
