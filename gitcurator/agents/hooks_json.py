"""JSON settings with hooks and MCP servers: Claude Code's settings.json, Codex's hooks.json,
.mcp.json and ~/.claude.json (`{"hooks": {EVENT: [{"matcher", "hooks": [{"type": "command",
"command"}]}]}}`, `{"mcpServers": {NAME: {...}}}`).

Edits touch only gitcurator's own entries (recognised by the command they run): other hooks
keep their place and order, and a second connect changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gitcurator.agents.settings_files import SettingsRefused
from gitcurator.errors import JSON_READ_ERRORS

MCP_NAME = "gitcurator"


def parse(text: str | None, path: Path) -> dict[str, Any]:
    """A JSON settings document (empty when the file is absent); refuses invalid JSON."""
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except JSON_READ_ERRORS as exc:
        raise SettingsRefused(
            f"{path} is not valid JSON ({exc}); fix it (JSON allows no comments or trailing "
            "commas) and connect again; nothing changed"
        ) from None
    if not isinstance(doc, dict):
        raise SettingsRefused(f"{path} does not hold a JSON object; nothing changed")
    return doc


def _not_json(word: str) -> None:
    # Python reads NaN and Infinity, JSON (and the agents reading the file back) do not.
    raise ValueError(f"{word} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        # It would be written back as Infinity, which no JSON reader takes.
        raise ValueError(f"{text} is too large a number to be kept as written")
    return value


def dump(doc: Mapping[str, Any]) -> str:
    """The document as the agents write it (two-space indent, keys in their order)."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _groups(doc: dict[str, Any], event: str, path: Path) -> list[Any]:
    hooks = doc.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsRefused(f"{path}: `hooks` is not an object; nothing changed")
    groups = hooks.setdefault(event, [])
    if not isinstance(groups, list):
        raise SettingsRefused(f"{path}: `hooks.{event}` is not a list; nothing changed")
    return groups


def _entries(group: object) -> list[Any]:
    if isinstance(group, dict) and isinstance(group.get("hooks"), list):
        return list(group["hooks"])
    return []


def add_hooks(
    doc: dict[str, Any],
    events: Mapping[str, str | None],
    command: str,
    ours: Callable[[str], bool],
    path: Path,
) -> None:
    """Make every event in `events` run `command` (with its matcher), in place, idempotently."""
    for event, matcher in events.items():
        groups = _groups(doc, event, path)
        found = False
        for group in groups:
            for entry in _entries(group):
                if _is_ours(entry, ours):
                    entry["command"] = command  # gitcurator moved: same place, new path
                    found = True
        if not found:
            group = {"matcher": matcher} if matcher is not None else {}
            group["hooks"] = [{"type": "command", "command": command}]
            groups.append(group)


def remove_hooks(doc: dict[str, Any], ours: Callable[[str], bool]) -> int:
    """Remove gitcurator's hook entries (and the groups and events they leave empty)."""
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return 0
    removed = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            entries = _entries(group)
            kept = [e for e in entries if not _is_ours(e, ours)]
            removed += len(entries) - len(kept)
            if entries and not kept:
                continue  # the group held only ours
            if len(kept) != len(entries):
                group["hooks"] = kept
            kept_groups.append(group)
        if groups and not kept_groups:
            del hooks[event]
        else:
            hooks[event] = kept_groups
    if not hooks and removed:
        del doc["hooks"]
    return removed


def has_hook(doc: Mapping[str, Any], ours: Callable[[str], bool]) -> bool:
    """Whether a gitcurator hook entry is still in the document."""
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return False
    return any(
        _is_ours(e, ours)
        for groups in hooks.values()
        if isinstance(groups, list)
        for g in groups
        for e in _entries(g)
    )


def _is_ours(entry: object, ours: Callable[[str], bool]) -> bool:
    command = entry.get("command") if isinstance(entry, dict) else None
    return isinstance(command, str) and ours(command)


def set_mcp(doc: dict[str, Any], server: dict[str, Any], path: Path) -> str | None:
    """Register gitcurator's MCP server; a note when a server of that name is not ours."""
    servers = doc.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise SettingsRefused(f"{path}: `mcpServers` is not an object; nothing changed")
    existing = servers.get(MCP_NAME)
    if existing is not None and not _is_our_mcp(existing):
        return f"{path} already has an MCP server named {MCP_NAME} that is not ours; left as it is"
    servers[MCP_NAME] = server
    return None


def remove_mcp(doc: dict[str, Any]) -> bool:
    """Remove gitcurator's MCP server (only if it is ours)."""
    servers = doc.get("mcpServers")
    if isinstance(servers, dict) and _is_our_mcp(servers.get(MCP_NAME)):
        del servers[MCP_NAME]
        if not servers:
            del doc["mcpServers"]
        return True
    return False


def _is_our_mcp(server: object) -> bool:
    args = server.get("args") if isinstance(server, dict) else None
    return isinstance(args, list) and "mcp" in args and "-C" in args
