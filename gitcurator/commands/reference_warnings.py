"""`validate`'s reference warnings, read from the work tree (references/findings decides)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from gitcurator.config import Config
from gitcurator.library import SkillsRepo
from gitcurator.references.findings import reference_findings
from gitcurator.references.scan import (
    REGULAR_MODES,
    Candidate,
    file_candidates,
    graph_from,
    sources_of,
)
from gitcurator.skills.check_memo import SkillMemo
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.document import find_skills
from gitcurator.skills.files import FileTree


def worktree_reference_findings(
    repo: SkillsRepo,
    tree: FileTree,
    only: Sequence[str] | None,
    changed: Collection[str] | None = None,
    config: Config | None = None,
    memo: SkillMemo | None = None,
) -> list[Finding]:
    """Warnings for references to archived, absorbed or absent skills; with `only`, those
    written in files under these paths; with `changed` (the staged change, for the hook),
    those written in the files it adds or edits, so a commit costs what it changes. With
    `memo`, a file's candidates are remembered by its blob id."""
    config = config or repo.config
    if memo is None:
        locations = find_skills(tree.paths, config.skills_dir, config.include)
    else:
        locations = memo.discover(tree.paths, config.skills_dir, config.include)[0]
    sources = sources_of(tree.paths, locations, config.reference_files)
    if only is not None:
        sources = [s for s in sources if any(_under(s.path, p) for p in only)]
    if changed is not None:
        sources = [s for s in sources if s.path in changed]
    if not sources:
        return []
    from gitcurator.telemetry import ledger  # only when there is something to resolve

    records = ledger.load_notes(repo.store).records
    aliases = {n: r.absorbed_into for n, r in records.items() if r.absorbed_into}

    def load(path: str) -> bytes | None:
        return None if path in tree.links else tree.load(path).data

    found: dict[str, list[Candidate] | str] = {}
    for src in sources:
        found[src.path] = _candidates(src.path, load, memo)
    graph = graph_from(sources, found, locations, aliases)
    return reference_findings(graph, locations, aliases)


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
