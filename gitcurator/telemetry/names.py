"""Which names refer to which skill: folder names, frontmatter names, absorbed names."""

from __future__ import annotations

import re
from collections.abc import Iterable

from gitcurator.library import SkillsRepo
from gitcurator.skills.document import SkillLocation, SkillParseError, find_skills, parse_skill_md
from gitcurator.statefiles import read_json, write_json

# The usage-record schema's rule for a skill name (the key of its record).
VALID_NAME = re.compile(r"[^\sA-Z_/\\.-](?:-?[^\sA-Z_/\\.-])*")


def identity(location: SkillLocation) -> str:
    """A skill's identity: its folder name (the spec makes it equal to `name:`)."""
    return location.dirname


def name_map(
    locations: Iterable[SkillLocation],
    frontmatter_names: dict[str, str],
    absorbed: dict[str, str],
) -> dict[str, str]:
    """name -> identity for folder names, differing frontmatter names and absorbed names.

    `frontmatter_names` maps a skill folder to its `name:`; `absorbed` maps an absorbed name to
    its umbrella (chains are followed to a live skill; in a cycle, which only hand-edited
    records make, every name resolves to one member of it).
    """
    names: dict[str, str] = {}
    # A folder whose name cannot key a record (e.g. `My_Skill`) takes no usage until renamed.
    locations = [loc for loc in locations if VALID_NAME.fullmatch(identity(loc))]
    for loc in locations:
        names.setdefault(identity(loc), identity(loc))
    for loc in locations:
        alias = frontmatter_names.get(loc.folder)
        if alias and alias not in names:
            names[alias] = identity(loc)
    # A live skill answers for its own name, whatever a record says it was absorbed into:
    # a rolled-back or restored fold brings the name back.
    live = {identity(loc) for loc in locations if not loc.archived}
    for old in absorbed:
        if old in live:
            continue
        target, seen = old, {old}
        while target in absorbed and target not in live and absorbed[target] not in seen:
            target = absorbed[target]
            seen.add(target)
        names[old] = target
    # A frontmatter alias of an absorbed skill follows it to its umbrella.
    for alias, ident in list(names.items()):
        if alias != ident and ident in absorbed and ident not in live:
            names[alias] = names[ident]
    return names


def known_names(repo: SkillsRepo, include_worktree: bool = False) -> dict[str, str]:
    """Every name `record` accepts: committed skills (live and archived), their frontmatter
    names, absorbed names, and with `include_worktree` skills written but not yet committed."""
    from gitcurator.telemetry import ledger

    store = repo.store
    head_files = store.head_paths()
    locations = find_skills(head_files, repo.config.skills_dir)
    frontmatter: dict[str, str] = {}
    # Frontmatter names by SKILL.md blob id: content-addressed, so a cached answer never goes
    # stale, and a rebuild after a commit parses only the SKILL.md files that changed.
    cache_path = ledger.state_of(store) / "frontmatter-names.json"
    cached = read_json(cache_path)
    cache: dict[str, str] = cached if isinstance(cached, dict) else {}
    fresh: dict[str, str] = {}
    for loc in locations:
        blob = head_files[loc.skill_md].decode()
        if blob not in cache:
            try:
                cache[blob] = parse_skill_md(store.read_blob(head_files[loc.skill_md])).name or ""
            except SkillParseError:
                cache[blob] = ""
        fresh[blob] = cache[blob]
        if fresh[blob] and fresh[blob] != identity(loc):
            frontmatter[loc.folder] = fresh[blob]
    write_json(cache_path, fresh)
    if include_worktree:
        tree = store.worktree_tree()
        locations += [
            loc
            for loc in find_skills(tree.paths, repo.config.skills_dir)
            if loc.skill_md not in head_files
        ]
    records = ledger.load_notes(store).records
    absorbed = {n: r.absorbed_into for n, r in records.items() if r.absorbed_into}
    return name_map(locations, frontmatter, absorbed)


def refresh_names_cache(repo: SkillsRepo) -> None:
    """Rebuild the hot path's name cache now, for the current HEAD.

    Commands that move HEAD call this while dulwich is loaded anyway, so the agent's next
    `record` does not pay for the rebuild (seconds at 10,000 skills).
    """
    from gitcurator.telemetry import journal, ledger

    head = repo.store.head_commit()
    journal.write_names(
        ledger.state_of(repo.store),
        head.decode() if head else None,
        # Committed skills only: walking the work tree costs seconds at 10k, and a name the
        # cache lacks (a skill not yet committed) sends `record` to the full rebuild anyway.
        known_names(repo),
    )
