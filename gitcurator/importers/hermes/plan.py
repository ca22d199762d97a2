"""The import plan: what Hermes knows about each skill, as facts ready to merge (pure).

Hermes' keys (frontmatter names, folder names, `category/name`) are mapped to skill
identities; each skill, live and archived, gets its SkillFacts, and everything that could not
be used becomes a problem line. hermes.usage_records merges the facts into the records.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from gitcurator.importers.hermes.formats import (
    HermesUsage,
    UsageFile,
    combine_usage,
    parse_bundled_manifest,
    parse_hub_lock,
    parse_usage,
)
from gitcurator.importers.hermes.state_files import (
    BUNDLED_MANIFEST,
    HUB_LOCK,
    USAGE_FILE,
    HermesFiles,
)
from gitcurator.skills.document import ARCHIVE_DIR, SkillLocation
from gitcurator.skills.identity import identity, is_skill_name, not_a_name_reason
from gitcurator.telemetry.records import HostCounters, Imported

# -- names → identities ----------------------------------------------------------------------


def name_index(locations: Sequence[SkillLocation], names: Mapping[str, str]) -> dict[str, str]:
    """Every key Hermes may use for a skill → the skill's identity.

    Frontmatter names come first (Hermes keys its files by them), then folder names, then
    `category/name` paths; live skills before archived ones, so an archived copy never takes
    a name from the live skill. `names` maps a skill folder to its frontmatter name.
    """
    index: dict[str, str] = {}
    for archived in (False, True):
        group = [loc for loc in locations if loc.archived == archived]
        for loc in group:
            if names.get(loc.folder):
                index.setdefault(names[loc.folder], identity(loc))
        for loc in group:
            index.setdefault(identity(loc), identity(loc))
        for loc in group:
            index.setdefault(library_path(loc), identity(loc))
            if names.get(loc.folder) and loc.category:
                index.setdefault(posixpath.join(loc.category, names[loc.folder]), identity(loc))
    return index


def library_path(loc: SkillLocation) -> str:
    """The skill's folder below the library, without the `.archive/` prefix."""
    return loc.folder.removeprefix(ARCHIVE_DIR + "/") if loc.archived else loc.folder


@dataclass(frozen=True, slots=True)
class SkillFacts:
    """What Hermes knows about one skill, ready to merge into its record."""

    archived: bool
    origin: str | None = None
    pinned: bool = False
    has_usage: bool = False  # .usage.json had a record for it
    counters: HostCounters | None = None
    imported: Imported | None = None
    archived_at: str | None = None


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """Facts by skill identity (every skill, live and archived) and what could not be used."""

    facts: dict[str, SkillFacts]
    problems: list[str] = field(default_factory=list)
    usage_records: int = 0  # keys in .usage.json
    usage_matched: int = 0  # of them, usable records matched to a skill


def plan_import(
    locations: Sequence[SkillLocation],
    names: Mapping[str, str],
    files: HermesFiles,
    now: datetime,
) -> ImportPlan:
    """Facts for each skill from Hermes' files; `names` maps folders to frontmatter names."""
    index = name_index(locations, names)
    problems: list[str] = []
    usage = parse_usage(files.usage, now) if files.usage is not None else UsageFile()
    problems += usage.problems
    by_skill, matched = _usage_by_skill(usage.records, index, problems)
    hub = _hub_skills(files.hub_lock, index, problems)
    bundled = _bundled_skills(files.bundled_manifest, index, problems)
    facts: dict[str, SkillFacts] = {}
    for skill, where in sorted(_by_identity(locations).items()):
        if not is_skill_name(skill):
            # The notes would refuse the record; the skill itself is still committed.
            problems.append(
                f"skill folder {skill!r} {not_a_name_reason(skill)}, so it gets no record: "
                "its Hermes usage was not imported"
            )
            continue
        archived = all(loc.archived for loc in where)
        origin = "hub" if skill in hub else "bundled" if skill in bundled else None
        facts[skill] = _facts(skill, archived, origin, by_skill.get(skill), where, problems)
    return ImportPlan(facts, problems, usage.keys, matched)


def _by_identity(locations: Sequence[SkillLocation]) -> dict[str, list[SkillLocation]]:
    groups: dict[str, list[SkillLocation]] = {}
    for loc in locations:
        groups.setdefault(identity(loc), []).append(loc)
    return groups


def _facts(
    skill: str,
    archived: bool,
    origin: str | None,
    usage: HermesUsage | None,
    where: Sequence[SkillLocation],
    problems: list[str],
) -> SkillFacts:
    if usage is None:
        return SkillFacts(archived, origin)
    counters = HostCounters(
        usage.use_count, usage.view_count, usage.last_used_at, usage.last_viewed_at
    )
    history = Imported(usage.created_at, usage.patch_count, usage.last_patched_at)
    archived_at = None
    if usage.archived and not archived:
        problems.append(
            f"{USAGE_FILE} says {skill} is archived, but it is live at {where[0].folder} "
            f"(not under {ARCHIVE_DIR}/); it was imported as live"
        )
    elif usage.archived:
        archived_at = usage.archived_at
    return SkillFacts(
        archived=archived,
        origin=origin or ("agent" if usage.agent else "user"),
        pinned=usage.pinned,
        has_usage=True,
        counters=counters if counters != HostCounters() else None,
        imported=history if history != Imported() else None,
        archived_at=archived_at,
    )


def _usage_by_skill(
    usage: Mapping[str, HermesUsage], index: Mapping[str, str], problems: list[str]
) -> tuple[dict[str, HermesUsage], int]:
    by_skill: dict[str, HermesUsage] = {}
    keys: dict[str, list[str]] = {}
    for key, record in usage.items():
        skill = index.get(key)
        if skill is None:
            problems.append(f"{USAGE_FILE}: record {key!r} names no skill in the folder; skipped")
            continue
        keys.setdefault(skill, []).append(key)
        earlier = by_skill.get(skill)
        by_skill[skill] = record if earlier is None else combine_usage(earlier, record)
    for skill, found in keys.items():
        if len(found) > 1:
            problems.append(
                f"{USAGE_FILE}: records {', '.join(map(repr, found))} all name skill {skill}; "
                "their counts were added up"
            )
    return by_skill, sum(len(found) for found in keys.values())


def _hub_skills(data: bytes | None, index: Mapping[str, str], problems: list[str]) -> set[str]:
    if data is None:
        return set()
    installed, found = parse_hub_lock(data)
    problems += found
    skills: set[str] = set()
    unknown: list[str] = []
    for name, path in installed.items():
        # install_path locates the folder exactly; the name is Hermes' fallback, and ours.
        skill = (index.get(path) if path else None) or index.get(name)
        if skill is None:
            unknown.append(name)
        else:
            skills.add(skill)
    if unknown:
        problems.append(f"{HUB_LOCK} lists skills not in the folder, ignored: {_names(unknown)}")
    return skills


def _bundled_skills(data: bytes | None, index: Mapping[str, str], problems: list[str]) -> set[str]:
    if data is None:
        return set()
    names, found = parse_bundled_manifest(data)
    problems += found
    unknown = [n for n in names if n not in index]
    if unknown:
        # Usual: a person deleted a bundled skill, or Hermes' curator pruned it.
        problems.append(
            f"{BUNDLED_MANIFEST} lists skills not in the folder, ignored: {_names(unknown)}"
        )
    return {index[n] for n in names if n in index}


def _names(names: Sequence[str], shown: int = 8) -> str:
    text = ", ".join(names[:shown])
    return text + (f" and {len(names) - shown} more" if len(names) > shown else "")
