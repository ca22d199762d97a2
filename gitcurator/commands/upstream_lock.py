"""skills-lock.json (the `npx skills` project lock) as a list of followed sources."""

from __future__ import annotations

from collections.abc import Mapping

from gitcurator.commands.moves import Tip
from gitcurator.library import SkillsRepo
from gitcurator.upstream.provenance import Provenance


def lock_sources(
    repo: SkillsRepo, library: Tip, recorded: Mapping[str, Provenance]
) -> tuple[dict[str, Provenance], list[str]]:
    """The skills skills-lock.json lists that have no recorded source, with the source it
    names; and notes on what could not be read."""
    return {}, []
