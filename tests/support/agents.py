"""Builders for agent tests: hook payloads, transcript and rollout lines, .usage.json, all in
the agents' real formats (field lists of Claude Code's hooks reference and transcripts, Codex's
hook input schema and rollout files, Hermes 0.19's tools/skill_usage.py), and a way to run
the exact hook command `connect` wrote into a settings file."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

SESSION = "8c35adc1-5b1e-4c5e-9d3b-2f1e0a9c7d11"


def claude_common(event: str, cwd: Path, session: str = SESSION) -> dict[str, Any]:
    """The fields every Claude Code hook payload has."""
    return {
        "session_id": session,
        "transcript_path": f"/home/u/.claude/projects/-work/{session}.jsonl",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": event,
    }


def skill_payload(
    skill: str, tool_use_id: str, cwd: Path, *, old_build: bool = False
) -> dict[str, Any]:
    """PostToolUse of the Skill tool (older builds: `command` with a slash and arguments)."""
    tool_input = {"command": f"/{skill} with args"} if old_build else {"skill": skill}
    return {
        **claude_common("PostToolUse", cwd),
        "tool_name": "Skill",
        "tool_input": tool_input,
        "tool_use_id": tool_use_id,
        "tool_response": {"success": True, "commandName": skill},
    }


def prompt_payload(prompt: str, cwd: Path, session: str = SESSION) -> dict[str, Any]:
    return {**claude_common("UserPromptSubmit", cwd, session), "prompt": prompt}


def write_payload(path: Path | str, tool_use_id: str, cwd: Path, *, created: bool | None = True,
                  tool: str = "Write") -> dict[str, Any]:  # fmt: skip
    """PostToolUse of Write/Edit/MultiEdit (tool_response.type create|update for Write)."""
    tool_input: dict[str, Any] = {"file_path": str(path)}
    if tool == "Write":
        tool_input["content"] = "---\nname: x\n---\n"
    else:
        tool_input.update({"old_string": "a", "new_string": "b"})
    response: dict[str, Any] = {"filePath": str(path)}
    if created is not None and tool == "Write":
        response["type"] = "create" if created else "update"
    return {
        **claude_common("PostToolUse", cwd),
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": tool_use_id,
        "tool_response": response,
    }


def transcript_skill_line(
    skill: str, tool_use_id: str, at: str, session: str = SESSION
) -> dict[str, Any]:
    """An assistant line calling the Skill tool."""
    return {
        "parentUuid": "p1",
        "isSidechain": False,
        "userType": "external",
        "cwd": "/work/repo",
        "sessionId": session,
        "version": "2.1.283",
        "type": "assistant",
        "uuid": f"u-{tool_use_id}",
        "timestamp": at,
        "message": {
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-4-6",
            "content": [
                {"type": "text", "text": "Loading the skill."},
                {"type": "tool_use", "id": tool_use_id, "name": "Skill", "input": {"skill": skill}},
            ],
            "stop_reason": "tool_use",
        },
    }


def transcript_write_result(path: Path, tool_use_id: str, at: str, created: bool) -> dict[str, Any]:
    """The user line carrying a Write's result (toolUseResult type create|update)."""
    return {
        "type": "user",
        "uuid": f"r-{tool_use_id}",
        "sessionId": SESSION,
        "cwd": "/work/repo",
        "timestamp": at,
        "message": {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": tool_use_id, "content": "File created"}
            ],
        },
        "toolUseResult": {
            "type": "create" if created else "update",
            "filePath": str(path),
            "content": "---\n",
            "structuredPatch": [],
        },
    }


UNKNOWN_LINES: list[dict[str, Any]] = [
    {"type": "summary", "summary": "Fixing tests", "leafUuid": "l1"},
    {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}},
    {
        "type": "system",
        "subtype": "local_command",
        "content": "<command-name>/clear</command-name>",
    },
    {"type": "brand-new-kind", "payload": {"Skill": "not a tool use"}},
]


def rollout_meta(session: str, at: str) -> dict[str, Any]:
    """A rollout's first line."""
    payload = {"id": session, "timestamp": at, "cwd": "/work", "cli_version": "0.125.0"}
    return {"timestamp": at, "type": "session_meta", "payload": payload}


def rollout_shell(command: list[str] | str, call_id: str, at: str, *, exec_command: bool = False,
                  workdir: str = "/work") -> dict[str, Any]:  # fmt: skip
    """A `function_call` of `shell` (argv) or `exec_command` (cmd string)."""
    if exec_command:
        args: dict[str, Any] = {"cmd": command, "workdir": workdir, "yield_time_ms": 1000}
        name = "exec_command"
    else:
        args = {"command": command, "workdir": workdir}
        name = "shell"
    return {"timestamp": at, "type": "response_item",
            "payload": {"type": "function_call", "name": name,
                        "arguments": json.dumps(args), "call_id": call_id}}  # fmt: skip


def rollout_user(text: str, at: str) -> dict[str, Any]:
    return {
        "timestamp": at,
        "type": "event_msg",
        "payload": {"type": "user_message", "message": text},
    }


def jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def hermes_record(**fields: Any) -> dict[str, Any]:
    """A .usage.json record as Hermes 0.19's skill_usage._empty_record starts one."""
    record: dict[str, Any] = {
        "created_by": None, "use_count": 0, "view_count": 0, "last_used_at": None,
        "last_viewed_at": None, "patch_count": 0, "last_patched_at": None,
        "created_at": "2026-10-01T09:00:00+00:00", "state": "active", "pinned": False,
        "archived_at": None,
    }  # fmt: skip
    record.update(fields)
    return record


def write_usage(skills: Path, usage: dict[str, Any]) -> None:
    (skills / ".usage.json").write_text(
        json.dumps(usage, indent=2, sort_keys=True), encoding="utf-8"
    )


def installed_commands(settings: Path, event: str) -> list[str]:
    """The hook commands a settings file has for `event` (read back, never hard-coded)."""
    doc = json.loads(settings.read_text(encoding="utf-8"))
    return [h["command"] for group in doc["hooks"][event] for h in group["hooks"]]


def our_command(settings: Path, event: str = "PostToolUse") -> str:
    """gitcurator's hook command in a settings file."""
    found = [c for c in installed_commands(settings, event) if " hook " in c]
    assert len(found) == 1, found
    return found[0]


def run_hook(
    command: str, stdin: bytes | str, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run a hook command the way Claude Code does: through the shell, the payload on stdin."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        command, shell=True, input=data, capture_output=True, timeout=120, cwd=cwd,
        env={**os.environ},
    )  # fmt: skip
