"""The catalogue agents load at start-up, read from HEAD: each live skill's name and
description, and what it costs in tokens (`lifecycle/catalogue_cost` counts, pure).

Descriptions are cached by SKILL.md blob id (content-addressed, so never stale): a repeat
reads and parses only the SKILL.md files that changed (10,000 cold: seconds; warm: a JSON
read).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.catalogue_cost import CatalogueCost, catalogue_cost
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.lifecycle.rules import ARCHIVED
from gitcurator.skills.document import (
    SKILL_FILE,
    SKILL_FILE_LOWER,
    SkillParseError,
    parse_skill_md,
)
from gitcurator.statefiles import DESCRIPTIONS_CACHE, read_json, state_folder, write_cache_json
from gitcurator.token_counter import token_counter


def live_entries(repo: SkillsRepo, rows: Sequence[SkillRow]) -> list[tuple[str, str]]:
    """(name, description) of every live skill among `rows`, in their order; a SKILL.md that
    does not parse lists its name with an empty description."""
    store = repo.store
    paths = store.head_paths()
    cache_path = state_folder(Path(store.repo.commondir())) / DESCRIPTIONS_CACHE
    cached = read_json(cache_path)
    cache: dict[str, str] = cached if isinstance(cached, dict) else {}
    fresh: dict[str, str] = {}
    entries = []
    for row in rows:
        if row.state == ARCHIVED:
            continue
        # The row's folder holds its SKILL.md (discovery found it there), either spelling.
        blob = paths.get(f"{row.path}/{SKILL_FILE}") or paths.get(f"{row.path}/{SKILL_FILE_LOWER}")
        if blob is None:
            continue
        key = blob.decode()
        if not isinstance(cache.get(key), str):
            try:
                cache[key] = parse_skill_md(store.read_blob(blob)).description or ""
            except SkillParseError:
                cache[key] = ""
        fresh[key] = cache[key]
        entries.append((row.name, fresh[key]))
    if fresh != cached:
        write_cache_json(cache_path, fresh)
    return entries


def library_catalogue(repo: SkillsRepo, rows: Sequence[SkillRow]) -> CatalogueCost:
    """What the live skills among `rows` cost every prompt, by the best counter offline."""
    count, tokenizer = token_counter()
    return catalogue_cost(live_entries(repo, rows), count, tokenizer)
