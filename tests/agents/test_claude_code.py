"""claude_code.py: hook payloads and transcript lines in Claude Code's formats become events."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.agents import (
    UNKNOWN_LINES,
    prompt_payload,
    skill_payload,
    transcript_skill_line,
    transcript_write_result,
    write_payload,
)
from support.repos import write_skill

from gitcurator.agents import claude_code
from gitcurator.agents.events import AgentEvent
from gitcurator.agents.paths import Library


@pytest.fixture
def library(tmp_path: Path) -> Library:
    write_skill(tmp_path / "skills", "pdf-extract")
    return Library(tmp_path / "skills")


def test_skill_tool_uses_new_and_old_builds(library: Library, tmp_path: Path) -> None:
    assert claude_code.hook_events(skill_payload("pdf", "toolu_1", tmp_path), library) == [
        AgentEvent("use", "pdf", "toolu_1")
    ]
    old = skill_payload("pdf", "toolu_2", tmp_path, old_build=True)
    assert claude_code.hook_events(old, library)[0].name == "pdf"


def test_typed_slash_prompts_are_guesses_with_a_stable_id(tmp_path: Path, library: Library) -> None:
    (event,) = claude_code.hook_events(prompt_payload("/pdf-extract a.pdf", tmp_path), library)
    assert (event.name, event.guess) == ("pdf-extract", True)
    again = claude_code.hook_events(prompt_payload("/pdf-extract a.pdf", tmp_path), library)
    other = claude_code.hook_events(prompt_payload("/pdf-extract a.pdf", tmp_path, "s2"), library)
    assert again[0].event_id == event.event_id != other[0].event_id
    assert claude_code.hook_events(prompt_payload("no slash", tmp_path), library) == []


def test_writes_create_or_edit(library: Library, tmp_path: Path) -> None:
    root = library.given
    new = root / "fresh" / "SKILL.md"
    cases = [
        (write_payload(new, "t1", tmp_path, created=True), "create"),
        (write_payload(new, "t2", tmp_path, created=None), "edit"),  # no word from the agent
        (write_payload(root / "pdf-extract" / "SKILL.md", "t3", tmp_path, created=None), "edit"),
        (write_payload(root / "pdf-extract" / "SKILL.md", "t4", tmp_path, created=False), "edit"),
        (
            write_payload(root / "pdf-extract" / "SKILL.md", "t5", tmp_path, tool="MultiEdit"),
            "edit",
        ),
    ]
    for payload, kind in cases:
        (event,) = claude_code.hook_events(payload, library)
        assert event.kind == kind, payload["tool_use_id"]
    outside = write_payload(tmp_path / "notes.md", "t6", tmp_path)
    assert claude_code.hook_events(outside, library) == []


def test_other_events_and_odd_payloads_hold_nothing(library: Library, tmp_path: Path) -> None:
    for payload in [
        {"hook_event_name": "Stop"},
        {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}},
        {"hook_event_name": "PostToolUse", "tool_name": "Skill", "tool_input": "not a dict"},
        {"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {"file_path": 7}},
    ]:
        assert claude_code.hook_events(payload, library) == []


def test_transcript_lines(library: Library) -> None:
    at = "2026-09-01T10:00:00.123Z"
    line = transcript_skill_line("pdf-extract", "toolu_9", at)
    assert list(claude_code.transcript_events(line, library)) == [
        AgentEvent("use", "pdf-extract", "toolu_9", "2026-09-01T10:00:00Z")
    ]
    result = transcript_write_result(
        library.given / "fresh" / "SKILL.md", "toolu_w", at, created=True
    )
    assert [e.kind for e in claude_code.transcript_events(result, library)] == ["create"]
    for unknown in UNKNOWN_LINES:
        assert list(claude_code.transcript_events(unknown, library)) == []
