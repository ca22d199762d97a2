"""The library scanned for references (pure: files come through a loader).

Sources are every Markdown file of a skill (SKILL.md and support `.md`/`.markdown` files) and
the reference files the config's `reference_files:` globs match outside skills, `.archive/`
and `.curator/`. A file that is not a regular file, over MAX_REFERENCE_BYTES, binary or not
UTF-8 is skipped with a note. A skill's reference to itself is no reference.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TypeVar

from gitcurator.frozen_rows import frozen_row
from gitcurator.references.globs import matches_any
from gitcurator.references.graph import Reference, ReferenceGraph, graph_of
from gitcurator.references.links_into import FolderIndex, link_paths, link_target
from gitcurator.references.mentions import LINK, candidate_mentions, known_name, line_finder
from gitcurator.skills.document import ARCHIVE_DIR, SkillLocation
from gitcurator.skills.identity import identity

MAX_REFERENCE_BYTES = 1024 * 1024
MARKDOWN_SUFFIXES = (".md", ".markdown")
RUNS_DIR = ".curator"

# path -> its bytes, or None when it is no regular file (a symlink, a submodule) or too large
# to load.
Loader = Callable[[str], bytes | None]


@frozen_row
class Source:
    """A file references are read from: a skill's Markdown or a reference file."""

    path: str
    source: str  # the skill's name, or the file's path
    from_skill: bool
    live: bool


def sources_of(
    paths: Iterable[str], locations: Sequence[SkillLocation], globs: Sequence[str]
) -> list[Source]:
    """Which of `paths` references are read from, and whose they are."""
    index = FolderIndex({loc.folder: identity(loc) for loc in locations})
    archived = {loc.folder for loc in locations if loc.archived}
    found: list[Source] = []
    for path in paths:
        folder = index.owner(path[: max(path.rfind("/"), 0)])
        if folder is not None:
            if path.lower().endswith(MARKDOWN_SUFFIXES):
                found.append(Source(path, index.folders[folder], True, folder not in archived))
        elif matches_any(path, globs) and not set_aside(path):
            found.append(Source(path, path, False, True))
    return found


def set_aside(path: str) -> bool:
    """Under `.archive/` or `.curator/`: never a reference file, whatever the globs say."""
    parts = path.split("/")
    return ARCHIVE_DIR in parts[:-1] or parts[0] == RUNS_DIR


def scan_references(
    sources: Iterable[Source],
    load: Loader,
    locations: Sequence[SkillLocation],
    aliases: Collection[str] = (),
) -> ReferenceGraph:
    """Every reference the `sources` make to a skill of `locations` (live or archived) or to
    one of `aliases` (absorbed names), and a note for each file left unread."""
    found = {src.path: file_candidates(load(src.path)) for src in sources}
    return graph_from(sources, found, locations, aliases)


# A place that may name a skill: (kind, the token or the link's path as found, line).
Candidate = tuple[str, str, int]


def file_candidates(data: bytes | None) -> list[Candidate] | str:
    """What a file may name (independent of the library, so it can be cached by content),
    or why it is skipped."""
    if data is None:
        return "not a regular file (a symlink is not followed) or too large"
    if len(data) > MAX_REFERENCE_BYTES:
        return f"{len(data)} bytes is over the {MAX_REFERENCE_BYTES} a reference file may have"
    if b"\0" in data:
        return "a binary file"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text"
    line_of = line_finder(text)
    found = [(m.kind, m.name, line_of(m.start)) for m in candidate_mentions(text)]
    found += [(LINK, raw, line_of(at)) for at, raw in link_paths(text)]
    return found


def graph_from(
    sources: Iterable[Source],
    candidates: Mapping[str, list[Candidate] | str],
    locations: Sequence[SkillLocation],
    aliases: Collection[str] = (),
) -> ReferenceGraph:
    """The graph of the sources' candidates (path -> candidates, or why it was skipped)."""
    index = FolderIndex({loc.folder: identity(loc) for loc in locations})
    names = set(index.folders.values()) | set(aliases)
    refs: list[Reference] = []
    notes: list[str] = []
    for src in sources:
        found = candidates[src.path]
        if isinstance(found, str):
            notes.append(f"{src.path}: skipped, {found}")
            continue
        own = src.source if src.from_skill else None
        here = src.path[: max(src.path.rfind("/"), 0)]
        for kind, token, line in found:
            if kind == LINK:
                hit = link_target(token, here, index, names)
                name = hit[0] if hit else ""
            else:
                name = known_name(kind, token, names, any_prefixed=True)
            if name and name != own:
                text = token if kind == LINK else name
                refs.append(
                    Reference(
                        src.source, src.from_skill, src.live, name, kind, src.path, line, text
                    )
                )
    return graph_of(refs, notes)


REGULAR_MODES = (0o100644, 0o100755)
BlobId = TypeVar("BlobId", bound=bytes)
# blob id (hex) -> its candidates or why it is skipped; see scan_entries.
CandidateCache = Mapping[str, "list[Candidate] | str"]


def scan_entries(
    entries: Mapping[str, tuple[BlobId, int]],
    read: Callable[[BlobId], bytes],
    locations: Sequence[SkillLocation],
    globs: Sequence[str],
    aliases: Collection[str] = (),
    cache: CandidateCache | None = None,
) -> tuple[ReferenceGraph, dict[str, list[Candidate] | str]]:
    """The references of a stored tree (`entries`: path -> (blob, mode); `read` loads a
    blob), and the candidates of every regular file read, by blob id: what `cache` holds
    for the next scan (content-addressed, so never stale: only changed files are read)."""
    sources = sources_of(entries, locations, globs)
    known = cache or {}
    fresh: dict[str, list[Candidate] | str] = {}
    found: dict[str, list[Candidate] | str] = {}
    for src in sources:
        blob, mode = entries[src.path]
        if mode not in REGULAR_MODES:
            found[src.path] = file_candidates(None)
            continue
        key = blob.decode()
        got = known.get(key)
        if got is None:
            got = file_candidates(read(blob))
        fresh[key] = found[src.path] = got
    return graph_from(sources, found, locations, aliases), fresh
