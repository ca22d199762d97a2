"""`gitcurator track NAME... --origin O`: record who made skills."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcurator.commands.provenance import set_field
from gitcurator.library import open_repo
from gitcurator.output import Result


def track(start: Path, names: Sequence[str], origin: str) -> Result:
    """Set the origin (agent, user, bundled, hub) of the named skills."""
    with open_repo(start) as repo:
        return set_field(repo, names, "origin", origin, f"gitcurator: origin {origin}")
