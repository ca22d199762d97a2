"""The names the repository knows now (folder, frontmatter and absorbed names), and the hot
path's cache of them, rebuilt when HEAD moves."""

from __future__ import annotations

from gitcurator.library import SkillsRepo
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.skills.document import SkillParseError, find_skills, parse_skill_md
from gitcurator.skills.identity import identity, name_map
from gitcurator.statefiles import FRONTMATTER_NAMES_CACHE, read_json, write_cache_json


def known_names(
    repo: SkillsRepo, include_worktree: bool = False, progress: Progress = NO_PROGRESS
) -> dict[str, str]:
    """Every name `record` accepts: committed skills (live and archived), their frontmatter
    names, absorbed names, and with `include_worktree` skills written but not yet committed
    (`progress` hears how many SKILL.md files are read)."""
    return _names(repo, include_worktree, progress)[0]


def cached_names(
    repo: SkillsRepo, include_worktree: bool = False, progress: Progress = NO_PROGRESS
) -> dict[str, str]:
    """known_names as the hot path's cache keeps them: a name of a skill that is archived (and
    not live) maps to `/skill` (names_cache.ARCHIVED_MARK), so its use is kept as `wanted`."""
    from gitcurator.telemetry.names_cache import ARCHIVED_MARK

    names, archived = _names(repo, include_worktree, progress)
    return {n: ARCHIVED_MARK + t if t in archived else t for n, t in names.items()}


def _names(
    repo: SkillsRepo, include_worktree: bool, progress: Progress
) -> tuple[dict[str, str], set[str]]:
    """known_names, and the skills among its targets that are archived and not live."""
    from gitcurator.telemetry import ledger

    store = repo.store
    head_files = store.head_paths()
    locations = find_skills(head_files, repo.config.skills_dir, repo.config.include)
    frontmatter: dict[str, str] = {}
    # Frontmatter names by SKILL.md blob id: content-addressed, so a cached answer never goes
    # stale, and a rebuild after a commit parses only the SKILL.md files that changed.
    cache_path = ledger.state_of(store) / FRONTMATTER_NAMES_CACHE
    cached = read_json(cache_path)
    cache: dict[str, str] = cached if isinstance(cached, dict) else {}
    fresh: dict[str, str] = {}
    for loc in counted(locations, "indexing skill names", progress):
        blob = head_files[loc.skill_md].decode()
        if blob not in cache:
            try:
                cache[blob] = parse_skill_md(store.read_blob(head_files[loc.skill_md])).name or ""
            except SkillParseError:
                cache[blob] = ""
            except KeyError:
                # Its object is not here (a fetch that did not bring it): known by its folder
                # name until it is, and not cached, so its `name:` counts once it arrives.
                continue
        fresh[blob] = cache[blob]
        if fresh[blob] and fresh[blob] != identity(loc):
            frontmatter[loc.folder] = fresh[blob]
    write_cache_json(cache_path, fresh)
    if include_worktree:
        tree = store.worktree_tree()
        locations += [
            loc
            for loc in find_skills(tree.paths, repo.config.skills_dir, repo.config.include)
            if loc.skill_md not in head_files
        ]
    records = ledger.load_notes(store).records
    absorbed = {n: r.absorbed_into for n, r in records.items() if r.absorbed_into}
    live = {identity(loc) for loc in locations if not loc.archived}
    archived = {identity(loc) for loc in locations if loc.archived} - live
    return name_map(locations, frontmatter, absorbed), archived


def remember_frontmatter_names(repo: SkillsRepo, names: dict[str, str]) -> None:
    """Add names already parsed (SKILL.md blob id -> its `name:`, "" for none) to the cache
    the names are read through, so a refresh right after (init's) parses nothing again."""
    from gitcurator.telemetry import ledger

    cache_path = ledger.state_of(repo.store) / FRONTMATTER_NAMES_CACHE
    cached = read_json(cache_path)
    cache: dict[str, str] = cached if isinstance(cached, dict) else {}
    write_cache_json(cache_path, {**cache, **names})


def refresh_names_cache(repo: SkillsRepo, progress: Progress = NO_PROGRESS) -> None:
    """Rebuild the hot path's name cache now, for the current HEAD.

    Commands that move HEAD call this while dulwich is loaded anyway, so the agent's next
    `record` does not pay for the rebuild (seconds at 10,000 skills).
    """
    from gitcurator.telemetry import ledger, names_cache

    head = repo.store.head_commit()
    names_cache.write(
        ledger.state_of(repo.store),
        head.decode() if head else None,
        # Committed skills only: walking the work tree costs seconds at 10k, and a name the
        # cache lacks (a skill not yet committed) sends `record` to the full rebuild anyway.
        cached_names(repo, progress=progress),
    )
