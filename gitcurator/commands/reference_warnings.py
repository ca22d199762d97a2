"""`validate`'s reference warnings, read from the work tree (references/findings decides)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from gitcurator.config import Config
from gitcurator.library import SkillsRepo
from gitcurator.references.findings import reference_findings
from gitcurator.references.scan import (
    REGULAR_MODES,
    Candidate,
    Source,
    file_candidates,
    graph_from,
    sources_of,
)
from gitcurator.skills.check_memo import Layout, SkillMemo
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.skills.files import FileTree
from gitcurator.telemetry.records import absorbed_of


@dataclass(slots=True)
class KeptWarnings:
    """What a whole library's warnings were found with, for commands/validate_delta: each
    source file's warnings (those with none left out) and the absorbed names."""

    by_source: dict[str, tuple[Finding, ...]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)


def worktree_reference_findings(
    repo: SkillsRepo,
    tree: FileTree,
    only: Sequence[str] | None,
    changed: Collection[str] | None = None,
    config: Config | None = None,
    memo: SkillMemo | None = None,
    kept: KeptWarnings | None = None,
) -> list[Finding]:
    """Warnings for references to archived, absorbed or absent skills; with `only`, those
    written in files under these paths; with `changed` (the staged change, for the hook),
    those written in the files it adds or edits, so a commit costs what it changes. With
    `memo`, a file's candidates are remembered by its blob id; `kept` hears each source
    file's warnings and the absorbed names (with `memo`)."""
    config = config or repo.config
    layout = old = None
    if memo is None:
        locations = find_skills(tree.paths, config.skills_dir, config.include)
        sources = sources_of(tree.paths, locations, config.reference_files)
    else:
        locations = memo.discover(tree.paths, config.skills_dir, config.include)[0]
        layout = memo.layout_for(tree.paths, config.skills_dir, config.include)
        old = memo.remembered_layout(layout)
        sources = _sources(tree, locations, config, layout, old)
    if only is not None:
        sources = [s for s in sources if any(_under(s.path, p) for p in only)]
    if changed is not None:
        sources = [s for s in sources if s.path in changed]
    if not sources:
        return []
    from gitcurator.telemetry import notes_records  # only when there is something to resolve

    records = notes_records.load_notes(repo.store).records
    aliases = absorbed_of(records)
    if kept is not None:
        kept.aliases = aliases

    def load(path: str) -> bytes | None:
        return None if path in tree.links else tree.load(path).data

    if memo is None or layout is None:
        found = {src.path: _candidates(src.path, load, memo) for src in sources}
        return reference_findings(
            graph_from(sources, found, locations, aliases), locations, aliases
        )
    by_source = _by_source(sources, load, locations, aliases, config, memo, layout, old)
    if kept is not None:
        kept.by_source = {path: mine for path, mine in by_source.items() if mine}
    return [f for path in sorted(by_source) for f in by_source[path]]


def _sources(
    tree: FileTree,
    locations: Sequence[SkillLocation],
    config: Config,
    layout: Layout,
    old: Layout | None,
) -> list[Source]:
    """sources_of, or the run before's sources when the listing is the same."""
    if layout.sources is None:
        if old is not None and old.sources is not None:
            layout.sources = old.sources
        else:
            found = sources_of(tree.paths, locations, config.reference_files)
            layout.sources = tuple((s.path, s.source, s.from_skill, s.live) for s in found)
    return [Source(*fields) for fields in layout.sources]


def _by_source(
    sources: Sequence[Source],
    load: Callable[[str], bytes | None],
    locations: Sequence[SkillLocation],
    aliases: Mapping[str, str],
    config: Config,
    memo: SkillMemo,
    layout: Layout,
    old: Layout | None,
) -> dict[str, tuple[Finding, ...]]:
    """The warnings source file by source file: a file whose content did not change since a
    run over the same listing (the same skills, names and folders), with the same absorbed
    names and globs, has the warnings it had; the others are scanned. A warning is written in
    its source file, and the graph orders them by file, so joining them by path keeps the
    order."""
    layout.refs_key = repr((sorted(aliases.items()), list(config.reference_files)))
    known = old.refs if old is not None and old.refs_key == layout.refs_key else {}
    found: dict[str, tuple[Finding, ...]] = {}
    todo = []
    for src in sources:
        key = _content_key(memo, src.path)
        hit = known.get(key) if key is not None else None
        if hit is None:
            todo.append(src)
        else:
            layout.refs[str(key)] = found[src.path] = hit
    if todo:
        candidates = {src.path: _candidates(src.path, load, memo) for src in todo}
        for path, mine in source_warnings(todo, candidates, locations, aliases).items():
            found[path] = mine
            key = _content_key(memo, path)  # after reading: the content that was scanned
            if key is not None:
                layout.refs[key] = mine
    return found


def source_warnings(
    sources: Sequence[Source],
    candidates: Mapping[str, list[Candidate] | str],
    locations: Sequence[SkillLocation],
    aliases: Mapping[str, str],
) -> dict[str, tuple[Finding, ...]]:
    """Each of `sources`' warnings (path -> its own, in the graph's order), given each one's
    candidates: what one file holds does not depend on any other file's content."""
    fresh = reference_findings(
        graph_from(sources, candidates, locations, aliases), locations, aliases
    )
    return {src.path: tuple(f for f in fresh if f.path == src.path) for src in sources}


def _content_key(memo: SkillMemo, path: str) -> str | None:
    got = memo.contents.get(path)
    return None if got is None else f"{path}\0{got[0]}\0{got[1]:o}"


def _candidates(
    path: str, load: Callable[[str], bytes | None], memo: SkillMemo | None
) -> list[Candidate] | str:
    """references/scan.file_candidates of one file, remembered by blob id (content-addressed:
    the same blob has the same candidates)."""
    got = memo.contents.get(path) if memo else None
    if memo is None or got is None or got[1] not in REGULAR_MODES:
        return file_candidates(load(path))
    hit = memo.known_candidates.get(got[0])
    if hit is None:
        data = load(path)
        got = memo.contents.get(path)  # the id of the bytes read (the file may have changed)
        hit = file_candidates(data)
        if got is None or got[1] not in REGULAR_MODES:
            return hit
    memo.fresh_candidates[got[0]] = hit
    return hit


def _under(path: str, folder: str) -> bool:
    return not folder or path == folder or path.startswith(folder.rstrip("/") + "/")
