"""`connect`, `connect --list`, `disconnect` on real settings files in an isolated HOME."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from support.agents import hermes_record, installed_commands, our_command, write_usage
from support.repos import git, run_cli, write_skill

from gitcurator.library import open_repo
from gitcurator.telemetry import ledger

THEIRS = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
    "model": "opus",
}


@pytest.fixture
def claude_home() -> Path:
    home = Path.home() / ".claude"
    write_skill(home / "skills", "pdf-extract")
    (home / "settings.json").write_text(json.dumps(THEIRS, indent=4))
    return home


def test_connect_adds_its_hooks_after_theirs_and_a_second_run_changes_nothing(
    claude_home: Path,
) -> None:
    first = run_cli("connect", "claude-code")
    assert first.code == 0, first
    settings = claude_home / "settings.json"
    after = json.loads(settings.read_text())
    assert after["permissions"] == THEIRS["permissions"] and after["model"] == "opus"
    commands = installed_commands(settings, "PostToolUse")
    assert commands[0] == "prettier --write", "their hook keeps its place"
    assert " hook claude-code -C " in commands[1]
    assert after["hooks"]["Stop"] == THEIRS["hooks"]["Stop"]
    assert our_command(settings, "UserPromptSubmit") == commands[1]
    backups = list(claude_home.glob("settings.json.gitcurator-*.bak"))
    assert [json.loads(b.read_text()) for b in backups] == [THEIRS]
    assert (claude_home / "skills" / ".git").is_dir(), "the skills folder became a repository"
    text = settings.read_text()
    again = run_cli("connect", "claude-code")
    assert again.code == 0 and "nothing changed" in again.out
    assert settings.read_text() == text
    assert len(list(claude_home.glob("*.bak"))) == 1


def test_disconnect_removes_exactly_what_connect_added(claude_home: Path) -> None:
    assert run_cli("connect", "claude-code", "--mcp").code == 0
    assert "gitcurator" in json.loads((Path.home() / ".claude.json").read_text())["mcpServers"]
    done = run_cli("disconnect", "claude-code")
    assert done.code == 0, done
    assert json.loads((claude_home / "settings.json").read_text()) == THEIRS
    assert not (Path.home() / ".claude.json").exists(), "connect created it, disconnect removes it"
    assert json.loads(run_cli("connect", "--list", "--json").out) == []


def test_dry_run_writes_nothing(claude_home: Path) -> None:
    before = (claude_home / "settings.json").read_text()
    done = run_cli("connect", "claude-code", "--dry-run")
    assert done.code == 0 and "would write" in done.out and "would make" in done.out
    assert (claude_home / "settings.json").read_text() == before
    assert not (claude_home / "skills" / ".git").exists()
    assert not list(claude_home.glob("*.bak"))


@pytest.mark.parametrize(
    "text",
    ['{"hooks": {}, // a comment\n}', '{"hooks": {},}', "{not json", "[]"],
    ids=["comment", "trailing-comma", "broken", "not-an-object"],
)
def test_an_invalid_settings_file_is_refused_and_nothing_changes(
    claude_home: Path, text: str
) -> None:
    (claude_home / "settings.json").write_text(text)
    done = run_cli("connect", "claude-code")
    assert done.code == 1
    assert "settings.json" in done.err and "nothing changed" in done.err
    assert (claude_home / "settings.json").read_text() == text
    assert not (claude_home / "skills" / ".git").exists()
    assert not list(claude_home.glob("*.bak"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files anyway")
def test_a_read_only_settings_file_is_refused(claude_home: Path) -> None:
    settings = claude_home / "settings.json"
    settings.chmod(stat.S_IRUSR)
    done = run_cli("connect", "claude-code")
    assert done.code == 1 and "read-only" in done.err
    assert not (claude_home / "skills" / ".git").exists()


def test_a_read_only_settings_file_is_refused_even_for_root(
    claude_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = claude_home / "settings.json"
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if Path(p) == settings else real_access(p, mode)
    )
    done = run_cli("connect", "claude-code")
    assert done.code == 1 and "read-only" in done.err
    assert json.loads(settings.read_text()) == THEIRS


def test_a_missing_agent_folder_is_refused() -> None:
    for agent in ("claude-code", "codex", "hermes"):
        done = run_cli("connect", agent)
        assert done.code == 1, done
        assert "does not exist" in done.err and "nothing changed" in done.err


def test_a_skills_folder_inside_a_project_repository_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_skill(project / ".claude" / "skills", "pdf-extract")
    git("init", "-q", cwd=project)
    (Path.home() / ".claude").mkdir()
    done = run_cli("connect", "claude-code", "--scope", "project", cwd=project)
    assert done.code == 1 and "not a skills repository" in done.err
    assert not (project / ".claude" / "settings.json").exists()


def test_project_scope_writes_the_project_settings(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_skill(project / ".claude" / "skills", "pdf-extract")
    (Path.home() / ".claude").mkdir()
    done = run_cli("connect", "claude-code", "--scope", "project", "--mcp", cwd=project)
    assert done.code == 0, done
    assert " hook claude-code -C " in our_command(project / ".claude" / "settings.json")
    assert "gitcurator" in json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert not (Path.home() / ".claude" / "settings.json").exists()


def _fake_codex(tmp_path: Path, version: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "codex"
    exe.write_text(f"#!/bin/sh\necho 'codex-cli {version}'\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


CODEX_CONFIG = """\
# my Codex settings
model = "gpt-5-codex"  # the default model

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]
"""


def test_codex_with_hooks_gets_hooks_json_and_its_mcp_server_keeping_comments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_codex(tmp_path, "0.125.0", monkeypatch)
    home = Path.home() / ".codex"
    home.mkdir()
    (home / "config.toml").write_text(CODEX_CONFIG)
    write_skill(Path.home() / ".agents" / "skills", "pdf-extract")
    done = run_cli("connect", "codex", "--mcp")
    assert done.code == 0, done
    assert " hook codex -C " in our_command(home / "hooks.json")
    config = (home / "config.toml").read_text()
    assert config.startswith(CODEX_CONFIG.rstrip("\n")), "comments and their tables are kept"
    import tomllib

    server = tomllib.loads(config)["mcp_servers"]["gitcurator"]
    assert server["args"][-3:] == ["mcp", "-C", str(Path.home() / ".agents" / "skills")]
    assert run_cli("disconnect", "codex").code == 0
    assert (home / "config.toml").read_text() == CODEX_CONFIG
    assert not (home / "hooks.json").exists()


def test_codex_without_hooks_says_ingest_is_the_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_codex(tmp_path, "0.98.0", monkeypatch)
    (Path.home() / ".codex").mkdir()
    write_skill(Path.home() / ".agents" / "skills", "pdf-extract")
    done = run_cli("connect", "codex")
    assert done.code == 0, done
    assert "ingest codex" in done.err and "cron" in done.err
    assert not (Path.home() / ".codex" / "hooks.json").exists()


def test_an_invalid_codex_config_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_codex(tmp_path, "0.125.0", monkeypatch)
    (Path.home() / ".codex").mkdir()
    (Path.home() / ".codex" / "config.toml").write_text("model = \n[broken")
    done = run_cli("connect", "codex", "--mcp")
    assert done.code == 1 and "not valid TOML" in done.err
    assert not (Path.home() / ".codex" / "hooks.json").exists()


HERMES_CONFIG = """\
# Hermes configuration
model:
  default: hermes-4  # my model
plugins:
  enabled:
  - disk-cleanup
  disabled: []
"""


@pytest.fixture
def hermes_home() -> Path:
    home = Path.home() / ".hermes"
    skills = home / "skills"
    write_skill(skills, "pdf-extract")
    write_usage(skills, {"pdf-extract": hermes_record(use_count=2, view_count=2)})
    (home / "config.yaml").write_text(HERMES_CONFIG)
    return home


def test_hermes_gets_a_plugin_and_plugins_enabled_keeping_comments(hermes_home: Path) -> None:
    done = run_cli("connect", "hermes")
    assert done.code == 0, done
    config = (hermes_home / "config.yaml").read_text()
    assert "# my model" in config and "- disk-cleanup\n  - gitcurator\n" in config
    plugin = hermes_home / "plugins" / "gitcurator"
    assert "post_tool_call" in (plugin / "plugin.yaml").read_text()
    tracked = git("ls-files", cwd=hermes_home / "skills").stdout
    assert ".usage.json" not in tracked, "Hermes' own state is not committed"
    assert run_cli("connect", "hermes").code == 0
    assert (hermes_home / "config.yaml").read_text() == config
    assert run_cli("disconnect", "hermes").code == 0
    assert (hermes_home / "config.yaml").read_text() == HERMES_CONFIG
    assert not plugin.exists()


def test_the_hermes_plugin_records_through_the_python_api_as_hermes_loads_it(
    hermes_home: Path,
) -> None:
    assert run_cli("connect", "hermes").code == 0
    skills = hermes_home / "skills"
    # Hermes bumps its counters inside the tool, then calls post_tool_call.
    write_usage(skills, {"pdf-extract": hermes_record(use_count=3, view_count=3)})
    hooks: dict[str, list[object]] = {}

    class Context:  # the part of hermes_cli.plugins.PluginContext the plugin uses
        def register_hook(self, name: str, callback: object) -> None:
            hooks.setdefault(name, []).append(callback)

    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "hermes_plugins.gitcurator", hermes_home / "plugins" / "gitcurator" / "__init__.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.register(Context())
    (callback,) = hooks["post_tool_call"]
    result = json.dumps({"success": True, "name": "pdf-extract", "content": "..."})
    kwargs = {  # the keywords hermes-agent 0.19's _emit_post_tool_call_hook passes
        "result": result, "task_id": "", "session_id": "s", "turn_id": "", "api_request_id": "",
        "duration_ms": 3, "status": "ok", "error_type": None, "error_message": None,
        "middleware_trace": [],
    }  # fmt: skip
    callback(tool_name="skill_view", args={"name": "pdf-extract"}, tool_call_id="c1", **kwargs)
    callback(tool_name="terminal", args={"command": "ls"}, tool_call_id="c2", **kwargs)
    callback(tool_name="skill_manage", args={"action": "create", "name": "new-skill",
             "content": "---\n"}, tool_call_id="c3", **kwargs)  # fmt: skip
    with open_repo(skills) as repo:
        records = ledger.load(repo.store).records
    assert records["pdf-extract"].use_count == 1
    assert records["new-skill"].origin is not None


def test_a_symlinked_settings_file_is_edited_where_it_points(
    claude_home: Path, tmp_path: Path
) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text(json.dumps(THEIRS, indent=4))
    link = claude_home / "settings.json"
    link.unlink()
    link.symlink_to(dotfiles)
    assert run_cli("connect", "claude-code").code == 0
    assert link.is_symlink(), "the link to the dotfiles stays a link"
    assert " hook claude-code -C " in our_command(dotfiles)
    assert run_cli("disconnect", "claude-code").code == 0
    assert link.is_symlink() and json.loads(dotfiles.read_text()) == THEIRS


def test_a_file_without_write_bits_is_refused_for_root_too(claude_home: Path) -> None:
    settings = claude_home / "settings.json"
    settings.chmod(stat.S_IRUSR | stat.S_IRGRP)
    done = run_cli("connect", "claude-code")
    assert done.code == 1 and "read-only" in done.err
    assert json.loads(settings.read_text()) == THEIRS


def test_a_connect_and_a_disconnect_in_one_second_both_keep_their_backups(
    claude_home: Path,
) -> None:
    assert run_cli("connect", "claude-code").code == 0
    assert run_cli("disconnect", "claude-code").code == 0
    backups = sorted(claude_home.glob("settings.json.gitcurator-*.bak"))
    assert len(backups) == 2
    assert THEIRS in [json.loads(b.read_text()) for b in backups], "the original is kept"


def test_a_file_connect_created_goes_after_a_second_connect_too() -> None:
    write_skill(Path.home() / ".claude" / "skills", "pdf-extract")
    assert run_cli("connect", "claude-code").code == 0
    assert run_cli("connect", "claude-code").code == 0
    assert run_cli("disconnect", "claude-code").code == 0
    assert not (Path.home() / ".claude" / "settings.json").exists()


def test_disconnect_leaves_the_folders_of_removed_settings_files_alone(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_skill(project / ".claude" / "skills", "pdf-extract")
    (project / "__pycache__").mkdir()
    (project / "__pycache__" / "app.cpython-311.pyc").write_bytes(b"theirs")
    (Path.home() / ".claude").mkdir()
    assert run_cli("connect", "claude-code", "--scope", "project", "--mcp", cwd=project).code == 0
    assert run_cli("disconnect", "claude-code", cwd=project).code == 0
    assert not (project / ".mcp.json").exists()
    assert (project / "__pycache__" / "app.cpython-311.pyc").read_bytes() == b"theirs"


@pytest.mark.parametrize(
    "entry",
    [{}, {"agent": "claude-code", "scope": "user", "library": 5}, {"files": "abc"}],
    ids=["empty", "library-not-a-path", "files-not-a-list"],
)
def test_a_damaged_registry_entry_is_a_clear_refusal_before_anything_is_written(
    claude_home: Path, entry: dict[str, object]
) -> None:
    registry = Path.home() / ".config" / "gitcurator" / "connections.json"
    registry.parent.mkdir(parents=True)
    registry.write_text(json.dumps({"hand-edited": entry}))
    for args in (["connect", "--list"], ["disconnect", "claude-code"], ["connect", "claude-code"]):
        done = run_cli(*args)
        assert done.code == 1 and "'hand-edited' is damaged" in done.err, (args, done)
    assert json.loads((claude_home / "settings.json").read_text()) == THEIRS
