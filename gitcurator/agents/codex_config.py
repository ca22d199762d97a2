"""Codex's config.toml: gitcurator's MCP server under [mcp_servers.gitcurator], edited with
tomlkit so the user's comments, order and formatting stay as they were."""

from __future__ import annotations

from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError

from gitcurator.agents.hooks_json import MCP_NAME
from gitcurator.agents.settings_files import SettingsRefused


def parse(text: str | None, path: Path) -> tomlkit.TOMLDocument:
    """The document (empty when absent); refuses invalid TOML."""
    try:
        return tomlkit.parse(text or "")
    except TOMLKitError as exc:
        raise SettingsRefused(f"{path} is not valid TOML ({exc}); nothing changed") from None


def with_mcp(text: str | None, path: Path, command: str, args: list[str]) -> tuple[str, str | None]:
    """The text with gitcurator's MCP server set, and a note when the name is taken."""
    doc = parse(text, path)
    servers = doc.get("mcp_servers")
    if servers is None:
        servers = tomlkit.table(is_super_table=True)
        doc["mcp_servers"] = servers
    elif not isinstance(servers, dict):
        raise SettingsRefused(f"{path}: mcp_servers is not a table; nothing changed")
    existing = servers.get(MCP_NAME)
    if existing is not None and not _ours(existing):
        return text or "", f"{path} has an [mcp_servers.{MCP_NAME}] that is not ours; left as it is"
    table = tomlkit.table()
    table["command"] = command
    table["args"] = args
    servers[MCP_NAME] = table
    return tomlkit.dumps(doc), None


def without_mcp(text: str | None, path: Path) -> str | None:
    """The text without gitcurator's MCP server (None when it had none of ours)."""
    doc = parse(text, path)
    servers = doc.get("mcp_servers")
    if not isinstance(servers, dict) or not _ours(servers.get(MCP_NAME)):
        return None
    del servers[MCP_NAME]
    if not servers:
        del doc["mcp_servers"]
    # tomlkit keeps the blank line it put before the table: end the file as it ended before.
    return (
        tomlkit.dumps(doc).rstrip("\n") + "\n"
        if text and text.endswith("\n")
        else tomlkit.dumps(doc)
    )


def _ours(server: object) -> bool:
    args = server.get("args") if isinstance(server, dict) else None
    return isinstance(args, list) and "mcp" in args and "-C" in args
