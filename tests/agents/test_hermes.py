"""hermes.py: .usage.json growth over a baseline, and the plugin's view of a tool call."""

from __future__ import annotations

import json
from pathlib import Path

from support.agents import hermes_record, write_usage

from gitcurator.agents import hermes


def test_growth_counts_each_step_once_with_its_id() -> None:
    usage = {
        "pdf": hermes_record(use_count=2, view_count=1, last_used_at="2026-09-01T10:00:00+02:00")
    }
    events, baseline, problems = hermes.growth(usage, {})
    assert [(e.kind, e.event_id) for e in events] == [
        ("use", "hermes-usage:pdf:2026-10-01T09:00:00+00:00:use:1"),
        ("use", "hermes-usage:pdf:2026-10-01T09:00:00+00:00:use:2"),
        ("view", "hermes-usage:pdf:2026-10-01T09:00:00+00:00:view:1"),
    ]
    assert events[0].at == "2026-09-01T08:00:00Z" and problems == []
    assert hermes.growth(usage, baseline)[0] == [], "nothing grew"
    usage["pdf"]["use_count"] = 3
    assert [e.event_id for e in hermes.growth(usage, baseline)[0]][-1].endswith("use:3")


def test_a_record_started_again_grows_from_zero_and_a_lower_count_resets_the_baseline() -> None:
    _, baseline, _ = hermes.growth({"pdf": hermes_record(use_count=5)}, {})
    restarted = {"pdf": hermes_record(use_count=1, created_at="2026-11-01T00:00:00Z")}
    (event,) = hermes.growth(restarted, baseline)[0]
    assert event.event_id.endswith("2026-11-01T00:00:00Z:use:1")
    lowered = {"pdf": hermes_record(use_count=2)}
    events, new, _ = hermes.growth(lowered, baseline)
    assert events == [] and new["pdf"]["use_count"] == 2


def test_damaged_records_are_problems_not_failures() -> None:
    usage = {
        "a": "not a record",
        "b": hermes_record(use_count="many"),
        "c": hermes_record(use_count=10**9),
    }
    events, _, problems = hermes.growth(usage, {})
    assert events == [] and len(problems) == 3


def test_agent_made_records_give_a_create_once_and_category_keys_map_to_folders() -> None:
    usage = {"devops/docker-build": hermes_record(created_by="agent")}
    events, baseline, _ = hermes.growth(usage, {})
    assert [(e.kind, e.name) for e in events] == [("create", "docker-build")]
    assert hermes.growth(usage, baseline)[0] == []


def test_plugin_events_take_the_counter_step_hermes_just_made(tmp_path: Path) -> None:
    write_usage(tmp_path, {"pdf": hermes_record(use_count=7, patch_count=2)})
    result = json.dumps({"success": True, "name": "pdf"})
    (use,) = hermes.plugin_events(
        tmp_path,
        {"tool_name": "skill_view", "args": {"name": "pdf"}, "result": result, "status": "ok"},
    )
    assert use.event_id == "hermes-usage:pdf:2026-10-01T09:00:00+00:00:use:7"
    (edit,) = hermes.plugin_events(
        tmp_path, {"tool_name": "skill_manage", "args": {"action": "patch", "name": "pdf"}}
    )
    assert (edit.kind, edit.event_id) == (
        "edit",
        "hermes-usage:pdf:2026-10-01T09:00:00+00:00:edit:2",
    )
    assert (
        hermes.plugin_events(
            tmp_path, {"tool_name": "skill_view", "args": {"name": "pdf"}, "status": "error"}
        )
        == []
    )
    assert (
        hermes.plugin_events(
            tmp_path,
            {"tool_name": "skill_view", "args": {"name": "pdf", "file_path": "references/a.md"}},
        )
        == []
    )
    (unseen,) = hermes.plugin_events(
        tmp_path, {"tool_name": "skill_view", "args": {"name": "other"}, "tool_call_id": "c9"}
    )
    assert unseen.event_id == "hermes-call:c9"
