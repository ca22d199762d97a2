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


def path() -> Path:
    """The registry file."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gitcurator" / "connections.json"


def key(agent: str, scope: str, library: Path) -> str:
    """One connection's key."""
    return f"{agent}:{scope}:{library}"


def load() -> dict[str, dict[str, Any]]:
    """Every connection (an unreadable registry reads as none)."""
    try:
        doc = json.loads(path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in doc.items() if isinstance(v, dict)} if isinstance(doc, dict) else {}


def save(entries: dict[str, dict[str, Any]]) -> None:
    """Replace the registry atomically."""
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(entries, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, target)
