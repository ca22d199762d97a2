"""`gitcurator pin NAME` and `unpin NAME`: keep a skill from the curator, or hand it back."""

from __future__ import annotations

from pathlib import Path

from gitcurator.commands.provenance import set_field
from gitcurator.library import open_repo
from gitcurator.output import Result


def pin(start: Path, name: str) -> Result:
    """Keep a skill from being archived or merged."""
    with open_repo(start) as repo:
        return set_field(repo, [name], "pinned", True, "gitcurator: pin")


def unpin(start: Path, name: str) -> Result:
    """Let the curator manage the skill again."""
    with open_repo(start) as repo:
        return set_field(repo, [name], "pinned", False, "gitcurator: unpin")
