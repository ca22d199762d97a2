"""`validate`'s reference warnings, read from the work tree (references/findings decides)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from gitcurator.config import Config
from gitcurator.library import SkillsRepo
from gitcurator.references.findings import reference_findings
from gitcurator.references.scan import scan_references, sources_of
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.document import find_skills
from gitcurator.skills.files import FileTree
from gitcurator.telemetry import ledger


def worktree_reference_findings(
    repo: SkillsRepo,
    tree: FileTree,
    only: Sequence[str] | None,
    changed: Collection[str] | None = None,
    config: Config | None = None,
) -> list[Finding]:
    """Warnings for references to archived, absorbed or absent skills; with `only`, those
    written in files under these paths; with `changed` (the staged change, for the hook),
    those written in the files it adds or edits, so a commit costs what it changes."""
    config = config or repo.config
    locations = find_skills(tree.paths, config.skills_dir, config.include)
    sources = sources_of(tree.paths, locations, config.reference_files)
    if only is not None:
        sources = [s for s in sources if any(_under(s.path, p) for p in only)]
    if changed is not None:
        sources = [s for s in sources if s.path in changed]
    if not sources:
        return []
    records = ledger.load_notes(repo.store).records
    aliases = {n: r.absorbed_into for n, r in records.items() if r.absorbed_into}

    def load(path: str) -> bytes | None:
        return None if path in tree.links else tree.load(path).data

    graph = scan_references(sources, load, locations, aliases)
    return reference_findings(graph, locations, aliases)


def _under(path: str, folder: str) -> bool:
    return not folder or path == folder or path.startswith(folder.rstrip("/") + "/")
