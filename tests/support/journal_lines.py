"""The usage journal of a repository as its lines' JSON documents (what `record` appended)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gitcurator import statefiles


def journal_lines(repo: Path) -> list[dict[str, Any]]:
    """Every line of the repository's journal, parsed; none when there is no journal."""
    path = repo / ".git" / statefiles.STATE_DIR / statefiles.JOURNAL
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
