"""An umbrella commit of a curator branch judged again by the guards the pass applied (pure).

`branch_check` makes sure an umbrella commit has the shape of one (folded folders moved whole
into `.archive/`, one SKILL.md written, files only added). Shape is not enough: a crafted
commit of that shape could fold a person's skill, or name a live skill as its umbrella and
rewrite its SKILL.md. So the commit's content is checked as `umbrella.proposal_checks` checked
the plan: every skill it folds, and the skill it rewrites as umbrella, is one the pass may
change (`umbrella.eligibility`, judged on the default branch now); a new umbrella takes no
existing skill's name or folder; every support file of a folded skill is re-homed under the
umbrella whole (same blob and mode; Markdown may be re-linked); and the umbrella keeps
`min_retention` of each folded skill's content (`umbrella.retention`). A file outside the
umbrella that the commit edits in place is accepted only as the fold's reference rewrite: a
live skill's Markdown or a reference file whose new content is exactly what
`references.rewrite` makes of its old content. Blobs come through `UmbrellaGuards.load`, so
the module does no I/O of its own.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gitcurator.references.globs import DEFAULT_REFERENCE_FILES, matches_any
from gitcurator.references.links_into import FolderIndex
from gitcurator.references.rewrite import Renames, rewrite_references
from gitcurator.references.scan import MARKDOWN_SUFFIXES, set_aside
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER, SkillParseError, parse_skill_md
from gitcurator.umbrella.proposal_checks import name_key
from gitcurator.umbrella.retention import kept_units, retained

Entry = tuple[bytes, int]  # a file in a tree: (blob id, mode)
_TEXT_SUFFIXES = (".md", ".markdown", ".txt")


@dataclass(frozen=True, slots=True)
class UmbrellaGuards:
    """What the pass's guards judge by, read from the default branch by the shell."""

    ineligible: Mapping[str, str]  # skill name -> why a pass must leave it alone
    known: frozenset[str]  # every skill name of the default branch (live and archived)
    min_retention: float
    load: Callable[[bytes], bytes]  # a blob's content by id
    reference_files: tuple[str, ...] = DEFAULT_REFERENCE_FILES  # the config's globs


@dataclass(frozen=True, slots=True)
class UmbrellaCommit:
    """One umbrella commit as `branch_check` read it: `moved` folded folder -> its folder
    under .archive/, `home` the umbrella's folder, `skills_before` every live skill folder of
    the commit's parent -> its name."""

    short: str
    name: str
    home: str
    files: Mapping[str, tuple[Entry | None, Entry | None]]  # path -> (before, after)
    moved: Mapping[str, str]
    skills_before: Mapping[str, str]
    rewritten: tuple[str, ...] = ()  # files outside the umbrella edited in place


def umbrella_guard_problem(c: UmbrellaCommit, guards: UmbrellaGuards) -> str | None:
    """Why the pass's guards would have refused this umbrella (naming the commit and the
    path), or None."""
    return (
        _home_problem(c, guards)
        or _folded_problem(c, guards)
        or _rehome_problem(c)
        or _retention_problem(c, guards)
        or _rewrite_problem(c, guards)
    )


def _rewrite_problem(c: UmbrellaCommit, guards: UmbrellaGuards) -> str | None:
    """The first file edited outside the umbrella that is not the fold's reference rewrite."""
    if not c.rewritten:
        return None
    renames = Renames(
        names={posixpath.basename(folder): c.name for folder in c.moved},
        folders={folder: posixpath.basename(folder) for folder in c.moved},
        home=c.home,
    )
    live = FolderIndex({f: n for f, n in c.skills_before.items() if f not in c.moved})
    for path in c.rewritten:
        old, new = c.files[path]
        what = f"commit {c.short} edits {path} outside umbrella {c.home}"
        if old is None or new is None or not _may_refer(path, live, guards):
            return f"{what}, which is neither a live skill's Markdown nor a reference file"
        try:
            before = guards.load(old[0]).decode("utf-8")
        except UnicodeDecodeError:
            return f"{what}, which is not text"
        expected = rewrite_references(before, path, renames)[0].encode()
        if expected == before.encode() or guards.load(new[0]) != expected:
            return (
                f"{what}, and not only to rewrite references to what it folds "
                f"(a fold changes nothing else outside its umbrella)"
            )
    return None


def _may_refer(path: str, live: FolderIndex, guards: UmbrellaGuards) -> bool:
    """A live skill's Markdown file, or a reference file: where a fold rewrites references."""
    if set_aside(path):
        return False
    if live.owner(posixpath.dirname(path)) is not None:
        return path.lower().endswith(MARKDOWN_SUFFIXES)
    return matches_any(path, guards.reference_files)


def _home_problem(c: UmbrellaCommit, guards: UmbrellaGuards) -> str | None:
    skill_md = _skill_md(c.home, c.files)
    if posixpath.basename(c.home) != c.name:
        return f"commit {c.short} writes umbrella {c.name} as {skill_md}, another folder's name"
    host = c.skills_before.get(c.home)
    if host is not None:
        # Folding into an existing sibling rewrites its SKILL.md: only one the pass may change.
        why = _why_not(host, guards)
        if why is not None:
            return f"commit {c.short} rewrites {skill_md}, but {host} may not be changed: {why}"
        return None
    for folder, other in sorted(c.skills_before.items()):
        if folder in c.moved:
            continue
        if c.home.startswith(folder + "/"):
            return f"commit {c.short} writes {skill_md} inside the live skill {folder}"
        if name_key(other) == name_key(c.name):
            return (
                f"commit {c.short} writes umbrella {c.name} at {skill_md}, but the live skill "
                f"{folder} already has that name"
            )
    return None


def _folded_problem(c: UmbrellaCommit, guards: UmbrellaGuards) -> str | None:
    for folder in sorted(c.moved):
        name = c.skills_before.get(folder, posixpath.basename(folder))
        why = _why_not(name, guards)
        if why is not None:
            return f"commit {c.short} folds {folder}, which a pass may not fold: {why}"
    return None


def _why_not(name: str, guards: UmbrellaGuards) -> str | None:
    if name not in guards.known:
        return "it is no skill of the default branch"
    return guards.ineligible.get(name)


def _rehome_problem(c: UmbrellaCommit) -> str | None:
    added = {p: new for p, (old, new) in c.files.items() if old is None and new is not None}
    under = {p: e for p, e in added.items() if p.startswith(c.home + "/")}
    entries = set(under.values())
    names = {posixpath.basename(p) for p in under}
    for folder in sorted(c.moved):
        for path, (old, _new) in sorted(c.files.items()):
            if old is None or not path.startswith(folder + "/") or _is_skill_file(path):
                continue
            # Copied whole; Markdown may come re-linked (its links point one folder deeper).
            text = path.lower().endswith(_TEXT_SUFFIXES) and posixpath.basename(path) in names
            if old not in entries and not text:
                return (
                    f"commit {c.short} does not re-home {path} under {c.home} (a pass copies "
                    "every support file of a folded skill whole)"
                )
    return None


def _retention_problem(c: UmbrellaCommit, guards: UmbrellaGuards) -> str | None:
    skill_md = _skill_md(c.home, c.files)
    after = c.files[skill_md][1]
    new = _text_of(after, guards)
    if after is None or new is None:
        return f"commit {c.short} writes {skill_md}, which does not parse as a SKILL.md"
    copied = {old for old, _ in c.files.values() if old is not None}
    written = [
        guards.load(e[0]).decode("utf-8", "replace")
        for p, (old, e) in sorted(c.files.items())
        if old is None and e is not None and p.startswith(c.home + "/") and p != skill_md
        if p.lower().endswith(_TEXT_SUFFIXES) and e not in copied
    ]
    have = kept_units([new, *written])
    sources = {folder: _skill_md(folder, c.files) for folder in c.moved}
    if c.home in c.skills_before:
        sources[c.home] = skill_md
    for path in sorted(sources.values()):
        before = c.files.get(path, (None, None))[0]
        old = _text_of(before, guards)
        if old is None:
            return f"commit {c.short} folds {path}, which does not parse as a SKILL.md"
        kept = retained(old, have)
        if kept < guards.min_retention:
            return (
                f"commit {c.short} loses content: {skill_md} keeps {kept:.0%} of {path} "
                f"(min_retention {guards.min_retention:g})"
            )
    return None


def _text_of(entry: Entry | None, guards: UmbrellaGuards) -> str | None:
    """A SKILL.md's words as the pass measures them (description, then body)."""
    if entry is None:
        return None
    try:
        doc = parse_skill_md(guards.load(entry[0]))
    except SkillParseError:
        return None
    return f"{doc.description or ''}\n\n{doc.body}"


def _skill_md(folder: str, files: Mapping[str, object]) -> str:
    lower = f"{folder}/{SKILL_FILE_LOWER}"
    return (
        lower
        if lower in files and f"{folder}/{SKILL_FILE}" not in files
        else (f"{folder}/{SKILL_FILE}")
    )


def _is_skill_file(path: str) -> bool:
    return posixpath.basename(path) in (SKILL_FILE, SKILL_FILE_LOWER)
