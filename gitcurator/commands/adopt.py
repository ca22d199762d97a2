"""`gitcurator adopt NAME`: hand a person's skill over to the curator."""

from __future__ import annotations

from pathlib import Path

from gitcurator.commands.provenance import resolve_names, set_field
from gitcurator.errors import CuratorError
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.render import name_arg
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import UsageRecord


def adopt(start: Path, name: str) -> Result:
    """Make a user skill's origin agent; a hub or bundled skill is refused."""
    with open_repo(start) as repo:
        (skill,) = resolve_names(repo, [name])
        record = ledger.load(repo.store).records.get(skill) or UsageRecord(skill)
        if record.origin_value in ("hub", "bundled"):
            raise CuratorError(
                f"{skill} came from a {record.origin_value} source; gitcurator curates only "
                f"skills your agents wrote. If you really own it, run "
                f"`gitcurator track --origin user {name_arg(skill)}` first, then adopt it"
            )
        return set_field(repo, [skill], "origin", "agent", "gitcurator: adopt")
