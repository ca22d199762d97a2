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

from gitcurator.statefiles import read_json, write_atomic


def path() -> Path:
    """The registry file."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gitcurator" / "connections.json"


def key(agent: str, scope: str, library: Path) -> str:
    """One connection's key."""
    return f"{agent}:{scope}:{library}"


def load() -> dict[str, dict[str, Any]]:
    """Every connection (an unreadable registry reads as none)."""
    doc = read_json(path())
    return {k: v for k, v in doc.items() if isinstance(v, dict)} if isinstance(doc, dict) else {}


def save(entries: dict[str, dict[str, Any]]) -> None:
    """Replace the registry atomically (indented: people read it)."""
    write_atomic(path(), json.dumps(entries, indent=2, sort_keys=True) + "\n")
