"""`clusters`: the sibling clusters the umbrella pass would send to the model, free of charge."""

from __future__ import annotations

import posixpath
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator.cluster import (
    ARCHIVED,
    NOT_CURATED,
    PINNED,
    PROTECTED,
    TOO_YOUNG,
    Candidate,
    Cluster,
    clusters,
    left_out_because,
)
from gitcurator.commands.inventory import collect
from gitcurator.config import CuratorPolicy
from gitcurator.errors import EXIT_OK
from gitcurator.inventory import SkillRow
from gitcurator.render import emit_json, plural
from gitcurator.repository import SkillsRepo, open_repo
from gitcurator.skill import SKILL_FILE, SKILL_FILE_LOWER, SkillParseError, parse_skill_md
from gitcurator.store import ObjectID

UNREADABLE = "unreadable"


@dataclass(frozen=True, slots=True)
class Candidates:
    """The skills the umbrella pass may merge, and how many others were left out and why."""

    candidates: list[Candidate]
    left_out: dict[str, int]
    warnings: list[str]
    now: datetime


def load_candidates(repo: SkillsRepo, now: str | None) -> Candidates:
    """Every eligible skill with its SKILL.md (as committed at HEAD), support files and usage."""
    inv = collect(repo, now)
    policy = repo.config.curator
    eligible, left_out = _eligible(inv.rows, policy, inv.now)
    files = repo.store.head_paths()
    by_folder = _files_by_folder(files, {r.path for r in eligible})
    candidates: list[Candidate] = []
    warnings = list(inv.problems)
    for row in eligible:
        candidate = _candidate(repo, row, by_folder.get(row.path, {}))
        if isinstance(candidate, str):
            warnings.append(candidate)
            left_out[UNREADABLE] += 1
        else:
            candidates.append(candidate)
    return Candidates(candidates, dict(sorted(left_out.items())), warnings, inv.now)


def _eligible(
    rows: Sequence[SkillRow], policy: CuratorPolicy, now: datetime
) -> tuple[list[SkillRow], Counter[str]]:
    eligible: list[SkillRow] = []
    left_out: Counter[str] = Counter()
    for row in rows:
        reason = left_out_because(row, policy, now)
        if reason is None:
            eligible.append(row)
        elif reason != ARCHIVED:  # archived skills are no longer in the library at all
            left_out[reason] += 1
    return eligible, left_out


def _files_by_folder(
    files: Mapping[str, ObjectID], folders: set[str]
) -> dict[str, dict[str, ObjectID]]:
    """folder -> {path inside the folder: blob} for each of `folders`, in one pass over HEAD."""
    found: dict[str, dict[str, ObjectID]] = {}
    for path, sha in files.items():
        # Walk up from the file: the first folder that is a candidate owns it (skills do not
        # nest, so there is at most one).
        parent = posixpath.dirname(path)
        while parent:
            if parent in folders:
                found.setdefault(parent, {})[path[len(parent) + 1 :]] = sha
                break
            parent = posixpath.dirname(parent)
    return found


def _candidate(repo: SkillsRepo, row: SkillRow, files: Mapping[str, ObjectID]) -> Candidate | str:
    """The row as a Candidate, or a warning naming the SKILL.md that cannot be read."""
    skill_md = SKILL_FILE if SKILL_FILE in files else SKILL_FILE_LOWER
    try:
        doc = parse_skill_md(repo.store.read_blob(files[skill_md]))
    except (KeyError, SkillParseError) as exc:
        why = exc.message if isinstance(exc, SkillParseError) else "is missing at HEAD"
        return (
            f"{row.path}/{skill_md} {why}; left out of the clusters "
            f"(see `gitcurator validate {row.path}`)"
        )
    return Candidate(
        name=row.name,
        path=row.path,
        description=doc.description or "",
        body=doc.body,
        support_files=tuple(sorted(p for p in files if p != skill_md)),
        use_count=row.use_count,
    )


def show_clusters(start: Path, *, now: str | None, as_json: bool) -> int:
    """Print the clusters of likely siblings among the eligible skills."""
    with open_repo(start) as repo:
        loaded = load_candidates(repo, now)
        min_age = repo.config.curator.min_age_days
    for warning in loaded.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)
    found = clusters(loaded.candidates)
    clustered = sum(len(c.members) for c in found)
    singletons = len(loaded.candidates) - clustered
    if as_json:
        emit_json(_doc(found, loaded, singletons))
    else:
        print(_text(found, loaded, singletons, min_age))
    return EXIT_OK


def _doc(found: Sequence[Cluster], loaded: Candidates, singletons: int) -> dict[str, Any]:
    return {
        "clusters": [c.to_json() for c in found],
        "candidates": len(loaded.candidates),
        "singletons": singletons,
        "left_out": loaded.left_out,
    }


_LEFT_OUT_WORDS = {
    NOT_CURATED: "not curated (user, hub or bundled)",
    PINNED: "pinned",
    PROTECTED: "protected",
    TOO_YOUNG: "younger than min_age_days",
    UNREADABLE: "unreadable",
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
        lines.append(
            "left out: "
            + ", ".join(f"{n} {_LEFT_OUT_WORDS.get(k, k)}" for k, n in loaded.left_out.items())
        )
    for cluster in found:
        width = max(len(m) for m in cluster.members)
        lines.append("")
        lines.append(f"{cluster.key} ({plural(len(cluster.members), 'skill')})")
        lines.extend(f"  {m.ljust(width)}  {cluster.reasons[m]}" for m in cluster.members)
    return "\n".join(lines)
