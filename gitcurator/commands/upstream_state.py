"""The load step of `outdated` and `update`: every followed skill with its three versions
(base: at the recorded source commit, ours: the library's folder, theirs: at the source's
tip), each source fetched once.

A skill taken under another name (`add --as`) carries its new `name:` in SKILL.md: base and
theirs get the same rename, so the name line is never a difference.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from dataclasses import dataclass

from gitcurator.commands.moves import Tip, tip_of
from gitcurator.commands.upstream_lock import lock_sources, resolve_lock_source
from gitcurator.commands.upstream_sources import hub_sources, library_skills
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.store import ObjectID, source_fetch
from gitcurator.store.diff import Entry
from gitcurator.store.objects import LINK_MODE
from gitcurator.store.repository import Store
from gitcurator.upstream.provenance import Provenance
from gitcurator.upstream.rename import renamed_skill_md
from gitcurator.upstream.source_spec import shown_source


@dataclass(frozen=True, slots=True)
class Folder:
    """A skill folder in some commit's tree: its tree id, and the name SKILL.md's `name:` is
    given when the skill was taken under another one (`add --as`; None: as it is)."""

    tree: ObjectID
    rename_to: str | None = None


@dataclass(frozen=True, slots=True)
class Followed:
    """A skill taken from upstream, as the library, its base and its source hold it.

    `ours` is None when the library no longer has the skill live, `base` when the recorded
    source commit (or its folder) is not available, `theirs` when the source's tip has no such
    folder (removed upstream) or the source could not be read (`error` says why)."""

    name: str
    source: Provenance
    shown: str
    folder: str | None
    ours: Folder | None
    base: Folder | None
    theirs: Folder | None
    tip: str | None
    error: str | None = None
    from_lock: bool = False  # known from skills-lock.json only (no record yet)
    edited_locally: bool | None = None  # the library's folder differs from base

    @property
    def moved(self) -> bool:
        """The source's ref points elsewhere than the recorded commit."""
        return self.tip is not None and self.tip != self.source.commit

    @property
    def changed_upstream(self) -> bool | None:
        """The skill's folder differs between the recorded commit and the tip."""
        if self.base is None or self.tip is None:
            return None
        return self.theirs is not None and self.theirs.tree != self.base.tree

    @property
    def removed_upstream(self) -> bool:
        """The source's tip no longer has the skill's folder."""
        return self.error is None and self.tip is not None and self.theirs is None


def load_followed(
    repo: SkillsRepo, names: Collection[str] = (), progress: Progress = NO_PROGRESS
) -> tuple[Tip, list[Followed]]:
    """The default branch and every followed skill (or those `names`); each source fetched
    once (`progress` hears of each skill). Folders are compared by tree id; their files are
    read only by `folder_entries`."""
    store = repo.store
    library = tip_of(repo)
    skills = library_skills(library.skills)
    sources = hub_sources(repo)
    locked = lock_sources(repo, library, sources)
    followed_names = sorted(sources.keys() | locked.keys())
    unknown = [n for n in names if n not in followed_names]
    if unknown:
        raise CuratorError(
            f"{', '.join(unknown)}: not added from upstream (no recorded source and no entry "
            "in skills-lock.json); `gitcurator outdated` lists the skills update follows"
        )
    chosen = [n for n in followed_names if not names or n in names]
    tips: dict[tuple[str, str | None], source_fetch.SourceTip | str] = {}
    parsed = source_fetch.TreeCache()
    found = []
    for name in counted(chosen, "fetching sources", progress):
        prov = sources.get(name) or locked[name]
        key = (prov.url, prov.ref)
        shown = shown_source(prov.url)
        if key not in tips:
            try:
                tips[key] = source_fetch.fetch_source(store, prov.url, prov.ref, shown)
            except CuratorError as exc:
                tips[key] = str(exc)
        loc = skills.get(name)
        live = loc is not None and not loc.archived
        fetched = tips[key]
        if name not in sources and not isinstance(fetched, str):
            try:
                prov = resolve_lock_source(repo, library, name, prov, fetched)
            except CuratorError as exc:
                fetched = str(exc)
        ours = None
        if live and loc is not None:
            mine = parsed.folder(store, library.tree, loc.folder)
            ours = Folder(mine) if mine is not None else None
        base = _at(store, prov.commit, prov.path, name, parsed)
        error = fetched if isinstance(fetched, str) else None
        tip = None if isinstance(fetched, str) else fetched.commit.decode()
        theirs = _at(store, tip, prov.path, name, parsed) if tip else None
        found.append(
            Followed(
                name,
                prov,
                shown,
                loc.folder if live and loc else None,
                ours,
                base,
                theirs,
                tip,
                error,
                name not in sources,
                _edited(store, ours, base),
            )
        )
    return library, found


def _edited(store: Store, ours: Folder | None, base: Folder | None) -> bool | None:
    if ours is None or base is None:
        return None
    if base.rename_to is None:
        return ours.tree != base.tree
    return folder_entries(store, ours) != folder_entries(store, base)


def _at(
    store: Store, commit: str | None, path: str, name: str, parsed: source_fetch.TreeCache
) -> Folder | None:
    """The source's folder `path` at `commit` (None: no such commit or folder here)."""
    tree = parsed.commit_tree(store, commit) if commit else None
    if tree is None:
        return None
    folder = parsed.folder(store, tree, path)
    if folder is None:
        return None
    renamed = posixpath.basename(path.strip("/")) != name
    return Folder(folder, name if renamed else None)


def folder_entries(store: Store, folder: Folder, store_renames: bool = False) -> dict[str, Entry]:
    """The folder's entries (paths relative to it), SKILL.md renamed as `rename_to` says;
    `store_renames` writes the renamed blob (update needs its content, a comparison only its id)."""
    entries = source_fetch.folder_entries(store, folder.tree, "") or {}
    md = "SKILL.md" if "SKILL.md" in entries else "skill.md" if "skill.md" in entries else None
    if folder.rename_to is not None and md is not None and entries[md][1] != LINK_MODE:
        data = renamed_skill_md(store.read_blob(entries[md][0]), folder.rename_to)
        sha = source_fetch.store_blob(store, data) if store_renames else source_fetch.blob_id(data)
        entries[md] = (sha, entries[md][1])
    return entries
