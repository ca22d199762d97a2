"""References to folded skills rewritten to their umbrella (pure).

One function, used twice: the pass rewrites what other skills and reference files say of
each name a fold retires, and `merge` re-checks an umbrella commit by rewriting the file as it
was before and comparing: a commit may change a file outside its umbrella only into exactly
what this function makes of it. Names become the umbrella's name in the form they were written
in (`pdf-forms` -> `pdf-tools`, `skill:`, `/`, `$`, prose); a link into a folded folder is
pointed at the umbrella (its SKILL.md, or the support file where the fold re-homed it).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from gitcurator.references.links_into import FolderIndex, link_mentions
from gitcurator.references.mentions import (
    LINK,
    PROSE,
    is_prose_name,
    line_finder,
    name_mentions,
    non_overlapping,
)
from gitcurator.references.related import frontmatter_end
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER
from gitcurator.umbrella.paths import rehomed_path

# What a link destination outside `<...>` cannot hold as written (a space ends it).
_BARE_UNSAFE = re.compile(r"[\s()<>%]")


@dataclass(frozen=True, slots=True)
class Renames:
    """What one fold retires: folded names -> the umbrella's name, their folders -> their
    names, and the umbrella's folder (its SKILL.md is `<home>/SKILL.md`)."""

    names: Mapping[str, str]
    folders: Mapping[str, str]
    home: str

    def new_path(self, target: str, folder: str) -> str:
        """Where a path inside the folded `folder` is under the umbrella."""
        if target == folder:
            return self.home
        rel = target[len(folder) + 1 :]
        if rel in (SKILL_FILE, SKILL_FILE_LOWER):
            return f"{self.home}/{SKILL_FILE}"
        return f"{self.home}/{rehomed_path(self.folders[folder], rel)}"


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One reference rewritten: where, its kind, and the text before and after."""

    path: str
    line: int
    kind: str
    before: str
    after: str

    def to_json(self) -> dict[str, object]:
        """As run.json lists it under the fold."""
        return {
            "path": self.path,
            "line": self.line,
            "kind": self.kind,
            "from": self.before,
            "to": self.after,
        }

    def describe(self) -> str:
        """`AGENTS.md:3 (backticks): pdf-forms -> pdf-tools`."""
        return f"{self.path}:{self.line} ({self.kind}): {self.before} -> {self.after}"


def _as_written(kind: str, name: str, in_body: bool) -> str:
    """The umbrella's name in a mention's form: in a body's prose, a name that is no
    hyphenated word (`pdf`, `PDF Tools`) is put in backticks, or the reference would be a
    plain word after the rewrite, which no later scan counts (`refs`, the archive's check).
    Not in frontmatter: YAML refuses a value starting with a backtick."""
    if kind == PROSE and in_body and not is_prose_name(name):
        return f"`{name}`"
    return name


def rewrite_references(text: str, path: str, renames: Renames) -> tuple[str, list[Rewrite]]:
    """`text` (the file at `path`) with every reference to a folded name or into a folded
    folder pointed at the umbrella, and what was rewritten."""
    index = FolderIndex(renames.folders)
    here = posixpath.dirname(path)
    spans: dict[tuple[int, int], tuple[str, str]] = {}  # (start, end) -> (kind, new text)
    mentions = name_mentions(text, renames.names)
    body = frontmatter_end(text)
    for m in mentions:
        new_name = renames.names[m.name]
        spans[(m.start, m.end)] = (m.kind, _as_written(m.kind, new_name, m.start >= body))
    links = list(link_mentions(text, path, index))
    for m, target in links:
        folder = index.owner(target)
        assert folder is not None  # link_mentions yields links into the index's folders only
        raw = text[m.start : m.end]
        new = posixpath.relpath(renames.new_path(target, folder), here or ".")
        if not (m.start and text[m.start - 1] == "<"):
            new = _BARE_UNSAFE.sub(lambda c: quote(c.group()), new)
        spans[(m.start, m.end)] = (LINK, new + ("/" if raw.endswith("/") else ""))
    if not spans:
        return text, []
    line_of = line_finder(text)
    ordered = list(non_overlapping([*mentions, *(m for m, _ in links)]))
    out: list[str] = []
    done: list[Rewrite] = []
    at = 0
    for m in ordered:
        kind, new = spans[(m.start, m.end)]
        before = text[m.start : m.end]
        out += [text[at : m.start], new]
        at = m.end
        if new != before:
            done.append(Rewrite(path, line_of(m.start), kind, before, new))
    out.append(text[at:])
    return "".join(out), done
