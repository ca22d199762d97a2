"""Golden files: compare a text with tests/golden/NAME, or record it there with
GITCURATOR_GOLDEN_WRITE=1 (only when a change of behaviour is meant, said in the commit)."""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).parents[1] / "golden"


def check_golden(name: str, text: str) -> None:
    """Assert `text` is tests/golden/`name` byte for byte (or write it, when asked)."""
    path = GOLDEN / name
    if os.environ.get("GITCURATOR_GOLDEN_WRITE") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, name
