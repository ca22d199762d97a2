"""What `connect` wired, kept per user (not per clone: an agent's settings are the user's), so
`connect --list` works from any folder and `disconnect` removes exactly what was added.

$XDG_CONFIG_HOME/gitcurator/connections.json (default ~/.config/gitcurator/): one entry per
agent, scope and library, each naming the files gitcurator edited and how.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from gitcurator.errors import CuratorError
from gitcurator.statefiles import read_json, write_atomic


def path() -> Path:
    """The registry file."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gitcurator" / "connections.json"


def key(agent: str, scope: str, library: Path) -> str:
    """One connection's key."""
    return f"{agent}:{scope}:{library}"


def load() -> dict[str, dict[str, Any]]:
    """Every connection (an unreadable registry reads as none); a damaged entry is refused
    with its name, since `disconnect` could not remove exactly what it added."""
    doc = read_json(path())
    if not isinstance(doc, dict):
        return {}
    for name, entry in doc.items():
        if not _well_formed(entry):
            raise CuratorError(
                f"{path()}: the connection {name!r} is damaged (it needs agent, scope, library "
                "and a list of files, each with a path); fix or remove that entry"
            )
    return doc


def _well_formed(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    if not all(isinstance(entry.get(k), str) for k in ("agent", "scope", "library")):
        return False
    files = entry.get("files", [])
    return isinstance(files, list) and all(
        isinstance(f, dict) and isinstance(f.get("path"), str) for f in files
    )


def save(entries: dict[str, dict[str, Any]]) -> None:
    """Replace the registry atomically (indented: people read it)."""
    write_atomic(path(), json.dumps(entries, indent=2, sort_keys=True) + "\n")
