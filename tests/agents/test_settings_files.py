"""hooks_json, codex_config, hermes_config: only gitcurator's entries change; a file that does
not parse, or whose edit would not give the intended document, is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gitcurator.agents import codex_config, hermes_config, hooks_json
from gitcurator.agents.settings_files import FileEdit, SettingsRefused, apply

P = Path("/x/settings.json")


def _ours(command: str) -> bool:
    return command.endswith(" hook claude-code -C /lib")


def test_hooks_are_added_once_beside_others_and_removed_exactly() -> None:
    doc = {
        "hooks": {
            "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}]
        }
    }
    before = yaml.safe_load(repr(doc))  # a deep copy
    events = {"PostToolUse": "Skill", "UserPromptSubmit": None}
    hooks_json.add_hooks(doc, events, "gc hook claude-code -C /lib", _ours, P)
    once = repr(doc)
    hooks_json.add_hooks(doc, events, "gc hook claude-code -C /lib", _ours, P)
    assert repr(doc) == once
    assert doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == "lint"
    hooks_json.add_hooks(doc, events, "/new/gc hook claude-code -C /lib", _ours, P)
    assert repr(doc) == once.replace("gc hook", "/new/gc hook"), "moved in place"
    assert hooks_json.remove_hooks(doc, _ours) == 2
    assert doc == before


def test_odd_shapes_are_refused() -> None:
    with pytest.raises(SettingsRefused):
        hooks_json.add_hooks({"hooks": []}, {"Stop": None}, "c", _ours, P)
    with pytest.raises(SettingsRefused):
        hooks_json.parse('{"a": 1,}', P)


TOML = '# mine\nmodel = "o3"  # keep\n\n[profiles.fast]\nmodel = "mini"\n'


def test_codex_config_keeps_comments_and_refuses_broken_toml() -> None:
    text, note = codex_config.with_mcp(TOML, P, "/bin/gc", ["mcp", "-C", "/lib"])
    assert note is None and text.startswith(TOML) and "[mcp_servers.gitcurator]" in text
    assert codex_config.without_mcp(text, P) == TOML
    with pytest.raises(SettingsRefused):
        codex_config.parse("model = = 1", P)
    taken = '[mcp_servers.gitcurator]\ncommand = "other"\n'
    assert codex_config.with_mcp(taken, P, "/bin/gc", ["mcp", "-C", "/lib"])[1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, "plugins:\n  enabled:\n  - gitcurator\n"),
        ("model: x  # mine\n", "model: x  # mine\nplugins:\n  enabled:\n  - gitcurator\n"),
        ("plugins:\n  disabled: []\n", "plugins:\n  enabled:\n  - gitcurator\n  disabled: []\n"),
        (
            "plugins:\n    enabled:\n        - a  # first\n    disabled: []\n",
            "plugins:\n    enabled:\n        - a  # first\n        - gitcurator\n"
            "    disabled: []\n",
        ),
        ("plugins:\n  enabled: []\n", None),  # flow style: refused
    ],
)
def test_hermes_plugins_enabled_is_edited_line_by_line(
    text: str | None, expected: str | None
) -> None:
    if expected is None:
        with pytest.raises(SettingsRefused):
            hermes_config.with_plugin(text, P, "gitcurator")
        return
    new = hermes_config.with_plugin(text, P, "gitcurator")
    assert new == expected
    assert hermes_config.with_plugin(new, P, "gitcurator") is None
    back = hermes_config.without_plugin(new, P, "gitcurator")
    assert back is not None
    assert yaml.safe_load(back)["plugins"]["enabled"] == (yaml.safe_load(text or "{}") or {}).get(
        "plugins", {}
    ).get("enabled", [])


def test_invalid_yaml_is_refused() -> None:
    with pytest.raises(SettingsRefused):
        hermes_config.with_plugin("plugins: [\n", P, "gitcurator")
    with pytest.raises(SettingsRefused, match="not valid YAML"):  # was a RecursionError: exit 3
        hermes_config.with_plugin("a: " + "[" * 50_000 + "]" * 50_000 + "\n", P, "gitcurator")


def test_apply_backs_up_and_keeps_the_mode(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{}\n")
    path.chmod(0o600)
    backup = apply(FileEdit(path, "{}\n", '{"a": 1}\n', "test"))
    assert backup is not None and backup.read_text() == "{}\n"
    assert path.read_text() == '{"a": 1}\n' and path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"a": NaN}', '{"a": -Infinity}', '{"a": 1e999}'],
    ids=["nested-deep", "nan", "infinity", "overflowing-number"],
)
def test_json_no_agent_reads_back_is_refused(text: str) -> None:
    # Python's json reads these (or dies of recursion: exit 3); written back they would break
    # the agent's settings file.
    with pytest.raises(SettingsRefused, match="not valid JSON"):
        hooks_json.parse(text, P)


def test_hermes_disconnect_finds_its_item_under_plugins_enabled_only() -> None:
    text = "other:\n- gitcurator\nplugins:\n  enabled:\n  - gitcurator\n"
    assert hermes_config.without_plugin(text, P, "gitcurator") == (
        "other:\n- gitcurator\nplugins:\n  enabled: []\n"
    )
