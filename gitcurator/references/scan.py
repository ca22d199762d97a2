"""The library scanned for references (pure: files come through a loader).

Sources are every Markdown file of a skill (SKILL.md and support `.md`/`.markdown` files) and
the reference files the config's `reference_files:` globs match outside skills, `.archive/`
and `.curator/`. A file that is not a regular file, over MAX_REFERENCE_BYTES, binary or not
UTF-8 is skipped with a note. A skill's reference to itself is no reference.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from gitcurator.references.globs import matches_any
from gitcurator.references.graph import Reference, ReferenceGraph, graph_of
from gitcurator.references.links_into import FolderIndex, link_mentions
from gitcurator.references.mentions import line_finder, name_mentions
from gitcurator.skills.document import ARCHIVE_DIR, SkillLocation
from gitcurator.skills.identity import identity

MAX_REFERENCE_BYTES = 1024 * 1024
MARKDOWN_SUFFIXES = (".md", ".markdown")
RUNS_DIR = ".curator"

# path -> its bytes, or None when it is no regular file (a symlink, a submodule) or too large
# to load.
Loader = Callable[[str], bytes | None]


@dataclass(frozen=True, slots=True)
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
        folder = index.owner(posixpath.dirname(path))
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
    index = FolderIndex({loc.folder: identity(loc) for loc in locations})
    names = set(index.folders.values()) | set(aliases)
    refs: list[Reference] = []
    notes: list[str] = []
    for src in sources:
        text, note = read_text(src.path, load)
        if text is None:
            notes.append(note)
            continue
        refs.extend(references_in(text, src, names, index))
    return graph_of(refs, notes)


def read_text(path: str, load: Loader) -> tuple[str | None, str]:
    """A source's text, or None and the note saying why it is skipped."""
    data = load(path)
    if data is None:
        return None, f"{path}: skipped, not a regular file (a symlink is not followed) or too large"
    if len(data) > MAX_REFERENCE_BYTES:
        return None, (
            f"{path}: skipped, {len(data)} bytes is over the {MAX_REFERENCE_BYTES} a file "
            "read for references may have"
        )
    if b"\0" in data:
        return None, f"{path}: skipped, a binary file"
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError:
        return None, f"{path}: skipped, not UTF-8 text"


def references_in(
    text: str, src: Source, names: Collection[str], index: FolderIndex
) -> list[Reference]:
    """The references of one source's text (its own skill left out)."""
    line_of = line_finder(text)
    found = [(m, text[m.start : m.end]) for m in name_mentions(text, names, any_prefixed=True)]
    links = link_mentions(text, src.path, index, names)
    found += [(m, text[m.start : m.end]) for m, _ in links]
    own = src.source if src.from_skill else None
    return [
        Reference(
            src.source, src.from_skill, src.live, m.name, m.kind, src.path, line_of(m.start), t
        )
        for m, t in found
        if m.name != own
    ]


REGULAR_MODES = (0o100644, 0o100755)
BlobId = TypeVar("BlobId", bound=bytes)


def scan_entries(
    entries: Mapping[str, tuple[BlobId, int]],
    read: Callable[[BlobId], bytes],
    locations: Sequence[SkillLocation],
    globs: Sequence[str],
    aliases: Collection[str] = (),
) -> ReferenceGraph:
    """The references of a stored tree: `entries` maps each path to (blob, mode), `read`
    loads a blob."""

    def load(path: str) -> bytes | None:
        blob, mode = entries[path]
        return read(blob) if mode in REGULAR_MODES else None

    return scan_references(sources_of(entries, locations, globs), load, locations, aliases)
