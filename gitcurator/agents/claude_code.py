"""Claude Code: where its skills and settings are, what its hooks send, what its transcripts hold.

Hook payloads (stdin JSON; common fields session_id, transcript_path, cwd, hook_event_name):
- PostToolUse, tool_name `Skill`: tool_input.skill (older builds: tool_input.command, maybe
  with a leading `/` and arguments) is a use; tool_use_id its id.
- UserPromptSubmit whose prompt starts with `/<name>`: a use when such a skill exists (the Skill
  hooks do not fire for typed slash commands in several versions); id from session and prompt.
- PostToolUse, tool_name Write/Edit/MultiEdit, tool_input.file_path inside the library: a
  SKILL.md the agent says it created (tool_response.type `create`) is `create`, anything else
  `edit`: without the agent's word no origin is claimed (calling a person's skill the agent's
  would let the curator archive it).
Transcripts (~/.claude/projects/<slug>/<session>.jsonl): assistant lines whose message.content
holds {"type": "tool_use", "id", "name": "Skill", "input": {"skill"}}, with the line's
timestamp; user lines whose toolUseResult has a filePath (a Write/Edit result; `type: create`
for a new file) and whose message.content holds the tool_result's tool_use_id.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gitcurator.agents.events import AgentEvent, canonical_time, prompt_event_id
from gitcurator.agents.paths import Library
from gitcurator.errors import JSON_READ_ERRORS

AGENT = "claude-code"
WRITE_TOOLS = ("Write", "Edit", "MultiEdit")
# What `connect` installs: the events and matchers the hook needs, nothing more.
HOOK_EVENTS = {"PostToolUse": "Skill|Write|Edit|MultiEdit", "UserPromptSubmit": None}


def home() -> Path:
    """Claude Code's folder: $CLAUDE_CONFIG_DIR, else ~/.claude."""
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")


def skill_name_of(value: object) -> str | None:
    """The skill a typed command names: `pdf`, `/pdf`, `/pdf some arguments`."""
    if not isinstance(value, str):
        return None
    words = value.strip().lstrip("/").split()
    return words[0] if words else None


def skill_input_name(tool_input: dict[str, Any]) -> str | None:
    """The skill a Skill tool input names: `skill` whole (its arguments come in `args`, and a
    folder may be named `My Skill`), else the first word of an older build's `command`."""
    value = tool_input.get("skill")
    if isinstance(value, str) and value.strip().lstrip("/"):
        return value.strip().lstrip("/")
    return skill_name_of(tool_input.get("command"))


def hook_events(payload: dict[str, Any], library: Library) -> list[AgentEvent]:
    """The events one hook payload carries."""
    event = payload.get("hook_event_name")
    if event == "UserPromptSubmit":
        return prompt_events(payload.get("session_id"), payload.get("prompt"))
    if event not in ("PostToolUse", None):
        return []
    tool, given = payload.get("tool_name"), payload.get("tool_input")
    tool_input = given if isinstance(given, dict) else {}
    use_id = payload.get("tool_use_id") if isinstance(payload.get("tool_use_id"), str) else None
    if tool == "Skill":
        name = skill_input_name(tool_input)
        return [AgentEvent("use", name, use_id)] if name else []
    if tool in WRITE_TOOLS:
        response = payload.get("tool_response")
        created = isinstance(response, dict) and response.get("type") == "create"
        cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        return write_events(library, tool_input.get("file_path"), cwd, use_id, created)
    return []


def prompt_events(session_id: object, prompt: object) -> list[AgentEvent]:
    """A typed `/name ...` prompt as a guessed use."""
    if not isinstance(prompt, str) or not prompt.startswith("/"):
        return []
    name = skill_name_of(prompt)
    if not name:
        return []
    session = session_id if isinstance(session_id, str) else ""
    return [AgentEvent("use", name, prompt_event_id(session, prompt, name), guess=True)]


def write_events(
    library: Library,
    path: object,
    cwd: str | None,
    event_id: str | None,
    created: bool,
    at: str | None = None,
) -> list[AgentEvent]:
    """A file the agent wrote inside the library: `create` for a SKILL.md it says it created,
    else `edit`."""
    if not isinstance(path, str):
        return []
    hit = library.skill_of(path, cwd)
    if hit is None:
        return []
    name, is_skill_md = hit
    return [AgentEvent("create" if is_skill_md and created else "edit", name, event_id, at)]


def transcript_events(line: dict[str, Any], library: Library) -> Iterator[AgentEvent]:
    """The events of one transcript line (unknown line types hold none)."""
    at = canonical_time(line.get("timestamp"))
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    items = [c for c in content if isinstance(c, dict)] if isinstance(content, list) else []
    kind = line.get("type")
    if kind == "assistant":
        for item in items:
            if item.get("type") == "tool_use" and item.get("name") == "Skill":
                given = item.get("input")
                tool_input = given if isinstance(given, dict) else {}
                name = skill_input_name(tool_input)
                item_id = item.get("id") if isinstance(item.get("id"), str) else None
                if name:
                    yield AgentEvent("use", name, item_id, at)
    elif kind == "user":
        result = line.get("toolUseResult")
        if not isinstance(result, dict) or not isinstance(result.get("filePath"), str):
            return
        ids = [i.get("tool_use_id") for i in items if i.get("type") == "tool_result"]
        event_id = ids[0] if ids and isinstance(ids[0], str) else None
        cwd = line.get("cwd") if isinstance(line.get("cwd"), str) else None
        created = result.get("type") == "create"
        yield from write_events(library, result["filePath"], cwd, event_id, created, at)


# Cheap tests on the raw bytes: most transcript lines hold no skill event and are skipped
# without being parsed (a 1 GB transcript is mostly tool output).
def may_hold_events(raw: bytes) -> bool:
    """Whether a transcript line can hold an event (false positives are parsed and dropped)."""
    return b'"Skill"' in raw or b'"toolUseResult"' in raw


def parse_line(raw: bytes) -> dict[str, Any] | None:
    """One JSON line as a dict, or None (not JSON, not an object)."""
    try:
        doc = json.loads(raw)
    except JSON_READ_ERRORS:
        return None
    return doc if isinstance(doc, dict) else None


def transcripts(root: Path) -> list[Path]:
    """Every transcript under `root` (sessions and their subagents), oldest name first."""
    return sorted(root.rglob("*.jsonl")) if root.is_dir() else []
