"""The skills the server serves: the live skills of HEAD's committed tree, and every name that
leads to one (frontmatter names, names absorbed into an umbrella).

Built once per HEAD commit; the work tree and the index are never read, so a skill half
written by an agent is not served until it is committed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gitcurator.library import SkillsRepo
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity, is_skill_name
from gitcurator.store import ObjectID
from gitcurator.telemetry import names_cache, notes_records
from gitcurator.telemetry.names import cached_names


@dataclass(frozen=True, slots=True)
class ServedSkill:
    """A live skill: `files` maps each committed file's path in the skill to (blob, mode)."""

    name: str
    folder: str  # repo-relative
    skill_path: str  # relative to the library root: the skill:// path
    skill_md: str  # SKILL.md (or skill.md), relative to the skill folder
    files: Mapping[str, tuple[ObjectID, int]]


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One HEAD's view of the library."""

    head: str | None
    notes: str | None  # the notes commit the names were read at (absorbed names live there)
    live: Mapping[str, ServedSkill]  # identity -> skill
    by_path: Mapping[str, ServedSkill]  # skill path -> skill
    names: Mapping[str, str]  # any name record accepts -> the identity it counts for
    absorbed: frozenset[str]  # the names among them absorbed into an umbrella
    archived: Mapping[str, str]  # identity of an archived skill -> its folder


def build(repo: SkillsRepo, head: str | None, notes: str | None) -> Catalogue:
    """The catalogue of HEAD and the notes (their commit ids, read by the caller before)."""
    store = repo.store
    entries = store.head_entries()
    skills_dir = repo.config.skills_dir
    locations = find_skills(entries, skills_dir, repo.config.include)
    folders = {loc.folder: loc for loc in locations if not loc.archived}
    files: dict[str, dict[str, tuple[ObjectID, int]]] = {folder: {} for folder in folders}
    for path, entry in entries.items():
        folder = posixpath.dirname(path)
        while folder and folder not in folders:
            folder = posixpath.dirname(folder)
        if folder:
            files[folder][path[len(folder) + 1 :]] = entry
    prefix = f"{skills_dir}/" if skills_dir else ""
    live: dict[str, ServedSkill] = {}
    for folder, loc in folders.items():
        if not is_skill_name(identity(loc)):
            continue  # a folder name no command can take (a control character in it)
        skill = ServedSkill(
            identity(loc),
            folder,
            folder[len(prefix) :],
            posixpath.basename(loc.skill_md),
            files[folder],
        )
        # Two live folders of one name: the first (in folder order) answers for it, as it
        # does for `record` and `resolve`.
        live.setdefault(skill.name, skill)
    archived = {identity(loc): loc.folder for loc in locations if loc.archived}
    return with_names(
        repo,
        Catalogue(
            head, None, live, {s.skill_path: s for s in live.values()}, {}, frozenset(), archived
        ),
        notes,
    )


def with_names(repo: SkillsRepo, catalogue: Catalogue, notes: str | None) -> Catalogue:
    """`catalogue` with its names read again: the notes moved (a merge records the names it
    absorbed just after it moves HEAD)."""
    marked = cached_names(repo)
    names = {name: names_cache.skill_of(target) for name, target in marked.items()}
    records = notes_records.load_notes(repo.store).records
    # The journal's name cache for this HEAD, so the first `record` of a load after HEAD moved
    # finds its name instead of rebuilding the cache from the work tree (seconds at 10k).
    names_cache.write(repo.store.state_dir(), catalogue.head, marked)
    absorbed = frozenset(n for n, r in records.items() if r.absorbed_into and n in names)
    return replace(catalogue, notes=notes, names=names, absorbed=absorbed)
