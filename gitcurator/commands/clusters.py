"""`clusters`: the sibling clusters the umbrella pass would send to the model, free of charge."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gitcurator.commands.skill_rows import load_rows
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Result, warning_line
from gitcurator.render import plural
from gitcurator.umbrella.candidates import Candidates, select_candidates
from gitcurator.umbrella.clusters import Cluster, clusters
from gitcurator.umbrella.eligibility import counted_left_out


def load_candidates(repo: SkillsRepo, now: str | None) -> Candidates:
    """Every eligible skill with its SKILL.md (as committed at HEAD), support files and usage."""
    loaded = load_rows(repo, now)
    return select_candidates(
        loaded.rows,
        repo.store.head_paths(),
        repo.store.read_blob,
        repo.config.curator,
        loaded.now,
        loaded.problems,
    )


def show_clusters(start: Path, *, now: str | None) -> Result:
    """The clusters of likely siblings among the eligible skills."""
    with open_repo(start) as repo:
        loaded = load_candidates(repo, now)
        min_age = repo.config.curator.min_age_days
    found = clusters(loaded.candidates)
    clustered = sum(len(c.members) for c in found)
    singletons = len(loaded.candidates) - clustered
    return Result(
        text=_text(found, loaded, singletons, min_age),
        doc=_doc(found, loaded, singletons),
        notes=tuple(warning_line(w) for w in loaded.warnings),
    )


def _doc(found: Sequence[Cluster], loaded: Candidates, singletons: int) -> dict[str, Any]:
    return {
        "clusters": [c.to_json() for c in found],
        "candidates": len(loaded.candidates),
        "singletons": singletons,
        "left_out": loaded.left_out,
    }


def _text(found: Sequence[Cluster], loaded: Candidates, singletons: int, min_age: float) -> str:
    lines = []
    if not loaded.candidates:
        lines.append(
            "no skill can be clustered: the umbrella pass takes agent-made skills (bundled ones "
            f"with prune_builtins) that are unpinned, unprotected and at least {min_age:g} days old"
        )
    else:
        lines.append(
            f"{plural(len(found), 'cluster')} of likely siblings among "
            f"{plural(len(loaded.candidates), 'candidate')}; "
            f"{plural(singletons, 'singleton')} not sent"
        )
    if loaded.left_out:
        lines.append("left out: " + counted_left_out(loaded.left_out))
    for cluster in found:
        width = max(len(m) for m in cluster.members)
        lines.append("")
        lines.append(f"{cluster.key} ({plural(len(cluster.members), 'skill')})")
        lines.extend(f"  {m.ljust(width)}  {cluster.reasons[m]}" for m in cluster.members)
    return "\n".join(lines)
