"""Whether an update branch holds only what `gitcurator update` wrote plus a person's fixes of
it (pure: commits' changes as data).

`update` writes, on top of the default branch, one commit per source carrying
`Update-Run: <run id>` and a `Skill-Source:` per skill it merged; the person then commits fixes.
Every commit of the branch may change only the folders of the skills those trailers name (and
skills-lock.json); anything else on a branch named update/* would pass a deletion or an edit of
another skill off as an update. Nor is a branch merged while conflict markers remain.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gitcurator.audit import trailers
from gitcurator.upstream.provenance import Provenance, parse_source_trailer

UPDATE_PREFIX = "update/"
LOCK_FILE = "skills-lock.json"
# A conflict is an opening and a closing marker line; `=======` alone underlines a heading.
_OPENING = re.compile(rb"^<{7}(?: |\r?$)", re.M)
_CLOSING = re.compile(rb"^>{7}(?: |\r?$)", re.M)

Entry = tuple[bytes, int]


@dataclass(frozen=True, slots=True)
class UpdateCommit:
    """One commit of an update branch: its id, message, parent count and changed paths."""

    id: str
    message: str
    parents: int
    paths: frozenset[str]


@dataclass(frozen=True, slots=True)
class UpdateFacts:
    """An update branch to verify: its commits oldest first, whether the oldest starts on the
    default branch's history, and the files at its tip under the folders it may change."""

    branch: str
    run_id: str
    target: str
    related: bool
    commits: Sequence[UpdateCommit]
    # The default branch's live skills: name -> folder (where a named skill may be changed).
    skill_folders: Mapping[str, str] = field(default_factory=dict)


def update_sources(facts: UpdateFacts) -> dict[str, Provenance]:
    """The skills the update's own commits name, with the source each was merged from."""
    found: dict[str, Provenance] = {}
    for c in facts.commits:
        values = trailers.trailers(c.message)
        if values.get(trailers.UPDATE_RUN) != [facts.run_id]:
            continue
        for value in values.get(trailers.SKILL_SOURCE, []):
            parsed = parse_source_trailer(value)
            if parsed is not None:
                found[parsed[0]] = parsed[1]
    return found


def allowed_folders(facts: UpdateFacts) -> set[str]:
    """The library folders of the skills the update's own commits name."""
    names = update_sources(facts)
    return {facts.skill_folders[n] for n in names if n in facts.skill_folders}


def update_problem(facts: UpdateFacts) -> str | None:
    """Why the branch is not an update and its fixes (naming the commit and paths), or None."""
    own = facts.commits
    if not own:
        return "it holds no commits the default branch lacks"
    if not facts.related:
        return f"it does not start from {facts.target}'s history (commit {own[0].id[:12]})"
    first = trailers.trailers(own[0].message)
    if first.get(trailers.UPDATE_RUN) != [facts.run_id]:
        return f"its first commit {own[0].id[:12]} does not carry `Update-Run: {facts.run_id}`"
    names = update_sources(facts)
    if not names:
        return "its commits name no skill (`Skill-Source:`) the update merged"
    strangers = sorted(n for n in names if n not in facts.skill_folders)
    if strangers:
        return f"it names {', '.join(strangers)}, which {facts.target} holds no live skill of"
    folders = allowed_folders(facts)
    ours = True  # still among the update's own commits, which come first
    for c in own:
        values = trailers.trailers(c.message)
        named = bool(values.get(trailers.UPDATE_RUN) or values.get(trailers.SKILL_SOURCE))
        if named and not ours:
            # A fix that names skills would bring in a skill the update never merged.
            return (
                f"commit {c.id[:12]} names skills (`Update-Run:`, `Skill-Source:`) after the "
                "update's own commits; a fix only edits the files"
            )
        ours = ours and named
        if c.parents != 1:
            return f"commit {c.id[:12]} is a merge (fix the files in plain commits)"
        outside = sorted(p for p in c.paths if p != LOCK_FILE and not _within(p, folders))
        if outside:
            shown = ", ".join(outside[:5]) + (" ..." if len(outside) > 5 else "")
            return (
                f"commit {c.id[:12]} changes {shown}, outside the skills the update merged "
                f"({', '.join(sorted(names))})"
            )
    return None


def marker_paths(files: Mapping[str, bytes]) -> list[str]:
    """The files still holding a conflict (a `<<<<<<<` and a `>>>>>>>` marker line)."""
    return sorted(p for p, data in files.items() if _OPENING.search(data) and _CLOSING.search(data))


def _within(path: str, folders: set[str]) -> bool:
    return any(path == f or path.startswith(f + "/") for f in folders)
