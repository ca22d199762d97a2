"""codex.py: Codex's hook payloads and rollout lines become events."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.agents import rollout_shell, rollout_user
from support.repos import write_skill

from gitcurator.agents import codex
from gitcurator.agents.paths import Library

T = "2026-09-01T10:00:00.000Z"


@pytest.fixture
def library(tmp_path: Path) -> Library:
    write_skill(tmp_path / "skills", "pdf-extract")
    return Library(tmp_path / "skills")


def _payload(tool: str, command: str, cwd: Path) -> dict[str, object]:
    """Codex's PostToolUse input (codex-rs/hooks schema: shell-like tools pass {command})."""
    return {
        "session_id": "0199a1b2", "turn_id": "t1", "transcript_path": None, "cwd": str(cwd),
        "hook_event_name": "PostToolUse", "model": "gpt-5-codex", "permission_mode": "default",
        "tool_name": tool, "tool_input": {"command": command}, "tool_response": "ok",
        "tool_use_id": "call_7",
    }  # fmt: skip


def test_shell_reads_of_skill_md_are_uses(library: Library) -> None:
    payload = _payload("Bash", f"cat {library.given}/pdf-extract/SKILL.md", library.given)
    (event,) = codex.hook_events(payload, library)
    assert (event.kind, event.name, event.event_id) == ("use", "pdf-extract", "call_7")


def test_apply_patch_adding_a_skill_is_a_create(library: Library) -> None:
    patch = (
        "*** Begin Patch\n*** Add File: new-skill/SKILL.md\n+---\n+name: new-skill\n"
        "*** Update File: pdf-extract/SKILL.md\n@@\n-a\n+b\n*** End Patch\n"
    )
    events = codex.hook_events(_payload("apply_patch", patch, library.given), library)
    assert [(e.kind, e.name) for e in events] == [("create", "new-skill"), ("edit", "pdf-extract")]


def test_rollout_lines(library: Library) -> None:
    shell = rollout_shell(
        ["bash", "-lc", f"head -50 {library.given}/pdf-extract/SKILL.md"], "call_1", T
    )
    (event,) = codex.rollout_events(shell, "s", library)
    assert (event.name, event.event_id, event.at) == (
        "pdf-extract",
        "call_1",
        "2026-09-01T10:00:00Z",
    )
    mention = rollout_user("run $pdf-extract and $pdf-extract in $HOME", T)
    assert [(e.name, e.guess) for e in codex.rollout_events(mention, "s", library)] == [
        ("pdf-extract", True)
    ]
    broken = {
        "type": "response_item",
        "payload": {"type": "function_call", "name": "shell", "arguments": "{"},
    }
    assert list(codex.rollout_events(broken, "s", library)) == []


def test_hooks_support_is_read_from_the_installed_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert codex.hooks_supported(None)[0] is False  # no codex at all
    exe = tmp_path / "codex"
    for version, expected in (("0.123.9", False), ("0.124.0", True), ("1.0.0", True)):
        exe.write_text(f"#!/bin/sh\necho 'codex-cli {version}'\n")
        exe.chmod(0o755)
        assert codex.hooks_supported(None)[0] is expected, version
    assert codex.hooks_supported("[features]\nhooks = false\n")[0] is False
