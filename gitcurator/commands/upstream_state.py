"""The load step of `outdated` and `update`: every followed skill with its three versions
(base: at the recorded source commit, ours: the library's folder, theirs: at the source's
tip), each source fetched once.

A skill taken under another name (`add --as`) carries its new `name:` in SKILL.md: base and
theirs get the same rename, so the name line is never a difference.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from gitcurator.commands.moves import Tip, tip_of
from gitcurator.commands.upstream_lock import lock_sources, resolve_lock_source
from gitcurator.commands.upstream_sources import hub_sources, library_skills
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.store import commits, source_fetch
from gitcurator.store.diff import Entry
from gitcurator.store.objects import LINK_MODE
from gitcurator.store.repository import Store
from gitcurator.upstream.provenance import Provenance
from gitcurator.upstream.rename import renamed_skill_md
from gitcurator.upstream.source_spec import shown_source


@dataclass(frozen=True, slots=True)
class Followed:
    """A skill taken from upstream, as the library, its base and its source hold it.

    `ours` is None when the library no longer has the skill live, `base` when the recorded
    source commit is not available, `theirs` when the source's tip has no such folder
    (removed upstream) or the source could not be read (`error` says why)."""

    name: str
    source: Provenance
    shown: str
    folder: str | None
    ours: Mapping[str, Entry] | None
    base: Mapping[str, Entry] | None
    theirs: Mapping[str, Entry] | None
    tip: str | None
    error: str | None = None
    from_lock: bool = False  # known from skills-lock.json only (no record yet)

    @property
    def moved(self) -> bool:
        """The source's ref points elsewhere than the recorded commit."""
        return self.tip is not None and self.tip != self.source.commit

    @property
    def changed_upstream(self) -> bool | None:
        """The skill's folder differs between the recorded commit and the tip."""
        if self.base is None or self.tip is None:
            return None
        return self.theirs is not None and dict(self.theirs) != dict(self.base)

    @property
    def edited_locally(self) -> bool | None:
        """The library's folder differs from the source's at the recorded commit."""
        if self.base is None or self.ours is None:
            return None
        return dict(self.ours) != dict(self.base)

    @property
    def removed_upstream(self) -> bool:
        """The source's tip no longer has the skill's folder."""
        return self.error is None and self.tip is not None and self.theirs is None


def load_followed(
    repo: SkillsRepo, names: Collection[str] = (), store_renames: bool = False
) -> tuple[Tip, list[Followed]]:
    """The default branch and every followed skill (or those `names`); each source fetched
    once. `store_renames` writes the renamed SKILL.md blobs (update needs their content)."""
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
    found = []
    for name in chosen:
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
        ours = _entries(store, library.tree, loc.folder) if live and loc else None
        fetched = tips[key]
        if name not in sources and not isinstance(fetched, str):
            try:
                prov = resolve_lock_source(repo, library, name, prov, fetched)
            except CuratorError as exc:
                fetched = str(exc)
        if isinstance(fetched, str):
            base = _at(store, prov.commit, prov.path, name, store_renames)
            found.append(
                Followed(
                    name,
                    prov,
                    shown,
                    loc.folder if loc else None,
                    ours,
                    base,
                    None,
                    None,
                    fetched,
                    name not in sources,
                )
            )
            continue
        theirs = _at(store, fetched.commit.decode(), prov.path, name, store_renames)
        base = _at(store, prov.commit, prov.path, name, store_renames)
        found.append(
            Followed(
                name,
                prov,
                shown,
                loc.folder if live and loc else None,
                ours,
                base,
                theirs,
                fetched.commit.decode(),
                None,
                name not in sources,
            )
        )
    return library, found


def _entries(store: Store, tree: bytes, folder: str) -> dict[str, Entry] | None:
    return source_fetch.folder_entries(store, tree, folder)  # type: ignore[arg-type]


def _at(
    store: Store, commit: str, path: str, name: str, store_renames: bool
) -> dict[str, Entry] | None:
    """The source's folder `path` at `commit`, renamed for `name` (None: no such commit or
    folder here)."""
    if not commit or not source_fetch.has_commit(store, commit):
        return None
    tree = commits.commit_tree_of(store, commits.commit_id(commit))
    entries = _entries(store, tree, path)
    if entries is None or posixpath.basename(path.strip("/")) == name:
        return entries
    md = "SKILL.md" if "SKILL.md" in entries else "skill.md" if "skill.md" in entries else None
    if md is not None and entries[md][1] != LINK_MODE:
        data = renamed_skill_md(store.read_blob(entries[md][0]), name)
        sha = source_fetch.store_blob(store, data) if store_renames else source_fetch.blob_id(data)
        entries[md] = (sha, entries[md][1])
    return entries
