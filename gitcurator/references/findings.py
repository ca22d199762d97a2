"""`validate`'s warnings about references (pure): a live skill or a reference file that
refers to a skill that is archived, absorbed into an umbrella, or (for the explicit
`skill:NAME` form only: other forms count only for names that exist) no skill at all."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gitcurator.references.graph import ReferenceGraph
from gitcurator.references.mentions import EXPLICIT
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.document import SkillLocation
from gitcurator.skills.identity import identity


def reference_findings(
    graph: ReferenceGraph, locations: Sequence[SkillLocation], aliases: Mapping[str, str]
) -> list[Finding]:
    """A warning for each live reference to a name no live skill answers for."""
    live = {identity(loc) for loc in locations if not loc.archived}
    archived = {identity(loc) for loc in locations if loc.archived}
    found: list[Finding] = []
    for ref in graph.references:
        name = ref.target
        if not ref.live or name in live:
            continue
        if name in aliases:
            rule = "reference-absorbed"
            message = (
                f"refers to {name}, which was folded into {aliases[name]}; name {aliases[name]}"
            )
        elif name in archived:
            rule = "reference-archived"
            message = (
                f"refers to {name}, which is archived; restore it (`gitcurator restore {name}`) "
                "or drop the reference"
            )
        elif ref.kind in EXPLICIT:
            rule = "reference-absent"
            message = f"refers to skill:{name}, but no skill has that name"
        else:
            continue
        found.append(Finding("warning", ref.path, f"{message} ({ref.kind})", rule, ref.line))
    return found
