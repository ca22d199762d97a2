"""The name and description of SKILL.md blobs, read once per blob: the skill catalogue's
entries (lifecycle/catalogue_cost), kept in a content-addressed cache under .git/gitcurator/
so `status` and a pass do not re-read and re-parse every SKILL.md (over a second at 10,000
skills). A dry run writes no cache (statefiles.read_only)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gitcurator.config import Config
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.catalogue_cost import (
    CatalogueCost,
    Described,
    TokenCounter,
    catalogue_cost,
    catalogue_entries,
    described,
)
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.statefiles import CATALOGUE_CACHE, read_json, write_cache_json
from gitcurator.store import ObjectID, Store


def head_catalogue(
    repo: SkillsRepo, count: TokenCounter, tokenizer: str, progress: Progress = NO_PROGRESS
) -> CatalogueCost:
    """What the catalogue of HEAD's live skills costs, counted by `count` (named `tokenizer`)."""
    entries, config = repo.store.head_entries(), repo.config
    known = described_blobs(repo.store, skill_md_blobs(entries, config), progress)
    found = catalogue_entries(
        entries, lambda path: known[entries[path][0]], config.skills_dir, config.include
    )
    return catalogue_cost(found, count, tokenizer)


def skill_md_blobs(
    entries: Mapping[str, tuple[ObjectID, int]],
    config: Config,
    locations: Sequence[SkillLocation] | None = None,
) -> list[ObjectID]:
    """The SKILL.md blob of every live skill among `entries` (path -> (blob, mode));
    `locations`, when the caller has listed them already (find_skills of `entries`)."""
    if locations is None:
        locations = find_skills(entries, config.skills_dir, config.include)
    return [entries[loc.skill_md][0] for loc in locations if not loc.archived]


def described_blobs(
    store: Store,
    blobs: Sequence[ObjectID],
    progress: Progress = NO_PROGRESS,
    read: Callable[[ObjectID], bytes] | None = None,
) -> dict[ObjectID, Described]:
    """blob -> (frontmatter name, description) of each SKILL.md blob; the cache keeps these
    (`progress` hears how many are read; `read` loads a blob, by default store.read_blob)."""
    read = read or store.read_blob
    path = store.state_dir() / CATALOGUE_CACHE
    cached = read_json(path)
    cache: dict[str, object] = cached if isinstance(cached, dict) else {}
    found: dict[ObjectID, Described] = {}
    fresh = 0
    for blob in counted(blobs, "reading the skill catalogue", progress):
        entry = _entry(cache.get(blob.decode()))
        if entry is None:
            entry, fresh = described(read(blob)), fresh + 1
        found[blob] = entry
    # Only HEAD's blobs are kept: the cache does not grow with every edit ever made.
    if fresh or len(found) != len(cache):
        write_cache_json(path, {blob.decode(): list(entry) for blob, entry in found.items()})
    return found


def _entry(value: object) -> Described | None:
    # A damaged cache answers nothing wrong: anything but [name, description] is re-read.
    if isinstance(value, list) and len(value) == 2:
        name, description = value
        if (name is None or isinstance(name, str)) and (
            description is None or isinstance(description, str)
        ):
            return name, description
    return None
