"""Codex: where its skills, hooks and session logs are, and what they hold.

Codex has no Skill tool: a use is a shell command naming `<library>/<name>/SKILL.md` (cat,
sed, head: how its model reads a skill) or a `$name` mention in what the user typed.
- Hooks (~/.codex/hooks.json, Claude Code's format): PostToolUse with tool_name `Bash`
  (tool_input.command, the shell command) and `apply_patch` (tool_input.command, the patch:
  `*** Add File: PATH` / `*** Update File: PATH`), id tool_use_id; UserPromptSubmit's prompt.
- Session logs ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl): `response_item` payloads of
  type `function_call` named `shell` (arguments JSON {"command": [argv]}) or `exec_command`
  ({"cmd": "..."}), with `call_id` and `workdir`; `custom_tool_call` named `apply_patch` (the
  patch in `input`); and `event_msg` payloads of type `user_message` (what the user typed).
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gitcurator.agents.events import AgentEvent, canonical_time, prompt_event_id
from gitcurator.agents.paths import Library
from gitcurator.errors import JSON_READ_ERRORS

AGENT = "codex"
HOOK_EVENTS = {"PostToolUse": "Bash|apply_patch", "UserPromptSubmit": None}
HOOKS_SINCE = (0, 124, 0)  # the first release with hooks on by default
# `$name`: any folder name without spaces (`$zoho_books-automation`, `$v1.2-notes`), but not
# a shell variable (`$HOME`); a guess, dropped unless a skill has the name, so a trailing full
# stop is left out.
_MENTION = re.compile(r"(?<![\w$])\$(?![A-Z0-9_]+(?![\w-]))([\w-]+(?:\.[\w-]+)*)")
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update) File: (.+?)\s*$", re.MULTILINE)


def home() -> Path:
    """Codex's folder: $CODEX_HOME, else ~/.codex."""
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")


def user_skills() -> Path:
    """The user's Codex skills: ~/.agents/skills, or the older $CODEX_HOME/skills if only that
    one exists."""
    new, old = Path.home() / ".agents" / "skills", home() / "skills"
    return old if old.is_dir() and not new.is_dir() else new


def hooks_supported(config_text: str | None) -> tuple[bool, str]:
    """Whether the installed Codex runs hooks, and why (or why not)."""
    import shutil
    import subprocess  # only `connect` asks; the hook path does not pay for these imports

    if config_text and re.search(r"(?m)^\s*(codex_hooks|hooks)\s*=\s*false\b", config_text):
        return False, "hooks are turned off in config.toml ([features] hooks = false)"
    exe = shutil.which("codex")
    if exe is None:
        return False, "no `codex` on PATH to ask for its version"
    try:
        out = subprocess.run(
            [exe, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return False, f"`codex --version` failed ({exc})"
    found = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
    if not found:
        return False, f"`codex --version` said {out.strip()!r}, not a version"
    version = tuple(int(x) for x in found.groups())
    if version < HOOKS_SINCE:
        shown = ".".join(map(str, HOOKS_SINCE))
        return False, f"Codex {found.group(0)} predates hooks (they run from {shown} on)"
    return True, f"Codex {found.group(0)} runs hooks"


def mentions(text: object, session_id: object) -> list[AgentEvent]:
    """`$name` mentions in what the user typed, as guessed uses."""
    if not isinstance(text, str) or "$" not in text:
        return []
    session = session_id if isinstance(session_id, str) else ""
    names = dict.fromkeys(m.group(1) for m in _MENTION.finditer(text))
    return [AgentEvent("use", n, prompt_event_id(session, text, n), guess=True) for n in names]


def command_text(value: object) -> str:
    """A shell command as one string, from a string or an argv list."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return shlex.join(value)
    return ""


def shell_events(
    library: Library, command: str, cwd: str | None, call_id: str | None, at: str | None = None
) -> list[AgentEvent]:
    """Uses of the skills a shell command reads."""
    names = library.skills_read_by(command, cwd)
    ids = [call_id if len(names) == 1 or call_id is None else f"{call_id}:{n}" for n in names]
    return [AgentEvent("use", n, i, at) for n, i in zip(names, ids, strict=True)]


def patch_events(
    library: Library, patch: str, cwd: str | None, call_id: str | None, at: str | None = None
) -> list[AgentEvent]:
    """Skills an apply_patch adds (`*** Add File:` of a SKILL.md: create) or changes (edit)."""
    events: list[AgentEvent] = []
    for verb, path in _PATCH_FILE.findall(patch):
        hit = library.skill_of(path, cwd)
        if hit is None:
            continue
        name, is_skill_md = hit
        kind = "create" if is_skill_md and verb == "Add" else "edit"
        event_id = f"{call_id}:{path}" if call_id else None
        if all(e.name != name for e in events):
            events.append(AgentEvent(kind, name, event_id, at))
    return events


def hook_events(payload: dict[str, Any], library: Library) -> list[AgentEvent]:
    """The events one Codex hook payload carries."""
    event = payload.get("hook_event_name")
    if event == "UserPromptSubmit":
        return mentions(payload.get("prompt"), payload.get("session_id"))
    if event != "PostToolUse":
        return []
    given = payload.get("tool_input")
    tool_input = given if isinstance(given, dict) else {}
    call_id = payload.get("tool_use_id") if isinstance(payload.get("tool_use_id"), str) else None
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    command = command_text(tool_input.get("command"))
    if payload.get("tool_name") == "apply_patch":
        return patch_events(library, command, cwd, call_id)
    return shell_events(library, command, cwd, call_id)


def rollout_events(line: dict[str, Any], session_id: str, library: Library) -> Iterator[AgentEvent]:
    """The events of one rollout line (unknown line types hold none)."""
    payload = line.get("payload")
    if not isinstance(payload, dict):
        return
    at = canonical_time(line.get("timestamp"))
    kind, ptype = line.get("type"), payload.get("type")
    if kind == "event_msg" and ptype == "user_message":
        for event in mentions(payload.get("message"), session_id):
            yield AgentEvent(event.kind, event.name, event.event_id, at, guess=True)
        return
    if kind != "response_item":
        return
    call_id = payload.get("call_id") if isinstance(payload.get("call_id"), str) else None
    name = payload.get("name")
    if ptype == "custom_tool_call" and name == "apply_patch":
        patch = payload.get("input")
        if isinstance(patch, str):
            yield from patch_events(library, patch, None, call_id, at)
        return
    if ptype != "function_call" or not isinstance(payload.get("arguments"), str):
        return
    try:
        args = json.loads(payload["arguments"])
    except JSON_READ_ERRORS:
        return
    if not isinstance(args, dict):
        return
    cwd = args.get("workdir") if isinstance(args.get("workdir"), str) else None
    if name == "apply_patch" and isinstance(args.get("input"), str):
        yield from patch_events(library, args["input"], cwd, call_id, at)
    elif name in ("shell", "exec_command", "local_shell"):
        command = command_text(args.get("command") if name != "exec_command" else args.get("cmd"))
        yield from shell_events(library, command, cwd, call_id, at)


def may_hold_events(raw: bytes) -> bool:
    """Whether a rollout line can hold an event (cheap test before parsing)."""
    return b"SKILL.md" in raw or b"user_message" in raw or b"apply_patch" in raw


def session_of(line: dict[str, Any]) -> str | None:
    """The session id a `session_meta` line (a rollout's first) names."""
    payload = line.get("payload")
    if line.get("type") == "session_meta" and isinstance(payload, dict):
        value = payload.get("id")
        return value if isinstance(value, str) else None
    return None


def rollouts(root: Path) -> list[Path]:
    """Every session log under $CODEX_HOME/sessions, oldest first."""
    folder = root / "sessions"
    return sorted(folder.rglob("rollout-*.jsonl")) if folder.is_dir() else []
