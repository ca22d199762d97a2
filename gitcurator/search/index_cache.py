"""The search index of the default branch's skills, live and archived, cached by tree id.

A tree id names every byte of the library, so a cache keyed by it (with the config file's
bytes and gitcurator's version) is either right or for another tree: a commit
made with plain git, a rollback, a hand edit of the cache all make the next search rebuild it.
The cache is written atomically and skipped when the state folder is read-only.

The live search has an index of its own, of the live skills alone: word weights depend on
every skill indexed, and archived skills sharing a query word would rank the live ones
differently from the MCP server's list_skills (and reorder them whenever a skill is archived).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gitcurator import __version__
from gitcurator.config import CONFIG_FILE, Config
from gitcurator.library import read_config
from gitcurator.search.ranking import WordIndex
from gitcurator.skills.document import SkillParseError, find_skills, parse_skill_md
from gitcurator.skills.identity import identity
from gitcurator.statefiles import SEARCH_INDEX, SEARCH_INDEX_LIVE, write_cache
from gitcurator.store import ObjectID, Store
from gitcurator.store.commits import commit_tree_of
from gitcurator.umbrella.wording import BODY_CHARS


@dataclass(frozen=True, slots=True)
class LibraryIndex:
    """The index of one tree of the default branch, and whether the cache answered."""

    index: WordIndex
    branch: str
    tree: str | None  # None: the branch has no commits yet
    cached: bool


@dataclass(frozen=True, slots=True)
class _Skill:
    name: str
    path: str
    description: str
    body: str


def library_index(store: Store, *, live_only: bool = False) -> LibraryIndex:
    """The search index of the default branch's tree (its live skills alone with
    `live_only`): from the cache when it is of that tree and config file, else built from the
    SKILL.md files (and the cache rewritten).

    A warm search parses no configuration: the key holds the config file's bytes, so a cache
    answers only for the file it was built with (one that does not parse never has a cache).
    """
    branch = store.default_branch()
    tip = store.branch_tip(branch)
    if tip is None:
        read_config(store.root)  # a broken config is refused on an empty branch too
        return LibraryIndex(WordIndex([]), branch, None, False)
    tree = commit_tree_of(store, tip)
    key = cache_key(store.root, tree.decode()) + (" live" if live_only else "")
    path = store.state_dir() / (SEARCH_INDEX_LIVE if live_only else SEARCH_INDEX)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    index = WordIndex.from_text(text, key) if text else None
    if index is not None:
        return LibraryIndex(index, branch, tree.decode(), True)
    index = build_index(store, read_config(store.root), store.tree_entries(tree), live_only)
    write_cache(path, index.to_text(key))
    return LibraryIndex(index, branch, tree.decode(), False)


def cache_key(root: Path, tree: str) -> str:
    """What the cached index depends on: the tree, the config file and gitcurator's version."""
    try:
        config = hashlib.sha256((root / CONFIG_FILE).read_bytes()).hexdigest()
    except FileNotFoundError:
        config = "none"
    except OSError:
        config = "unreadable"  # read_config says why when the index is built
    return f"{tree} {config} {__version__}"


def build_index(
    store: Store,
    config: Config,
    entries: Mapping[str, tuple[ObjectID, int]],
    live_only: bool = False,
) -> WordIndex:
    """The index of the skills among a tree's `entries` (path -> (blob id, mode)), of the
    live ones alone with `live_only`."""
    skills: list[_Skill] = []
    archived: set[str] = set()
    for loc in find_skills(entries, config.skills_dir, config.include):
        if live_only and loc.archived:
            continue
        description, body = "", ""
        try:
            doc = parse_skill_md(store.read_blob(entries[loc.skill_md][0]))
            description, body = doc.description or "", doc.body[:BODY_CHARS]
        except SkillParseError:
            pass  # found by its name alone; `validate` says what is wrong with it
        except KeyError:
            pass  # its object is not here (a fetch that did not bring it): by its name too
        skills.append(_Skill(identity(loc), loc.folder, description, body))
        if loc.archived:
            archived.add(loc.folder)
    return WordIndex(skills, frozenset(archived))
