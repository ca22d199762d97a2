"""Hermes' config.yaml: `gitcurator` in `plugins.enabled` (user plugins are opt-in).

Hermes' own `hermes plugins enable` rewrites the whole file; this edits only the lines it must
(so the user's comments stay), then parses the result and refuses, changing nothing, unless it
is exactly the old document with the one name added or removed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from gitcurator.agents.settings_files import SettingsRefused


def parse(text: str | None, path: Path) -> dict[str, Any]:
    """The document (empty when absent); refuses invalid YAML or a non-mapping."""
    try:
        doc = yaml.safe_load(text or "") or {}
    except (yaml.YAMLError, RecursionError) as exc:  # RecursionError: nested thousands deep
        raise SettingsRefused(f"{path} is not valid YAML ({exc}); nothing changed") from None
    if not isinstance(doc, dict):
        raise SettingsRefused(f"{path} does not hold a YAML mapping; nothing changed")
    return doc


def enabled(doc: dict[str, Any]) -> list[Any] | None:
    """plugins.enabled, when it is a list."""
    plugins = doc.get("plugins")
    value = plugins.get("enabled") if isinstance(plugins, dict) else None
    return value if isinstance(value, list) else None


def with_plugin(text: str | None, path: Path, name: str) -> str | None:
    """The text with `name` in plugins.enabled (None: it is there already)."""
    doc = parse(text, path)
    current = enabled(doc)
    if current is not None and name in current:
        return None
    try:
        new = _added(text, doc, current, name, path)
    except LookupError:
        raise _refuse(path, "the plugins section is not in a form edited line by line") from None
    plugins = doc.get("plugins")
    expected = dict(doc)
    expected["plugins"] = {**(plugins if isinstance(plugins, dict) else {})}
    expected["plugins"]["enabled"] = [*(current or []), name]
    _check(new, expected, path)
    return new


def _added(
    text: str | None, doc: dict[str, Any], current: list[Any] | None, name: str, path: Path
) -> str:
    lines = (text or "").splitlines(keepends=True)
    plugins = doc.get("plugins")
    if "plugins" not in doc:
        base = (text or "").rstrip("\n")
        new = (base + "\n" if base else "") + f"plugins:\n  enabled:\n  - {name}\n"
    elif isinstance(plugins, dict):
        at = _line(lines, r"plugins:\s*(#.*)?", 0)
        child = _child_indent(lines, at)
        if "enabled" not in plugins:
            lines.insert(at + 1, f"{child}enabled:\n{child}- {name}\n")
        elif current is not None:
            key = _line(lines, re.escape(child) + r"enabled:\s*(#.*)?", at + 1)
            item = _child_indent(lines, key, same_ok=True) if current else child
            lines.insert(_end_of_list(lines, key, len(item)), f"{item}- {name}\n")
        else:
            raise _refuse(path, "plugins.enabled is not a list")
        new = "".join(lines)
    else:
        raise _refuse(path, "plugins is not a mapping")
    return new


def without_plugin(text: str | None, path: Path, name: str) -> str | None:
    """The text without `name` in plugins.enabled (None: it is not there)."""
    doc = parse(text, path)
    current = enabled(doc)
    if current is None or name not in current:
        return None
    lines = (text or "").splitlines(keepends=True)
    try:
        # The item under plugins.enabled, not the first `- name` of the file (another list
        # may name it too).
        key = _line(lines, r"\s+enabled:\s*(#.*)?", _line(lines, r"plugins:\s*(#.*)?", 0) + 1)
        at = _line(lines, r"\s*-\s*" + re.escape(name) + r"\s*(#.*)?", key + 1)
    except LookupError:
        raise _refuse(path, "plugins.enabled is not a block list") from None
    del lines[at]
    rest = [n for n in current if n != name]
    if not rest:
        lines[key] = lines[key].rstrip("\n").replace("enabled:", "enabled: []", 1) + "\n"
    new = "".join(lines)
    expected = dict(doc)
    expected["plugins"] = {**doc["plugins"], "enabled": rest}
    _check(new, expected, path)
    return new


def _line(lines: list[str], pattern: str, start: int) -> int:
    for i in range(start, len(lines)):
        if re.fullmatch(pattern, lines[i].rstrip("\n")):
            return i
    raise LookupError(pattern)


def _end_of_list(lines: list[str], key: int, indent: int) -> int:
    """The line after the last item of the block list under line `key` (appending keeps the
    order Hermes reads)."""
    end = key + 1
    for i in range(key + 1, len(lines)):
        text = lines[i]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        own = len(text) - len(text.lstrip())
        if own > indent or (own == indent and text.lstrip().startswith("- ")):
            end = i + 1
        else:
            break
    return end


def _child_indent(lines: list[str], at: int, same_ok: bool = False) -> str:
    """The indentation of the block under line `at` (two spaces more when it has none)."""
    own = len(lines[at]) - len(lines[at].lstrip())
    for line in lines[at + 1 :]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent > own or (same_ok and indent == own and line.lstrip().startswith("- ")):
            return line[:indent]
        break
    return " " * (own + 2)


def _check(new: str, expected: dict[str, Any], path: Path) -> None:
    try:
        got = yaml.safe_load(new) or {}
    except yaml.YAMLError:
        got = None
    if got != expected:
        raise _refuse(path, "the edit would not give the intended document")


def _refuse(path: Path, why: str) -> SettingsRefused:
    return SettingsRefused(
        f"{path}: {why}; add gitcurator to plugins.enabled yourself (or run `hermes plugins "
        "enable gitcurator`); nothing changed"
    )
