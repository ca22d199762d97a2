"""`gitcurator add SOURCE [NAME...]`: copy skills from any git source into the library.

Without NAME it lists what the source offers. With names: the source is fetched into the
object store (kept under a side ref: the base of every later `update`), the folders are copied
whole with their modes into one commit on the default branch, validated first, and each
skill's record says origin `hub` and where it came from. Refusals change nothing.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.commands.moves import commit_move, library_prefix, tip_of
from gitcurator.commands.upstream_lock import relock_folders
from gitcurator.commands.upstream_sources import (
    Offered,
    library_skills,
    offered_skills,
    record_sources,
    refuse_unsafe,
    skill_entries,
    source_url,
    validate_folders,
)
from gitcurator.errors import CuratorError, UsageError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Result
from gitcurator.progress import NO_PROGRESS, Progress, counted, step
from gitcurator.render import name_list, one_line, plural
from gitcurator.skills.identity import is_skill_name, not_a_name_reason
from gitcurator.store import source_fetch, trees
from gitcurator.store.diff import Entry
from gitcurator.store.objects import LINK_MODE
from gitcurator.store.repository import Store
from gitcurator.upstream.provenance import Provenance, source_trailer
from gitcurator.upstream.rename import renamed_skill_md
from gitcurator.upstream.source_spec import is_shorthand, shown_source


def add(
    start: Path,
    source: str,
    names: Sequence[str],
    path: str = "",
    ref: str | None = None,
    as_name: str | None = None,
    progress: Progress = NO_PROGRESS,
) -> Result:
    """List the skills of SOURCE, or copy the named ones into the library as one commit;
    `progress` hears the fetch, the copy of each skill and the writing."""
    if as_name is not None and len(names) != 1:
        raise UsageError("--as renames one skill: give exactly one NAME with it")
    url = source_url(source)
    shown = shown_source(url)
    with open_repo(start) as repo:
        store = repo.store
        fresh = not source_fetch.is_fetched(store, url, ref)
        try:
            with step(f"fetching {shown}", progress):
                tip = source_fetch.fetch_source(store, url, ref, shown)
        except CuratorError as exc:
            if is_shorthand(source) and Path(source).exists():
                raise CuratorError(
                    f"{exc} ({source} is read as the GitHub repository; for the folder of that "
                    f"name here, write ./{source})"
                ) from None
            raise
        try:
            offered = offered_skills(store, tip.tree, path, shown)
            if not names:
                if fresh:
                    source_fetch.forget_source(store, url, ref)
                return _listing(shown, source, tip.commit.decode(), offered)
            return _add(repo, source, url, shown, tip, offered, names, ref, as_name, progress)
        except CuratorError:
            # Nothing was added: what was fetched for it is not kept reachable either.
            if fresh:
                source_fetch.forget_source(store, url, ref)
            raise


def _add(
    repo: SkillsRepo,
    source: str,
    url: str,
    shown: str,
    tip: source_fetch.SourceTip,
    offered: list[Offered],
    names: Sequence[str],
    ref: str | None,
    as_name: str | None,
    progress: Progress,
) -> Result:
    store = repo.store
    chosen = _choose(offered, names, shown)
    library = tip_of(repo)
    taken = library_skills(library.skills)
    prefix = library_prefix(repo)
    occupied = _occupied(store.tree_entries(library.tree))
    edits: list[tuple[str, Entry | None]] = []
    added: dict[str, Provenance] = {}
    for name, offer in counted(list(chosen.items()), "copying skills", progress):
        target = as_name or name
        if not is_skill_name(target):
            raise UsageError(f"--as {target!r} {not_a_name_reason(target)}")
        if target in taken:
            raise CuratorError(
                f"the library already has a skill named {target} ({taken[target].folder}); "
                f"nothing was changed. Add it under another name: `gitcurator add {source} "
                f"{name} --as NEW-NAME`"
            )
        in_the_way = _in_the_way(occupied, prefix + target)
        if in_the_way:
            raise CuratorError(
                f"the library already has {in_the_way} where {prefix + target} would go; nothing "
                "was changed (a copy is never mixed into other files, and macOS and Windows "
                "hold names that differ only in case as one). Move it, or add the skill under "
                f"another name: `gitcurator add {source} {name} --as NEW-NAME`"
            )
        entries = skill_entries(store, tip.tree, offer.folder) or {}
        own = trees.subtree_id(store, tip.tree, offer.folder) if offer.folder else tip.tree
        refuse_unsafe(store, shown, offer.folder, entries, own)
        folder = prefix + target
        for rel, entry in sorted(entries.items()):
            if target != name and rel == posixpath.basename(_skill_md(entries)):
                entry = _renamed(store, entry, target)
            edits.append((f"{folder}/{rel}", entry))
        added[target] = Provenance(url, offer.folder, ref, tip.commit.decode())
    new_tree = trees.replace_paths(store, library.tree, edits)
    folders = [prefix + t for t in added]
    new_tree = relock_folders(repo, new_tree, folders)
    validate_folders(repo, new_tree, folders, f"in the skills from {shown}; nothing was changed")
    message = _message(shown, tip.commit.decode(), added)
    with step("writing the commit", progress):
        moved = commit_move(repo, library, new_tree, message, "add skills", folders)
    source_fetch.keep_commit(store, url, ref, tip.commit)
    notes = record_sources(repo, added, f"origin hub: {', '.join(sorted(added))}", adding=True)
    lines = [
        f"added {plural(len(added), 'skill')} from {shown} ({tip.commit.decode()[:7]}): "
        f"{name_list(sorted(added), 10)}",
        f"commit {moved.commit[:12]}; check for upstream changes with `gitcurator outdated`",
    ]
    doc = {
        "source": url,
        "commit": tip.commit.decode(),
        "added": [
            {"name": n, "path": p.path, "ref": p.ref, "folder": prefix + n}
            for n, p in sorted(added.items())
        ],
        "library_commit": moved.commit,
    }
    return Result(text="\n".join(lines), doc=doc, notes=(*moved.notes, *notes))


def _listing(shown: str, source: str, commit: str, offered: list[Offered]) -> Result:
    if not offered:
        text = f"{shown} ({commit[:7]}) offers no skills (no folder holds a SKILL.md)"
    else:
        # A folder name may hold a newline or a tab: one row per skill all the same.
        names = [one_line(o.name) for o in offered]
        width = min(max(len(n) for n in names), 40)
        rows = [
            f"{n:<{width}}  {one_line(o.description[:100])}".rstrip()
            for n, o in zip(names, offered, strict=True)
        ]
        text = "\n".join(
            [
                f"{shown} ({commit[:7]}) offers {plural(len(offered), 'skill')}:",
                *rows,
                f"add some with `gitcurator add {source} NAME...`",
            ]
        )
    doc = {
        "source": shown,
        "commit": commit,
        "skills": [
            {"name": o.name, "path": o.folder, "description": o.description} for o in offered
        ],
    }
    return Result(text=text, doc=doc)


def _choose(offered: list[Offered], names: Sequence[str], shown: str) -> dict[str, Offered]:
    by_name: dict[str, list[Offered]] = {}
    for o in offered:
        by_name.setdefault(o.name, []).append(o)
    missing = [n for n in names if n not in by_name]
    if missing:
        raise CuratorError(
            f"{shown} offers no skill named {', '.join(missing)}; nothing was changed "
            f"(`gitcurator add SOURCE` lists what it offers)"
        )
    twice = [n for n in names if len(by_name[n]) > 1]
    if twice:
        where = ", ".join(o.folder for o in by_name[twice[0]])
        raise CuratorError(
            f"{shown} has more than one skill named {twice[0]} ({where}); pick one with --path"
        )
    return {n: by_name[n][0] for n in dict.fromkeys(names)}


def _occupied(entries: dict[str, Entry]) -> dict[str, str]:
    """Every path of the library's tree, file or folder, case folded (macOS and Windows hold
    `PDF` and `pdf` as one) -> what it is (for messages)."""
    found = {}
    for path in entries:
        found[path.casefold()] = f"a file {path}"
        parts = path.split("/")
        for k in range(1, len(parts)):
            folder = "/".join(parts[:k])
            found.setdefault(folder.casefold(), f"a folder {folder}/")
    return found


def _in_the_way(occupied: dict[str, str], folder: str) -> str | None:
    """What already stands at `folder`, or as a file where one of its parents must be."""
    if folder.casefold() in occupied:
        return occupied[folder.casefold()]
    parts = folder.split("/")
    for k in range(1, len(parts)):
        hit = occupied.get("/".join(parts[:k]).casefold(), "")
        if hit.startswith("a file"):
            return hit
    return None


def _skill_md(entries: dict[str, Entry]) -> str:
    return "SKILL.md" if "SKILL.md" in entries else "skill.md"


def _renamed(store: Store, entry: Entry, name: str) -> Entry:
    """SKILL.md with its `name:` made the new folder's (the spec wants them equal)."""
    sha, mode = entry
    if mode == LINK_MODE:
        return entry
    data = renamed_skill_md(store.read_blob(sha), name)
    return source_fetch.store_blob(store, data), mode


def _message(shown: str, commit: str, added: dict[str, Provenance]) -> str:
    names = sorted(added)
    subject = f"add: {plural(len(names), 'skill')} from {shown} ({commit[:7]})"
    body = f"Copied from {shown} at {commit}: {', '.join(names)}."
    block = trailers.trailer_block(
        [(trailers.SKILL_ADDED, n) for n in names]
        + [(trailers.SKILL_SOURCE, source_trailer(n, added[n])) for n in names]
    )
    return f"{subject}\n\n{body}\n\n{block}\n"
