"""What connecting an agent changes, planned whole before anything is written (pure of writes).

For each agent: where its skills are, and the edits of its own files that make its hooks (or
plugin) call gitcurator: Claude Code's settings.json hooks, Codex's hooks.json (where the
installed Codex runs hooks), Hermes' plugin folder and `plugins.enabled`; with `--mcp` also the
host's MCP configuration. `connect` applies the plan, `--dry-run` shows it, `disconnect`
plans the reverse from what the registry says was added.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gitcurator.agents import claude_code, codex, codex_config, hermes, hermes_config, hooks_json
from gitcurator.agents.settings_files import FileEdit, SettingsRefused, read_text
from gitcurator.errors import CuratorError, UsageError


@dataclass(slots=True)
class Plan:
    """One agent's wiring: its library, the file edits, and what to tell the user."""

    agent: str
    scope: str
    library: Path
    edits: list[FileEdit] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)  # what the registry keeps
    notes: list[str] = field(default_factory=list)


def gitcurator_argv() -> list[str]:
    """How an agent should start this gitcurator: the console script running now, else this
    interpreter with `-m gitcurator` (absolute paths: hooks run without the user's PATH)."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "gitcurator" and script.is_file():
        return [str(script.absolute())]
    return [sys.executable, "-m", "gitcurator"]


def hook_command(agent: str, library: Path) -> str:
    """The command line the agent's hook runs."""
    return shlex.join([*gitcurator_argv(), "hook", agent, "-C", str(library)])


def is_our_hook(agent: str, library: Path) -> Any:
    """A predicate telling gitcurator's hook for `library` (whatever path started it)."""
    tail = f" hook {agent} -C {shlex.quote(str(library))}"
    return lambda command: command.endswith(tail)


def mcp_args(library: Path) -> list[str]:
    """The MCP server's command line after the executable."""
    return ["mcp", "-C", str(library)]


def agent_home(agent: str) -> Path:
    """The agent's own folder ($CLAUDE_CONFIG_DIR, $CODEX_HOME, $HERMES_HOME or the default)."""
    return {"claude-code": claude_code.home, "codex": codex.home, "hermes": hermes.home}[agent]()


def require_home(agent: str) -> Path:
    """The agent's folder, refusing when it is missing (the agent is not installed here)."""
    home = agent_home(agent)
    if not home.is_dir():
        variable = {"claude-code": "CLAUDE_CONFIG_DIR", "codex": "CODEX_HOME"}.get(
            agent, "HERMES_HOME"
        )
        raise CuratorError(
            f"{home} does not exist: is {agent} installed and run once on this machine? "
            f"(set ${variable} if it keeps its files elsewhere); nothing changed"
        )
    return home


def default_library(agent: str, scope: str, project: Path) -> Path:
    """Where the agent keeps the skills of `scope`."""
    if agent == "claude-code":
        return (
            project / ".claude" / "skills" if scope == "project" else claude_code.home() / "skills"
        )
    if agent == "codex":
        return project / ".agents" / "skills" if scope == "project" else codex.user_skills()
    if scope == "project":
        raise UsageError(
            "Hermes keeps its skills per user: connect hermes takes no --scope project"
        )
    return hermes.home() / "skills"


def plan_connect(agent: str, scope: str, library: Path, project: Path, mcp: bool) -> Plan:
    """Every edit that wires `agent` to `library` (files parsed and checked; none written)."""
    home = require_home(agent)
    plan = Plan(agent, scope, library)
    command = hook_command(agent, library)
    if agent == "claude-code":
        base = project / ".claude" if scope == "project" else home
        _json_hooks(plan, base / "settings.json", claude_code.HOOK_EVENTS, command)
        if mcp:
            _json_mcp(plan, claude_mcp_file(scope, project))
    elif agent == "codex":
        base = project / ".codex" if scope == "project" else home
        config = base / "config.toml"
        config_text = read_text(config, "Codex configuration")
        codex_config.parse(config_text, config)  # refuse a broken file before anything else
        supported, why = codex.hooks_supported(config_text)
        if supported:
            _json_hooks(plan, base / "hooks.json", codex.HOOK_EVENTS, command)
        else:
            ingest = shlex.join([*gitcurator_argv(), "ingest", "codex", "-C", str(library)])
            plan.notes.append(
                f"no Codex hook installed ({why}); `gitcurator ingest codex` reads Codex's "
                "session logs instead: run it when you like, or every 15 minutes from cron "
                f"with `*/15 * * * * {ingest}`"
            )
        if mcp:
            new, note = codex_config.with_mcp(
                config_text,
                config,
                gitcurator_argv()[0],
                [*gitcurator_argv()[1:], *mcp_args(library)],
            )
            _add(plan, config, config_text, new, "MCP server in Codex's config.toml", "mcp-toml")
            plan.notes += [note] if note else []
    else:
        if mcp:
            plan.notes.append("Hermes has no MCP registration here; --mcp was ignored")
        _hermes(plan, home, library)
    return plan


def claude_mcp_file(scope: str, project: Path) -> Path:
    """Where Claude Code keeps MCP servers: ~/.claude.json (user), .mcp.json (project)."""
    if scope == "project":
        return project / ".mcp.json"
    import os

    base = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(base) / ".claude.json" if base else Path.home() / ".claude.json"


def _add(plan: Plan, path: Path, old: str | None, new: str | None, what: str, kind: str) -> None:
    plan.edits.append(FileEdit(path, old, new, what, backup=kind != "hermes-plugin"))
    plan.files.append({"path": str(path), "kind": kind, "created": old is None})


def _json_hooks(plan: Plan, path: Path, events: dict[str, str | None], command: str) -> None:
    text = read_text(path, f"{plan.agent} settings")
    doc = hooks_json.parse(text, path)
    hooks_json.add_hooks(doc, events, command, is_our_hook(plan.agent, plan.library), path)
    new = hooks_json.dump(doc)
    unchanged = text is not None and hooks_json.parse(text, path) == doc
    _add(plan, path, text, text if unchanged else new, f"{plan.agent} hooks", "hooks-json")


def _json_mcp(plan: Plan, path: Path) -> None:
    text = read_text(path, "MCP servers")
    doc = hooks_json.parse(text, path)
    argv = gitcurator_argv()
    server = {"type": "stdio", "command": argv[0], "args": [*argv[1:], *mcp_args(plan.library)]}
    note = hooks_json.set_mcp(doc, server, path)
    if note:
        plan.notes.append(note)
        return
    unchanged = text is not None and hooks_json.parse(text, path) == doc
    _add(plan, path, text, text if unchanged else hooks_json.dump(doc), "MCP server", "mcp-json")


def _hermes(plan: Plan, home: Path, library: Path) -> None:
    import gitcurator

    folder = home / "plugins" / hermes.PLUGIN_NAME
    package_parent = str(Path(gitcurator.__file__).resolve().parent.parent)
    files = {
        "plugin.yaml": hermes.PLUGIN_YAML,
        "__init__.py": hermes.PLUGIN_INIT.format(repo=str(library), path=package_parent),
    }
    for name, text in files.items():
        path = folder / name
        old = read_text(path, "gitcurator's Hermes plugin")
        _add(plan, path, old, text, "Hermes plugin", "hermes-plugin")
    config = home / "config.yaml"
    old = read_text(config, "Hermes configuration")
    new = hermes_config.with_plugin(old, config, hermes.PLUGIN_NAME)
    plan.edits.append(FileEdit(config, old, old if new is None else new, "plugins.enabled"))
    plan.files.append({"path": str(config), "kind": "hermes-config", "added": new is not None})


def plan_disconnect(entry: dict[str, Any]) -> list[FileEdit]:
    """The edits that take out exactly what a connection added."""
    agent, library = entry["agent"], Path(entry["library"])
    ours = is_our_hook(agent, library)
    edits = []
    for item in entry.get("files", []):
        path, kind = Path(item["path"]), item.get("kind")
        try:
            text = read_text(path, kind or "settings")
        except SettingsRefused:
            raise
        if text is None:
            continue
        new: str | None = text
        if kind in ("hooks-json", "mcp-json"):
            doc = hooks_json.parse(text, path)
            removed = hooks_json.remove_hooks(doc, ours) + hooks_json.remove_mcp(doc)
            if removed:
                # A file connect created and that now holds nothing goes again.
                new = None if item.get("created") and not doc else hooks_json.dump(doc)
        elif kind == "mcp-toml":
            new = codex_config.without_mcp(text, path) or text
        elif kind == "hermes-plugin":
            new = None
        elif kind == "hermes-config" and item.get("added"):
            new = hermes_config.without_plugin(text, path, hermes.PLUGIN_NAME) or text
        edits.append(FileEdit(path, text, new, kind or "settings", kind != "hermes-plugin"))
    return edits
