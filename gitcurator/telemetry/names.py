"""The names the repository knows now (folder, frontmatter and absorbed names), and the hot
path's cache of them, rebuilt when HEAD moves.

The committed names are built from `names_index` (HEAD's SKILL.md files moved by a tree diff,
`name:`s by blob, absorbed names by notes commit). `names-built.json` says what the cache's
body was built from; when a new HEAD changes none of it (an edit that keeps every `name:`),
the body is kept and only its HEAD line changes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator.progress import NO_PROGRESS, Progress
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.skills.identity import identity, name_map
from gitcurator.statefiles import NAMES_BUILT, read_json, write_cache_json
from gitcurator.store import ObjectID, Store
from gitcurator.telemetry import names_cache, names_index

if TYPE_CHECKING:
    from gitcurator.library import SkillsRepo

_VERSION = 1
# The config file's name (gitcurator.config.CONFIG_FILE; that module loads PyYAML and the
# schemas, which the hot path skips while the file's bytes are unchanged).
_CONFIG_FILE = ".gitcurator.yaml"


@dataclass(frozen=True, slots=True)
class Layout:
    """What of the config decides which folders are skills."""

    skills_dir: str = ""
    include: tuple[str, ...] = ()


def known_names(
    repo: SkillsRepo, include_worktree: bool = False, progress: Progress = NO_PROGRESS
) -> dict[str, str]:
    """Every name `record` accepts: committed skills (live and archived), their frontmatter
    names, absorbed names, and with `include_worktree` skills written but not yet committed
    (`progress` hears how many SKILL.md files are read)."""
    return _names(repo.store, _layout(repo), include_worktree, progress)[0]


def cached_names(
    repo: SkillsRepo, include_worktree: bool = False, progress: Progress = NO_PROGRESS
) -> dict[str, str]:
    """known_names as the hot path's cache keeps them: a name of a skill that is archived (and
    not live) maps to `/skill` (names_cache.ARCHIVED_MARK), so its use is kept as `wanted`."""
    names, archived = _names(repo.store, _layout(repo), include_worktree, progress)
    return _marked(names, archived)


def _marked(names: dict[str, str], archived: set[str]) -> dict[str, str]:
    mark = names_cache.ARCHIVED_MARK
    return {n: mark + t if t in archived else t for n, t in names.items()}


def _head_tree(store: Store) -> ObjectID | None:
    from gitcurator.store.commits import commit_tree_of

    head = store.head_commit()
    return commit_tree_of(store, head) if head is not None else None


def _names(
    store: Store, config: Layout, include_worktree: bool, progress: Progress
) -> tuple[dict[str, str], set[str]]:
    """known_names, and the skills among its targets that are archived and not live."""
    index = names_index.skill_files(store, _head_tree(store), progress)
    _notes, absorbed = names_index.absorbed_names(store)
    return _names_from(store, config, index, absorbed, include_worktree)


def _names_from(
    store: Store,
    config: Layout,
    index: names_index.SkillFiles,
    absorbed: dict[str, str],
    include_worktree: bool,
) -> tuple[dict[str, str], set[str]]:
    locations = find_skills(index.files, config.skills_dir, config.include)
    frontmatter: dict[str, str] = {}
    for loc in locations:
        title = index.titles.get(index.files[loc.skill_md], "")
        if title and title != identity(loc):
            frontmatter[loc.folder] = title
    if include_worktree:
        locations += _worktree_only(store, config, index.files)
    live = {identity(loc) for loc in locations if not loc.archived}
    archived = {identity(loc) for loc in locations if loc.archived} - live
    return name_map(locations, frontmatter, absorbed), archived


def _worktree_only(store: Store, config: Layout, committed: dict[str, str]) -> list[SkillLocation]:
    """Skills written in the work tree whose SKILL.md is not committed (a walk: seconds at
    10,000 skills, so only when a name is not among the committed ones)."""
    tree = store.worktree_tree()
    return [
        loc
        for loc in find_skills(tree.paths, config.skills_dir, config.include)
        if loc.skill_md not in committed
    ]


def refresh_names_cache(repo: SkillsRepo, progress: Progress = NO_PROGRESS) -> None:
    """Rebuild the hot path's name cache now, for the current HEAD.

    Commands that move HEAD call this while dulwich is loaded anyway, so the agent's next
    `record` does not pay for the rebuild.
    """
    # Committed skills only: walking the work tree costs seconds at 10k, and a name the
    # cache lacks (a skill not yet committed) sends `record` to the full rebuild anyway.
    state, layout = repo.store.state_dir(), _layout(repo)
    committed_names(repo.store, state, layout, _config_digest(repo.root), progress)


def names_for_record(
    root: Path, state: Path, head: str | None, wanted: list[str] | None
) -> dict[str, str]:
    """The names cache for `head` brought up to date, as `names_cache.lookup` values: the
    committed names, plus the work tree's skills when a `wanted` name is not among them (or
    `wanted` is None)."""
    with Store.discover(root) as store:
        digest = _config_digest(store.root)
        config = _config(store, digest)
        names = committed_names(store, state, config, digest)
        if wanted is not None and all(n in names for n in wanted):
            return names
        notes = names_index.absorbed_names(store)[0]  # before: a flush meanwhile shows
        found, archived = _names(store, config, True, NO_PROGRESS)
    names = _marked(found, archived)
    names_cache.write(state, head, names, notes)
    return names


def committed_names(
    store: Store,
    state: Path,
    config: Layout,
    config_digest: str,
    progress: Progress = NO_PROGRESS,
) -> dict[str, str]:
    """HEAD's committed names (cached_names without the work tree), written to the names
    cache for HEAD; the old cache body is kept when nothing it was built from changed."""
    head = store.head_commit()
    head_text = head.decode() if head is not None else None
    tree = _head_tree(store)
    built = read_json(state / NAMES_BUILT)
    index = names_index.skill_files(store, tree, progress)
    notes, absorbed = names_index.absorbed_names(store)
    inputs = {
        "version": _VERSION,
        "config": config_digest,
        "skills_dir": config.skills_dir,
        "include": list(config.include),
        "absorbed": _digest(repr(sorted(absorbed.items()))),
    }
    unchanged = not index.moved and isinstance(built, dict) and built.get("tree") == index.since
    if unchanged and isinstance(built, dict) and {k: built.get(k) for k in inputs} == inputs:
        kept = names_cache.rehead(state, head_text, built.get("body"), notes)
        if kept is not None:
            write_cache_json(state / NAMES_BUILT, {**inputs, "tree": index.tree, "body": kept[1]})
            return kept[0]
    found, archived = _names_from(store, config, index, absorbed, False)
    names = _marked(found, archived)
    body = names_cache.write(state, head_text, names, notes)
    write_cache_json(state / NAMES_BUILT, {**inputs, "tree": index.tree, "body": body})
    return names


def _config_digest(root: Path) -> str:
    """A digest of the config file's bytes ("none" when it is absent or unreadable)."""
    try:
        return _digest((root / _CONFIG_FILE).read_bytes())
    except OSError:
        return "none"


def _layout(repo: SkillsRepo) -> Layout:
    return Layout(repo.config.skills_dir, tuple(repo.config.include))


def _config(store: Store, digest: str) -> Layout:
    """The config, from what the names were last built with when the file is unchanged: the
    `record` hot path then skips parsing and validating it."""
    built = read_json(store.state_dir() / NAMES_BUILT)
    if (
        isinstance(built, dict)
        and built.get("version") == _VERSION
        and built.get("config") == digest
    ):
        skills_dir, include = built.get("skills_dir"), built.get("include")
        if (
            isinstance(skills_dir, str)
            and isinstance(include, list)
            and all(isinstance(g, str) for g in include)
        ):
            return Layout(skills_dir, tuple(include))
    from gitcurator.library import read_config

    config = read_config(store.root)
    return Layout(config.skills_dir, tuple(config.include))


def _digest(data: bytes | str) -> str:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return hashlib.sha1(raw).hexdigest()
