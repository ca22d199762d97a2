"""Validation of a change (a commit, staged or about to be made): the findings it is answerable
for, not those of skills it leaves alone (pure).

A skill the change adds or edits is checked whole. A skill it leaves alone is not: one bad
skill already in the repository (committed with `--no-verify`, or there before `init
--no-verify`) must not refuse every later commit of another skill. Of the checks across the
library, those the change can break are kept: a duplicate name involving a changed skill
(check_tree reports it on the changed skill), and a link or symlink of an untouched skill that
led to a path the change removes. A skill the change makes appear without touching its
files is new to the library and checked whole too: a removed SKILL.md above it (its folder
was a support folder), or a config change (`include:`, `skills_dir`) bringing in a folder.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Iterator, Sequence
from urllib.parse import unquote

from gitcurator.skills.check_memo import SkillMemo
from gitcurator.skills.check_skill import Finding, validate_skill
from gitcurator.skills.check_tree import CheckResult, check_tree, select_skills
from gitcurator.skills.document import SkillLocation, discover_skills, find_skills
from gitcurator.skills.files import FileTree
from gitcurator.skills.links import link_targets

# The findings a removed path can cause in a skill nobody touched.
_LINK_RULES = frozenset({"broken-link", "symlink"})


def check_change(
    before: FileTree,
    after: FileTree,
    changed: Collection[str],
    *,
    skills_dir: str = "",
    include: Sequence[str] = (),
    strict: bool = False,
    only: Sequence[str] | None = None,
    before_layout: tuple[str, Sequence[str]] | None = None,
    memo: SkillMemo | None = None,
) -> CheckResult:
    """The findings of the change from `before` to `after`; `changed` are the paths it adds,
    edits or removes. With `only` (paths, as pre-commit passes them) the skills holding those
    are the ones checked whole, else the skills holding a changed path; with either, the
    skills live after but not before. `before_layout` is `before`'s (skills_dir, include)
    when the change edits the config. `memo` is check_tree's."""
    if memo is None:
        found, hidden = discover_skills(after.paths, skills_dir, include)
    else:
        found, hidden = memo.discover(after.paths, skills_dir, include)
    live = [s for s in found if not s.archived]
    if only is not None:
        selected, ignored = select_skills(live, only)
    else:
        selected, ignored = changed_skills(live, changed), []
    old_dir, old_include = before_layout or (skills_dir, include)
    was_live = {s.folder for s in find_skills(before.paths, old_dir, old_include) if not s.archived}
    appeared = [s for s in live if s.folder not in was_live]
    selected = sorted(
        {s.folder: s for s in (*selected, *appeared)}.values(), key=lambda s: s.folder
    )
    result = (
        check_tree(
            after,
            skills_dir=skills_dir,
            include=include,
            strict=strict,
            only=[s.folder for s in selected],
            memo=memo,
        )
        if selected
        else CheckResult((), ())
    )
    chosen = {s.folder for s in selected}
    untouched = [s for s in live if s.folder not in chosen]
    broken = _links_broken_by(before, after, changed, untouched, strict)
    findings = sorted(
        (*result.findings, *broken), key=lambda f: (f.path, f.line or 0, f.level != "error")
    )
    return CheckResult(
        tuple(selected), tuple(findings), tuple(ignored), result.hidden or tuple(hidden)
    )


def changed_skills(live: Sequence[SkillLocation], changed: Collection[str]) -> list[SkillLocation]:
    """The skills of `live` holding any of the `changed` paths, in folder order."""
    by_folder = {s.folder: s for s in live}
    hit: dict[str, SkillLocation] = {}
    for path in changed:
        folder = posixpath.dirname(path)
        while folder:
            if folder in by_folder:
                hit[folder] = by_folder[folder]
                break
            folder = posixpath.dirname(folder)
    return sorted(hit.values(), key=lambda s: s.folder)


def _links_broken_by(
    before: FileTree,
    after: FileTree,
    changed: Collection[str],
    untouched: Sequence[SkillLocation],
    strict: bool,
) -> list[Finding]:
    """Link and symlink errors of untouched skills that the change causes: in `after`, and
    not already in `before`. Only a removed path (or a changed symlink) can break a link."""
    now = frozenset(after.paths)
    removed = [p for p in changed if p not in now or p in after.links or p in before.links]
    if not removed:
        return []
    gone = _gone(removed, now)
    was = frozenset(before.paths)
    found: list[Finding] = []
    for loc in untouched:
        if _may_lead_into(after, loc, gone):
            fresh = _link_errors(after, now, loc, strict) - _link_errors(before, was, loc, strict)
            found.extend(fresh)
    return found


def _gone(removed: Sequence[str], now: frozenset[str]) -> set[str]:
    """The removed paths and the folders they leave that no longer exist."""
    folders = {folder for path in now for folder in _parents(path)}
    gone = set(removed)
    for path in removed:
        gone.update(f for f in _parents(path) if f not in folders)
    return gone


def _parents(path: str) -> Iterator[str]:
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


def _may_lead_into(tree: FileTree, loc: SkillLocation, gone: set[str]) -> bool:
    """Whether the skill has a symlink, or a link of its SKILL.md leads to a path in `gone`
    (or through a folder in it, or through a symlink):
    a cheap test that spares validating every skill on each commit that removes something."""
    prefix = loc.folder + "/"
    if any(p.startswith(prefix) for p in tree.links):
        return True
    data = tree.load(loc.skill_md).data
    if data is None:
        return False
    here = posixpath.dirname(loc.skill_md)
    for _line, dest in link_targets(data.decode("utf-8", "replace"), 1):
        relative = unquote(dest.strip().split("#", 1)[0].split("?", 1)[0])
        if not relative:
            continue
        target = posixpath.normpath(posixpath.join(here, relative))
        # A folder on the way may be gone, or a symlink that leads where something went.
        if any(p in gone or p in tree.links for p in (target, *_parents(target))):
            return True
    return False


def _link_errors(
    tree: FileTree, paths: frozenset[str], loc: SkillLocation, strict: bool
) -> set[Finding]:
    if loc.skill_md not in paths:
        return set()
    files = tree.skill_files(loc.folder, loc.skill_md)
    findings = validate_skill(files, strict=strict, repo_paths=paths, links=tree.links)
    return {f for f in findings if f.rule in _LINK_RULES and f.level == "error"}
