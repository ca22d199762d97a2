"""One skill's findings remembered by the content of its folder, so `validate` does not check
an unchanged skill again (pure: the cache file is read and written by commands/validate_cache).

What a skill's checks report follows from its folder's files (their paths, modes and blob ids),
the folder's own path, `strict`, and the rules themselves. The key of a remembered result is
a digest of the first four; the rules are named by RULES_VERSION, which the cache file carries
with gitcurator's version and a digest of the config: RAISE RULES_VERSION WHENEVER A CHECK OF
ONE SKILL CHANGES WHAT IT REPORTS (a new rule, a reworded message, a new limit, a parser
that reads YAML differently), or a cached result of the old rules would be shown. No test
can catch a forgotten raise; a changed gitcurator version drops the cache anyway.

The same holds for what follows from the listing alone (skills/check_memo.Layout: which
folders are skills, which files are reference sources, each source file's reference
warnings): raise RULES_VERSION too when discover_skills, sources_of or the reference rules
change what they find.

A skill whose findings looked outside its folder (a symlink, a link to a file of another
skill or of the repository) is never remembered: it is checked on every run. The checks
across the library (duplicate names, references, nested repositories) are never cached as
findings: they are worked out each run from the names remembered here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gitcurator.skills.check_skill import Finding
from gitcurator.skills.document import SkillLocation, discover_skills

RULES_VERSION = 1

# path -> (blob id as hex, mode): every file of the tree being checked.
Contents = Mapping[str, tuple[str, int]]
# A skill's findings, in the order its checks gave them, and its name (check_skill.skill_name).
Summary = tuple[tuple[Finding, ...], str]


@dataclass(slots=True)
class SkillMemo:
    """Results remembered from earlier runs (`known`, `names`) and those this run used or
    found (`fresh`, `fresh_names`: what the next cache file holds)."""

    contents: Contents
    known: Mapping[str, Summary] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    fresh: dict[str, Summary] = field(default_factory=dict)
    fresh_names: dict[str, str] = field(default_factory=dict)
    # A file's reference candidates by blob id (references/scan.file_candidates).
    known_candidates: Mapping[str, list[tuple[str, str, int]] | str] = field(default_factory=dict)
    fresh_candidates: dict[str, list[tuple[str, str, int]] | str] = field(default_factory=dict)
    # What followed from the listing alone, from the run before: see Layout.
    known_layout: Layout | None = None
    fresh_layout: Layout | None = None
    layouts: dict[
        tuple[str, tuple[str, ...]],
        tuple[Sequence[str], tuple[list[SkillLocation], list[str]]],
    ] = field(default_factory=dict)

    def discover(
        self, paths: Sequence[str], skills_dir: str, include: Sequence[str]
    ) -> tuple[list[SkillLocation], list[str]]:
        """document.discover_skills, worked out once per run for the same listing (the
        checks and the reference scan both ask; at 10,000 skills each ask costs 0.1 s)."""
        key = (skills_dir, tuple(include))
        seen = self.layouts.get(key)
        if seen is not None and seen[0] is paths:
            return seen[1]
        digest = listing_digest(paths, skills_dir, include)
        old = self.known_layout
        if old is not None and old.digest == digest:
            found = (list(old.locations), list(old.hidden))
        else:
            found = discover_skills(paths, skills_dir, include)
        self.layouts[key] = (paths, found)
        if self.fresh_layout is None or self.fresh_layout.digest != digest:
            self.fresh_layout = Layout(digest, tuple(found[0]), tuple(found[1]))
        return found

    def layout_for(self, paths: Sequence[str], skills_dir: str, include: Sequence[str]) -> Layout:
        """This run's Layout of the listing (discover() first found its skills)."""
        self.discover(paths, skills_dir, include)
        assert self.fresh_layout is not None
        return self.fresh_layout

    def remembered_layout(self, layout: Layout) -> Layout | None:
        """The run before's Layout, if it was of the same listing."""
        old = self.known_layout
        return old if old is not None and old.digest == layout.digest else None

    def key(self, loc: SkillLocation, paths: Sequence[str], strict: bool) -> str | None:
        """The digest of everything one skill's findings depend on (None when a file's
        content is unknown: then it is checked and not remembered)."""
        digest = hashlib.sha1(_text(f"{int(strict)}\0{loc.folder}\0{loc.skill_md}\n"))
        for path in paths:
            got = self.contents.get(path)
            if got is None:
                return None
            digest.update(_text(f"{path}\0{got[1]:o}\0{got[0]}\n"))
        return digest.hexdigest()

    def recall(self, key: str | None) -> Summary | None:
        """The remembered result for `key`, kept for the next cache file."""
        if key is None:
            return None
        hit = self.known.get(key)
        if hit is not None:
            self.fresh[key] = hit
        return hit

    def name_key(self, loc: SkillLocation) -> str | None:
        """Where a skill's name is remembered: its SKILL.md's path, blob and mode."""
        got = self.contents.get(loc.skill_md)
        return None if got is None else f"{loc.skill_md}\0{got[0]}\0{got[1]:o}"

    def recall_name(self, loc: SkillLocation) -> str | None:
        """The remembered name of a skill whose SKILL.md did not change."""
        key = self.name_key(loc)
        name = None if key is None else self.names.get(key)
        if key is not None and name is not None:
            self.fresh_names[key] = name
        return name

    def remember_name(self, loc: SkillLocation, name: str) -> None:
        """Keep a skill's name for the next run."""
        key = self.name_key(loc)
        if key is not None:
            self.fresh_names[key] = name


@dataclass(slots=True)
class Layout:
    """What follows from the listing alone (every path, skills_dir, include): the skills and
    hidden SKILL.md files, the reference sources and, for one set of absorbed names and
    reference globs (`refs_key`), each source file's reference warnings by its content."""

    digest: str
    locations: tuple[SkillLocation, ...]
    hidden: tuple[str, ...]
    sources: tuple[tuple[str, str, bool, bool], ...] | None = None  # scan.Source's fields
    refs_key: str = ""
    refs: dict[str, tuple[Finding, ...]] = field(default_factory=dict)


def listing_digest(paths: Sequence[str], skills_dir: str, include: Sequence[str]) -> str:
    """The digest a Layout is kept by."""
    digest = hashlib.sha1(_text(f"{skills_dir}\0{list(include)!r}\n"))
    digest.update(_text("\0".join(paths)))
    return digest.hexdigest()


def _text(text: str) -> bytes:
    # A path that is not UTF-8 arrives with surrogate escapes; it is still one path.
    return text.encode("utf-8", "surrogateescape")
